// GraphBLAS mxm on valued CSR matrices (issue 19): every semiring of the library plus a user-defined one, with
// and without masks (plain, complemented, replace) and accumulators, against a dense reference written here.
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
#include "bitgraph/ops/mxm_csr.hpp"
#include "support/dense_matrix.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;
using test::dense;
using test::random_dense_by;
using test::reference_merge;
using test::to_device;
using test::to_host;
using test::transposed;

namespace {

/// T = A ⊕.⊗ B by the definition: an entry wherever some k has both A(i, k) and B(k, j).
template <class V, class TA, class TB, class Add, class Mul>
dense<V> reference_product(const dense<TA>& a, const dense<TB>& b, Add add, Mul mul) {
  dense<V> t(a.rows, b.cols);
  for (vertex_t i = 0; i < a.rows; ++i)
    for (vertex_t j = 0; j < b.cols; ++j) {
      std::optional<V> acc;
      for (vertex_t k = 0; k < a.cols; ++k) {
        if (!a.at(i, k) || !b.at(k, j)) continue;
        const V p = mul(static_cast<V>(*a.at(i, k)), static_cast<V>(*b.at(k, j)), i, k);
        acc = acc ? add(*acc, p) : p;
      }
      t.at(i, j) = acc;
    }
  return t;
}

/// A semiring defined here and nowhere in the library: (max, min(a, b) + k mod 3), positional in the inner
/// index k so that the test sees which index the kernel passes.
struct max_min_k {
  using value_type = std::int32_t;
  KOKKOS_INLINE_FUNCTION static value_type add(value_type a, value_type b) { return a < b ? b : a; }
  KOKKOS_INLINE_FUNCTION static value_type multiply(value_type a, value_type b, vertex_t, vertex_t k) {
    return (a < b ? a : b) + static_cast<value_type>(k % 3);
  }
};

// Shapes m x k x n with the densities of A and B: 0 x n, inner 0, n = 0, dense 1 x 1, square and rectangular,
// sparse (few products per row: masks filter) and dense (many: plain masks only look up their columns).
struct shape {
  vertex_t m, k, n;
  double da, db;
};
const std::vector<shape> shapes = {{0, 5, 4, 0.5, 0.5},   {4, 0, 3, 0.5, 0.5},    {5, 7, 0, 0.5, 0.5},
                                   {1, 1, 1, 1.0, 1.0},   {13, 9, 17, 0.3, 0.3},  {40, 40, 40, 0.05, 0.08},
                                   {33, 20, 5, 0.6, 0.7}, {6, 50, 45, 0.5, 0.04}, {120, 90, 110, 0.1, 0.12}};

/// Every mask / replace / accumulator combination of one semiring on every shape, against the reference.
template <class S, class TA, class TB, class Exec, class Add, class Mul, class GenA, class GenB, class Accum>
void check_semiring(const Exec& exec, const S& sr, Add add, Mul mul, GenA gen_a, GenB gen_b, const Accum& accum,
                    std::function<typename S::value_type(typename S::value_type, typename S::value_type)> accum_ref,
                    std::uint64_t seed) {
  using V = typename S::value_type;
  std::mt19937_64 rng(seed);
  // Reduced mode: every 11th (shape, transpose, mask, replace, accumulator) combination, and the array-less C of
  // every 11th (shape, transpose); the random operands are drawn as before.
  test::thinning thin(11), thin_fresh(11);
  for (const auto& sh : shapes) {
    for (int tr = 0; tr < 3; ++tr) {  // 0: plain, 1: Aᵀ stored, 2: Bᵀ stored
      auto da = random_dense_by<TA>(sh.m, sh.k, sh.da, rng, gen_a, 0.15);
      auto db = random_dense_by<TB>(sh.k, sh.n, sh.db, rng, gen_b, 0.15);
      auto dc = random_dense_by<V>(sh.m, sh.n, 0.3, rng, gen_a, 0.15);
      auto dm = random_dense_by<std::uint8_t>(
          sh.m, sh.n, 0.4, rng, [](auto&) { return std::uint8_t(1); }, 0.15);
      const auto t = reference_product<V>(da, db, add, mul);
      mxm_csr_options opts;
      opts.transpose_a = tr == 1;
      opts.transpose_b = tr == 2;
      const auto a = to_device(exec, tr == 1 ? transposed(da) : da);
      const auto b = to_device(exec, tr == 2 ? transposed(db) : db);
      const auto mk = to_device(exec, dm);
      for (int masked = 0; masked < 3; ++masked) {  // none, plain, complemented
        for (bool replace : {false, true}) {
          if (masked == 0 && replace) continue;
          for (bool with_accum : {false, true}) {
            if (!thin.keep()) continue;
            INFO("shape " << sh.m << "x" << sh.k << "x" << sh.n << " transpose " << tr << " mask " << masked
                          << " replace " << replace << " accum " << with_accum);
            const std::function<V(V, V)> acc_fn = with_accum ? accum_ref : std::function<V(V, V)>{};
            const auto expected = reference_merge<V>(dc, t, masked ? &dm : nullptr, masked == 2, replace, acc_fn);
            auto c = to_device(exec, dc);
            auto c_before = c;
            auto run = [&](const auto& m) {
              if (with_accum)
                mxm(exec, c, m, accum, sr, a, b, opts);
              else
                mxm(exec, c, m, no_accumulator{}, sr, a, b, opts);
            };
            if (masked == 0)
              run(no_mask{});
            else
              run(mask_of(mk, masked == 2, replace));
            CHECK(to_host(c) == expected);
            CHECK(to_host(c_before) == dc);  // the old arrays are untouched
          }
        }
      }
      // C = A·B into a default-constructed (array-less) C of the right shape.
      if (!thin_fresh.keep()) continue;
      csr_matrix<V, memory_space_t<Exec>> fresh;
      fresh.n_rows = sh.m;
      fresh.n_cols = sh.n;
      mxm(exec, fresh, no_mask{}, no_accumulator{}, sr, a, b, opts);
      CHECK(to_host(fresh) == t);
      CHECK(to_host(mxm(exec, sr, a, b, opts)) == t);
    }
  }
}

auto small_int(int lo, int hi) {
  return [lo, hi](std::mt19937_64& rng) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
}

}  // namespace

TEMPLATE_TEST_CASE("CSR mxm over every semiring equals the dense reference", "[ops][mxm][mxm_csr]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using i64 = std::int64_t;
  auto ints = [](int lo, int hi) {
    return [lo, hi](std::mt19937_64& rng) { return static_cast<i64>(small_int(lo, hi)(rng)); };
  };
  auto reals = [](int lo, int hi) {
    return [lo, hi](std::mt19937_64& rng) { return static_cast<double>(small_int(lo, hi)(rng)); };
  };
  SECTION("PLUS_TIMES, accumulated with PLUS and with MINUS") {
    auto add = [](i64 x, i64 y) { return x + y; };
    auto mul = [](i64 x, i64 y, vertex_t, vertex_t) { return x * y; };
    check_semiring<plus_times<i64>, i64, i64>(exec, plus_times<i64>{}, add, mul, ints(-4, 5), ints(-4, 5),
                                              accumulate_with<plus_monoid<i64>>{}, add, 1);
    check_semiring<plus_times<i64>, i64, i64>(
        exec, plus_times<i64>{}, add, mul, ints(-4, 5), ints(-4, 5), minus_op{}, [](i64 x, i64 y) { return x - y; }, 2);
  }
  SECTION("PLUS_PAIR counts from double operands") {
    check_semiring<plus_pair<i64>, double, double>(
        exec, plus_pair<i64>{}, [](i64 x, i64 y) { return x + y; }, [](i64, i64, vertex_t, vertex_t) { return i64(1); },
        reals(-3, 3), reals(-3, 3), accumulate_with<plus_monoid<i64>>{}, [](i64 x, i64 y) { return x + y; }, 3);
  }
  SECTION("MIN_PLUS, accumulated with MIN") {
    auto mn = [](double x, double y) { return std::min(x, y); };
    check_semiring<min_plus<double>, double, double>(
        exec, min_plus<double>{}, mn, [](double x, double y, vertex_t, vertex_t) { return x + y; }, reals(0, 9),
        reals(0, 9), accumulate_with<min_monoid<double>>{}, mn, 4);
  }
  SECTION("MAX_TIMES, accumulated with MAX") {
    auto mx = [](double x, double y) { return std::max(x, y); };
    check_semiring<max_times<double>, double, double>(
        exec, max_times<double>{}, mx, [](double x, double y, vertex_t, vertex_t) { return x * y; }, reals(-3, 5),
        reals(-3, 5), accumulate_with<max_monoid<double>>{}, mx, 5);
  }
  SECTION("LOR_LAND on 0/1 bytes, accumulated with LOR") {
    using u8 = std::uint8_t;
    auto bits = [](std::mt19937_64& rng) { return static_cast<u8>(small_int(0, 1)(rng)); };
    auto lor = [](u8 x, u8 y) { return u8((x || y) ? 1 : 0); };
    check_semiring<lor_land, u8, u8>(
        exec, lor_land{}, lor, [](u8 x, u8 y, vertex_t, vertex_t) { return u8((x && y) ? 1 : 0); }, bits, bits,
        accumulate_with<lor_monoid>{}, lor, 6);
  }
  SECTION("a user-defined semiring (max, min + k mod 3), accumulated with PLUS") {
    using i32 = std::int32_t;
    auto i32s = [](std::mt19937_64& rng) { return static_cast<i32>(small_int(-5, 9)(rng)); };
    check_semiring<max_min_k, i32, i32>(
        exec, max_min_k{}, [](i32 x, i32 y) { return std::max(x, y); },
        [](i32 x, i32 y, vertex_t, vertex_t k) { return std::min(x, y) + static_cast<i32>(k % 3); }, i32s, i32s,
        accumulate_with<plus_monoid<i32>>{}, [](i32 x, i32 y) { return x + y; }, 7);
  }
}

TEMPLATE_TEST_CASE("CSR mxm with a graph mask counts the triangles through each edge", "[ops][mxm][mxm_csr]",
                   BITGRAPH_TEST_SPACES) {
  // C<A> = A ⊕.⊗ A over PLUS_PAIR on an undirected graph: C(i, j) = common neighbours of the edge (i, j).
  TestType exec;
  auto g = build_csr(exec, test::random_edges(60, 400, 11), {graph_kind::undirected});
  auto a = to_csr_matrix<std::int64_t>(exec, g);
  auto da = to_host(a);
  csr_matrix<std::int64_t, memory_space_t<TestType>> c;
  c.n_rows = c.n_cols = g.n;
  mxm(exec, c, mask_of(g), no_accumulator{}, plus_pair<std::int64_t>{}, a, a);
  auto dc = to_host(c);
  for (vertex_t i = 0; i < g.n; ++i)
    for (vertex_t j = 0; j < g.n; ++j) {
      std::int64_t common = 0;
      for (vertex_t k = 0; k < g.n; ++k) common += da.at(i, k) && da.at(k, j);
      if (da.at(i, j) && common > 0)
        CHECK(dc.at(i, j) == common);
      else
        CHECK(!dc.at(i, j));
    }
}

TEMPLATE_TEST_CASE("csr_matrix conversions and transpose", "[formats][mxm_csr]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = build_csr(exec, test::random_edges(50, 300, 12));
  auto a = to_csr_matrix<double>(exec, g);
  CHECK(a.n_rows == g.n);
  CHECK(a.nnz == g.nnz);
  auto back = to_csr_graph(exec, a);
  CHECK(back.n == g.n);
  CHECK(back.nnz == g.nnz);
  CHECK(back.has_weights);
  auto da = to_host(a);
  for (auto v : da.d)
    if (v) CHECK(*v == 1.0);
  CHECK(to_host(to_csr_matrix<double>(exec, back)) == da);
  std::mt19937_64 rng(13);
  auto dr = random_dense_by<float>(
      17, 29, 0.3, rng, [](std::mt19937_64& r) { return float(r() % 100); }, 0.15);
  auto r = to_device(exec, dr);
  CHECK(to_host(transpose(exec, r)) == transposed(dr));
  CHECK(to_host(transpose(exec, transpose(exec, r))) == dr);
  CHECK_THROWS_AS(to_csr_graph(exec, r), invalid_argument_error);
}

TEMPLATE_TEST_CASE("CSR mxm rejects bad arguments", "[ops][mxm][mxm_csr]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mat = csr_matrix<double, memory_space_t<TestType>>;
  std::mt19937_64 rng(14);
  auto one = [](std::mt19937_64&) { return 1.0; };
  auto a = to_device(exec, random_dense_by<double>(4, 5, 0.5, rng, one, 0.15));
  auto b = to_device(exec, random_dense_by<double>(6, 3, 0.5, rng, one, 0.15));
  auto b_ok = to_device(exec, random_dense_by<double>(5, 3, 0.5, rng, one, 0.15));
  mat c = empty_csr_matrix<double>(exec, 4, 3);
  auto message = [&](auto&& f) {
    try {
      f();
    } catch (const invalid_argument_error& e) {
      return std::string(e.what());
    }
    return std::string("no invalid_argument_error");
  };
  const plus_times<double> pt;
  CHECK(message([&] { mxm(exec, c, no_mask{}, no_accumulator{}, pt, a, b); }).find("inner dimensions") !=
        std::string::npos);
  mat c_bad = empty_csr_matrix<double>(exec, 4, 4);
  CHECK(message([&] { mxm(exec, c_bad, no_mask{}, no_accumulator{}, pt, a, b_ok); }).find("C is 4 x 4") !=
        std::string::npos);
  auto m_bad = to_device(exec, random_dense_by<double>(3, 3, 0.5, rng, one, 0.15));
  CHECK(message([&] { mxm(exec, c, mask_of(m_bad), no_accumulator{}, pt, a, b_ok); }).find("the mask is 3 x 3") !=
        std::string::npos);
  // With the transposes the same operands fit: (4x5)ᵀ is 5x4, and Bᵀ (3x5) · ... does not.
  mxm_csr_options tb;
  tb.transpose_b = true;
  CHECK(message([&] { mxm(exec, c, no_mask{}, no_accumulator{}, pt, a, b_ok, tb); }).find("inner dimensions") !=
        std::string::npos);
  mat broken = a;
  broken.nnz = a.nnz + 5;
  CHECK(message([&] { mxm(exec, c, no_mask{}, no_accumulator{}, pt, broken, b_ok); }).find("A has") !=
        std::string::npos);
  mxm_csr_options forced;
  forced.algorithm = op_algorithm::cuda_mma;
  CHECK_THROWS_AS(mxm(exec, c, no_mask{}, no_accumulator{}, pt, a, b_ok, forced), unsupported_error);
  CHECK_THROWS_AS(make_csr_matrix<double>(exec, 1, 3, {0, 2}, {2, 1}, {1.0, 1.0}), invalid_argument_error);
  CHECK_THROWS_AS(make_csr_matrix<double>(exec, 1, 3, {0, 1}, {3}, {1.0}), invalid_argument_error);
  CHECK_THROWS_AS(make_csr_matrix<double>(exec, 2, 3, {0, 1}, {0}, {1.0}), invalid_argument_error);
  // A valid call still works after the refusals.
  mxm(exec, c, no_mask{}, no_accumulator{}, pt, a, b_ok);
  CHECK(c.n_rows == 4);
}
