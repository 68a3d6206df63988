// GraphBLAS extract on valued CSR matrices, C<M, replace> = accum(C, A(I, J)): random matrices and index lists
// (all, empty, unsorted subsets, permutations, lists that repeat indices), every mask kind, with and without
// accumulators, mixed value types, A transposed, C aliasing A, against a dense reference written here from the
// GraphBLAS definition; bad arguments throw typed errors.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/matrix_extract.hpp"
#include "support/dense_matrix.hpp"
#include "support/errors.hpp"
#include "support/index_lists.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;
using test::dense;
using test::device_indices;
using test::index_kind;
using test::random_dense;
using test::random_indices;
using test::to_device;
using test::to_host;
using test::transposed;

namespace {

const auto& shapes = test::matrix_index_shapes;
const index_kind index_kinds[] = {index_kind::all, index_kind::empty, index_kind::subset, index_kind::permutation,
                                  index_kind::repeats};

/// T = A(I, J) from the definition: T(a, b) = A(I[a], J[b]), converted to T's value type.
template <class T, class TA>
dense<T> reference_extract(const dense<TA>& a, const std::vector<vertex_t>& ri, const std::vector<vertex_t>& ci) {
  dense<T> t(vertex_t(ri.size()), vertex_t(ci.size()));
  for (std::size_t x = 0; x < ri.size(); ++x)
    for (std::size_t y = 0; y < ci.size(); ++y)
      if (const auto& v = a.at(ri[x], ci[y])) t.at(vertex_t(x), vertex_t(y)) = static_cast<T>(*v);
  return t;
}

/// Every shape x index kinds of I and J x transpose_a x mask kind x accumulator (none, `accum`) x old C (random,
/// array-less), thinned; A of type TA into C of type T.
template <class T, class TA, class Exec, class Accum>
void check_extract(const Exec& exec, const Accum& accum, const std::function<T(T, T)>& accum_ref, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  test::thinning thin(5);
  int nontrivial = 0, repeated = 0;
  for (const auto& sh : shapes)
    for (bool transpose_a : {false, true}) {
      const auto da = random_dense<TA>(sh.rows, sh.cols, sh.density, rng);
      const auto a = to_device(exec, da);
      const auto dat = transpose_a ? transposed(da) : da;  // the operand the indices address
      for (auto ik : index_kinds)
        for (auto jk : index_kinds) {
          const auto ri = random_indices(dat.rows, ik, rng);
          const auto ci = random_indices(dat.cols, jk, rng);
          const auto rows = device_indices<Exec>(ri, ik == index_kind::all);
          const auto cols = device_indices<Exec>(ci, jk == index_kind::all);
          const auto t = reference_extract<T>(dat, ri, ci);
          const vertex_t cr = vertex_t(ri.size()), cc = vertex_t(ci.size());
          const auto dc = random_dense<T>(cr, cc, 0.35, rng);
          const auto dm = random_dense<std::uint8_t>(cr, cc, 0.45, rng);
          const auto mk = to_device(exec, dm);
          if (ik == index_kind::repeats || jk == index_kind::repeats) ++repeated;
          test::for_each_merge_trial(thin, [&](test::mask_kind kind, bool with_accum, bool fresh_c) {
            INFO("shape " << sh.rows << "x" << sh.cols << " transpose_a " << transpose_a << " I kind " << int(ik)
                          << " (" << ri.size() << ") J kind " << int(jk) << " (" << ci.size() << ") mask " << int(kind)
                          << " accum " << with_accum << " fresh C " << fresh_c);
            matrix_op_options opts;
            opts.transpose_a = transpose_a;
            if (test::check_masked_merge<T>(
                    exec, dc, fresh_c, t, kind, dm, mk, with_accum, accum, accum_ref,
                    [&](auto& c, const auto& m, const auto& acc) { extract(exec, c, m, acc, a, rows, cols, opts); }))
              ++nontrivial;
          });
          CHECK(to_host(a) == da);  // A is read only
        }
      if (sh.rows != sh.cols) continue;
      // C aliasing A: C = accum(C, C(P, P)) for a permutation P.
      const auto dx = random_dense<T>(sh.rows, sh.cols, sh.density, rng);
      auto x = to_device(exec, dx);
      const auto p = random_indices(sh.rows, index_kind::permutation, rng);
      const auto pl = device_indices<Exec>(p, false);
      extract(exec, x, no_mask{}, accum, x, pl, pl);
      CHECK(to_host(x) ==
            test::reference_merge<T>(dx, reference_extract<T>(dx, p, p), nullptr, false, false, accum_ref));
    }
  CHECK(repeated > 0);
  if (!test::reduced()) CHECK(nontrivial > 200);
}

}  // namespace

TEMPLATE_TEST_CASE("matrix extract equals the dense reference", "[matrix_extract][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  SECTION("int64, accumulated with PLUS") {
    using T = std::int64_t;
    check_extract<T, T>(
        exec, accumulate_with<plus_monoid<T>>{}, [](T x, T y) { return x + y; }, 61);
  }
  SECTION("int32 A into double C, accumulated with MINUS (a binary operator)") {
    check_extract<double, std::int32_t>(
        exec, minus_op{}, [](double x, double y) { return x - y; }, 62);
  }
}

TEMPLATE_TEST_CASE("matrix extract: a row and column repeated, a graph's pattern as mask", "[matrix_extract][ops]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  // A = [[1, 2], [0, 3]] (A(1, 0) absent); A([1, 0, 1], [1, 1, 0]) = [[3, 3, .], [2, 2, 1], [3, 3, .]].
  dense<double> da(2, 2);
  da.at(0, 0) = 1;
  da.at(0, 1) = 2;
  da.at(1, 1) = 3;
  const auto a = to_device(exec, da);
  const auto idx = [](std::vector<vertex_t> v) {
    return index_list<mem>(Kokkos::View<const vertex_t*, mem>(test::to_view<mem>(v, "test::idx")));
  };
  csr_matrix<double, mem> c;
  c.n_rows = c.n_cols = 3;
  extract(exec, c, no_mask{}, no_accumulator{}, a, idx({1, 0, 1}), idx({1, 1, 0}));
  const auto dc = to_host(c);
  dense<double> expect(3, 3);
  for (vertex_t r : {0u, 2u}) expect.at(r, 0) = expect.at(r, 1) = 3;
  expect.at(1, 0) = expect.at(1, 1) = 2;
  expect.at(1, 2) = 1;
  CHECK(dc == expect);
  // C<G> = A(all, all) with a graph's pattern as the mask: A exactly on the pattern.
  auto g = build_csr(exec, test::random_edges(40, 200, 63), {graph_kind::directed});
  const auto ga = to_csr_matrix<double>(exec, g);
  const auto dga = to_host(ga);
  std::mt19937_64 rng(64);
  const auto db = random_dense<double>(40, 40, 0.5, rng);
  const auto b = to_device(exec, db);
  csr_matrix<double, mem> e;
  e.n_rows = e.n_cols = 40;
  extract(exec, e, mask_of(g), no_accumulator{}, b, all_indices{}, all_indices{});
  const auto de = to_host(e);
  for (vertex_t i = 0; i < 40; ++i)
    for (vertex_t j = 0; j < 40; ++j) CHECK(de.at(i, j) == (dga.at(i, j) ? db.at(i, j) : std::nullopt));
}

TEMPLATE_TEST_CASE("matrix extract rejects bad arguments", "[matrix_extract][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  std::mt19937_64 rng(65);
  const auto dc = random_dense<double>(4, 5, 0.5, rng);
  csr_matrix<double, mem> c = to_device(exec, dc);
  const auto a23 = to_device(exec, random_dense<double>(2, 3, 0.8, rng));
  const auto m_bad = to_device(exec, random_dense<double>(4, 4, 0.5, rng));
  const auto idx = [](std::vector<vertex_t> v) {
    return index_list<mem>(Kokkos::View<const vertex_t*, mem>(test::to_view<mem>(v, "test::idx")));
  };
  using test::thrown_text;
  using iae = invalid_argument_error;
  const auto has = test::mentions;
  const no_accumulator none;
  CHECK(has(thrown_text<iae>([&] {
              extract(exec, c, no_mask{}, none, a23, idx({0, 1}), idx({0, 1, 2}));
            }),
            "extract: C is 4 x 5 but I x J is 2 x 3"));
  CHECK(has(thrown_text<iae>([&] { extract(exec, c, no_mask{}, none, a23, all_indices{}, all_indices{}); }),
            "extract: C is 4 x 5 but I x J is 2 x 3"));
  matrix_op_options tr;
  tr.transpose_a = true;
  CHECK(has(thrown_text<iae>([&] {
              extract(exec, c, no_mask{}, none, a23, all_indices{}, idx({0, 1, 1, 0, 0}), tr);
            }),
            "extract: C is 4 x 5 but I x J is 3 x 5"));
  CHECK(has(thrown_text<iae>([&] {
              extract(exec, c, no_mask{}, none, a23, idx({0, 2, 1, 5}), idx({0, 1, 2, 0, 1}));
            }),
            "extract: 2 of the 4 indices of I are >= n_rows(A) = 2"));
  CHECK(has(thrown_text<iae>([&] {
              extract(exec, c, no_mask{}, none, a23, idx({0, 1, 1, 0}), idx({0, 3, 2, 0, 9}));
            }),
            "extract: 2 of the 5 indices of J are >= n_cols(A) = 3"));
  CHECK(has(thrown_text<iae>([&] {
              extract(exec, c, no_mask{}, none, a23, idx({0, 1, 2, 3}), idx({0, 1, 0, 1, 0}), tr);
            }),
            "extract: 1 of the 4 indices of I are >= n_rows(Aᵀ) = 3"));
  CHECK(has(thrown_text<iae>([&] {
              extract(exec, c, mask_of(m_bad), none, a23, idx({0, 1, 1, 0}), idx({0, 1, 2, 0, 1}));
            }),
            "extract: the mask is 4 x 4 but C is 4 x 5"));
  csr_matrix<double, mem> broken = a23;
  broken.nnz = a23.nnz + 5;
  CHECK(has(thrown_text<iae>([&] {
              extract(exec, c, no_mask{}, none, broken, idx({0, 1, 1, 0}), idx({0, 1, 2, 0, 1}));
            }),
            "extract: A has"));
  CHECK(to_host(c) == dc);  // unchanged by every refusal
}
