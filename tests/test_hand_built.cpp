// Issue 18, table row 7: a `csr_graph` whose public members the caller filled by hand reaches no kernel
// unchecked. Every entry point that takes a CSR (make_bit_graph and through it the algorithms, to_b2sr,
// to_hybrid, mxv / spmspv / select on CSR, the CSR transforms and degrees, relabel) throws `invalid_argument_error`
// naming the problem, with `make_csr_graph`'s device check (`check_csr_graph`); valid hand-built graphs are accepted.
// Plus API misuse: wrong sizes, sources out of range, NaN options.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/components.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/algorithms/pagerank.hpp"
#include "bitgraph/algorithms/sssp.hpp"
#include "bitgraph/algorithms/triangles.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/hybrid.hpp"
#include "bitgraph/ops/mxv.hpp"
#include "bitgraph/ops/select.hpp"
#include "bitgraph/ops/spmspv.hpp"
#include "bitgraph/reorder/device_order.hpp"
#include "support/errors.hpp"
#include "support/random_graphs.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::StartsWith;

namespace {

/// A graph filled by hand: n, row_ptr, col_idx (nnz = col_idx.size() unless given), optional weights.
template <class Mem>
csr_graph<Mem> hand_built(vertex_t n, const std::vector<offset_t>& rp, const std::vector<vertex_t>& ci,
                          graph_kind kind = graph_kind::directed) {
  csr_graph<Mem> g;
  g.n = n;
  g.nnz = ci.size();
  g.kind = kind;
  if (!rp.empty()) g.row_ptr = test::to_view<Mem>(rp);
  if (!ci.empty()) g.col_idx = test::to_view<Mem>(ci);
  return g;
}

// A small directed graph: 0 -> {1, 2}, 1 -> {2}, 2 -> {0, 3}, 3 -> {}.
const std::vector<offset_t> rp4 = {0, 2, 3, 5, 5};
const std::vector<vertex_t> ci4 = {1, 2, 2, 0, 3};

/// One malformed graph and the text its error must contain.
template <class Mem>
struct malformed {
  const char* what;
  csr_graph<Mem> g;
  std::string message;
};

template <class Mem>
std::vector<malformed<Mem>> malformed_graphs() {
  std::vector<malformed<Mem>> out;
  auto add = [&](const char* what, csr_graph<Mem> g, std::string msg) { out.push_back({what, std::move(g), msg}); };
  add("n beyond row_ptr", hand_built<Mem>(5, rp4, ci4), "the CSR graph's row_ptr has 5 entries, expected n + 1 = 6");
  add("no row_ptr at all", hand_built<Mem>(4, {}, ci4), "the CSR graph's row_ptr has 0 entries, expected n + 1 = 5");
  {
    auto g = hand_built<Mem>(4, {0, 2, 3, 5, 7}, ci4);
    g.nnz = 7;  // row_ptr(n) and nnz beyond col_idx
    add("row_ptr[n] beyond col_idx", g, "the CSR graph's col_idx has 5 entries but nnz = 7");
  }
  {
    auto g = hand_built<Mem>(4, rp4, {1, 2, 2, 0, 3, 77, 99});
    g.nnz = 5;  // col_idx longer than nnz: the kernels size their work by the extents
    add("col_idx beyond nnz", g, "the CSR graph's col_idx has 7 entries but nnz = 5 (they must be equal");
  }
  add("row_ptr[n] beyond nnz", hand_built<Mem>(4, {0, 2, 3, 5, 6}, ci4),
      "row 3: row_map(4) = 6 is beyond the 5 entries");
  add("row_ptr[n] short of nnz", hand_built<Mem>(4, {0, 2, 3, 4, 4}, ci4), "row 3: row_map(n) = 4 but entries has 5");
  add("a column >= n", hand_built<Mem>(4, rp4, {1, 2, 2, 0, 4}), "row 2: column id 4 at entry 4 is >= n = 4");
  add("a huge column", hand_built<Mem>(4, rp4, {1, 2, 2, 0, 4000000000u}),
      "row 2: column id 4000000000 at entry 4 is >= n = 4");
  {
    auto g = hand_built<Mem>(4, rp4, ci4);
    g.has_weights = true;
    add("weights flagged but empty", g,
        "the CSR graph has has_weights set but its weights view has 0 entries for nnz = 5");
    g.weights = test::to_view<Mem>(std::vector<double>{1, 2, 3});
    add("a short weights view", g, "the CSR graph has has_weights set but its weights view has 3 entries for nnz = 5");
  }
  add("decreasing row_ptr", hand_built<Mem>(4, {0, 2, 1, 5, 5}, ci4),
      "row 1: the row map decreases: row_map(1) = 2 > row_map(2) = 1");
  add("row_ptr(0) not 0", hand_built<Mem>(4, {1, 2, 3, 5, 5}, ci4), "row 0: row_map(0) = 1, must be 0");
  add("undirected over an asymmetric pattern", hand_built<Mem>(4, rp4, ci4, graph_kind::undirected),
      "row 0: entry (0, 1) has no mirror (1, 0) in an undirected graph");
  add("an unsorted row", hand_built<Mem>(4, rp4, {2, 1, 2, 0, 3}),
      "row 0: columns are not ascending (1 after 2 at entry 1)");
  add("duplicates not flagged", hand_built<Mem>(4, rp4, {1, 2, 2, 3, 3}), "row 2: column 3 is stored more than once");
  add("an empty graph with a bad start", hand_built<Mem>(0, {1}, {}), "row 0: row_ptr(0) = 1, must be 0");
  add("an empty graph with entries", hand_built<Mem>(0, {0}, {0}), "the CSR graph has no vertices but nnz = 1");
  return out;
}

}  // namespace

TEMPLATE_TEST_CASE("hand-built CSR graphs: every entry point rejects malformed structures",
                   "[hand_built][formats][algorithms]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  using graph = csr_graph<mem>;
  // The entry points, each taking the graph by const reference; the name is the one its message carries.
  const std::vector<std::pair<std::string, std::function<void(const graph&)>>> entry_points = {
      {"make_bit_graph", [&](const graph& g) { make_bit_graph(exec, g, {8}); }},
      {"make_bit_graph", [&](const graph& g) { bfs(exec, make_bit_graph(exec, g), 0); }},
      {"make_bit_graph", [&](const graph& g) { sssp(exec, make_bit_graph(exec, g), 0); }},
      {"make_bit_graph", [&](const graph& g) { pagerank(exec, make_bit_graph(exec, g)); }},
      {"make_bit_graph", [&](const graph& g) { connected_components(exec, make_bit_graph(exec, g)); }},
      {"make_bit_graph", [&](const graph& g) { triangle_count(exec, make_bit_graph(exec, g)); }},
      {"to_b2sr", [&](const graph& g) { to_b2sr(exec, g, {8}); }},
      {"to_hybrid", [&](const graph& g) { to_hybrid(exec, g); }},
      {"mxv",
       [&](const graph& g) {
         auto x = Kokkos::View<double*, mem>("x", g.n);
         auto y = Kokkos::View<double*, mem>("y", g.n);
         mxv(exec, y, no_mask{}, no_accumulator{}, min_plus<double>{}, g, Kokkos::View<const double*, mem>(x));
       }},
      {"spmspv",
       [&](const graph& g) {
         sparse_vector<double, mem> x;
         x.n = g.n;
         sparse_vector<double, mem> y;
         spmspv(exec, y, no_mask{}, min_plus<double>{}, x, g);
       }},
      {"select", [&](const graph& g) { select(exec, g, select_kind::tril); }},
      {"transpose", [&](const graph& g) { transpose(exec, g); }},
      {"symmetrize", [&](const graph& g) { symmetrize(exec, g); }},
      {"remove_self_loops", [&](const graph& g) { remove_self_loops(exec, g); }},
      {"remove_duplicates", [&](const graph& g) { remove_duplicates(exec, g); }},
      {"out_degrees", [&](const graph& g) { out_degrees(exec, g); }},
      {"in_degrees", [&](const graph& g) { in_degrees(exec, g); }},
      {"reorder::relabel",
       [&](const graph& g) {  // a valid order, so that the graph is what relabel rejects
         reorder::relabel(exec, g, reorder::to_vertex_order(exec, reorder::permutation::identity(g.n)));
       }},
  };
  int cases = 0;
  for (const auto& m : malformed_graphs<mem>()) {
    for (const auto& [func, call] : entry_points) {
      INFO(m.what << " through " << func);
      const std::string text = test::thrown_text<invalid_argument_error>([&] { call(m.g); });
      CHECK_THAT(text, StartsWith("bitgraph::" + func + ": "));
      CHECK_THAT(text, ContainsSubstring(m.message));
      ++cases;
    }
  }
  CHECK(cases >= 10 * 18);
}

TEMPLATE_TEST_CASE("hand-built CSR graphs: valid ones are accepted and give the builders' answers",
                   "[hand_built][formats][algorithms]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  // Directed, as built.
  auto d = hand_built<mem>(4, rp4, ci4);
  CHECK_FALSE(d.validated);
  auto bd = make_bit_graph(exec, d, {8});
  CHECK(bd.csr.validated);
  CHECK(test::to_vector(bfs(exec, bd, 0).levels) == std::vector<std::int32_t>{0, 1, 1, 2});
  // Undirected symmetric, weighted: 0 - 1 (2.0), 1 - 2 (0.5).
  auto u = hand_built<mem>(3, {0, 1, 3, 4}, {1, 0, 2, 1}, graph_kind::undirected);
  u.has_weights = true;
  u.weights = test::to_view<mem>(std::vector<double>{2, 2, 0.5, 0.5});
  auto bu = make_bit_graph(exec, u);
  CHECK(test::to_vector(sssp(exec, bu, 0).dist) == std::vector<double>{0, 2, 2.5});
  CHECK(triangle_count(exec, bu).triangles == 0);
  CHECK_NOTHROW(to_b2sr(exec, u, {4}));
  CHECK_NOTHROW(select(exec, u, select_kind::triu));
  // An empty graph.
  CHECK_NOTHROW(make_bit_graph(exec, hand_built<mem>(0, {0}, {})));
  // The library's own graphs carry the flag, so their entry points skip the device pass.
  auto built = build_csr(exec, test::random_edges(50, 200, 7));
  CHECK(built.validated);
  CHECK(transpose(exec, built).validated);
  // One changed by hand and marked as such is checked again.
  auto changed = hand_built<mem>(4, rp4, ci4);
  changed.validated = true;
  changed.col_idx = test::to_view<mem>(std::vector<vertex_t>{1, 2, 2, 0, 9});
  changed.validated = false;
  CHECK_THAT(test::thrown_text<invalid_argument_error>([&] { make_bit_graph(exec, changed); }),
             ContainsSubstring("row 2: column id 9 at entry 4 is >= n = 4"));
}

TEMPLATE_TEST_CASE("API misuse is rejected with invalid_argument_error", "[hand_built][misuse][algorithms]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto csr = build_csr(exec, test::random_edges(40, 160, 3, true));
  auto g = make_bit_graph(exec, csr);
  auto ucsr = build_csr(exec, test::random_edges(40, 160, 4), {.kind = graph_kind::undirected});
  auto ug = make_bit_graph(exec, ucsr);
  std::vector<std::pair<std::string, std::function<void()>>> misuse;
  auto add = [&](std::string what, std::function<void()> f) { misuse.emplace_back(std::move(what), std::move(f)); };
  // Sources out of range.
  add("bfs source n", [&] { bfs(exec, g, g.n()); });
  add("bfs source max", [&] { bfs(exec, g, invalid_vertex); });
  add("sssp source n", [&] { sssp(exec, g, g.n()); });
  add("sssp source max", [&] { sssp(exec, g, invalid_vertex); });
  // Options: NaN, infinite, negative, zero.
  auto pr = [&](auto set) {
    return [&, set] {
      pagerank_options o;
      set(o);
      pagerank(exec, g, o);
    };
  };
  add("pagerank damping NaN", pr([=](pagerank_options& o) { o.damping = nan; }));
  add("pagerank damping 1", pr([](pagerank_options& o) { o.damping = 1; }));
  add("pagerank damping -0.1", pr([](pagerank_options& o) { o.damping = -0.1; }));
  add("pagerank damping inf", pr([=](pagerank_options& o) { o.damping = inf; }));
  add("pagerank tolerance NaN", pr([=](pagerank_options& o) { o.tolerance = nan; }));
  add("pagerank tolerance -1", pr([](pagerank_options& o) { o.tolerance = -1; }));
  add("pagerank max_iterations 0", pr([](pagerank_options& o) { o.max_iterations = 0; }));
  add("pagerank max_iterations -5", pr([](pagerank_options& o) { o.max_iterations = -5; }));
  auto bf = [&](auto set) {
    return [&, set] {
      bfs_options o;
      set(o);
      bfs(exec, g, 0, o);
    };
  };
  add("bfs alpha NaN", bf([=](bfs_options& o) { o.alpha = nan; }));
  add("bfs beta NaN", bf([=](bfs_options& o) { o.beta = nan; }));
  add("bfs alpha 0", bf([](bfs_options& o) { o.alpha = 0; }));
  add("bfs beta -1", bf([](bfs_options& o) { o.beta = -1; }));
  add("bfs max_depth -1", bf([](bfs_options& o) { o.max_depth = -1; }));
  add("sssp max_iterations -1", [&] {
    sssp_options o;
    o.max_iterations = -1;
    sssp(exec, g, 0, o);
  });
  add("sssp delta NaN", [&] {
    sssp_options o;
    o.delta = nan;
    sssp(exec, g, 0, o);
  });
  add("sssp delta -1", [&] {
    sssp_options o;
    o.delta = -1;
    sssp(exec, g, 0, o);
  });
  // Structures and tile sizes.
  add("make_bit_graph tile 3", [&] { make_bit_graph(exec, csr, {3}); });
  add("make_bit_graph tile 128", [&] { make_bit_graph(exec, csr, {128}); });
  add("to_b2sr tile 0", [&] { to_b2sr(exec, csr, {0}); });
  add("to_b2sr tile 7", [&] { to_b2sr(exec, csr, {7}); });
  add("to_hybrid tile 64", [&] {
    hybrid_options o;
    o.tile_dim = 64;
    to_hybrid(exec, csr, o);
  });
  add("to_hybrid bias NaN", [&] {
    hybrid_options o;
    o.bits_bias = nan;
    to_hybrid(exec, csr, o);
  });
  add("to_hybrid bias -1", [&] {
    hybrid_options o;
    o.bits_bias = -1;
    to_hybrid(exec, csr, o);
  });
  add("triangle_count on a directed graph", [&] { triangle_count(exec, g); });
  // mxv with vectors of the wrong sizes.
  auto vec = [&](vertex_t k) { return Kokkos::View<double*, mem>("v", k); };
  add("mxv short x", [&] {
    auto y = vec(csr.n);
    mxv(exec, y, no_mask{}, no_accumulator{}, min_plus<double>{}, csr,
        Kokkos::View<const double*, mem>(vec(csr.n - 1)));
  });
  add("mxv long y", [&] {
    auto y = vec(csr.n + 1);
    mxv(exec, y, no_mask{}, no_accumulator{}, min_plus<double>{}, csr, Kokkos::View<const double*, mem>(vec(csr.n)));
  });
  for (const double ratio : {nan, -0.5}) {
    add("mxv switch_ratio " + std::to_string(ratio), [&, ratio] {
      auto y = vec(g.n());
      mxv_options o;
      o.switch_ratio = ratio;
      mxv(exec, y, no_mask{}, no_accumulator{}, min_plus<double>{}, g.b2sr,
          Kokkos::View<const double*, mem>(vec(g.n())), o);
    });
  }
  add("mxv empty y", [&] {
    auto y = vec(0);
    mxv(exec, y, no_mask{}, no_accumulator{}, min_plus<double>{}, csr, Kokkos::View<const double*, mem>(vec(csr.n)));
  });
  add("mxv push on CSR", [&] {
    auto y = vec(csr.n);
    mxv_options o;
    o.direction = mxv_direction::push;
    mxv(exec, y, no_mask{}, no_accumulator{}, min_plus<double>{}, csr, Kokkos::View<const double*, mem>(vec(csr.n)), o);
  });
  add("mxv B2SR short x", [&] {
    auto y = vec(csr.n);
    mxv(exec, y, no_mask{}, no_accumulator{}, min_plus<double>{}, g.b2sr,
        Kokkos::View<const double*, mem>(vec(csr.n + 3)));
  });
  add("spmspv dimension", [&] {
    sparse_vector<double, mem> x, y;
    x.n = csr.n + 1;
    spmspv(exec, y, no_mask{}, min_plus<double>{}, x, csr);
  });
  add("spmspv nnz beyond indices", [&] {
    sparse_vector<double, mem> x, y;
    x.n = csr.n;
    x.nnz = 3;
    spmspv(exec, y, no_mask{}, min_plus<double>{}, x, csr);
  });
  add("make_csr_graph negative n", [&] {
    auto rm = test::to_view<mem>(std::vector<offset_t>{0});
    auto en = Kokkos::View<vertex_t*, mem>("e", 0);
    make_csr_graph(exec, -1, Kokkos::View<const offset_t*, mem>(rm), Kokkos::View<const vertex_t*, mem>(en),
                   graph_kind::directed);
  });
  add("make_csr_graph row map size", [&] {
    auto rm = test::to_view<mem>(std::vector<offset_t>{0, 0});
    auto en = Kokkos::View<vertex_t*, mem>("e", 0);
    make_csr_graph(exec, 3, Kokkos::View<const offset_t*, mem>(rm), Kokkos::View<const vertex_t*, mem>(en),
                   graph_kind::directed);
  });
  (void)ug;
  REQUIRE(misuse.size() >= 30);
  for (const auto& [what, f] : misuse) {
    INFO(what);
    const std::string text = test::thrown_text<invalid_argument_error>(f);
    CHECK_THAT(text, StartsWith("bitgraph::"));
  }
}
