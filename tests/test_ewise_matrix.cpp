// GraphBLAS element-wise add and multiply of valued CSR matrices (issue 19): library and user-defined operators,
// every mask kind (none, structural, complement, replace, complement + replace), with and without accumulators,
// against a dense reference written here from the GraphBLAS definitions.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/ewise_matrix.hpp"
#include "support/dense_matrix.hpp"
#include "support/errors.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;
using test::dense;
using test::random_dense;
using test::reference_merge;
using test::to_device;
using test::to_host;
using test::transposed;

namespace {

template <class T>
using ref_op = std::function<T(T, T, vertex_t, vertex_t)>;

/// T = A op B by the definition: the union (op where both exist, the one present elsewhere) or the intersection.
template <class T>
dense<T> reference_ewise(bool mult, const dense<T>& a, const dense<T>& b, const ref_op<T>& op) {
  dense<T> t(a.rows, a.cols);
  for (vertex_t i = 0; i < a.rows; ++i)
    for (vertex_t j = 0; j < a.cols; ++j) {
      const auto &x = a.at(i, j), &y = b.at(i, j);
      if (x && y)
        t.at(i, j) = op(*x, *y, i, j);
      else if (!mult && (x || y))
        t.at(i, j) = x ? x : y;
    }
  return t;
}

/// A binary operator defined here and nowhere in the library, with state and not commutative: k·a − b.
struct scaled_difference {
  int k = 3;
  template <class T>
  KOKKOS_INLINE_FUNCTION T apply(T a, T b) const {
    return static_cast<T>(k * a - b);
  }
};

/// A user-defined positional operator: a + 2b + (3i + j) mod 5, so the test sees which (i, j) the kernel passes.
struct positional_sum {
  template <class T>
  KOKKOS_INLINE_FUNCTION T apply(T a, T b, vertex_t i, vertex_t j) const {
    return static_cast<T>(a + 2 * b + static_cast<T>((3 * i + j) % 5));
  }
};

// Empty (0 x 0, 0 x n, n x 0), 1 x 1, a column, rectangular sparse and dense, and a larger square one.
const std::vector<test::shape> shapes = {{0, 0, 0.5},  {0, 6, 0.5},  {5, 0, 0.5},   {1, 1, 1.0},   {1, 1, 0.0},
                                         {23, 1, 0.5}, {7, 13, 0.3}, {30, 20, 0.6}, {20, 45, 0.1}, {70, 70, 0.05}};

/// Every shape × mask kind × accumulator (none, `accum`) × C (random, array-less) × add / mult of one operator.
template <class T, class Exec, class Op, class Accum>
void check_op(const Exec& exec, const Op& op, const ref_op<T>& ref, const Accum& accum,
              const std::function<T(T, T)>& accum_ref, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  test::thinning thin(7);
  int nontrivial = 0;
  for (const auto& sh : shapes) {
    const auto da = random_dense<T>(sh.rows, sh.cols, sh.density, rng);
    const auto db = random_dense<T>(sh.rows, sh.cols, sh.density, rng);
    const auto dc = random_dense<T>(sh.rows, sh.cols, 0.35, rng);
    auto dm = random_dense<std::uint8_t>(sh.rows, sh.cols, 0.45, rng);
    const auto a = to_device(exec, da);
    const auto b = to_device(exec, db);
    const auto mk = to_device(exec, dm);
    for (bool mult : {false, true}) {
      const auto t = reference_ewise<T>(mult, da, db, ref);
      test::for_each_merge_trial(thin, [&](test::mask_kind kind, bool with_accum, bool fresh_c) {
        INFO("shape " << sh.rows << "x" << sh.cols << (mult ? " mult" : " add") << " mask " << static_cast<int>(kind)
                      << " accum " << with_accum << " fresh C " << fresh_c);
        auto run = [&](auto& c, const auto& m, const auto& acc) {
          if (mult)
            ewise_mult(exec, c, m, acc, op, a, b);
          else
            ewise_add(exec, c, m, acc, op, a, b);
        };
        if (test::check_masked_merge<T>(exec, dc, fresh_c, t, kind, dm, mk, with_accum, accum, accum_ref, run))
          ++nontrivial;
      });
      if (!thin.keep()) continue;
      // The short forms, and C aliasing A: C = C op B.
      CHECK(to_host(mult ? ewise_mult(exec, op, a, b) : ewise_add(exec, op, a, b)) == t);
      auto alias = to_device(exec, da);
      if (mult)
        ewise_mult(exec, alias, no_mask{}, no_accumulator{}, op, alias, b);
      else
        ewise_add(exec, alias, no_mask{}, no_accumulator{}, op, alias, b);
      CHECK(to_host(alias) == t);
    }
  }
  // The reference must differ from the old C somewhere, or the comparison above could not catch a no-op.
  if (!test::reduced()) CHECK(nontrivial > 20);
}

template <class T>
ref_op<T> ignore_position(std::function<T(T, T)> f) {
  return [f](T x, T y, vertex_t, vertex_t) { return f(x, y); };
}

}  // namespace

TEMPLATE_TEST_CASE("matrix ewise_add / ewise_mult on int64 equal the dense reference", "[ewise_matrix][ops]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using T = std::int64_t;
  const std::function<T(T, T)> plus = [](T x, T y) { return x + y; };
  const std::function<T(T, T)> minus = [](T x, T y) { return x - y; };
  const std::function<T(T, T)> mn = [](T x, T y) { return std::min(x, y); };
  SECTION("PLUS monoid, accumulated with accumulate_with<PLUS>") {
    check_op<T>(exec, plus_monoid<T>{}, ignore_position(plus), accumulate_with<plus_monoid<T>>{}, plus, 1);
  }
  SECTION("TIMES multiply operator, accumulated with MINUS (a binary operator as accumulator)") {
    check_op<T>(exec, times_op{}, ignore_position<T>([](T x, T y) { return x * y; }), minus_op{}, minus, 2);
  }
  SECTION("MINUS (not commutative), accumulated with the MIN monoid") {
    check_op<T>(exec, minus_op{}, ignore_position(minus), min_monoid<T>{}, mn, 3);
  }
  SECTION("FIRST and SECOND") {
    check_op<T>(exec, first_op{}, ignore_position<T>([](T x, T) { return x; }), accumulate_with<plus_monoid<T>>{}, plus,
                4);
    check_op<T>(exec, second_op{}, ignore_position<T>([](T, T y) { return y; }), accumulate_with<plus_monoid<T>>{},
                plus, 5);
  }
  SECTION("SECONDI sees the column; a user positional operator sees row and column") {
    check_op<T>(
        exec, secondi_op{}, [](T, T, vertex_t, vertex_t j) { return T(j); }, accumulate_with<plus_monoid<T>>{}, plus,
        6);
    check_op<T>(
        exec, positional_sum{}, [](T x, T y, vertex_t i, vertex_t j) { return x + 2 * y + T((3 * i + j) % 5); },
        minus_op{}, minus, 7);
  }
  SECTION("a user-defined stateful operator k·a − b") {
    check_op<T>(exec, scaled_difference{4}, ignore_position<T>([](T x, T y) { return 4 * x - y; }),
                accumulate_with<plus_monoid<T>>{}, plus, 8);
  }
}

TEMPLATE_TEST_CASE("matrix ewise_add / ewise_mult on double equal the dense reference", "[ewise_matrix][ops]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using T = double;
  const std::function<T(T, T)> mx = [](T x, T y) { return std::max(x, y); };
  const std::function<T(T, T)> plus = [](T x, T y) { return x + y; };
  SECTION("MAX monoid, accumulated with accumulate_with<MAX>") {
    check_op<T>(exec, max_monoid<T>{}, ignore_position(mx), accumulate_with<max_monoid<T>>{}, mx, 11);
  }
  SECTION("MIN monoid and PAIR, accumulated with PLUS") {
    check_op<T>(exec, min_monoid<T>{}, ignore_position<T>([](T x, T y) { return std::min(x, y); }),
                accumulate_with<plus_monoid<T>>{}, plus, 12);
    check_op<T>(exec, pair_op{}, ignore_position<T>([](T, T) { return 1.0; }), accumulate_with<plus_monoid<T>>{}, plus,
                13);
  }
  SECTION("a user-defined stateful operator k·a − b, accumulated with TIMES") {
    check_op<T>(
        exec, scaled_difference{-2}, ignore_position<T>([](T x, T y) { return -2 * x - y; }), times_op{},
        [](T x, T y) { return x * y; }, 14);
  }
}

TEMPLATE_TEST_CASE("matrix ewise ops take a graph's pattern as mask", "[ewise_matrix][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = build_csr(exec, test::random_edges(40, 200, 21), {graph_kind::directed});
  auto a = to_csr_matrix<double>(exec, g);
  std::mt19937_64 rng(22);
  const auto db = random_dense<double>(g.n, g.n, 0.2, rng);
  const auto b = to_device(exec, db);
  const auto da = to_host(a);
  csr_matrix<double, memory_space_t<TestType>> c;
  c.n_rows = c.n_cols = g.n;
  // C<¬G> = A + B: B's entries off the graph's pattern (A is stored only on it).
  ewise_add(exec, c, mask_of(g, true), no_accumulator{}, plus_monoid<double>{}, a, b);
  const auto dc = to_host(c);
  for (vertex_t i = 0; i < g.n; ++i)
    for (vertex_t j = 0; j < g.n; ++j) CHECK(dc.at(i, j) == (da.at(i, j) ? std::nullopt : db.at(i, j)));
}

TEMPLATE_TEST_CASE("matrix ewise ops take the descriptor's transposes of A and B", "[ewise_matrix][ops]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using T = std::int64_t;
  std::mt19937_64 rng(41);
  const auto minus = [](T x, T y, vertex_t, vertex_t) { return x - y; };  // not commutative: order shows
  for (const auto& sh : shapes) {
    // A stored as given or transposed, B the same, so that the product is always rows x cols.
    const auto da = random_dense<T>(sh.rows, sh.cols, sh.density, rng);
    const auto db = random_dense<T>(sh.rows, sh.cols, sh.density, rng);
    const auto dc = random_dense<T>(sh.rows, sh.cols, 0.3, rng);
    const auto dm = random_dense<std::uint8_t>(sh.rows, sh.cols, 0.5, rng);
    const auto mk = to_device(exec, dm);
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb)
        for (bool mult : {false, true}) {
          INFO("shape " << sh.rows << "x" << sh.cols << " transpose_a " << ta << " transpose_b " << tb << " mult "
                        << mult);
          const auto a = to_device(exec, ta ? transposed(da) : da);
          const auto b = to_device(exec, tb ? transposed(db) : db);
          matrix_op_options o;
          o.transpose_a = ta != 0;
          o.transpose_b = tb != 0;
          const auto t = reference_ewise<T>(mult, da, db, minus);
          const auto expected = reference_merge<T>(dc, t, &dm, true, false, [](T x, T y) { return x + y; });
          auto c = to_device(exec, dc);
          if (mult)
            ewise_mult(exec, c, mask_of(mk, true), accumulate_with<plus_monoid<T>>{}, minus_op{}, a, b, o);
          else
            ewise_add(exec, c, mask_of(mk, true), accumulate_with<plus_monoid<T>>{}, minus_op{}, a, b, o);
          CHECK(to_host(c) == expected);
        }
  }
}

TEMPLATE_TEST_CASE("matrix ewise ops reject bad arguments", "[ewise_matrix][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mat = csr_matrix<double, memory_space_t<TestType>>;
  std::mt19937_64 rng(31);
  const auto a = to_device(exec, random_dense<double>(4, 5, 0.5, rng));
  const auto b = to_device(exec, random_dense<double>(4, 5, 0.5, rng));
  const auto b_bad = to_device(exec, random_dense<double>(5, 4, 0.5, rng));
  const auto m_bad = to_device(exec, random_dense<double>(4, 4, 0.5, rng));
  mat c = empty_csr_matrix<double>(exec, 4, 5);
  mat c_bad = empty_csr_matrix<double>(exec, 4, 6);
  const plus_monoid<double> plus;
  using test::thrown_text;
  using iae = invalid_argument_error;
  auto has = [](const std::string& text, const char* what) {
    INFO(text);
    return text.find(what) != std::string::npos;
  };
  CHECK(has(thrown_text<iae>([&] { ewise_add(exec, c, no_mask{}, no_accumulator{}, plus, a, b_bad); }),
            "ewise_add: A is 4 x 5 but B is 5 x 4"));
  CHECK(has(thrown_text<iae>([&] { ewise_mult(exec, c, no_mask{}, no_accumulator{}, plus, a, b_bad); }),
            "ewise_mult: A is 4 x 5 but B is 5 x 4"));
  matrix_op_options tb;
  tb.transpose_b = true;
  CHECK(has(thrown_text<iae>([&] { ewise_add(exec, c, no_mask{}, no_accumulator{}, plus, a, b, tb); }),
            "ewise_add: A is 4 x 5 but Bᵀ is 5 x 4"));
  ewise_add(exec, c, no_mask{}, no_accumulator{}, plus, a, b_bad, tb);  // Bᵀ is 4 x 5: accepted
  CHECK(c.n_rows == 4);
  c = empty_csr_matrix<double>(exec, 4, 5);
  CHECK(has(thrown_text<iae>([&] { ewise_add(exec, c_bad, no_mask{}, no_accumulator{}, plus, a, b); }),
            "ewise_add: C is 4 x 6 but A and B are 4 x 5"));
  CHECK(has(thrown_text<iae>([&] { ewise_mult(exec, c_bad, no_mask{}, no_accumulator{}, plus, a, b); }),
            "ewise_mult: C is 4 x 6 but A and B are 4 x 5"));
  CHECK(has(thrown_text<iae>([&] { ewise_add(exec, c, mask_of(m_bad), no_accumulator{}, plus, a, b); }),
            "ewise_add: the mask is 4 x 4 but C is 4 x 5"));
  CHECK(has(thrown_text<iae>([&] { ewise_mult(exec, c, mask_of(m_bad, true, true), minus_op{}, plus, a, b); }),
            "ewise_mult: the mask is 4 x 4 but C is 4 x 5"));
  mat broken = a;
  broken.nnz = a.nnz + 5;
  CHECK(has(thrown_text<iae>([&] { ewise_add(exec, c, no_mask{}, no_accumulator{}, plus, broken, b); }),
            "ewise_add: A has"));
  CHECK(has(thrown_text<iae>([&] { ewise_mult(exec, c, no_mask{}, no_accumulator{}, plus, a, broken); }),
            "ewise_mult: B has"));
  auto bad_mask = mask_of(a);
  bad_mask.row_ptr = Kokkos::View<offset_t*, memory_space_t<TestType>>("short row_ptr", 2);
  CHECK(has(thrown_text<iae>([&] { ewise_add(exec, c, bad_mask, no_accumulator{}, plus, a, b); }),
            "the mask has 4 rows but its row_ptr has 2 entries"));
  // The refusals left C alone, and a valid call still works.
  CHECK(to_host(c) == dense<double>(4, 5));
  ewise_add(exec, c, no_mask{}, no_accumulator{}, plus, a, b);
  CHECK(c.n_rows == 4);
}
