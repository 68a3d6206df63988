// GraphBLAS Kronecker product on valued CSR matrices, C<M, replace> = accum(C, kron(A, B)): random operands of many
// shapes (empty, one entry, rows or columns of zero length), operators that are commutative, not commutative and
// positional, every mask kind, with and without accumulators, transposed operands, C aliasing A, against a dense
// reference written here from the GraphBLAS definition; bad arguments and oversized products throw typed errors.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/kronecker.hpp"
#include "bitgraph/semirings/semirings.hpp"
#include "support/dense_matrix.hpp"
#include "support/errors.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;
using test::dense;
using test::random_dense;
using test::to_device;
using test::to_host;
using test::transposed;

namespace {

// Pairs of these: zero rows or columns, a single entry or none, tall, wide and square operands.
const test::shape shapes[] = {{0, 0, 0.5}, {0, 3, 0.5}, {2, 0, 0.5}, {1, 1, 1.0}, {1, 1, 0.0},
                              {3, 1, 0.7}, {4, 5, 0.4}, {6, 6, 0.3}, {1, 7, 0.6}};

/// kron(A, B) from the definition: T(i1 rb + i2, j1 cb + j2) = op(A(i1, j1), B(i2, j2), i, j) where both exist.
template <class T>
dense<T> reference_kronecker(const dense<T>& a, const dense<T>& b,
                             const std::function<T(T, T, vertex_t, vertex_t)>& op) {
  dense<T> t(a.rows * b.rows, a.cols * b.cols);
  for (vertex_t i1 = 0; i1 < a.rows; ++i1)
    for (vertex_t j1 = 0; j1 < a.cols; ++j1)
      if (const auto& x = a.at(i1, j1))
        for (vertex_t i2 = 0; i2 < b.rows; ++i2)
          for (vertex_t j2 = 0; j2 < b.cols; ++j2)
            if (const auto& y = b.at(i2, j2)) {
              const vertex_t i = i1 * b.rows + i2, j = j1 * b.cols + j2;
              t.at(i, j) = op(*x, *y, i, j);
            }
  return t;
}

/// Every pair of shapes x transposes x mask kind x accumulator (none, `accum`) x old C (random, array-less),
/// thinned.
template <class T, class Exec, class Op, class Accum>
void check_kronecker(const Exec& exec, const Op& op, const std::function<T(T, T, vertex_t, vertex_t)>& op_ref,
                     const Accum& accum, const std::function<T(T, T)>& accum_ref, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  test::thinning thin(3);
  int nontrivial = 0;
  for (const auto& sa : shapes)
    for (const auto& sb : shapes)
      for (int tr = 0; tr < 4; ++tr) {
        const bool ta = tr & 1, tb = tr & 2;
        const auto da = random_dense<T>(sa.rows, sa.cols, sa.density, rng);
        const auto db = random_dense<T>(sb.rows, sb.cols, sb.density, rng);
        const auto a = to_device(exec, da);
        const auto b = to_device(exec, db);
        const auto t = reference_kronecker<T>(ta ? transposed(da) : da, tb ? transposed(db) : db, op_ref);
        const auto dc = random_dense<T>(t.rows, t.cols, 0.3, rng);
        const auto dm = random_dense<std::uint8_t>(t.rows, t.cols, 0.45, rng);
        const auto mk = to_device(exec, dm);
        test::for_each_merge_trial(thin, [&](test::mask_kind kind, bool with_accum, bool fresh_c) {
          INFO("A " << sa.rows << "x" << sa.cols << (ta ? "ᵀ" : "") << " B " << sb.rows << "x" << sb.cols
                    << (tb ? "ᵀ" : "") << " mask " << int(kind) << " accum " << with_accum << " fresh C " << fresh_c);
          matrix_op_options opts;
          opts.transpose_a = ta;
          opts.transpose_b = tb;
          if (test::check_masked_merge<T>(
                  exec, dc, fresh_c, t, kind, dm, mk, with_accum, accum, accum_ref,
                  [&](auto& c, const auto& m, const auto& acc) { kronecker(exec, c, m, acc, op, a, b, opts); }))
            ++nontrivial;
        });
        CHECK(to_host(a) == da);  // the operands are read only
        CHECK(to_host(b) == db);
      }
  if (!test::reduced()) CHECK(nontrivial > 150);
}

}  // namespace

TEMPLATE_TEST_CASE("kronecker equals the dense reference", "[kronecker][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  SECTION("int64 TIMES, accumulated with PLUS") {
    using T = std::int64_t;
    check_kronecker<T>(
        exec, times_op{}, [](T x, T y, vertex_t, vertex_t) { return x * y; }, accumulate_with<plus_monoid<T>>{},
        [](T x, T y) { return x + y; }, 71);
  }
  SECTION("double MINUS (A's value first), accumulated with MIN") {
    check_kronecker<double>(
        exec, minus_op{}, [](double x, double y, vertex_t, vertex_t) { return x - y; },
        accumulate_with<min_monoid<double>>{}, [](double x, double y) { return x < y ? x : y; }, 72);
  }
  SECTION("int32 SECONDI (T's column), accumulated with MINUS") {
    using T = std::int32_t;
    check_kronecker<T>(
        exec, secondi_op{}, [](T, T, vertex_t, vertex_t j) { return T(j); }, minus_op{},
        [](T x, T y) { return T(x - y); }, 73);
  }
}

TEMPLATE_TEST_CASE("kronecker: a worked example, the convenience form and C aliasing A", "[kronecker][ops]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  // A = [[1, .], [2, 3]], B = [[., 5], [7, .]]: kron(A, B) with TIMES.
  dense<double> da(2, 2), db(2, 2);
  da.at(0, 0) = 1;
  da.at(1, 0) = 2;
  da.at(1, 1) = 3;
  db.at(0, 1) = 5;
  db.at(1, 0) = 7;
  const auto a = to_device(exec, da);
  const auto b = to_device(exec, db);
  const auto k = to_host(kronecker(exec, times_op{}, a, b));
  dense<double> expect(4, 4);
  expect.at(0, 1) = 5;
  expect.at(1, 0) = 7;
  expect.at(2, 1) = 10;
  expect.at(2, 3) = 15;
  expect.at(3, 0) = 14;
  expect.at(3, 2) = 21;
  CHECK(k == expect);
  // C = A accumulated with PLUS from kron(A, [[2]]): every entry of A tripled (C is A).
  dense<double> d2(1, 1);
  d2.at(0, 0) = 2;
  auto x = to_device(exec, da);
  kronecker(exec, x, no_mask{}, accumulate_with<plus_monoid<double>>{}, times_op{}, x, to_device(exec, d2));
  dense<double> tripled = da;
  for (auto& v : tripled.d)
    if (v) *v *= 3;
  CHECK(to_host(x) == tripled);
  // C<G> = kron(A, B) with a graph's pattern as the mask (structural).
  auto g = build_csr(exec, test::random_edges(4, 10, 74), {graph_kind::directed});
  const auto dg = to_host(to_csr_matrix<double>(exec, g));
  csr_matrix<double, mem> c;
  c.n_rows = c.n_cols = 4;
  kronecker(exec, c, mask_of(g), no_accumulator{}, times_op{}, a, b);
  const auto dc = to_host(c);
  for (vertex_t i = 0; i < 4; ++i)
    for (vertex_t j = 0; j < 4; ++j) CHECK(dc.at(i, j) == (dg.at(i, j) ? expect.at(i, j) : std::nullopt));
}

TEMPLATE_TEST_CASE("kronecker rejects bad arguments and oversized products", "[kronecker][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  std::mt19937_64 rng(75);
  const auto dc = random_dense<double>(6, 6, 0.5, rng);
  csr_matrix<double, mem> c = to_device(exec, dc);
  const auto a23 = to_device(exec, random_dense<double>(2, 3, 0.8, rng));
  const auto b32 = to_device(exec, random_dense<double>(3, 2, 0.8, rng));
  const auto m_bad = to_device(exec, random_dense<double>(6, 5, 0.5, rng));
  using test::thrown_text;
  using iae = invalid_argument_error;
  const auto has = test::mentions;
  const no_accumulator none;
  CHECK(has(thrown_text<iae>([&] { kronecker(exec, c, no_mask{}, none, times_op{}, a23, a23); }),
            "kronecker: C is 6 x 6 but kron(A, B) is 4 x 9"));
  matrix_op_options tr;
  tr.transpose_b = true;
  CHECK(has(thrown_text<iae>([&] { kronecker(exec, c, no_mask{}, none, times_op{}, a23, b32, tr); }),
            "kronecker: C is 6 x 6 but kron(A, B) is 4 x 9"));
  CHECK(has(thrown_text<iae>([&] { kronecker(exec, c, mask_of(m_bad), none, times_op{}, a23, b32); }),
            "kronecker: the mask is 6 x 5 but C is 6 x 6"));
  csr_matrix<double, mem> broken = b32;
  broken.nnz = b32.nnz + 3;
  CHECK(
      has(thrown_text<iae>([&] { kronecker(exec, c, no_mask{}, none, times_op{}, a23, broken); }), "kronecker: B has"));
  // 70,000 x 1 and 70,000 x 1 without entries: 4.9e9 rows, over 32 bits.
  csr_matrix<double, mem> tall;
  tall.n_rows = 70000;
  tall.n_cols = 1;
  tall.row_ptr = Kokkos::View<offset_t*, mem>("test::tall", 70001);
  CHECK(has(thrown_text<size_error>([&] { kronecker(exec, times_op{}, tall, tall); }),
            "kronecker: the product would be 4900000000 x 1"));
  CHECK(to_host(c) == dc);  // unchanged by every refusal
}
