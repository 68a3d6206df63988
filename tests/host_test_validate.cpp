// Tests of the validators and host reference implementations: correct answers pass, corrupted ones fail
// with the right diagnosis, bad inputs throw.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "bitgraph/algorithms/reference.hpp"
#include "bitgraph/algorithms/validate.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/generators/generators.hpp"

using namespace bitgraph;
using namespace bitgraph::validate;
using Catch::Matchers::ContainsSubstring;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

struct wedge {
  vertex_t u, v;
  double w = 1.0;
};

/// CSR from weighted edges: rows sorted by column (stable, so repeated entries keep their order);
/// undirected graphs get both directions; repeats are kept when `keep_duplicates`, else merged (first kept).
host_csr make_graph(vertex_t n, std::vector<wedge> edges, graph_kind kind, bool weighted = false,
                    bool keep_duplicates = false) {
  if (kind == graph_kind::undirected) {
    const std::size_t m = edges.size();
    for (std::size_t e = 0; e < m; ++e)
      if (edges[e].u != edges[e].v) edges.push_back({edges[e].v, edges[e].u, edges[e].w});
  }
  std::stable_sort(edges.begin(), edges.end(),
                   [](const wedge& a, const wedge& b) { return std::tie(a.u, a.v) < std::tie(b.u, b.v); });
  if (!keep_duplicates)
    edges.erase(std::unique(edges.begin(), edges.end(),
                            [](const wedge& a, const wedge& b) { return a.u == b.u && a.v == b.v; }),
                edges.end());
  host_csr g;
  g.n = n;
  g.kind = kind;
  g.has_duplicates = keep_duplicates;
  g.has_weights = weighted;
  g.row_ptr.assign(std::size_t(n) + 1, 0);
  for (const auto& e : edges) ++g.row_ptr[e.u + 1];
  for (vertex_t v = 0; v < n; ++v) g.row_ptr[v + 1] += g.row_ptr[v];
  for (const auto& e : edges) {
    g.col_idx.push_back(e.v);
    if (weighted) g.weights.push_back(e.w);
  }
  return g;
}

host_csr undirected(vertex_t n, std::vector<wedge> edges) {
  return make_graph(n, std::move(edges), graph_kind::undirected);
}

host_csr directed(vertex_t n, std::vector<wedge> edges) {
  return make_graph(n, std::move(edges), graph_kind::directed);
}

host_csr complete(vertex_t n) {
  std::vector<wedge> e;
  for (vertex_t a = 0; a < n; ++a)
    for (vertex_t b = a + 1; b < n; ++b) e.push_back({a, b});
  return undirected(n, e);
}

host_csr cycle(vertex_t n, graph_kind kind) {
  std::vector<wedge> e;
  for (vertex_t v = 0; v < n; ++v) e.push_back({v, (v + 1) % n});
  return make_graph(n, e, kind);
}

/// Triangles by definition on a dense adjacency matrix, for cross-checking the fast count.
std::uint64_t brute_force_triangles(const host_csr& g) {
  std::vector<std::vector<char>> a(g.n, std::vector<char>(g.n, 0));
  for (vertex_t u = 0; u < g.n; ++u)
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p)
      if (g.col_idx[p] != u) a[u][g.col_idx[p]] = a[g.col_idx[p]][u] = 1;
  std::uint64_t t = 0;
  for (vertex_t x = 0; x < g.n; ++x)
    for (vertex_t y = x + 1; y < g.n; ++y)
      if (a[x][y])
        for (vertex_t z = y + 1; z < g.n; ++z) t += a[x][z] && a[y][z];
  return t;
}

/// GAP's kron graph: the generator's raw entries (loops, repeats, one direction) read as undirected.
host_csr gap_kron_raw(unsigned scale) {
  const auto el = gen::kronecker(scale);
  std::vector<wedge> e(el.size());
  for (std::size_t i = 0; i < el.size(); ++i) e[i] = {el.src[i], el.dst[i]};
  return make_graph(static_cast<vertex_t>(el.num_vertices), e, graph_kind::directed, false, true);
}

}  // namespace

// ---------------------------------------------------------------------------------------------- BFS

TEST_CASE("check_bfs accepts exact levels and any valid parent tree", "[validate]") {
  // Diamond 0-{1,2}-3, tail 3-4, isolated 5.
  const auto g = undirected(6, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}});
  const std::vector<level_t> levels{0, 1, 1, 2, 3, unreached_level};
  REQUIRE(reference::bfs_levels(g, 0) == levels);
  const std::vector<vertex_t> via1{0, 0, 0, 1, 3, invalid_vertex};
  const std::vector<vertex_t> via2{0, 0, 0, 2, 3, invalid_vertex};
  CHECK(check_bfs(g, 0, levels));
  CHECK(check_bfs(g, 0, levels, &via1));
  CHECK(check_bfs(g, 0, levels, &via2));
  CHECK(check_bfs_parents(g, 0, via2));
  const auto ok = check_bfs(g, 0, levels, &via1);
  CHECK(ok.errors == 0);
  CHECK(ok.message.empty());

  // From the isolated vertex nothing else is reached.
  const std::vector<level_t> alone(6, unreached_level);
  auto from5 = alone;
  from5[5] = 0;
  CHECK(check_bfs(g, 5, from5));
  CHECK_FALSE(check_bfs(g, 5, levels));
}

TEST_CASE("check_bfs rejects wrong levels", "[validate]") {
  const auto g = undirected(6, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}});
  const std::vector<level_t> good{0, 1, 1, 2, 3, unreached_level};

  auto wrong = good;
  wrong[3] = 3;
  auto v = check_bfs(g, 0, wrong);
  CHECK_FALSE(v.ok);
  CHECK(v.errors == 1);
  CHECK_THAT(v.message, ContainsSubstring("vertex 3 has level 3, expected 2"));

  auto unreached_marked = good;
  unreached_marked[5] = 4;
  v = check_bfs(g, 0, unreached_marked);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("vertex 5 is unreachable"));

  auto reached_missing = good;
  reached_missing[4] = unreached_level;
  v = check_bfs(g, 0, reached_missing);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("vertex 4 is reachable at level 3 but marked unreached"));

  auto source_bad = good;
  source_bad[0] = 1;
  CHECK_FALSE(check_bfs(g, 0, source_bad));

  // Every vertex wrong: all counted, only the first few listed.
  const std::vector<level_t> shifted{1, 2, 2, 3, 4, 0};
  v = check_bfs(g, 0, shifted);
  CHECK(v.errors == 6);
  CHECK_THAT(v.message, ContainsSubstring("1 more"));
}

TEST_CASE("check_bfs rejects bad parents", "[validate]") {
  // Path 0-1-2-3 and pendant 0-4; 5 isolated. 4 sits on level 1 like 1 but is not adjacent to 2.
  const auto g = undirected(6, {{0, 1}, {1, 2}, {2, 3}, {0, 4}});
  const std::vector<level_t> levels{0, 1, 2, 3, 1, unreached_level};
  const std::vector<vertex_t> good{0, 0, 1, 2, 0, invalid_vertex};
  REQUIRE(check_bfs(g, 0, levels, &good));

  auto no_edge = good;
  no_edge[2] = 4;  // level 1, but 4 - 2 is not an edge
  auto v = check_bfs(g, 0, levels, &no_edge);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("no edge 4 -> 2"));

  auto wrong_level = good;
  wrong_level[1] = 2;  // 2 - 1 is an edge, but 2 is deeper than 1
  v = check_bfs(g, 0, levels, &wrong_level);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("has parent 2 at level 2, expected level 0"));

  auto source_parent = good;
  source_parent[0] = invalid_vertex;
  CHECK_FALSE(check_bfs(g, 0, levels, &source_parent));

  auto unreached_parent = good;
  unreached_parent[5] = 0;
  CHECK_FALSE(check_bfs(g, 0, levels, &unreached_parent));

  auto orphan = good;
  orphan[3] = invalid_vertex;
  CHECK_FALSE(check_bfs(g, 0, levels, &orphan));

  auto out_of_range = good;
  out_of_range[3] = 17;
  CHECK_FALSE(check_bfs_parents(g, 0, out_of_range));

  // A valid tree does not excuse wrong levels.
  auto bad_levels = levels;
  bad_levels[3] = 2;
  CHECK_FALSE(check_bfs(g, 0, bad_levels, &good));
}

TEST_CASE("check_bfs follows edge direction", "[validate]") {
  // 0 -> 1 -> 2, 3 -> 1, 2 -> 2 (loop), 1 -> 3 twice (duplicate entries).
  const auto g = make_graph(5, {{0, 1}, {1, 2}, {3, 1}, {2, 2}, {1, 3}, {1, 3}}, graph_kind::directed, false, true);
  const std::vector<level_t> from0{0, 1, 2, 2, unreached_level};
  CHECK(reference::bfs_levels(g, 0) == from0);
  const std::vector<vertex_t> parents{0, 0, 1, 1, invalid_vertex};
  CHECK(check_bfs(g, 0, from0, &parents));

  // From 2 only the loop: nothing else reachable.
  std::vector<level_t> from2(5, unreached_level);
  from2[2] = 0;
  CHECK(check_bfs(g, 2, from2));

  const std::vector<level_t> from3{unreached_level, 1, 2, 0, unreached_level};
  const std::vector<vertex_t> tree3{invalid_vertex, 3, 1, 3, invalid_vertex};
  CHECK(check_bfs(g, 3, from3, &tree3));
  // The tree from 0 claims source 0 as its own parent, not 3.
  CHECK_FALSE(check_bfs(g, 3, from3, &parents));

  // 0 -> 1, 0 -> 2, 1 -> 3, 3 -> 2: 2 is on level 1 and linked to 3, but only by 3 -> 2, so it cannot be
  // 3's parent.
  const auto h = directed(4, {{0, 1}, {0, 2}, {1, 3}, {3, 2}});
  const std::vector<level_t> hl{0, 1, 1, 2};
  const std::vector<vertex_t> hp{0, 0, 0, 1};
  CHECK(check_bfs(h, 0, hl, &hp));
  const std::vector<vertex_t> against_direction{0, 0, 0, 2};
  const auto v = check_bfs(h, 0, hl, &against_direction);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("no edge 2 -> 3"));
}

TEST_CASE("check_bfs on tiny graphs and bad inputs", "[validate]") {
  const auto one = directed(1, {});
  CHECK(check_bfs(one, 0, {0}));
  const std::vector<vertex_t> self{0};
  CHECK(check_bfs(one, 0, {0}, &self));
  CHECK_FALSE(check_bfs(one, 0, {unreached_level}));

  const auto g = cycle(4, graph_kind::undirected);
  const std::vector<level_t> levels{0, 1, 2, 1};
  CHECK(check_bfs(g, 0, levels));
  CHECK_THROWS_AS(check_bfs(g, 4, levels), invalid_argument_error);
  CHECK_THROWS_AS(check_bfs(g, 0, {0, 1, 2}), invalid_argument_error);
  const std::vector<vertex_t> short_parents{0, 0};
  CHECK_THROWS_AS(check_bfs(g, 0, levels, &short_parents), invalid_argument_error);
  CHECK_THROWS_AS(reference::bfs_levels(directed(0, {}), 0), invalid_argument_error);

  auto bad = g;
  bad.row_ptr.pop_back();
  CHECK_THROWS_WITH(check_bfs(bad, 0, levels), ContainsSubstring("row_ptr has 4 entries"));
  bad = g;
  std::swap(bad.col_idx[0], bad.col_idx[1]);
  CHECK_THROWS_WITH(check_bfs(bad, 0, levels), ContainsSubstring("not strictly ascending"));
  bad = g;
  bad.col_idx[1] = 9;
  CHECK_THROWS_WITH(check_bfs(bad, 0, levels), ContainsSubstring("column 9"));
  bad = g;
  bad.row_ptr[2] = 100;
  CHECK_THROWS_AS(check_bfs(bad, 0, levels), invalid_argument_error);
  bad = g;
  bad.weights = {1.0};
  CHECK_THROWS_WITH(check_bfs(bad, 0, levels), ContainsSubstring("has_weights is false"));
  bad = g;
  bad.col_idx[1] = bad.col_idx[0];  // a repeat in a graph that says it has none
  CHECK_THROWS_AS(check_bfs(bad, 0, levels), invalid_argument_error);
}

// --------------------------------------------------------------------------------------------- SSSP

namespace {
/// 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (1), 2 -> 3 (5), 3 -> 0 (1); 4 is isolated.
host_csr sssp_graph() {
  return make_graph(5, {{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 1}, {2, 3, 5}, {3, 0, 1}}, graph_kind::directed, true);
}
}  // namespace

TEST_CASE("reference::dijkstra and check_sssp on a small weighted graph", "[validate]") {
  const auto g = sssp_graph();
  const std::vector<double> dist{0, 3, 1, 4, inf};
  CHECK(reference::dijkstra(g, 0) == dist);
  CHECK(check_sssp(g, 0, dist));
  const std::vector<double> from3{1, 4, 2, 0, inf};
  CHECK(reference::dijkstra(g, 3) == from3);
  CHECK(check_sssp(g, 3, from3));
}

TEST_CASE("check_sssp rejects wrong distances", "[validate]") {
  const auto g = sssp_graph();
  const std::vector<double> good{0, 3, 1, 4, inf};

  auto relaxable = good;
  relaxable[1] = 4;  // the direct edge, not the shortest path through 2
  auto v = check_sssp(g, 0, relaxable);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("edge 2 -> 1 (weight 2) relaxes"));

  auto too_small = good;
  too_small[3] = 3;
  v = check_sssp(g, 0, too_small);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("vertex 3: distance 3 is not the length of any path"));

  auto unreachable_finite = good;
  unreachable_finite[4] = 100;
  CHECK_FALSE(check_sssp(g, 0, unreachable_finite));

  auto reachable_infinite = good;
  reachable_infinite[3] = inf;
  v = check_sssp(g, 0, reachable_infinite);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("relaxes"));

  auto unreachable_big = good;
  unreachable_big[4] = std::numeric_limits<double>::max();  // "infinity" must be +inf exactly
  CHECK_FALSE(check_sssp(g, 0, unreachable_big));

  auto source = good;
  source[0] = 1;
  CHECK_FALSE(check_sssp(g, 0, source));

  auto nan = good;
  nan[2] = std::nan("");
  CHECK_FALSE(check_sssp(g, 0, nan));

  auto negative = good;
  negative[2] = -1;
  CHECK_FALSE(check_sssp(g, 0, negative));

  // Integer weights: distances are exact, no tolerance.
  auto tiny_off = good;
  tiny_off[3] = 4 + 1e-12;
  CHECK_FALSE(check_sssp(g, 0, tiny_off));
}

TEST_CASE("check_sssp rejects zero-weight cycles propped up below their distance without Dijkstra", "[validate]") {
  // Above the Dijkstra limit, so only the relaxation and tight-path rules judge.
  const vertex_t n = sssp_reference_max_vertices + 1;
  const auto g = make_graph(n, {{0, 1, 5}, {1, 2, 0}, {2, 1, 0}, {2, 3, 1}}, graph_kind::directed, true);
  std::vector<double> dist(n, inf);
  dist[0] = 0;
  dist[1] = dist[2] = 5;
  dist[3] = 6;
  CHECK(check_sssp(g, 0, dist));
  dist[1] = dist[2] = 3;  // no edge relaxes (0 + 5 > 3, 3 + 0 = 3), but no path has length 3
  dist[3] = 4;
  const auto v = check_sssp(g, 0, dist);
  CHECK_FALSE(v.ok);
  CHECK(v.errors == 3);
  dist = std::vector<double>(n, inf);
  dist[0] = 0;
  dist[1] = dist[2] = 5;
  dist[3] = 6;
  dist[n - 1] = 1;  // isolated vertex given a distance
  CHECK_FALSE(check_sssp(g, 0, dist));
}

TEST_CASE("check_sssp tolerance, duplicates, unweighted graphs and bad inputs", "[validate]") {
  // Non-integer weights: 0.1 + 0.2 != 0.3 in doubles; both sums are accepted, a real difference is not.
  const auto g = make_graph(3, {{0, 1, 0.1}, {1, 2, 0.2}, {0, 2, 0.3}}, graph_kind::directed, true);
  CHECK(check_sssp(g, 0, {0, 0.1, 0.3}));
  CHECK(check_sssp(g, 0, {0, 0.1, 0.1 + 0.2}));
  CHECK_FALSE(check_sssp(g, 0, {0, 0.1, 0.3 * (1 + 1e-6)}));
  CHECK_FALSE(check_sssp(g, 0, {0, 0.1, 0.3 * (1 - 1e-6)}));

  // Repeated entries: the lightest one counts.
  const auto dup = make_graph(2, {{0, 1, 5}, {0, 1, 2}}, graph_kind::directed, true, true);
  CHECK(reference::dijkstra(dup, 0) == std::vector<double>{0, 2});
  CHECK(check_sssp(dup, 0, {0, 2}));
  CHECK_FALSE(check_sssp(dup, 0, {0, 5}));

  // Unweighted: hop counts.
  const auto path = undirected(4, {{0, 1}, {1, 2}, {2, 3}});
  CHECK(check_sssp(path, 1, {1, 0, 1, 2}));
  CHECK_FALSE(check_sssp(path, 1, {1, 0, 1, 3}));
  CHECK(check_sssp(directed(1, {}), 0, {0}));
  // Self-loop with zero weight does not change anything.
  CHECK(check_sssp(make_graph(2, {{0, 0, 0}, {0, 1, 7}}, graph_kind::directed, true), 0, {0, 7}));

  // Negative, NaN or infinite weights: a failed verdict naming the edges, not an exception (issue 18:
  // `--validate` must keep its exit-code contract); the reference itself still refuses them.
  auto neg = make_graph(2, {{0, 1, -1}}, graph_kind::directed, true);
  auto bad = check_sssp(neg, 0, {0, -1});
  CHECK_FALSE(bad.ok);
  CHECK(bad.errors == 1);
  CHECK_THAT(bad.message, ContainsSubstring("edge 0 -> 1"));
  CHECK_THAT(bad.message, ContainsSubstring("finite non-negative"));
  CHECK_THROWS_AS(reference::dijkstra(neg, 0), invalid_argument_error);
  neg.weights[0] = std::nan("");
  CHECK_NOTHROW(bad = check_sssp(neg, 0, {0, 1}));
  CHECK_FALSE(bad.ok);
  CHECK_THAT(bad.message, ContainsSubstring("weight nan"));
  for (double w : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    neg.weights[0] = w;
    CHECK_NOTHROW(bad = check_sssp(neg, 0, {0, std::numeric_limits<double>::infinity()}));
    CHECK_FALSE(bad.ok);
    CHECK_THAT(bad.message, ContainsSubstring("inf"));
  }
  // Every bad edge counts; the first few are listed.
  auto many = make_graph(8, {{0, 1, std::nan("")}, {1, 2, 1}, {2, 3, -2}, {3, 4, std::nan("")}, {4, 5, 3}},
                         graph_kind::directed, true);
  bad = check_sssp(many, 0, std::vector<double>(8, 0.0));
  CHECK_FALSE(bad.ok);
  CHECK(bad.errors == 3);
  CHECK_THROWS_AS(check_sssp(path, 4, {0, 1, 2, 3}), invalid_argument_error);
  CHECK_THROWS_AS(check_sssp(path, 0, {0, 1, 2}), invalid_argument_error);
  auto short_weights = g;
  short_weights.weights.pop_back();
  CHECK_THROWS_AS(check_sssp(short_weights, 0, {0, 0.1, 0.3}), invalid_argument_error);
}

// ----------------------------------------------------------------------------------------- PageRank

TEST_CASE("reference::pagerank on hand-computed graphs", "[validate]") {
  // A directed 3-cycle is its own fixed point from the uniform start.
  const auto c3 = cycle(3, graph_kind::directed);
  const auto r = reference::pagerank(c3);
  CHECK(r.converged);
  CHECK(r.iterations == 1);
  for (double x : r.rank) CHECK_THAT(x, WithinRel(1.0 / 3.0, 1e-15));
  CHECK(check_pagerank(c3, r.rank));
  CHECK(check_pagerank(c3, {1.0 / 3, 1.0 / 3, 1.0 / 3}));

  // 0 -> 1, where 1 is a sink. Redistributing, the fixed point solves r0 = (1 - d) / 2 + d / 2 * r1 with
  // r0 + r1 = 1, so r0 = 1 / (2 + d).
  const auto two = directed(2, {{0, 1}});
  reference::pagerank_params tight;
  tight.tolerance = 1e-13;
  tight.max_iterations = 1000;
  const auto red = reference::pagerank(two, tight);
  CHECK(red.converged);
  CHECK_THAT(red.rank[0], WithinAbs(1.0 / 2.85, 1e-12));
  CHECK_THAT(red.rank[1], WithinAbs(1.0 - 1.0 / 2.85, 1e-12));
  // Ignoring sinks: r0 = (1 - d) / 2 = 0.075 and r1 = 0.075 + d * 0.075, reached after two iterations.
  tight.dangling = pagerank_dangling::ignore;
  const auto ign = reference::pagerank(two, tight);
  CHECK(ign.converged);
  CHECK(ign.iterations == 3);
  CHECK_THAT(ign.rank[0], WithinAbs(0.075, 1e-15));
  CHECK_THAT(ign.rank[1], WithinAbs(0.075 * 1.85, 1e-15));

  // One vertex: with a loop it keeps everything; without, it is a sink.
  CHECK_THAT(reference::pagerank(directed(1, {{0, 0}})).rank[0], WithinAbs(1.0, 1e-15));
  CHECK_THAT(reference::pagerank(directed(1, {})).rank[0], WithinAbs(1.0, 1e-15));
  reference::pagerank_params leak;
  leak.dangling = pagerank_dangling::ignore;
  leak.max_iterations = 1;
  const auto one_sink = reference::pagerank(directed(1, {}), leak);
  CHECK_THAT(one_sink.rank[0], WithinAbs(0.15, 1e-15));
  CHECK_FALSE(one_sink.converged);

  // Empty graph.
  CHECK(reference::pagerank(directed(0, {})).rank.empty());
  CHECK(check_pagerank(directed(0, {}), {}));
}

TEST_CASE("PageRank: redistribute and ignore differ exactly when sinks exist", "[validate]") {
  reference::pagerank_params red;
  reference::pagerank_params ign;
  ign.dangling = pagerank_dangling::ignore;

  // No sinks (undirected graph with a pendant vertex, star and triangle): identical results.
  const auto no_sinks = undirected(6, {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {3, 4}, {4, 5}});
  const auto a = reference::pagerank(no_sinks, red);
  const auto b = reference::pagerank(no_sinks, ign);
  CHECK(a.rank == b.rank);
  CHECK(a.iterations == b.iterations);
  CHECK(check_pagerank(no_sinks, a.rank, ign));

  // Sinks 3 and 4 (4 is also isolated).
  const auto sinks = directed(5, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {1, 3}});
  const auto c = reference::pagerank(sinks, red);
  const auto d = reference::pagerank(sinks, ign);
  CHECK(c.converged);
  CHECK(d.converged);
  CHECK_THAT(std::accumulate(c.rank.begin(), c.rank.end(), 0.0), WithinAbs(1.0, 1e-12));
  CHECK(std::accumulate(d.rank.begin(), d.rank.end(), 0.0) < 0.9);
  for (vertex_t v = 0; v < 5; ++v) CHECK(c.rank[v] > d.rank[v]);
  CHECK(check_pagerank(sinks, c.rank, red));
  CHECK(check_pagerank(sinks, d.rank, ign));
  CHECK_FALSE(check_pagerank(sinks, c.rank, ign));
  CHECK_FALSE(check_pagerank(sinks, d.rank, red));
}

TEST_CASE("check_pagerank rejects perturbed and unconverged vectors", "[validate]") {
  const auto g = directed(6, {{0, 1}, {0, 2}, {1, 2}, {2, 0}, {3, 2}, {4, 3}, {4, 4}, {2, 5}});
  const auto ref = reference::pagerank(g);
  REQUIRE(ref.converged);
  CHECK(check_pagerank(g, ref.rank));

  auto bumped = ref.rank;
  bumped[2] += 1e-3;
  auto v = check_pagerank(g, bumped);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("ranks sum to"));

  // Mass moved between vertices keeps the sum: the fixed-point and reference rules catch it.
  auto moved = ref.rank;
  moved[0] += 1e-3;
  moved[5] -= 1e-3;
  v = check_pagerank(g, moved);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("one more iteration"));
  CHECK_THAT(v.message, ContainsSubstring("vertex 0 has rank"));

  reference::pagerank_params two;
  two.max_iterations = 2;
  const auto early = reference::pagerank(g, two);
  CHECK_FALSE(early.converged);
  CHECK_FALSE(check_pagerank(g, early.rank));

  auto zero = ref.rank;
  zero[4] = 0;
  CHECK_FALSE(check_pagerank(g, zero));
  auto nan = ref.rank;
  nan[1] = std::nan("");
  CHECK_FALSE(check_pagerank(g, nan));
  auto uniform = std::vector<double>(6, 1.0 / 6);
  CHECK_FALSE(check_pagerank(g, uniform));

  // Repeated entries are one edge: the ranks do not change.
  const auto dup = make_graph(6, {{0, 1}, {0, 1}, {0, 2}, {1, 2}, {2, 0}, {2, 0}, {3, 2}, {4, 3}, {4, 4}, {2, 5}},
                              graph_kind::directed, false, true);
  CHECK(reference::pagerank(dup).rank == ref.rank);

  CHECK_THROWS_AS(check_pagerank(g, std::vector<double>(5, 0.2)), invalid_argument_error);
  reference::pagerank_params bad;
  bad.damping = 1.0;
  CHECK_THROWS_AS(check_pagerank(g, ref.rank, bad), invalid_argument_error);
  bad = {};
  bad.tolerance = 0;
  CHECK_THROWS_AS(reference::pagerank(g, bad), invalid_argument_error);
  bad = {};
  bad.max_iterations = 0;
  CHECK_THROWS_AS(reference::pagerank(g, bad), invalid_argument_error);
}

TEST_CASE("check_pagerank above the reference limit relies on the fixed-point rules", "[validate]") {
  const vertex_t n = pagerank_reference_max_vertices + 1;
  const auto g = cycle(n, graph_kind::undirected);
  std::vector<double> r(n, 1.0 / n);
  CHECK(check_pagerank(g, r));
  r[7] += 1e-3;
  CHECK_FALSE(check_pagerank(g, r));
  r[8] -= 1e-3;  // sum restored, but an error e moves by at least (1 - d) |e|_1 = 3e-4 in one iteration
  CHECK_FALSE(check_pagerank(g, r));
}

// --------------------------------------------------------------------------------------- Components

TEST_CASE("check_components accepts any labelling of the right partition", "[validate]") {
  // {0, 1, 2} (path), {3, 4, 5} (triangle), {6} isolated, {7, 8} with a self-loop on 8.
  const auto g = undirected(9, {{0, 1}, {1, 2}, {3, 4}, {4, 5}, {5, 3}, {7, 8}, {8, 8}});
  const std::vector<vertex_t> min_ids{0, 0, 0, 3, 3, 3, 6, 7, 7};
  CHECK(reference::components(g) == min_ids);
  CHECK(reference::count_components(g) == 4);
  CHECK(check_components(g, min_ids));
  CHECK(check_components(g, {5, 5, 5, 0, 0, 0, invalid_vertex, 1, 1}));
  CHECK(check_components(g, {2, 2, 2, 5, 5, 5, 6, 8, 8}));

  // Weak connectivity: 0 -> 1 <- 2 is one component although 0 cannot reach 2.
  const auto d = directed(4, {{0, 1}, {2, 1}});
  CHECK(reference::components(d) == std::vector<vertex_t>{0, 0, 0, 3});
  CHECK(reference::count_components(d) == 2);
  CHECK(check_components(d, {1, 1, 1, 0}));
  CHECK_FALSE(check_components(d, {0, 0, 2, 3}));

  CHECK(reference::count_components(directed(0, {})) == 0);
  CHECK(check_components(directed(0, {}), {}));
  CHECK(reference::count_components(directed(3, {})) == 3);
}

TEST_CASE("check_components rejects merged and split components", "[validate]") {
  const auto g = undirected(9, {{0, 1}, {1, 2}, {3, 4}, {4, 5}, {5, 3}, {7, 8}, {8, 8}});

  auto v = check_components(g, {0, 0, 0, 0, 0, 0, 6, 7, 7});
  CHECK_FALSE(v.ok);
  CHECK(v.errors == 1);
  CHECK_THAT(v.message, ContainsSubstring("label 0 merges components"));

  v = check_components(g, {0, 0, 2, 3, 3, 3, 6, 7, 7});
  CHECK_FALSE(v.ok);
  CHECK(v.errors == 1);
  CHECK_THAT(v.message, ContainsSubstring("vertices 0 and 2 are connected but labelled 0 and 2"));

  // A component split three ways counts two problems.
  v = check_components(g, {0, 1, 2, 3, 3, 3, 6, 7, 7});
  CHECK(v.errors == 2);

  // Everything in one label: three merges.
  CHECK(check_components(g, std::vector<vertex_t>(9, 4)).errors == 3);
  // Every vertex its own label: splits of the three non-trivial components (2 + 2 + 1).
  std::vector<vertex_t> own(9);
  std::iota(own.begin(), own.end(), 0);
  CHECK(check_components(g, own).errors == 5);

  CHECK_THROWS_AS(check_components(g, std::vector<vertex_t>(8, 0)), invalid_argument_error);
}

// ---------------------------------------------------------------------------------------- Triangles

TEST_CASE("reference::closeness on hand-computed graphs", "[validate]") {
  // Undirected path 0 - 1 - 2: the middle reaches both others at 1; an end at 1 and 2.
  const auto p3 = undirected(3, {{0, 1}, {1, 2}});
  CHECK(reference::closeness(p3) == std::vector<double>{2.0 / 3.0, 1.0, 2.0 / 3.0});
  // Directed path 0 -> 1 -> 2, incoming distances: nothing reaches 0; 1 is reached by one of two others.
  const auto d3 = directed(3, {{0, 1}, {1, 2}});
  CHECK(reference::closeness(d3) == std::vector<double>{0.0, 0.5, 2.0 / 3.0});
  // Sampled from vertex 0 alone: vertex 0 has no other source; 1 and 2 are reached at 1 and 2.
  CHECK(reference::closeness(p3, {0}) == std::vector<double>{0.0, 1.0, 0.5});
  CHECK(reference::closeness(undirected(2, {})) == std::vector<double>{0.0, 0.0});
  CHECK(reference::closeness(undirected(1, {})) == std::vector<double>{0.0});
  CHECK_THROWS_AS(reference::closeness(p3, {0, 0}), invalid_argument_error);
  CHECK_THROWS_AS(reference::closeness(p3, {3}), invalid_argument_error);
}

TEST_CASE("check_closeness accepts the reference and rejects wrong values", "[validate]") {
  const auto g = make_graph(
      40,
      [] {
        std::vector<wedge> e;
        std::mt19937 rng(7);
        std::uniform_int_distribution<vertex_t> d(0, 39);
        for (int i = 0; i < 70; ++i) e.push_back({d(rng), d(rng)});
        return e;
      }(),
      graph_kind::directed);
  for (const std::vector<vertex_t>& sources : {std::vector<vertex_t>{}, std::vector<vertex_t>{3, 17, 29, 0}}) {
    const auto ref = reference::closeness(g, sources);
    CHECK(check_closeness(g, ref, sources));
    const auto v = std::find_if(ref.begin(), ref.end(), [](double x) { return x > 0; }) - ref.begin();
    REQUIRE(v < 40);
    auto off = ref;
    off[v] *= 1 + 1e-9;
    const auto bad = check_closeness(g, off, sources);
    CHECK_FALSE(bad.ok);
    CHECK_THAT(bad.message, ContainsSubstring("vertex " + std::to_string(v) + " has closeness"));
    off = ref;
    off[v] = std::numeric_limits<double>::quiet_NaN();
    CHECK_THAT(check_closeness(g, off, sources).message, ContainsSubstring("outside [0, 1]"));
    off[v] = 1.5;
    CHECK_FALSE(check_closeness(g, off, sources));
  }
  // The exact values are not the sampled ones.
  CHECK_FALSE(check_closeness(g, reference::closeness(g), {3, 17, 29, 0}));
  CHECK_THROWS_AS(check_closeness(g, std::vector<double>(39, 0.0)), invalid_argument_error);
  CHECK_THROWS_AS(check_closeness(g, reference::closeness(g), {3, 3}), invalid_argument_error);
  CHECK_THROWS_AS(check_closeness(g, reference::closeness(g), {40}), invalid_argument_error);
}

TEST_CASE("check_closeness beyond the reference's work compares vertices spread over the ids", "[validate]") {
  // A directed cycle of 40,000: every vertex is reached by the n - 1 others at 1 .. n - 1, closeness 2 / n; from
  // the even vertices alone, too (odd distances for an odd vertex, even ones for an even vertex). Both exceed
  // `closeness_reference_max_work`.
  constexpr vertex_t n = 40000;
  const auto g = cycle(n, graph_kind::directed);
  std::vector<vertex_t> even;
  for (vertex_t v = 0; v < n; v += 2) even.push_back(v);
  REQUIRE(double(even.size()) * 2 * n > double(closeness_reference_max_work));
  for (const auto& sources : {std::vector<vertex_t>{}, even}) {
    std::vector<double> c(n, 2.0 / n);
    CHECK(check_closeness(g, c, sources));
    c[0] = 1.0 / n;  // vertex 0 is always compared
    CHECK_FALSE(check_closeness(g, c, sources));
    c[0] = 2.0 / n;
    c[1] = -1.0;  // out of range anywhere is found
    CHECK_FALSE(check_closeness(g, c, sources));
  }
}

TEST_CASE("reference::triangles on known graphs", "[validate]") {
  CHECK(reference::triangles(complete(3)) == 1);
  CHECK(reference::triangles(complete(4)) == 4);
  CHECK(reference::triangles(complete(5)) == 10);
  CHECK(reference::triangles(complete(10)) == 120);
  // K_{3,3}: bipartite, triangle-free.
  std::vector<wedge> k33;
  for (vertex_t a = 0; a < 3; ++a)
    for (vertex_t b = 3; b < 6; ++b) k33.push_back({a, b});
  CHECK(reference::triangles(undirected(6, k33)) == 0);
  CHECK(reference::triangles(cycle(5, graph_kind::undirected)) == 0);
  // Wheel: hub 5 over the 5-cycle 0..4.
  std::vector<wedge> wheel;
  for (vertex_t v = 0; v < 5; ++v) wheel.push_back({v, (v + 1) % 5}), wheel.push_back({5, v});
  CHECK(reference::triangles(undirected(6, wheel)) == 5);
  CHECK(reference::triangles(directed(0, {})) == 0);
  CHECK(reference::triangles(directed(1, {{0, 0}})) == 0);

  // Directions, self-loops and repeats are ignored: a directed 3-cycle is one triangle, and so is a
  // triangle stored with both directions, loops and duplicate entries in one direction.
  CHECK(reference::triangles(cycle(3, graph_kind::directed)) == 1);
  const auto messy = make_graph(4, {{0, 1}, {1, 0}, {0, 1}, {1, 2}, {2, 0}, {0, 2}, {0, 0}, {2, 2}, {3, 3}},
                                graph_kind::directed, false, true);
  CHECK(reference::triangles(messy) == 1);
  // Only one direction of K4's edges, in a mixed orientation.
  CHECK(reference::triangles(directed(4, {{0, 1}, {2, 0}, {0, 3}, {2, 1}, {1, 3}, {3, 2}})) == 4);
}

TEST_CASE("check_triangles accepts exact counts only", "[validate]") {
  const auto k5 = complete(5);
  CHECK(check_triangles(k5, 10));
  const auto v = check_triangles(k5, 9);
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, ContainsSubstring("triangle count 9, expected 10"));
  CHECK_FALSE(check_triangles(k5, 11));
  CHECK(check_triangles(complete(4), 4));
  CHECK_FALSE(check_triangles(complete(4), 3));
  auto bad = k5;
  bad.row_ptr[5] = 3;
  CHECK_THROWS_AS(check_triangles(bad, 10), invalid_argument_error);
}

TEST_CASE("reference::triangles matches brute force on random graphs, serial and threaded", "[validate]") {
  std::mt19937 rng(12345);
  for (const auto& [n, p, kind] :
       {std::tuple{60u, 0.3, graph_kind::directed}, std::tuple{120u, 0.1, graph_kind::undirected},
        std::tuple{420u, 0.5, graph_kind::undirected}}) {
    std::bernoulli_distribution coin(p);
    std::vector<wedge> e;
    for (vertex_t a = 0; a < n; ++a)
      for (vertex_t b = 0; b < n; ++b)
        if ((kind == graph_kind::directed || a < b) && coin(rng)) e.push_back({a, b});
    const auto g = make_graph(n, e, kind);
    const auto expected = brute_force_triangles(g);
    CHECK(expected > 0);
    CHECK(reference::triangles(g, 1) == expected);
    CHECK(reference::triangles(g, 3) == expected);  // the largest graph has over 2^16 entries: threaded
    CHECK(reference::triangles(g) == expected);
  }
}

TEST_CASE("References on GAP's kron scale 10 reproduce GAP's answers", "[validate]") {
  // GAP's tc and cc on -g10: 74,720 triangles and 128 components (isolated vertices included).
  const auto g = gap_kron_raw(10);
  CHECK(reference::triangles(g) == 74720);
  CHECK(reference::count_components(g) == 128);
  CHECK(check_triangles(g, 74720));
  CHECK(check_components(g, reference::components(g)));
}
