// A user-defined semiring through mxv / vxm: the bottleneck (max, min) semiring of widest paths, defined here
// (monoid, multiply and semiring written out member by member, nothing taken from bitgraph/semirings), on B2SR
// (every tile size, both packing orders, pull, push and automatic, both balances), on CSR (weighted or not, with
// or without repeated entries) and on the hybrid format, with and without masks (complement, replace) and an
// accumulator, against a serial reference that reads the edge list itself. Graphs: empty, self-loops, repeats,
// isolated vertices, n not a multiple of any tile, directed and undirected.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/hybrid.hpp"
#include "bitgraph/ops/mxv.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/spaces.hpp"

// The user's types, at namespace scope (nvcc rejects kernels instantiated with types local to a function).
namespace user_semiring {

using bitgraph::vertex_t;

template <class T>
KOKKOS_INLINE_FUNCTION constexpr T lowest() {
  if constexpr (std::is_floating_point_v<T>)
    return -Kokkos::Experimental::infinity<T>::value;
  else
    return Kokkos::Experimental::finite_min<T>::value;
}

/// (max, lowest). Not terminal: the kernels would otherwise stop a row at its first contribution.
template <class T>
struct widest {
  using value_type = T;
  static constexpr bool terminal = false;
  KOKKOS_INLINE_FUNCTION static constexpr T identity() { return lowest<T>(); }
  KOKKOS_INLINE_FUNCTION static constexpr T combine(T a, T b) { return a < b ? b : a; }
  KOKKOS_INLINE_FUNCTION static void atomic_combine(T* p, T v) { Kokkos::atomic_fetch_max(p, v); }
};

/// y(i) = max over j of min(A(i, j), x(j)): the capacity of the widest one-hop extension (a pattern's entries are 1).
template <class T>
struct bottleneck {
  using add_monoid = widest<T>;
  using value_type = T;
  KOKKOS_INLINE_FUNCTION static constexpr T identity() { return add_monoid::identity(); }
  KOKKOS_INLINE_FUNCTION static constexpr T add(T a, T b) { return add_monoid::combine(a, b); }
  KOKKOS_INLINE_FUNCTION static constexpr T multiply(T a, T x, vertex_t, vertex_t) { return x < a ? x : a; }
  KOKKOS_INLINE_FUNCTION static void atomic_add(T* p, T v) { add_monoid::atomic_combine(p, v); }
  KOKKOS_INLINE_FUNCTION static constexpr T one() { return T(1); }
};

/// The same semiring over int32, declared to reduce like OR-AND on 0/1 inputs (max of min(1, 1) is "any"), so
/// that bitmap inputs take the word-at-a-time bit path instead of visiting bits.
struct bottleneck_bits : bottleneck<std::int32_t> {};

}  // namespace user_semiring

namespace bitgraph {
template <>
struct bit_reduction_of<user_semiring::bottleneck_bits> : std::integral_constant<bit_reduction, bit_reduction::or_and> {
};
}  // namespace bitgraph

using namespace bitgraph;

namespace {

// ------------------------------------------------------------------------------------ the reference

/// "No entry" for the reference: the identity of max, -inf (the lowest value for integers).
template <class T>
T absent_value() {
  return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
}

/// The stored entries of a graph as the reference reads the build rules: undirected kinds mirror each entry,
/// self-loops stay (build_csr's default), repeats merge keeping the lightest weight unless kept.
struct ref_graph {
  vertex_t n = 0;
  std::vector<std::vector<std::pair<vertex_t, double>>> rows;  ///< row i: (j, weight) per stored entry
};

ref_graph reference_graph(const edge_list& el, bool undirected, bool keep_repeats) {
  ref_graph r;
  r.n = static_cast<vertex_t>(el.num_vertices);
  r.rows.resize(r.n);
  std::map<std::pair<vertex_t, vertex_t>, std::vector<double>> entries;
  for (std::size_t k = 0; k < el.src.size(); ++k) {
    const double w = el.weighted() ? el.weights[k] : 1.0;
    entries[{el.src[k], el.dst[k]}].push_back(w);
    if (undirected && el.src[k] != el.dst[k]) entries[{el.dst[k], el.src[k]}].push_back(w);
  }
  for (const auto& [ij, ws] : entries) {
    if (keep_repeats)
      for (double w : ws) r.rows[ij.first].push_back({ij.second, w});
    else
      r.rows[ij.first].push_back({ij.second, *std::min_element(ws.begin(), ws.end())});
  }
  return r;
}

/// One product and its GraphBLAS merge, serially: t(i) = max over entries (i, j) (entries (j, i) for A^T x) with
/// x(j) present of min(a, x(j)), a the weight or 1; then the mask, replace and max accumulator.
template <class T>
std::vector<T> reference_product(const ref_graph& g, const std::vector<T>& x, bool transpose, bool weighted,
                                 const std::vector<T>& y0, const std::vector<std::uint8_t>* mask, bool complement,
                                 bool replace, bool accumulate) {
  const T absent = absent_value<T>();
  std::vector<T> t(g.n, absent);
  for (vertex_t i = 0; i < g.n; ++i)
    for (const auto& [j, w] : g.rows[i]) {
      const vertex_t out = transpose ? j : i, in = transpose ? i : j;
      if (x[in] == absent) continue;
      const T a = weighted ? static_cast<T>(w) : T(1);
      const T c = std::min(a, x[in]);
      t[out] = std::max(t[out], c);
    }
  std::vector<T> y(g.n);
  for (vertex_t i = 0; i < g.n; ++i) {
    const bool allowed = mask == nullptr || (((*mask)[i] != 0) != complement);
    if (!allowed)
      y[i] = replace ? absent : y0[i];
    else if (!accumulate || t[i] == absent)
      y[i] = accumulate ? y0[i] : t[i];
    else
      y[i] = y0[i] == absent ? t[i] : std::max(y0[i], t[i]);
  }
  return y;
}

// ------------------------------------------------------------------------------------ the cases

struct graph_case {
  const char* name;
  edge_list el;
  bool undirected;
};

std::vector<graph_case> graphs() {
  std::vector<graph_case> g;
  g.push_back({"empty (n = 0)", test::random_edges(0, 0, 1, true), false});
  g.push_back({"no edges (n = 9)", test::random_edges(9, 0, 2, true), true});
  g.push_back({"one vertex, a self-loop stored three times", test::random_edges(1, 3, 3, true), false});
  g.push_back({"self-loops and repeats, n = 45, directed", test::random_edges(45, 400, 4, true), false});
  g.push_back({"n = 70, undirected", test::random_edges(70, 300, 5, true), true});
  g.push_back({"isolated vertices, n = 129, directed", test::random_edges(129, 60, 6, true), false});
  return g;
}

struct mask_case {
  bool use, complement, replace;
};
constexpr mask_case mask_cases[] = {
    {false, false, false}, {true, false, false}, {true, true, false}, {true, false, true}, {true, true, true}};

/// x values around a pattern entry's 1 and the weights 1..9, the semiring's identity (absent) and a top value.
template <class T>
std::vector<T> random_input(vertex_t n, std::mt19937_64& rng) {
  std::vector<T> x(n);
  for (auto& v : x) {
    switch (rng() % 8) {
      case 0:
        v = absent_value<T>();
        break;
      case 1:
        v = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
        break;
      default:
        v = static_cast<T>(std::int64_t(rng() % 25) - 8) / (std::is_floating_point_v<T> ? T(2) : T(1));
        break;
    }
  }
  return x;
}

template <class Exec>
bitmap<typename Exec::memory_space> bits_of(const Exec& exec, const std::vector<std::uint8_t>& b) {
  return to_bitmap<Exec, std::uint8_t>(exec, test::to_view<typename Exec::memory_space>(b));
}

/// Runs `product(y, mask_or_no_mask, accum)` for every mask case and accumulator, on a dense x (`xv`) or the bitmap
/// of its present entries (`x_bits`, values 1), and compares y with the reference.
template <class Exec, class S, class Product>
void check_cases(const Exec& exec, const ref_graph& rg, bool transpose, bool weighted, std::uint64_t seed,
                 test::thinning& thin, Product&& product) {
  using T = typename S::value_type;
  using mem = typename Exec::memory_space;
  std::mt19937_64 rng(seed);
  const vertex_t n = rg.n;
  for (bool x_bits : {false, true}) {
    for (const auto& mc : mask_cases) {
      for (bool accumulate : {false, true}) {
        if (!thin.keep()) continue;  // reduced mode (GPU sanitizers): every 37th operand combination
        auto xv = random_input<T>(n, rng);
        std::vector<std::uint8_t> xb(n);
        for (vertex_t j = 0; j < n; ++j) {
          xb[j] = xv[j] != absent_value<T>();
          if (x_bits && xb[j]) xv[j] = T(1);  // a set bit is an entry of value 1
        }
        const auto y0 = random_input<T>(n, rng);
        std::vector<std::uint8_t> mb(n);
        for (auto& b : mb) b = rng() % 2;
        const auto want = reference_product<T>(rg, xv, transpose, weighted, y0, mc.use ? &mb : nullptr, mc.complement,
                                               mc.replace, accumulate);
        auto y = test::to_view<mem>(y0);
        const vector_mask<mem> mask{bits_of(exec, mb), mc.complement, mc.replace};
        auto run = [&](const auto& x) {
          auto with_accum = [&](const auto& m) {
            if (accumulate)
              product(y, m, accumulate_with<typename S::add_monoid>{}, x);
            else
              product(y, m, no_accumulator{}, x);
          };
          if (mc.use)
            with_accum(mask);
          else
            with_accum(no_mask{});
        };
        if (x_bits)
          run(bits_of(exec, xb));
        else
          run(Kokkos::View<const T*, mem>(test::to_view<mem>(xv)));
        const auto got = test::to_vector(y);
        INFO("x " << (x_bits ? "bitmap" : "dense") << ", mask " << mc.use << mc.complement << mc.replace
                  << ", accumulate " << accumulate);
        REQUIRE(got.size() == want.size());
        std::size_t wrong = 0, first = 0;
        for (vertex_t i = 0; i < n; ++i)
          if (!(got[i] == want[i]) && wrong++ == 0) first = i;
        INFO(wrong << " wrong entries, the first y(" << first << "): got " << (wrong ? +got[first] : T{})
                   << ", expected " << (wrong ? +want[first] : T{}));
        CHECK(wrong == 0);
      }
    }
  }
}

/// Every B2SR, CSR and hybrid path of one semiring on every graph.
template <class Exec, class S>
void check_semiring(const Exec& exec) {
  std::uint64_t seed = 1000;
  test::thinning thin(37);
  for (const auto& gc : graphs()) {
    for (bool keep_repeats : {false, true}) {
      csr_build_options o;
      o.kind = gc.undirected ? graph_kind::undirected : graph_kind::directed;
      o.remove_duplicates = !keep_repeats;
      const auto g = build_csr(exec, gc.el, o);
      const auto rg = reference_graph(gc.el, gc.undirected, keep_repeats);
      INFO("graph " << gc.name << (keep_repeats ? ", repeats kept" : ""));
      // CSR pulls over the weights and over the pattern.
      for (bool weighted : {true, false}) {
        auto c = g;
        if (!weighted) {
          c.has_weights = false;
          c.weights = decltype(c.weights)();
        }
        INFO("CSR, " << (weighted ? "weights" : "pattern"));
        check_cases<Exec, S>(
            exec, rg, false, weighted, ++seed, thin,
            [&](auto& y, const auto& m, const auto& acc, const auto& x) { mxv(exec, y, m, acc, S{}, c, x); });
      }
      if (keep_repeats) continue;  // the bit formats hold a pattern: repeats are one entry there
      for (int t : {4, 8, 16, 32, 64}) {
        if (test::reduced() && t != 8 && t != 64) continue;  // reduced mode: a byte tile and a word tile
        for (auto order : {bit_order::row_major, bit_order::col_major}) {
          const auto b = to_b2sr(exec, g, {t, order});
          const auto bt = transpose(exec, b);
          for (bool vx : {false, true}) {
            for (auto dir : {mxv_direction::pull, mxv_direction::push, mxv_direction::automatic}) {
              mxv_options opts;
              opts.direction = dir;
              opts.balance = seed % 2 ? mxv_balance::by_tiles : mxv_balance::by_rows;
              INFO("B2SR T=" << t << " order=" << to_string(order) << (vx ? " vxm" : " mxv") << " direction "
                             << int(dir) << " balance " << to_string(opts.balance));
              check_cases<Exec, S>(exec, rg, vx, false, ++seed, thin,
                                   [&](auto& y, const auto& m, const auto& acc, const auto& x) {
                                     if (vx)
                                       vxm(exec, y, m, acc, S{}, x, b, opts, &bt);
                                     else
                                       mxv(exec, y, m, acc, S{}, b, x, opts, &bt);
                                   });
            }
          }
        }
        if (t <= 32) {
          hybrid_options ho;
          ho.tile_dim = t;
          ho.bits_bias = 1.0;
          const auto h = to_hybrid(exec, g, ho);
          INFO("hybrid T=" << t << ", " << h.csr_band_count() << " CSR bands");
          check_cases<Exec, S>(
              exec, rg, false, false, ++seed, thin,
              [&](auto& y, const auto& m, const auto& acc, const auto& x) { mxv(exec, y, m, acc, S{}, h, x); });
        }
      }
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("a user-defined (max, min) semiring: mxv and vxm on B2SR, CSR and hybrid equal a serial reference",
                   "[ops][mxv][semiring]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  SECTION("FP64, bits visited one by one") { check_semiring<TestType, user_semiring::bottleneck<double>>(exec); }
  SECTION("INT32, declared OR-AND on bits") { check_semiring<TestType, user_semiring::bottleneck_bits>(exec); }
}

TEMPLATE_TEST_CASE("a user-defined (max, min) semiring cannot write a bitmap output", "[ops][mxv][semiring]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  const auto g = build_csr(exec, test::random_edges(40, 100, 7), csr_build_options{});
  const auto b = to_b2sr(exec, g, {8, bit_order::row_major});
  auto y = make_bitmap(exec, g.n);
  const auto x = make_bitmap(exec, g.n);
  // Only a Boolean (LOR) semiring yields bits (scheme bin·bin→bin); anything else is refused, not truncated.
  CHECK_THROWS_AS(mxv(exec, y, no_mask{}, no_accumulator{}, user_semiring::bottleneck<double>{}, b, x),
                  invalid_argument_error);
}
