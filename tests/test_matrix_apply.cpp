// GraphBLAS apply and select on valued CSR matrices: unary, bound-binary and index-unary (positional) operators,
// band, value and user predicates, every mask kind (none, structural, complement, replace, complement + replace),
// with and without accumulators, the transpose descriptor, mixed value types and C aliasing A, against a dense
// reference written here from the GraphBLAS definitions.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/matrix_apply.hpp"
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

/// A user-defined index-unary operator: 2x + (3i + j) mod 5, so the test sees which (i, j) the kernel passes.
struct positional_mix {
  template <class T>
  KOKKOS_INLINE_FUNCTION std::int64_t apply(vertex_t i, vertex_t j, T x) const {
    return static_cast<std::int64_t>(2 * x) + std::int64_t((3 * i + j) % 5);
  }
};

/// A user-defined unary operator with state: k·x + 1.
struct affine_op {
  int k = 3;
  template <class T>
  KOKKOS_INLINE_FUNCTION T apply(T x) const {
    return static_cast<T>(k * x + 1);
  }
};

/// A user-defined predicate on position and value: (i + 2j + x) mod 3 == 0.
struct mixed_predicate {
  template <class T>
  KOKKOS_INLINE_FUNCTION bool apply(vertex_t i, vertex_t j, T x) const {
    const std::int64_t s = std::int64_t(i) + 2 * std::int64_t(j) + static_cast<std::int64_t>(x);
    return ((s % 3) + 3) % 3 == 0;
  }
};

namespace {

/// What the op makes of entry (i, j) = x: apply gives a value, select the value or nothing.
template <class TC, class TA>
using ref_entry = std::function<std::optional<TC>(vertex_t, vertex_t, TA)>;

/// T = op(A) by the definition: every stored entry mapped (or dropped by a selection), nothing elsewhere.
template <class TC, class TA>
dense<TC> reference_op(const dense<TA>& a, const ref_entry<TC, TA>& f) {
  dense<TC> t(a.rows, a.cols);
  for (vertex_t i = 0; i < a.rows; ++i)
    for (vertex_t j = 0; j < a.cols; ++j)
      if (a.at(i, j)) t.at(i, j) = f(i, j, *a.at(i, j));
  return t;
}

// Empty (0 x 0, 0 x n, n x 0), 1 x 1, a column, rectangular sparse and dense, and a larger square one.
const std::vector<test::shape> shapes = {{0, 0, 0.5},  {0, 6, 0.5},  {5, 0, 0.5},   {1, 1, 1.0},   {1, 1, 0.0},
                                         {23, 1, 0.5}, {7, 13, 0.3}, {30, 20, 0.6}, {20, 45, 0.1}, {70, 70, 0.08}};

/// Every shape × transpose × mask kind × accumulator (none, `accum`) × C (random, array-less) of one operator
/// (`Select`: a predicate), A of value type TA and C of TC; then the short form and C = A aliased.
template <bool Select, class TC, class TA, class Exec, class Op, class Accum>
void check_op(const Exec& exec, const Op& op, const ref_entry<TC, TA>& ref, const Accum& accum,
              const std::function<TC(TC, TC)>& accum_ref, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  test::thinning thin(7);
  int nontrivial = 0;
  for (const auto& sh : shapes) {
    for (bool tran : {false, true}) {
      // C is rows x cols; A is stored transposed when the descriptor transposes it.
      const auto da = tran ? random_dense<TA>(sh.cols, sh.rows, sh.density, rng)
                           : random_dense<TA>(sh.rows, sh.cols, sh.density, rng);
      const auto dc = random_dense<TC>(sh.rows, sh.cols, 0.35, rng);
      auto dm = random_dense<std::uint8_t>(sh.rows, sh.cols, 0.45, rng);
      const auto a = to_device(exec, da);
      const auto mk = to_device(exec, dm);
      const auto t = reference_op<TC, TA>(tran ? transposed(da) : da, ref);
      matrix_op_options opts;
      opts.transpose_a = tran;
      test::for_each_merge_trial(thin, [&](test::mask_kind kind, bool with_accum, bool fresh_c) {
        INFO("shape " << sh.rows << "x" << sh.cols << (tran ? " Aᵀ" : "") << " mask " << static_cast<int>(kind)
                      << " accum " << with_accum << " fresh C " << fresh_c);
        auto run = [&](auto& c, const auto& m, const auto& acc) {
          if constexpr (Select)
            select(exec, c, m, acc, op, a, opts);
          else
            apply(exec, c, m, acc, op, a, opts);
        };
        if (test::check_masked_merge<TC>(exec, dc, fresh_c, t, kind, dm, mk, with_accum, accum, accum_ref, run))
          ++nontrivial;
      });
      if (!thin.keep()) continue;
      // The short form (its value type is the operator's own), converted to TC for the comparison.
      {
        auto widen = [](const auto& r) {
          dense<TC> got(r.rows, r.cols);
          for (std::size_t p = 0; p < r.d.size(); ++p)
            if (r.d[p]) got.d[p] = static_cast<TC>(*r.d[p]);
          return got;
        };
        if constexpr (Select)
          CHECK(widen(to_host(select(exec, op, a, opts))) == t);
        else
          CHECK(widen(to_host(apply(exec, op, a, opts))) == t);
      }
      // C aliasing A: C<M> = accum(C, op(C)) (value types alike, C square when transposed).
      if constexpr (std::is_same_v<TA, TC>) {
        if (!tran || sh.rows == sh.cols) {
          auto alias = to_device(exec, da);
          const auto expected = reference_merge<TC>(da, t, &dm, false, false, accum_ref);
          if constexpr (Select)
            select(exec, alias, mask_of(mk), accum, op, alias, opts);
          else
            apply(exec, alias, mask_of(mk), accum, op, alias, opts);
          CHECK(to_host(alias) == expected);
        }
      }
    }
  }
  // The reference must differ from the old C somewhere, or the comparison above could not catch a no-op.
  if (!test::reduced()) CHECK(nontrivial > 20);
}

template <class TC, class TA>
ref_entry<TC, TA> value_of(std::function<TC(vertex_t, vertex_t, TA)> f) {
  return [f](vertex_t i, vertex_t j, TA x) { return std::optional<TC>(f(i, j, x)); };
}

template <class TC, class TA>
ref_entry<TC, TA> kept_if(std::function<bool(vertex_t, vertex_t, TA)> p) {
  return
      [p](vertex_t i, vertex_t j, TA x) { return p(i, j, x) ? std::optional<TC>(static_cast<TC>(x)) : std::nullopt; };
}

}  // namespace

TEMPLATE_TEST_CASE("matrix apply with unary and bound operators equals the dense reference", "[matrix_apply][ops]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  const std::function<double(double, double)> plus = [](double x, double y) { return x + y; };
  const std::function<std::int64_t(std::int64_t, std::int64_t)> minus = [](std::int64_t x, std::int64_t y) {
    return x - y;
  };
  SECTION("IDENTITY: int32 A to double C (typecast), accumulated with PLUS") {
    check_op<false, double, std::int32_t>(
        exec, identity_op{}, value_of<double, std::int32_t>([](vertex_t, vertex_t, std::int32_t x) { return x; }),
        accumulate_with<plus_monoid<double>>{}, plus, 1);
  }
  SECTION("ABS and AINV on int64, accumulated with MINUS (a binary operator)") {
    using T = std::int64_t;
    check_op<false, T, T>(exec, abs_op{}, value_of<T, T>([](vertex_t, vertex_t, T x) { return x < 0 ? -x : x; }),
                          minus_op{}, minus, 2);
    check_op<false, T, T>(exec, ainv_op{}, value_of<T, T>([](vertex_t, vertex_t, T x) { return -x; }), minus_op{},
                          minus, 3);
  }
  SECTION("times_scalar and bind_second(MINUS, 2) on double, accumulated with MAX") {
    const std::function<double(double, double)> mx = [](double x, double y) { return std::max(x, y); };
    check_op<false, double, double>(exec, times_scalar<double>{-3.0},
                                    value_of<double, double>([](vertex_t, vertex_t, double x) { return -3.0 * x; }),
                                    max_monoid<double>{}, mx, 4);
    check_op<false, double, double>(exec, bind_second_of(minus_op{}, 2.0),
                                    value_of<double, double>([](vertex_t, vertex_t, double x) { return x - 2.0; }),
                                    accumulate_with<max_monoid<double>>{}, mx, 5);
  }
  SECTION("a user-defined stateful unary operator, int32 A to int64 C") {
    check_op<false, std::int64_t, std::int32_t>(
        exec, affine_op{-2},
        value_of<std::int64_t, std::int32_t>([](vertex_t, vertex_t, std::int32_t x) { return -2 * x + 1; }), minus_op{},
        minus, 6);
  }
}

TEMPLATE_TEST_CASE("matrix apply with index-unary (positional) operators equals the dense reference",
                   "[matrix_apply][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using T = std::int64_t;
  const std::function<T(T, T)> plus = [](T x, T y) { return x + y; };
  SECTION("ROWINDEX, COLINDEX, DIAGINDEX with thunks") {
    for (std::int64_t s : {0, 3, -2}) {
      INFO("thunk " << s);
      check_op<false, T, double>(exec, row_index_op{s},
                                 value_of<T, double>([s](vertex_t i, vertex_t, double) { return T(i) + s; }),
                                 accumulate_with<plus_monoid<T>>{}, plus, 10 + s);
      check_op<false, T, double>(exec, col_index_op{s},
                                 value_of<T, double>([s](vertex_t, vertex_t j, double) { return T(j) + s; }),
                                 accumulate_with<plus_monoid<T>>{}, plus, 20 + s);
      check_op<false, T, double>(exec, diag_index_op{s},
                                 value_of<T, double>([s](vertex_t i, vertex_t j, double) { return T(j) - (T(i) + s); }),
                                 accumulate_with<plus_monoid<T>>{}, plus, 30 + s);
    }
  }
  SECTION("ROWINDEX into double C; a user index-unary operator on int64") {
    check_op<false, double, std::int32_t>(
        exec, row_index_op{1},
        value_of<double, std::int32_t>([](vertex_t i, vertex_t, std::int32_t) { return i + 1.0; }),
        accumulate_with<plus_monoid<double>>{}, [](double x, double y) { return x + y; }, 40);
    check_op<false, T, T>(
        exec, positional_mix{}, value_of<T, T>([](vertex_t i, vertex_t j, T x) { return 2 * x + T((3 * i + j) % 5); }),
        minus_op{}, [](T x, T y) { return x - y; }, 41);
  }
}

TEMPLATE_TEST_CASE("matrix select with band, value and user predicates equals the dense reference",
                   "[matrix_apply][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using T = std::int64_t;
  const std::function<T(T, T)> plus = [](T x, T y) { return x + y; };
  const auto d = [](vertex_t i, vertex_t j) { return std::int64_t(j) - std::int64_t(i); };
  SECTION("TRIL, TRIU, DIAG, OFFDIAG around several diagonals") {
    for (std::int64_t k : {0, -1, 2, 80, -80}) {
      INFO("k " << k);
      check_op<true, T, T>(exec, tril(k), kept_if<T, T>([&](vertex_t i, vertex_t j, T) { return d(i, j) <= k; }),
                           accumulate_with<plus_monoid<T>>{}, plus, 50 + k);
      check_op<true, T, T>(
          exec, triu(k), kept_if<T, T>([&](vertex_t i, vertex_t j, T) { return d(i, j) >= k; }), minus_op{},
          [](T x, T y) { return x - y; }, 60 + k);
      check_op<true, T, T>(exec, diag(k), kept_if<T, T>([&](vertex_t i, vertex_t j, T) { return d(i, j) == k; }),
                           accumulate_with<plus_monoid<T>>{}, plus, 70 + k);
      check_op<true, T, T>(exec, offdiag(k), kept_if<T, T>([&](vertex_t i, vertex_t j, T) { return d(i, j) != k; }),
                           accumulate_with<plus_monoid<T>>{}, plus, 80 + k);
    }
  }
  SECTION("VALUEGT, VALUEGE, VALUELT, VALUELE, VALUEEQ, VALUENE; int32 A into double C") {
    using A = std::int32_t;
    const std::function<double(double, double)> dplus = [](double x, double y) { return x + y; };
    const accumulate_with<plus_monoid<double>> acc;
    check_op<true, double, A>(exec, value_gt<A>{2}, kept_if<double, A>([](vertex_t, vertex_t, A x) { return x > 2; }),
                              acc, dplus, 90);
    check_op<true, double, A>(exec, value_ge<A>{0}, kept_if<double, A>([](vertex_t, vertex_t, A x) { return x >= 0; }),
                              acc, dplus, 91);
    check_op<true, double, A>(exec, value_lt<A>{-1}, kept_if<double, A>([](vertex_t, vertex_t, A x) { return x < -1; }),
                              acc, dplus, 92);
    check_op<true, double, A>(exec, value_le<A>{4}, kept_if<double, A>([](vertex_t, vertex_t, A x) { return x <= 4; }),
                              acc, dplus, 93);
    check_op<true, double, A>(exec, value_eq<A>{3}, kept_if<double, A>([](vertex_t, vertex_t, A x) { return x == 3; }),
                              acc, dplus, 94);
    check_op<true, double, A>(exec, value_ne<A>{0}, kept_if<double, A>([](vertex_t, vertex_t, A x) { return x != 0; }),
                              acc, dplus, 95);
  }
  SECTION("a user predicate on row, column and value") {
    check_op<true, T, T>(exec, mixed_predicate{}, kept_if<T, T>([](vertex_t i, vertex_t j, T x) {
                           const T s = T(i) + 2 * T(j) + x;
                           return ((s % 3) + 3) % 3 == 0;
                         }),
                         accumulate_with<plus_monoid<T>>{}, plus, 96);
  }
}

TEMPLATE_TEST_CASE("matrix select by select_kind agrees with the csr_graph select; a graph as mask",
                   "[matrix_apply][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = build_csr(exec, test::random_edges(50, 300, 7), {graph_kind::directed});
  const auto a = to_csr_matrix<double>(exec, g);
  for (auto s : {select_kind::tril, select_kind::triu, select_kind::diag, select_kind::offdiag}) {
    for (std::int64_t k : {0, 1, -3}) {
      INFO(to_string(s) << " k " << k);
      const auto want = to_host(to_csr_matrix<double>(exec, select(exec, g, s, k)));
      CHECK(to_host(select(exec, a, s, k)) == want);
    }
  }
  // C<¬G> = ROWINDEX(B): B's positions off the graph's pattern get their row.
  std::mt19937_64 rng(8);
  const auto db = random_dense<double>(g.n, g.n, 0.2, rng);
  const auto b = to_device(exec, db);
  const auto da = to_host(a);
  csr_matrix<std::int64_t, memory_space_t<TestType>> c;
  c.n_rows = c.n_cols = g.n;
  apply(exec, c, mask_of(g, true), no_accumulator{}, row_index_op{}, b);
  const auto dc = to_host(c);
  for (vertex_t i = 0; i < g.n; ++i)
    for (vertex_t j = 0; j < g.n; ++j)
      CHECK(dc.at(i, j) == (da.at(i, j) || !db.at(i, j) ? std::nullopt : std::optional<std::int64_t>(i)));
}

TEMPLATE_TEST_CASE("matrix apply and select reject bad arguments", "[matrix_apply][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mat = csr_matrix<double, memory_space_t<TestType>>;
  std::mt19937_64 rng(31);
  const auto a = to_device(exec, random_dense<double>(4, 5, 0.5, rng));
  const auto m_bad = to_device(exec, random_dense<double>(4, 4, 0.5, rng));
  mat c = empty_csr_matrix<double>(exec, 4, 5);
  mat c_bad = empty_csr_matrix<double>(exec, 4, 6);
  matrix_op_options tran;
  tran.transpose_a = true;
  using test::thrown_text;
  using iae = invalid_argument_error;
  auto has = [](const std::string& text, const char* what) {
    INFO(text);
    return text.find(what) != std::string::npos;
  };
  CHECK(has(thrown_text<iae>([&] { apply(exec, c_bad, no_mask{}, no_accumulator{}, abs_op{}, a); }),
            "apply: C is 4 x 6 but A is 4 x 5"));
  CHECK(has(thrown_text<iae>([&] { select(exec, c_bad, no_mask{}, no_accumulator{}, tril(), a); }),
            "select: C is 4 x 6 but A is 4 x 5"));
  CHECK(has(thrown_text<iae>([&] { apply(exec, c, no_mask{}, no_accumulator{}, abs_op{}, a, tran); }),
            "apply: C is 4 x 5 but Aᵀ is 5 x 4"));
  CHECK(has(thrown_text<iae>([&] { apply(exec, c, mask_of(m_bad), no_accumulator{}, abs_op{}, a); }),
            "apply: the mask is 4 x 4 but C is 4 x 5"));
  CHECK(has(thrown_text<iae>([&] { select(exec, c, mask_of(m_bad, true, true), minus_op{}, value_gt<double>{}, a); }),
            "select: the mask is 4 x 4 but C is 4 x 5"));
  mat broken = a;
  broken.nnz = a.nnz + 5;
  CHECK(has(thrown_text<iae>([&] { apply(exec, c, no_mask{}, no_accumulator{}, abs_op{}, broken); }), "apply: A has"));
  CHECK(has(thrown_text<iae>([&] { select(exec, c, no_mask{}, no_accumulator{}, diag(), broken, tran); }),
            "select: A has"));
  mat c_broken = c;
  c_broken.nnz = 3;
  CHECK(
      has(thrown_text<iae>([&] { apply(exec, c_broken, no_mask{}, no_accumulator{}, abs_op{}, a); }), "apply: C has"));
  auto bad_mask = mask_of(a);
  bad_mask.row_ptr = Kokkos::View<offset_t*, memory_space_t<TestType>>("short row_ptr", 2);
  CHECK(has(thrown_text<iae>([&] { select(exec, c, bad_mask, no_accumulator{}, triu(), a); }),
            "the mask has 4 rows but its row_ptr has 2 entries"));
  CHECK(has(thrown_text<iae>([&] { (void)select(exec, a, static_cast<select_kind>(9)); }), "unknown selection 9"));
  // The refusals left C alone, and a valid call still works.
  CHECK(to_host(c) == dense<double>(4, 5));
  apply(exec, c, no_mask{}, no_accumulator{}, abs_op{}, a);
  CHECK(c.nnz == a.nnz);
}

TEMPLATE_TEST_CASE("matrix apply and select take an operand without arrays", "[matrix_apply][ops]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mat = csr_matrix<std::int64_t, memory_space_t<TestType>>;
  std::mt19937_64 rng(41);
  const auto dc = random_dense<std::int64_t>(3, 4, 0.5, rng);
  mat a;  // a default-constructed 4 x 3 matrix: no arrays, no entries
  a.n_rows = 4;
  a.n_cols = 3;
  matrix_op_options tran;
  tran.transpose_a = true;
  // Aᵀ is 3 x 4 and empty: accumulating keeps C, replacing without an accumulator empties it.
  auto c = to_device(exec, dc);
  apply(exec, c, no_mask{}, accumulate_with<plus_monoid<std::int64_t>>{}, ainv_op{}, a, tran);
  CHECK(to_host(c) == dc);
  select(exec, c, no_mask{}, no_accumulator{}, offdiag(), a, tran);
  CHECK(to_host(c) == dense<std::int64_t>(3, 4));
  CHECK(to_host(apply(exec, col_index_op{}, a)) == dense<std::int64_t>(4, 3));
  CHECK(to_host(select(exec, a, select_kind::tril)) == dense<std::int64_t>(4, 3));
  mat arrayless_c;  // an array-less C of Aᵀ's shape, accumulated into
  arrayless_c.n_rows = 3;
  arrayless_c.n_cols = 4;
  apply(exec, arrayless_c, mask_of(to_device(exec, dc)), minus_op{}, identity_op{}, a, tran);
  CHECK(to_host(arrayless_c) == dense<std::int64_t>(3, 4));
}
