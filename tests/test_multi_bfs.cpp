// Multi-source BFS against one reference BFS per source, and closeness centrality against a serial reference
// (all-pairs BFS on the host), on every space.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "bitgraph/algorithms/multi_bfs.hpp"
#include "bitgraph/algorithms/reference.hpp"
#include "bitgraph/algorithms/validate.hpp"
#include "bitgraph/generators/generators.hpp"
#include "support/random_graphs.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

namespace {

struct ms_case {
  std::string name;
  edge_list el;
  graph_kind kind;
};

std::vector<ms_case> ms_cases() {
  std::vector<ms_case> c;
  c.push_back({"one vertex", test::random_edges(1, 1, 1), graph_kind::undirected});
  c.push_back({"random directed (loops, duplicates)", test::random_edges(301, 1200, 2), graph_kind::directed});
  c.push_back({"random undirected, isolated vertices", test::random_edges(500, 300, 3), graph_kind::undirected});
  c.push_back({"kron:9", gen::kronecker(9), graph_kind::undirected});
  c.push_back({"grid2d:13", gen::grid_2d(13), graph_kind::undirected});
  // Rows over a segment (1,024 entries) on every space: vertex 0 points at all others, vertex 1 at 2,500 of them,
  // 2,000 point at vertex 2, among sparse random edges; directed, the in-rows (pull) and out-rows (push) are
  // segmented differently.
  edge_list hubs = test::random_edges(3000, 2000, 4);
  for (vertex_t v = 2; v < 3000; ++v) {
    hubs.src.push_back(0);
    hubs.dst.push_back(v);
    if (v >= 500) {
      hubs.src.push_back(1);
      hubs.dst.push_back(v);
    }
    if (v >= 1000) {
      hubs.src.push_back(v);
      hubs.dst.push_back(2);
    }
  }
  c.push_back({"hubs, undirected", hubs, graph_kind::undirected});
  c.push_back({"hubs, directed", hubs, graph_kind::directed});
  return c;
}

/// Whether every level of `levels` (row i: sources[i]; 32- or 8-bit, widened) equals a serial BFS from that source on
/// `h`.
template <class Levels>
bool levels_match_reference(const Levels& levels, const host_csr& h, const std::vector<vertex_t>& sources) {
  const auto lv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), levels);
  bool all_equal = true;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const auto expect = reference::bfs_levels(h, sources[i]);
    for (vertex_t v = 0; v < h.n; ++v) all_equal = all_equal && widen_level(lv(i, v)) == expect[v];
  }
  return all_equal;
}

/// An undirected path 0 - 1 - ... - (length - 1) among n vertices (the rest isolated).
template <class ExecSpace>
auto path_csr(const ExecSpace& exec, vertex_t length, vertex_t n) {
  edge_list el;
  el.num_vertices = n;
  for (vertex_t v = 0; v + 1 < length; ++v) {
    el.src.push_back(v);
    el.dst.push_back(v + 1);
  }
  csr_build_options o;
  o.kind = graph_kind::undirected;
  return build_csr(exec, el, o);
}

}  // namespace

TEMPLATE_TEST_CASE("Multi-source BFS levels equal one BFS per source", "[multi_bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& mc : ms_cases()) {
    csr_build_options o;
    o.kind = mc.kind;
    auto g = make_bit_graph(exec, build_csr(exec, mc.el, o), {8});
    const auto h = to_host_csr(g.csr);
    const vertex_t n = g.n();
    // One workspace for every call on the graph: word counts, slot counts and level shapes change between them.
    multi_bfs_workspace<typename TestType::memory_space> ws;
    for (std::size_t k :
         {std::size_t(1), std::size_t(5), std::size_t(64), std::size_t(65), std::size_t(128), std::size_t(5)}) {
      std::vector<vertex_t> sources;
      for (std::size_t i = 0; i < k; ++i) sources.push_back(static_cast<vertex_t>((i * 7919 + 3) % n));
      if (k > 1) sources[1] = sources[0];  // duplicates are allowed
      // Default switch, push only, pull only; in the caller's order and relabelled (the workspace switches).
      for (const auto order : {multi_bfs_order::none, multi_bfs_order::degree})
        for (double ratio : {14.0, 1e-12, 1e12}) {
          INFO(mc.name << " k=" << k << " pull_ratio=" << ratio << " order=" << int(order));
          multi_bfs_options mo;
          mo.pull_ratio = ratio;
          mo.order = order;
          const auto r = multi_source_bfs(exec, g, sources, mo, ws);
          CHECK(r.order == order);
          REQUIRE(r.levels.extent(0) == k);
          REQUIRE(r.levels.extent(1) == n);
          const auto lv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r.levels);
          int depth = 0;
          std::uint64_t pairs = 0;
          bool all_equal = true;
          for (std::size_t i = 0; i < k; ++i) {
            const auto expect = reference::bfs_levels(h, sources[i]);
            for (vertex_t v = 0; v < n; ++v) {
              all_equal = all_equal && lv(i, v) == expect[v];
              if (expect[v] != unreached_level) {
                ++pairs;
                depth = std::max(depth, int(expect[v]));
              }
            }
          }
          CHECK(all_equal);
          CHECK(r.depth == depth);
          CHECK(r.pairs == pairs);
          CHECK(r.directions.size() == std::size_t(depth) + 1);
          if (ratio == 1e-12) CHECK(r.directions.find('u') == std::string::npos);
          if (ratio == 1e12 && depth > 0) CHECK(r.directions.front() == 'u');
          // Compact levels on the same workspace, through every path that writes levels: the frontier slots (half
          // as many as for 32-bit levels: k = 128 and 64 keep 8, k = 65 keeps 4), level by level once they run out
          // (grid2d:13 is 24 levels deep) or from the start (k <= 5: no slots), and a source count that is not a
          // multiple of the 16 levels a thread of the slots' pass writes (65).
          mo.compact_levels = true;
          const auto c = multi_source_bfs(exec, g, sources, mo, ws);
          CHECK(c.levels.extent(0) == 0);
          CHECK(ws.levels.extent(0) == 0);  // the 32-bit levels were released
          REQUIRE(c.levels8.extent(0) == k);
          REQUIRE(c.levels8.extent(1) == n);
          CHECK(levels_match_reference(c.levels8, h, sources));
          CHECK(c.pairs == pairs);
          CHECK(c.directions == r.directions);
        }
    }
    multi_bfs_options counts_only;
    counts_only.levels = false;
    const auto from0 = reference::bfs_levels(h, 0);
    for (bool compact : {false, true}) {  // `levels` off keeps neither width
      counts_only.compact_levels = compact;
      const auto r = multi_source_bfs(exec, g, {0}, counts_only);
      CHECK(r.levels.extent(0) == 0);
      CHECK(r.levels8.extent(0) == 0);
      CHECK(r.pairs ==
            std::uint64_t(std::count_if(from0.begin(), from0.end(), [](level_t l) { return l != unreached_level; })));
    }
  }
}

// A level over 254 does not fit 8 bits: a path of 255 vertices (depth 254 from its end) fits, one of 256 throws, and
// the workspace the throwing call left serves the next call.
TEMPLATE_TEST_CASE("Multi-source BFS rejects compact levels deeper than 254", "[multi_bfs][errors]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  multi_bfs_options mo;
  mo.compact_levels = true;
  for (std::size_t k : {std::size_t(1), std::size_t(128)}) {
    INFO("k=" << k);
    const std::vector<vertex_t> sources(k, 0);
    const auto fits = make_bit_graph(exec, path_csr(exec, 255, 255), {8});
    multi_bfs_workspace<typename TestType::memory_space> ws;
    const auto r = multi_source_bfs(exec, fits, sources, mo, ws);
    CHECK(r.depth == 254);
    CHECK(levels_match_reference(r.levels8, to_host_csr(fits.csr), sources));
    const auto deep = make_bit_graph(exec, path_csr(exec, 256, 256), {8});
    CHECK_THROWS_AS(multi_source_bfs(exec, deep, sources, mo, ws), size_error);
    const std::vector<vertex_t> middle(k, 128);  // depth 128 on the same graph and workspace
    const auto again = multi_source_bfs(exec, deep, middle, mo, ws);
    CHECK(again.depth == 128);
    CHECK(levels_match_reference(again.levels8, to_host_csr(deep.csr), middle));
  }
}

// The pull's segment list by place in the row: every segment of every row over the light bound exactly once (its
// first entry at the row's start plus its place times the segment), places non-decreasing along the list and rows
// ascending within a place; the push's list row by row. Rows of 0 to 5,000 entries, some at a segment's boundaries.
TEMPLATE_TEST_CASE("Multi-source BFS segment lists by row and by place", "[multi_bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  const std::vector<vertex_t> lengths{0, 300, 1024, 5000, 1025, 2048, 2049, 40, 257, 3000, 1};
  edge_list el;
  el.num_vertices = 5001;
  for (vertex_t v = 0; v < lengths.size(); ++v)
    for (vertex_t c = 0; c < lengths[v]; ++c) {
      el.src.push_back(v);
      el.dst.push_back(c);
    }
  csr_build_options o;
  o.kind = graph_kind::directed;
  const auto csr = build_csr(exec, el, o);
  const auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.row_ptr);
  constexpr offset_t light = 256;
  for (const bool by_place : {false, true}) {
    INFO("by place " << by_place);
    const auto seg = detail::make_multi_bfs_segments(exec, csr, light, by_place);
    const auto vertex = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), seg.vertex);
    const auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), seg.first);
    std::vector<std::pair<vertex_t, offset_t>> expect, got;
    for (vertex_t v = 0; v < lengths.size(); ++v)
      if (lengths[v] > light)
        for (offset_t e = 0; e < lengths[v]; e += detail::multi_bfs_segment) expect.emplace_back(v, rows(v) + e);
    REQUIRE(vertex.extent(0) == expect.size());
    bool ordered = true;
    for (std::size_t s = 0; s < vertex.extent(0); ++s) {
      got.emplace_back(vertex(s), first(s));
      if (s == 0) continue;
      const offset_t place = (first(s) - rows(vertex(s))) / detail::multi_bfs_segment;
      const offset_t before = (first(s - 1) - rows(vertex(s - 1))) / detail::multi_bfs_segment;
      ordered = ordered &&
                (by_place ? place > before || (place == before && vertex(s) > vertex(s - 1)) : got[s] > got[s - 1]);
    }
    CHECK(ordered);
    std::sort(got.begin(), got.end());
    CHECK(got == expect);
  }
}

// One workspace carried from graph to graph of the same size: the segment lists are the first graph's until the
// workspace sees another graph, so a stale one would give wrong levels on the second. Each graph has its own out-hub
// (a source, so push-only runs scan its row at level 1, and reached at level 1 from another source, so they scan it
// again by segments at level 2) and in-hub (so pull-only runs scan its row).
TEMPLATE_TEST_CASE("Multi-source BFS workspace follows the graph it is given", "[multi_bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  // Hub rows of n - 2 entries: over the hub bound on every space (4,096 on host spaces), so pushes run the batched
  // segment kernel; the hub graphs of `ms_cases` (rows up to 3,000) run the unbatched one on host spaces.
  constexpr vertex_t n = 5000;
  multi_bfs_workspace<typename TestType::memory_space> ws;
  for (const vertex_t hub : {4, 9, 4}) {
    edge_list el = test::random_edges(n, 3000, 20 + hub);
    for (vertex_t v = 0; v < n; ++v) {
      if (v == hub || v == hub + 1) continue;
      el.src.push_back(hub);  // out-hub
      el.dst.push_back(v);
      el.src.push_back(v);  // in-hub
      el.dst.push_back(hub + 1);
    }
    el.src.push_back(hub + 2);  // source 1 reaches the out-hub at level 1
    el.dst.push_back(hub);
    csr_build_options o;
    o.kind = graph_kind::directed;
    const auto g = make_bit_graph(exec, build_csr(exec, el, o), {8});
    const auto h = to_host_csr(g.csr);
    std::vector<vertex_t> sources{hub, hub + 2};
    for (vertex_t i = 2; i < 100; ++i) sources.push_back((i * 131) % n);
    for (const double ratio : {1e-12, 1e12}) {
      multi_bfs_options mo;
      mo.pull_ratio = ratio;
      const auto r = multi_source_bfs(exec, g, sources, mo, ws);
      INFO("hub " << hub << " pull_ratio " << ratio);
      CHECK(levels_match_reference(r.levels, h, sources));
    }
  }
}

// Pulls in column blocks (each pass scans the entries of a block of columns in every row still missing a source) give
// the same levels on every space, whatever the block count: the hub graphs split their long in-rows into segments,
// whose offsets are split too; 8 bytes ask for one block per vertex (capped at 64), 400 for a few. One workspace
// follows the block sizes, the word counts and the orders.
TEMPLATE_TEST_CASE("Multi-source BFS pulls in column blocks", "[multi_bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& mc : ms_cases()) {
    csr_build_options o;
    o.kind = mc.kind;
    const auto g = make_bit_graph(exec, build_csr(exec, mc.el, o), {8});
    const auto h = to_host_csr(g.csr);
    const vertex_t n = g.n();
    multi_bfs_workspace<typename TestType::memory_space> ws;
    for (const std::size_t k : {std::size_t(5), std::size_t(128)}) {
      std::vector<vertex_t> sources;
      for (std::size_t i = 0; i < k; ++i) sources.push_back(static_cast<vertex_t>((i * 7919 + 3) % n));
      for (const auto order : {multi_bfs_order::none, multi_bfs_order::degree})
        for (const std::size_t bytes : {std::size_t(8), std::size_t(400)})
          for (const double ratio : {6.0, 1e12}) {
            INFO(mc.name << " k=" << k << " order=" << int(order) << " block bytes=" << bytes
                         << " pull_ratio=" << ratio);
            multi_bfs_options mo;
            mo.order = order;
            mo.pull_block_bytes = bytes;
            mo.pull_ratio = ratio;
            const auto r = multi_source_bfs(exec, g, sources, mo, ws);
            const std::size_t words_bytes = std::size_t(ws.live) * (k > 64 ? 16 : 8);
            const std::size_t expect = std::min<std::size_t>(64, (words_bytes + bytes - 1) / bytes);
            CHECK(ws.pull_blocks == static_cast<int>(std::max<std::size_t>(expect, 1)));
            CHECK(levels_match_reference(r.levels, h, sources));
          }
    }
  }
}

namespace {
// Allocations of device or host memory seen through Kokkos' tool hooks while a counter is installed.
std::size_t allocations_seen = 0;
void count_allocation(Kokkos::Profiling::SpaceHandle, const char*, const void*, std::uint64_t) { ++allocations_seen; }
}  // namespace

// The workspace overload's promise: no allocation after the first call on a graph with as many sources (the levels,
// slots, segment lists and the sources' own view are kept). The first call must allocate, or the hook saw nothing.
TEMPLATE_TEST_CASE("Multi-source BFS allocates nothing on a repeated call with its workspace", "[multi_bfs]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  const auto g = make_bit_graph(exec, build_csr(exec, gen::kronecker(9), {}), {8});
  std::vector<vertex_t> sources;
  for (vertex_t i = 0; i < 100; ++i) sources.push_back((i * 37) % 512);
  multi_bfs_workspace<typename TestType::memory_space> ws;
  for (const auto order : {multi_bfs_order::none, multi_bfs_order::degree}) {
    multi_bfs_options mo;
    mo.order = order;
    allocations_seen = 0;
    Kokkos::Tools::Experimental::set_allocate_data_callback(count_allocation);
    (void)multi_source_bfs(exec, g, sources, mo, ws);
    const std::size_t first = allocations_seen;
    allocations_seen = 0;
    for (int repeat = 0; repeat < 3; ++repeat) (void)multi_source_bfs(exec, g, sources, mo, ws);
    Kokkos::Tools::Experimental::set_allocate_data_callback(nullptr);
    INFO("order " << int(order));
    CHECK(first > 0);
    CHECK(allocations_seen == 0);
  }
}

// The direction rule weighs the frontier's out-edges against the in-edges still to scan (those of the vertices some
// source has not reached, + the vertices with edges), not against every entry: a clique of 40 with the source in it, a
// vertex x hanging off it and 30 leaves on x. Level 1 pushes (39 out-edges), level 2 pulls (the clique's rows); once
// the clique is done, x's 31 out-edges (x 6 = 186) outweigh the 69 in-edges left + 71 and level 3 pulls, where the old
// rule (against all 1,622 entries) pushed; so does level 4 (the leaves' 30 edges against 39 + 71).
TEMPLATE_TEST_CASE("Multi-source BFS pulls once few in-edges are left to scan", "[multi_bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  edge_list el;
  for (vertex_t a = 0; a < 40; ++a)
    for (vertex_t b = a + 1; b < 40; ++b) {
      el.src.push_back(a);
      el.dst.push_back(b);
    }
  el.src.push_back(1);  // x = 40 hangs off vertex 1
  el.dst.push_back(40);
  for (vertex_t leaf = 41; leaf < 71; ++leaf) {
    el.src.push_back(40);
    el.dst.push_back(leaf);
  }
  el.num_vertices = 71;
  csr_build_options o;
  o.kind = graph_kind::undirected;
  const auto g = make_bit_graph(exec, build_csr(exec, el, o), {8});
  REQUIRE(g.csr.nnz == 1622);
  multi_bfs_options mo;
  mo.pull_ratio = 6;
  const auto r = multi_source_bfs(exec, g, {0}, mo);
  CHECK(r.directions == "puuu");
  CHECK(r.depth == 3);
  CHECK(levels_match_reference(r.levels, to_host_csr(g.csr), {0}));
}

// A source in a small component finishes at its first level; the pulls of the others must not wait for its bit (they
// would scan every in-row to its end), and their levels must stay exact: kron:9 beside a path 512 - 513 - 514, 127
// sources in kron:9 and one (513) on the path, pushed, pulled and switched by the default rule.
TEMPLATE_TEST_CASE("Multi-source BFS pulls past the sources that have finished", "[multi_bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  edge_list el = gen::kronecker(9);
  el.src.push_back(512);
  el.dst.push_back(513);
  el.src.push_back(513);
  el.dst.push_back(514);
  el.num_vertices = 515;
  csr_build_options o;
  o.kind = graph_kind::undirected;
  const auto g = make_bit_graph(exec, build_csr(exec, el, o), {8});
  const auto h = to_host_csr(g.csr);
  std::vector<vertex_t> sources{513};
  for (vertex_t v = 0; v < 512 && sources.size() < 128; ++v)
    if (h.row_ptr[v + 1] > h.row_ptr[v]) sources.push_back(v);
  REQUIRE(sources.size() == 128);
  std::rotate(sources.begin(), sources.begin() + 1, sources.begin() + 70);  // the path's source is bit 69: word 1
  for (const auto order : {multi_bfs_order::none, multi_bfs_order::degree})
    for (double ratio : {14.0, 1e-12, 1e12}) {
      INFO("pull_ratio=" << ratio << " order=" << int(order));
      multi_bfs_options mo;
      mo.pull_ratio = ratio;
      mo.order = order;
      const auto r = multi_source_bfs(exec, g, sources, mo);
      CHECK(levels_match_reference(r.levels, h, sources));
      if (ratio == 1e12) CHECK(r.directions.find('p') == std::string::npos);
    }
}

// A pull level before half of the pairs are reached pushes the sources whose frontier holds few vertices against the
// median source's (`slow_source_share`) and pulls the rest: levels must stay exact whichever sources go which way. On
// every case, half the sources are the vertices of largest out-degree and half of smallest (with edges), so that a
// share of 1/2 splits the second level; 1e9 pushes every source (hub rows by segments too, among them rows over a
// segment: the hubs cases) and 0 none; pulled at every level, and by the default rule; one word and two.
TEMPLATE_TEST_CASE("Multi-source BFS pushes the slow sources of early pull levels", "[multi_bfs]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  int skewed_cases = 0;  // that split with a share of 1/2 (the test is void without any)
  for (auto& mc : ms_cases()) {
    csr_build_options o;
    o.kind = mc.kind;
    auto g = make_bit_graph(exec, build_csr(exec, mc.el, o), {8});
    const auto h = to_host_csr(g.csr);
    std::vector<vertex_t> by_degree;
    for (vertex_t v = 0; v < h.n; ++v)
      if (h.row_ptr[v + 1] > h.row_ptr[v]) by_degree.push_back(v);
    if (by_degree.size() < 4) continue;
    std::stable_sort(by_degree.begin(), by_degree.end(), [&](vertex_t a, vertex_t b) {
      return h.row_ptr[a + 1] - h.row_ptr[a] > h.row_ptr[b + 1] - h.row_ptr[b];
    });
    vertex_t live = 0;  // one past the last vertex with an edge (the traversal's passes stop there)
    for (vertex_t v = 0; v < h.n; ++v)
      for (offset_t e = h.row_ptr[v]; e < h.row_ptr[v + 1]; ++e) live = std::max({live, v + 1, h.col_idx[e] + 1});
    multi_bfs_workspace<typename TestType::memory_space> ws;
    for (std::size_t k : {std::size_t(40), std::size_t(128)}) {
      std::vector<vertex_t> sources;
      for (std::size_t i = 0; i < k; ++i)  // alternately from the top and the bottom of the degree order
        sources.push_back(
            by_degree[i % 2 == 0 ? (i / 2) % by_degree.size() : by_degree.size() - 1 - (i / 2) % by_degree.size()]);
      // Pulled at every level, level 1 (every frontier one vertex) splits with a share of 1e9 only; level 2, whose
      // frontiers are the sources' level-1 vertices, splits with a share of 1/2 when it comes before half of the pairs
      // are reached and a source found fewer than half the median advancing source's vertices.
      std::vector<std::uint64_t> first;
      std::uint64_t pairs = k;
      for (const vertex_t v : sources) {
        const auto lv = reference::bfs_levels(h, v);
        first.push_back(std::uint64_t(std::count(lv.begin(), lv.end(), level_t(1))));
        pairs += first.back();
      }
      std::vector<std::uint64_t> advancing;
      for (const auto c : first)
        if (c > 0) advancing.push_back(c);
      std::sort(advancing.begin(), advancing.end());
      const bool skewed = advancing.size() >= 2 && 2 * pairs < k * std::uint64_t(live) &&
                          2 * advancing.front() < advancing[advancing.size() / 2];
      skewed_cases += skewed ? 1 : 0;
      for (double ratio : {6.0, 1e12})
        for (double share : {-1.0, 0.0, 1.0 / 32, 0.5, 1e9}) {
          INFO(mc.name << " k=" << k << " pull_ratio=" << ratio << " share=" << share);
          multi_bfs_options mo;
          mo.pull_ratio = ratio;
          mo.slow_source_share = share;
          mo.order = multi_bfs_order::none;
          const auto r = multi_source_bfs(exec, g, sources, mo, ws);
          CHECK(levels_match_reference(r.levels, h, sources));
          if (share == 0.0) CHECK(r.split_levels == 0);
          // Pulled from level 1 on (its sources' frontiers are the sources themselves): split where any is slow.
          if (ratio == 1e12 && share == 1e9) CHECK(r.split_levels >= 1);
          if (ratio == 1e12 && share == 0.5 && skewed) CHECK(r.split_levels >= 1);
          CHECK(r.split_levels <= static_cast<int>(std::count(r.directions.begin(), r.directions.end(), 'u')));
        }
    }
  }
  CHECK(skewed_cases >= 4);
}

// Vertices without edges sit at the end in degree order and the passes over vertices stop before them, so nothing
// writes their frontier slots: they must read zero even where the slots' memory held another graph's traversal (one
// workspace, the same n: the second graph's buffers are allocated where the first's were freed). The second graph
// is directed: 100 vertices with in-edges only (zero out-degree, among the isolated ones in degree order) must still
// be updated, and isolated vertices are sources.
TEMPLATE_TEST_CASE("Multi-source BFS skips the vertices without edges", "[multi_bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  constexpr vertex_t n = 3000;
  csr_build_options o;
  o.kind = graph_kind::directed;
  const auto first = make_bit_graph(exec, build_csr(exec, test::random_edges(n, 40000, 31), o), {8});
  edge_list el = test::random_edges(1500, 20000, 32);
  el.num_vertices = n;
  for (vertex_t v = 1500; v < 1600; ++v) {
    el.src.push_back(v % 1500);
    el.dst.push_back(v);
  }
  const auto second = make_bit_graph(exec, build_csr(exec, el, o), {8});
  std::vector<vertex_t> sources;
  for (vertex_t i = 0; i < 125; ++i) sources.push_back((i * 11) % 1500);
  sources.push_back(2999);  // isolated
  sources.push_back(2000);  // isolated
  sources.push_back(1550);  // in-edges only
  multi_bfs_workspace<typename TestType::memory_space> ws;
  struct step {
    const decltype(first)* g;
    bool levels;
    double pull_ratio;
  };
  // Levels off in between: two alternating slots, whose entries beyond `live` keep the seed's bits.
  for (const step& c : {step{&first, true, 6}, step{&second, true, 6}, step{&second, false, 6},
                        step{&second, true, 1e-12}, step{&second, true, 1e12}}) {
    multi_bfs_options mo;
    mo.order = multi_bfs_order::degree;
    mo.levels = c.levels;
    mo.pull_ratio = c.pull_ratio;
    const auto r = multi_source_bfs(exec, *c.g, sources, mo, ws);
    if (!c.levels) continue;
    INFO("graph " << (c.g == &first ? 1 : 2) << " pull_ratio " << c.pull_ratio);
    CHECK(levels_match_reference(r.levels, to_host_csr(c.g->csr), sources));
  }
  CHECK(ws.live == 1600);  // every vertex with an edge, the in-only ones included, before the isolated ones
}

// The automatic order relabels skewed graphs when the caller expects enough traversals, and a workspace built under
// it keeps its choice.
TEMPLATE_TEST_CASE("Multi-source BFS relabels skewed graphs for many traversals", "[multi_bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  const auto cases = ms_cases();
  const auto& hubs = cases[5];
  REQUIRE(hubs.name == "hubs, undirected");
  csr_build_options o;
  o.kind = hubs.kind;
  const auto skewed = make_bit_graph(exec, build_csr(exec, hubs.el, o), {8});
  const auto even = make_bit_graph(exec, build_csr(exec, gen::grid_2d(40), o), {8});
  CHECK(detail::multi_bfs_degree_skew(exec, skewed.csr) > 100);
  CHECK(detail::multi_bfs_degree_skew(exec, even.csr) < 1.1);
  const std::vector<vertex_t> sources{0, 5, 17, 300};
  multi_bfs_options once, many;
  many.traversals = 1000;
  CHECK(multi_source_bfs(exec, skewed, sources, once).order == multi_bfs_order::none);
  CHECK(multi_source_bfs(exec, skewed, sources, many).order == multi_bfs_order::degree);
  CHECK(multi_source_bfs(exec, even, sources, many).order == multi_bfs_order::none);
  multi_bfs_workspace<typename TestType::memory_space> ws;
  CHECK(multi_source_bfs(exec, skewed, sources, many, ws).order == multi_bfs_order::degree);
  CHECK(ws.order == multi_bfs_order::degree);
  CHECK(multi_source_bfs(exec, skewed, sources, once, ws).order == multi_bfs_order::degree);
  multi_bfs_options forced;
  forced.order = multi_bfs_order::none;
  CHECK(multi_source_bfs(exec, skewed, sources, forced, ws).order == multi_bfs_order::none);
  CHECK(multi_source_bfs(exec, skewed, sources, once, ws).order == multi_bfs_order::none);
  closeness_options co;
  CHECK(closeness_centrality(exec, even, co).order == multi_bfs_order::none);
}

// The levels of a 128-source BFS on a 4 M-vertex graph are a 128 x 4 M view (2 GiB). Kokkos 3.4 fills a rank-2 view
// with a 2-D launch whose y-dimension then exceeds CUDA's 65,535 blocks: the fill failed unreported and the pairs
// no source reaches kept whatever the allocation held (found by the bench on urand:22, issue 15). A path on the
// first vertices and millions of isolated ones: every unreached pair must read unreached_level. GPU only (2 GiB).
TEMPLATE_TEST_CASE("Multi-source BFS sets every unreached level of a 128 x 4 M levels view", "[multi_bfs][gpu]",
                   BITGRAPH_TEST_SPACES) {
  if constexpr (!is_cuda_space_v<TestType>) {
    SKIP("2 GiB of levels: run on the GPU only");
  } else {
    TestType exec;
    constexpr vertex_t n = vertex_t(1) << 22, path = 200;
    const auto g = make_bit_graph(exec, path_csr(exec, path, n));
    std::vector<vertex_t> sources(multi_bfs_max_sources);
    for (std::size_t i = 0; i < sources.size(); ++i) sources[i] = static_cast<vertex_t>(i);
    const auto r = multi_source_bfs(exec, g, sources);
    const auto lv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r.levels);
    std::uint64_t wrong = 0;
    for (std::size_t i = 0; i < sources.size(); ++i)
      for (vertex_t v = 0; v < n; ++v) {
        const level_t expect = v < path ? level_t(v > sources[i] ? v - sources[i] : sources[i] - v) : unreached_level;
        wrong += lv(i, v) != expect;
      }
    CHECK(wrong == 0);
    CHECK(r.pairs == std::uint64_t(sources.size()) * path);
  }
}

TEMPLATE_TEST_CASE("Closeness centrality equals the all-pairs reference", "[multi_bfs][closeness]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& mc : ms_cases()) {
    csr_build_options o;
    o.kind = mc.kind;
    auto g = make_bit_graph(exec, build_csr(exec, mc.el, o), {8});
    const auto h = to_host_csr(g.csr);
    const auto expect = reference::closeness(h);
    INFO(mc.name);
    const auto exact = closeness_centrality(exec, g);
    CHECK(exact.exact);
    CHECK(exact.sources == g.n());
    CHECK(exact.traversals == int((g.n() + 127) / 128));
    const auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), exact.closeness);
    bool close = true;
    for (vertex_t v = 0; v < g.n(); ++v) close = close && std::abs(c(v) - expect[v]) <= 1e-12 * (1 + expect[v]);
    CHECK(close);
    // Relabelled traversals: the sums land in the caller's ids.
    closeness_options relabelled;
    relabelled.order = multi_bfs_order::degree;
    const auto by_degree = closeness_centrality(exec, g, relabelled);
    CHECK(by_degree.order == multi_bfs_order::degree);
    const auto cd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), by_degree.closeness);
    bool close_degree = true;
    for (vertex_t v = 0; v < g.n(); ++v)
      close_degree = close_degree && std::abs(cd(v) - expect[v]) <= 1e-12 * (1 + expect[v]);
    CHECK(close_degree);
    // As many samples as vertices is the exact computation.
    closeness_options all;
    all.samples = g.n();
    const auto same = closeness_centrality(exec, g, all);
    CHECK(same.exact);
    const auto c2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), same.closeness);
    bool equal = true;
    for (vertex_t v = 0; v < g.n(); ++v) equal = equal && c2(v) == c(v);
    CHECK(equal);
    CHECK(same.sampled.empty());
    CHECK(validate::check_closeness(h, std::vector<double>(c.data(), c.data() + g.n())));
    // Sampled: the estimate equals the reference over the sources the result names (distinct, in range), for
    // samples within one traversal and over two.
    for (const vertex_t samples : {vertex_t(5), vertex_t(130)}) {
      if (samples >= g.n()) continue;
      closeness_options so;
      so.samples = samples;
      so.seed = 11 + samples;
      const auto est = closeness_centrality(exec, g, so);
      CHECK(!est.exact);
      REQUIRE(est.sampled.size() == samples);
      CHECK(est.sources == samples);
      const auto ce = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), est.closeness);
      const std::vector<double> got(ce.data(), ce.data() + g.n());
      CHECK(validate::check_closeness(h, got, est.sampled));  // throws for a repeated or out-of-range source
      const auto sampled_expect = reference::closeness(h, est.sampled);
      bool close_sampled = true;
      for (vertex_t v = 0; v < g.n(); ++v)
        close_sampled = close_sampled && std::abs(got[v] - sampled_expect[v]) <= 1e-12 * (1 + sampled_expect[v]);
      CHECK(close_sampled);
      // Another seed draws another sample.
      so.seed += 1;
      CHECK(closeness_centrality(exec, g, so).sampled != est.sampled);
    }
  }
  // Sampled on a complete graph: every distance is 1, so every estimate is exactly 1.
  edge_list k40;
  k40.num_vertices = 40;
  for (vertex_t u = 0; u < 40; ++u)
    for (vertex_t v = 0; v < 40; ++v)
      if (u != v) {
        k40.src.push_back(u);
        k40.dst.push_back(v);
      }
  auto g = make_bit_graph(exec, build_csr(exec, k40), {8});
  closeness_options s;
  s.samples = 7;
  const auto est = closeness_centrality(exec, g, s);
  CHECK(!est.exact);
  CHECK(est.sources == 7);
  const auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), est.closeness);
  for (vertex_t v = 0; v < 40; ++v) CHECK(c(v) == 1.0);
  // Sampled on a path of 50: estimates positive and finite, the middle above the ends.
  edge_list p50;
  p50.num_vertices = 50;
  for (vertex_t v = 0; v + 1 < 50; ++v) {
    p50.src.push_back(v);
    p50.dst.push_back(v + 1);
  }
  csr_build_options uo;
  uo.kind = graph_kind::undirected;
  auto path = make_bit_graph(exec, build_csr(exec, p50, uo), {8});
  s.samples = 10;
  const auto pe =
      Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), closeness_centrality(exec, path, s).closeness);
  for (vertex_t v = 0; v < 50; ++v) CHECK((std::isfinite(pe(v)) && pe(v) > 0));
  CHECK(pe(25) > pe(0));
  CHECK(pe(25) > pe(49));
}

TEMPLATE_TEST_CASE("Multi-source BFS and closeness reject bad arguments", "[multi_bfs][errors]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = make_bit_graph(exec, build_csr(exec, test::random_edges(20, 40, 1)), {8});
  CHECK_THROWS_AS(multi_source_bfs(exec, g, {}), invalid_argument_error);
  CHECK_THROWS_AS(multi_source_bfs(exec, g, std::vector<vertex_t>(129, 0)), invalid_argument_error);
  CHECK_THROWS_AS(multi_source_bfs(exec, g, {0, 20}), invalid_argument_error);
  for (double bad : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    multi_bfs_options o;
    o.pull_ratio = bad;
    CHECK_THROWS_AS(multi_source_bfs(exec, g, {0}, o), invalid_argument_error);
  }
  for (double bad : {std::nan(""), std::numeric_limits<double>::infinity()}) {
    multi_bfs_options o;
    o.slow_source_share = bad;
    CHECK_THROWS_AS(multi_source_bfs(exec, g, {0}, o), invalid_argument_error);
  }
  multi_bfs_options none;
  none.traversals = 0;
  CHECK_THROWS_AS(multi_source_bfs(exec, g, {0}, none), invalid_argument_error);
  auto empty = make_bit_graph(exec, build_csr(exec, edge_list{}), {8});
  CHECK_THROWS_AS(closeness_centrality(exec, empty), invalid_argument_error);
}
