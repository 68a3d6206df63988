// GraphBLAS assign (submatrix and scalar), reduce to a vector and transpose on valued CSR matrices: random
// matrices and index lists (all, empty, unsorted), every mask kind (none, structural, complement, replace,
// complement + replace), with and without accumulators, library and user monoids, mixed value types and aliasing,
// against dense references written here from the GraphBLAS definitions; bad arguments throw typed errors.
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
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/matrix_assign.hpp"
#include "support/dense_matrix.hpp"
#include "support/errors.hpp"
#include "support/index_lists.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;
using test::complement_of;
using test::dense;
using test::device_indices;
using test::index_kind;
using test::mask_kinds;
using test::random_dense;
using test::random_indices;
using test::reference_merge;
using test::replace_of;
using test::to_device;
using test::to_host;
using test::transposed;
using test::with_mask;

/// A user monoid: TIMES, which the library does not define (values are ±1 and 2, so products stay exact).
struct times_monoid_user {
  using value_type = double;
  KOKKOS_INLINE_FUNCTION static constexpr double identity() { return 1.0; }
  KOKKOS_INLINE_FUNCTION static constexpr double combine(double a, double b) { return a * b; }
};

/// A user monoid on bits: bitwise OR of unsigned values.
struct bor_monoid_user {
  using value_type = std::uint32_t;
  KOKKOS_INLINE_FUNCTION static constexpr std::uint32_t identity() { return 0u; }
  KOKKOS_INLINE_FUNCTION static constexpr std::uint32_t combine(std::uint32_t a, std::uint32_t b) { return a | b; }
};

/// A user accumulator, stateful and not commutative: k·c − a.
struct scaled_difference {
  int k = 3;
  template <class T>
  KOKKOS_INLINE_FUNCTION T apply(T a, T b) const {
    return static_cast<T>(k * a - b);
  }
};

namespace {

const auto& shapes = test::matrix_index_shapes;
// Assign refuses repeated indices: every kind but `repeats`.
const index_kind index_kinds[] = {index_kind::all, index_kind::empty, index_kind::subset, index_kind::permutation};

/// C(I, J)<M, replace> = accum(C(I, J), A) from the GraphBLAS definition: Z = C, Z(I, J) = accum(C(I, J), A) (A
/// alone without an accumulator), then C<M, replace> = Z. `a` is |I| x |J| (values already of C's type).
template <class T>
dense<T> reference_assign(const dense<T>& c, const dense<T>& a, const std::vector<vertex_t>& ri,
                          const std::vector<vertex_t>& ci, const dense<std::uint8_t>* mask, bool complement,
                          bool replace, const std::function<T(T, T)>& accum) {
  dense<T> z = c;
  for (std::size_t x = 0; x < ri.size(); ++x)
    for (std::size_t y = 0; y < ci.size(); ++y) {
      const auto& old = c.at(ri[x], ci[y]);
      const auto& t = a.at(vertex_t(x), vertex_t(y));
      auto& out = z.at(ri[x], ci[y]);
      if (!accum)
        out = t;
      else if (old && t)
        out = accum(*old, *t);
      else
        out = old ? old : t;
    }
  return reference_merge<T>(c, z, mask, complement, replace, {});
}

template <class To, class From>
dense<To> converted(const dense<From>& a) {
  dense<To> t(a.rows, a.cols);
  for (std::size_t k = 0; k < a.d.size(); ++k)
    if (a.d[k]) t.d[k] = static_cast<To>(*a.d[k]);
  return t;
}

/// Every shape x index kinds of I and J x mask kind x accumulator (none, `accum`) x matrix / scalar form, A of type
/// TA into C of type T (A given transposed every third time).
template <class T, class TA, class Exec, class Accum>
void check_assign(const Exec& exec, const Accum& accum, const std::function<T(T, T)>& accum_ref, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  test::thinning thin(7);
  int nontrivial = 0, calls = 0;
  for (const auto& sh : shapes) {
    const auto dc = random_dense<T>(sh.rows, sh.cols, 0.35, rng);
    const auto dm = random_dense<std::uint8_t>(sh.rows, sh.cols, 0.45, rng);
    const auto mk = to_device(exec, dm);
    for (auto ik : index_kinds)
      for (auto jk : index_kinds) {
        const auto ri = random_indices(sh.rows, ik, rng);
        const auto ci = random_indices(sh.cols, jk, rng);
        const auto il = device_indices<Exec>(ri, ik == index_kind::all);
        const auto jl = device_indices<Exec>(ci, jk == index_kind::all);
        const auto da = random_dense<TA>(vertex_t(ri.size()), vertex_t(ci.size()), sh.density, rng);
        const bool transpose_a = (calls++ % 3) == 0;
        const auto a = to_device(exec, transpose_a ? transposed(da) : da);
        const T s = static_cast<T>(int(rng() % 13) - 4);
        dense<T> sa(vertex_t(ri.size()), vertex_t(ci.size()));
        for (auto& e : sa.d) e = s;
        for (auto kind : mask_kinds)
          for (bool with_accum : {false, true})
            for (bool scalar : {false, true}) {
              if (!thin.keep()) continue;
              INFO("shape " << sh.rows << "x" << sh.cols << " I " << int(ik) << " (" << ri.size() << ") J " << int(jk)
                            << " (" << ci.size() << ") mask " << int(kind) << " accum " << with_accum << " scalar "
                            << scalar << " transpose_a " << transpose_a);
              const dense<std::uint8_t> no_entries(sh.rows, sh.cols);
              const dense<std::uint8_t>* ref_mask = test::reference_mask(kind, dm, no_entries);
              const auto expected =
                  reference_assign<T>(dc, scalar ? sa : converted<T>(da), ri, ci, ref_mask, complement_of(kind),
                                      replace_of(kind), with_accum ? accum_ref : std::function<T(T, T)>{});
              if (!(expected == dc)) ++nontrivial;
              auto c = to_device(exec, dc);
              const auto c_before = c;
              with_mask(kind, mk, sh.rows, sh.cols, [&](const auto& m) {
                matrix_op_options opts;
                opts.transpose_a = transpose_a;
                test::with_accum_if(with_accum, accum, [&](const auto& acc) {
                  if (scalar)
                    assign(exec, c, m, acc, s, il, jl);
                  else
                    assign(exec, c, m, acc, a, il, jl, opts);
                });
              });
              CHECK(to_host(c) == expected);
              CHECK(to_host(c_before) == dc);  // the old arrays are untouched
            }
      }
    if (!thin.keep() || sh.rows != sh.cols) continue;
    // C aliasing A: C(I, J) = accum(C(I, J), C) with I = J a permutation, and C = C under every index kind.
    auto x = to_device(exec, dc);
    const auto perm = random_indices(sh.rows, index_kind::permutation, rng);
    const auto pl = device_indices<Exec>(perm, false);
    assign(exec, x, no_mask{}, accum, x, pl, pl);
    CHECK(to_host(x) == reference_assign<T>(dc, dc, perm, perm, nullptr, false, false, accum_ref));
  }
  if (!test::reduced()) CHECK(nontrivial > 200);
}

/// ⊕ of the row (or column) i of `a` in order of the other index, or nothing when it has no entry or its sum is
/// the identity (a dense vector cannot tell those apart: the identity marks absence).
template <class M, class TA>
std::optional<typename M::value_type> reference_line(const dense<TA>& a, vertex_t i, bool columns) {
  using T = typename M::value_type;
  std::optional<T> t;
  const vertex_t len = columns ? a.rows : a.cols;
  for (vertex_t k = 0; k < len; ++k) {
    const auto& e = columns ? a.at(k, i) : a.at(i, k);
    if (e)
      t = t ? static_cast<T>(M::combine(*t, static_cast<T>(*e)))
            : static_cast<T>(M::combine(M::identity(), static_cast<T>(*e)));
  }
  if (t && *t == M::identity()) t.reset();
  return t;
}

/// Every shape x rows / columns x vector mask kind x accumulator (none, `accum`) of one monoid.
template <class M, class TA, class Exec, class Accum>
void check_reduce(
    const Exec& exec, const Accum& accum,
    const std::function<typename M::value_type(typename M::value_type, typename M::value_type)>& accum_ref,
    std::uint64_t seed, int lo, int hi) {
  using T = typename M::value_type;
  using mem = memory_space_t<Exec>;
  std::mt19937_64 rng(seed);
  test::thinning thin(7);
  int nontrivial = 0;
  for (const auto& sh : shapes) {
    const auto da = random_dense<TA>(sh.rows, sh.cols, sh.density, rng, lo, hi);
    const auto a = to_device(exec, da);
    for (bool columns : {false, true})
      for (int form = 0; form < 2; ++form) {  // reduce_rows / reduce_columns, or the other with transpose_a
        const vertex_t n = columns ? sh.cols : sh.rows;
        std::vector<T> w0(n, M::identity());
        for (auto& v : w0)
          if (rng() % 3 != 0)
            v = static_cast<T>(M::combine(M::identity(), static_cast<T>(int(rng() % (hi - lo + 1)) + lo)));
        std::vector<std::uint8_t> mb(n);
        for (auto& b : mb) b = rng() % 2;
        const auto bits = to_bitmap<Exec, std::uint8_t>(exec, test::to_view<mem>(mb));
        for (int mk = 0; mk < 5; ++mk)
          for (bool with_accum : {false, true}) {
            if (!thin.keep()) continue;
            const bool masked = mk > 0, complement = mk == 2 || mk == 4, replace = mk >= 3;
            INFO("shape " << sh.rows << "x" << sh.cols << " columns " << columns << " form " << form << " mask " << mk
                          << " accum " << with_accum);
            std::vector<T> expected(n);
            for (vertex_t i = 0; i < n; ++i) {
              const bool allowed = !masked || ((mb[i] != 0) != complement);
              const T old = w0[i];
              if (!allowed) {
                expected[i] = replace ? M::identity() : old;
                continue;
              }
              const auto t = reference_line<M>(da, i, columns);
              const T tv = t ? *t : M::identity();
              if (!with_accum)
                expected[i] = tv;
              else if (!t)
                expected[i] = old;
              else if (old == M::identity())
                expected[i] = tv;
              else
                expected[i] = accum_ref(old, tv);
            }
            if (expected != w0) ++nontrivial;
            auto w = test::to_view<mem>(w0, "test::w");
            matrix_op_options opts;
            opts.transpose_a = form == 1;
            auto run = [&](const auto& m) {
              const bool use_columns_face = columns != (form == 1);
              test::with_accum_if(with_accum, accum, [&](const auto& acc) {
                if (use_columns_face)
                  reduce_columns(exec, w, m, acc, M{}, a, opts);
                else
                  reduce_rows(exec, w, m, acc, M{}, a, opts);
              });
            };
            if (masked)
              run(mask_of(bits, complement, replace));
            else
              run(no_mask{});
            CHECK(test::to_vector(w) == expected);
          }
      }
  }
  if (!test::reduced()) CHECK(nontrivial > 40);
}

/// Every shape x mask kind x accumulator x (C random, array-less) x transpose_a of C<M> = accum(C, Aᵀ).
template <class T, class TA, class Exec, class Accum>
void check_transpose(const Exec& exec, const Accum& accum, const std::function<T(T, T)>& accum_ref,
                     std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  test::thinning thin(7);
  int nontrivial = 0;
  for (const auto& sh : shapes) {
    for (bool transpose_a : {false, true}) {
      const vertex_t cr = transpose_a ? sh.rows : sh.cols, cc = transpose_a ? sh.cols : sh.rows;
      const auto da = random_dense<TA>(sh.rows, sh.cols, sh.density, rng);
      const auto a = to_device(exec, da);
      const auto dc = random_dense<T>(cr, cc, 0.35, rng);
      const auto dm = random_dense<std::uint8_t>(cr, cc, 0.45, rng);
      const auto mk = to_device(exec, dm);
      const auto t = converted<T>(transpose_a ? da : transposed(da));
      test::for_each_merge_trial(thin, [&](test::mask_kind kind, bool with_accum, bool fresh_c) {
        INFO("shape " << sh.rows << "x" << sh.cols << " transpose_a " << transpose_a << " mask " << int(kind)
                      << " accum " << with_accum << " fresh C " << fresh_c);
        matrix_op_options opts;
        opts.transpose_a = transpose_a;
        if (test::check_masked_merge<T>(
                exec, dc, fresh_c, t, kind, dm, mk, with_accum, accum, accum_ref,
                [&](auto& c, const auto& m, const auto& acc) { transpose(exec, c, m, acc, a, opts); }))
          ++nontrivial;
        CHECK(to_host(a) == da);  // A is read only (and C never shares its arrays)
      });
    }
    if (sh.rows != sh.cols) continue;
    // C aliasing A: C = accum(C, Cᵀ).
    const auto dx = random_dense<T>(sh.rows, sh.cols, sh.density, rng);
    auto x = to_device(exec, dx);
    transpose(exec, x, no_mask{}, accum, x);
    CHECK(to_host(x) == reference_merge<T>(dx, transposed(dx), nullptr, false, false, accum_ref));
  }
  if (!test::reduced()) CHECK(nontrivial > 50);
}

}  // namespace

TEMPLATE_TEST_CASE("matrix assign (submatrix and scalar) equals the dense reference", "[matrix_assign][ops]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using T = std::int64_t;
  const std::function<T(T, T)> plus = [](T x, T y) { return x + y; };
  SECTION("int64, accumulated with accumulate_with<PLUS>") {
    check_assign<T, T>(exec, accumulate_with<plus_monoid<T>>{}, plus, 1);
  }
  SECTION("int32 A into int64 C, accumulated with MINUS (a binary operator)") {
    check_assign<T, std::int32_t>(
        exec, minus_op{}, [](T x, T y) { return x - y; }, 2);
  }
  SECTION("double, accumulated with the MIN monoid and a user operator") {
    check_assign<double, double>(
        exec, min_monoid<double>{}, [](double x, double y) { return std::min(x, y); }, 3);
    check_assign<double, std::int64_t>(
        exec, scaled_difference{-2}, [](double x, double y) { return -2 * x - y; }, 4);
  }
}

TEMPLATE_TEST_CASE("matrix reduce to a vector equals the dense reference", "[matrix_reduce][ops]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  SECTION("PLUS over int32 values into int64, accumulated with PLUS and with MINUS") {
    using T = std::int64_t;
    check_reduce<plus_monoid<T>, std::int32_t>(
        exec, accumulate_with<plus_monoid<T>>{}, [](T x, T y) { return x + y; }, 11, -6, 9);
    check_reduce<plus_monoid<T>, T>(
        exec, minus_op{}, [](T x, T y) { return x - y; }, 12, -6, 9);
  }
  SECTION("MIN and MAX") {
    check_reduce<min_monoid<double>, double>(
        exec, accumulate_with<plus_monoid<double>>{}, [](double x, double y) { return x + y; }, 13, -6, 9);
    using I = std::int32_t;
    check_reduce<max_monoid<I>, I>(
        exec, max_monoid<I>{}, [](I x, I y) { return std::max(x, y); }, 14, -6, 9);
  }
  SECTION("LOR") {
    using B = std::uint8_t;
    check_reduce<lor_monoid, B>(
        exec, accumulate_with<lor_monoid>{}, [](B x, B y) { return B(x || y); }, 15, 0, 1);
  }
  SECTION("user monoids: TIMES over ±1, 2 and bitwise OR") {
    check_reduce<times_monoid_user, std::int32_t>(
        exec, accumulate_with<plus_monoid<double>>{}, [](double x, double y) { return x + y; }, 16, -1, 2);
    check_reduce<bor_monoid_user, std::uint8_t>(
        exec, scaled_difference{5}, [](std::uint32_t x, std::uint32_t y) { return 5 * x - y; }, 17, 0, 200);
  }
}

TEMPLATE_TEST_CASE("masked matrix transpose equals the dense reference", "[matrix_transpose][ops]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  SECTION("int64, accumulated with PLUS") {
    using T = std::int64_t;
    check_transpose<T, T>(
        exec, accumulate_with<plus_monoid<T>>{}, [](T x, T y) { return x + y; }, 21);
  }
  SECTION("int32 A into double C, accumulated with MINUS") {
    check_transpose<double, std::int32_t>(
        exec, minus_op{}, [](double x, double y) { return x - y; }, 22);
  }
}

TEMPLATE_TEST_CASE("matrix assign, reduce and transpose take a graph's pattern as mask",
                   "[matrix_assign][matrix_transpose][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = build_csr(exec, test::random_edges(40, 200, 41), {graph_kind::directed});
  const auto a = to_csr_matrix<double>(exec, g);
  const auto da = to_host(a);
  // C<G> = 7 everywhere: 7 exactly on the graph's pattern.
  csr_matrix<double, memory_space_t<TestType>> c;
  c.n_rows = c.n_cols = g.n;
  assign(exec, c, mask_of(g), no_accumulator{}, 7, all_indices{}, all_indices{});
  const auto dc = to_host(c);
  for (vertex_t i = 0; i < g.n; ++i)
    for (vertex_t j = 0; j < g.n; ++j) CHECK(dc.at(i, j) == (da.at(i, j) ? std::optional<double>(7) : std::nullopt));
  // C<¬G> = Aᵀ: the reverse edges that are not edges.
  csr_matrix<double, memory_space_t<TestType>> t;
  t.n_rows = t.n_cols = g.n;
  transpose(exec, t, mask_of(g, true), no_accumulator{}, a);
  const auto dt = to_host(t);
  for (vertex_t i = 0; i < g.n; ++i)
    for (vertex_t j = 0; j < g.n; ++j) CHECK(dt.at(i, j) == (da.at(i, j) ? std::nullopt : da.at(j, i)));
}

TEMPLATE_TEST_CASE("matrix assign, reduce and transpose reject bad arguments",
                   "[matrix_assign][matrix_reduce][matrix_transpose][ops]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  using mat = csr_matrix<double, mem>;
  std::mt19937_64 rng(51);
  const auto dc = random_dense<double>(4, 5, 0.5, rng);
  mat c = to_device(exec, dc);
  const auto a23 = to_device(exec, random_dense<double>(2, 3, 0.8, rng));
  const auto m_bad = to_device(exec, random_dense<double>(4, 4, 0.5, rng));
  auto idx = [](std::vector<vertex_t> v) {
    return index_list<mem>(Kokkos::View<const vertex_t*, mem>(test::to_view<mem>(v, "test::idx")));
  };
  using test::thrown_text;
  using iae = invalid_argument_error;
  auto has = [](const std::string& text, const char* what) {
    INFO(text);
    return text.find(what) != std::string::npos;
  };
  const no_accumulator none;
  CHECK(has(thrown_text<iae>([&] {
              assign(exec, c, no_mask{}, none, a23, idx({0, 1, 2}), idx({0, 1, 2}));
            }),
            "assign: A is 2 x 3 but I x J is 3 x 3"));
  CHECK(has(thrown_text<iae>([&] {
              assign(exec, c, no_mask{}, none, a23, all_indices{}, idx({0, 1, 2}));
            }),
            "assign: A is 2 x 3 but I x J is 4 x 3"));
  matrix_op_options tr;
  tr.transpose_a = true;
  CHECK(has(thrown_text<iae>([&] {
              assign(exec, c, no_mask{}, none, a23, idx({0, 1}), idx({0, 1, 2}), tr);
            }),
            "assign: A is 3 x 2 but I x J is 2 x 3"));
  CHECK(has(thrown_text<iae>([&] {
              assign(exec, c, mask_of(m_bad), none, a23, idx({0, 1}), idx({0, 1, 2}));
            }),
            "assign: the mask is 4 x 4 but C is 4 x 5"));
  CHECK(has(thrown_text<iae>([&] {
              assign(exec, c, no_mask{}, none, a23, idx({0, 4}), idx({0, 7, 5}));
            }),
            "assign: 1 of the 2 indices of I are >= n_rows(C) = 4"));
  CHECK(has(thrown_text<iae>([&] {
              assign(exec, c, no_mask{}, none, a23, idx({0, 1}), idx({0, 7, 5}));
            }),
            "assign: 2 of the 3 indices of J are >= n_cols(C) = 5"));
  CHECK(has(thrown_text<iae>([&] {
              assign(exec, c, no_mask{}, none, a23, idx({1, 1}), idx({0, 1, 2}));
            }),
            "assign: I lists 1 of its 2 indices more than once"));
  CHECK(has(thrown_text<iae>([&] {
              assign(exec, c, no_mask{}, none, 2.0, all_indices{}, idx({3, 0, 3, 3}));
            }),
            "assign: J lists 2 of its 4 indices more than once"));
  CHECK(has(thrown_text<iae>([&] { assign(exec, c, mask_of(m_bad, true), minus_op{}, 1, idx({}), idx({})); }),
            "assign: the mask is 4 x 4 but C is 4 x 5"));
  mat broken = a23;
  broken.nnz = a23.nnz + 5;
  CHECK(has(thrown_text<iae>([&] {
              assign(exec, c, no_mask{}, none, broken, idx({0, 1}), idx({0, 1, 2}));
            }),
            "assign: A has"));
  CHECK(has(thrown_text<iae>([&] { transpose(exec, c, no_mask{}, none, broken); }), "transpose: A has"));
  CHECK(has(thrown_text<iae>([&] { transpose(exec, c, no_mask{}, none, a23); }),
            "transpose: C is 4 x 5 but Aᵀ is 3 x 2"));
  CHECK(has(thrown_text<iae>([&] { transpose(exec, c, no_mask{}, none, a23, tr); }),
            "transpose: C is 4 x 5 but A is 2 x 3"));
  CHECK(has(thrown_text<iae>([&] { transpose(exec, c, mask_of(m_bad), none, c, tr); }),
            "transpose: the mask is 4 x 4 but C is 4 x 5"));
  Kokkos::View<double*, mem> w3("w", 3), w4("w", 4);
  CHECK(has(thrown_text<iae>([&] { reduce_rows(exec, w3, no_mask{}, none, plus_monoid<double>{}, c); }),
            "reduce_rows: the output has 3 entries but A has 4 rows"));
  CHECK(has(thrown_text<iae>([&] { reduce_columns(exec, w4, no_mask{}, none, plus_monoid<double>{}, c); }),
            "reduce_columns: the output has 4 entries but Aᵀ has 5 rows"));
  CHECK(has(thrown_text<iae>([&] { reduce_rows(exec, w4, no_mask{}, none, plus_monoid<double>{}, broken); }),
            "reduce_rows: A has"));
  const auto bits5 = make_bitmap(exec, 5);
  CHECK(has(thrown_text<iae>([&] { reduce_rows(exec, w4, mask_of(bits5), none, plus_monoid<double>{}, c); }),
            "reduce_rows: mask has 5 bits but the output has 4 entries"));
  // The refusals left C alone.
  CHECK(to_host(c) == dc);
}
