// Tests of the reorder module: permutations and their application, RCM, Jaccard-with-windows and its
// pre-orders, slice and bandwidth metrics, the social-graph test and the method dispatch.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/reorder/reorder.hpp"

using namespace bitgraph;
using namespace bitgraph::reorder;
using Catch::Matchers::ContainsSubstring;

namespace {

using edge = std::pair<vertex_t, vertex_t>;

/// CSR from an edge list: sorted, duplicate-free, both directions stored for undirected graphs.
host_csr from_edges(vertex_t n, std::vector<edge> edges, graph_kind kind) {
  if (kind == graph_kind::undirected) {
    const std::size_t m = edges.size();
    for (std::size_t e = 0; e < m; ++e) edges.emplace_back(edges[e].second, edges[e].first);
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  host_csr g;
  g.n = n;
  g.kind = kind;
  g.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& [u, v] : edges) ++g.row_ptr[u + 1];
  for (vertex_t v = 0; v < n; ++v) g.row_ptr[v + 1] += g.row_ptr[v];
  for (const auto& [u, v] : edges) g.col_idx.push_back(v);
  return g;
}

/// k x k 4-neighbour grid, vertex (r, c) = r * k + c.
host_csr grid(vertex_t k) {
  std::vector<edge> edges;
  for (vertex_t r = 0; r < k; ++r)
    for (vertex_t c = 0; c < k; ++c) {
      if (c + 1 < k) edges.emplace_back(r * k + c, r * k + c + 1);
      if (r + 1 < k) edges.emplace_back(r * k + c, (r + 1) * k + c);
    }
  return from_edges(k * k, std::move(edges), graph_kind::undirected);
}

/// R-MAT / Kronecker graph with Graph500's initiator (A = .57, B = C = .19), undirected, loops dropped.
host_csr rmat(int scale, int edge_factor, std::uint64_t seed) {
  const vertex_t n = vertex_t{1} << scale;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<edge> edges;
  edges.reserve(static_cast<std::size_t>(n) * edge_factor * 2);
  for (std::uint64_t e = 0; e < static_cast<std::uint64_t>(n) * edge_factor; ++e) {
    vertex_t u = 0, v = 0;
    for (int bit = 0; bit < scale; ++bit) {
      const double p = unit(rng);
      const vertex_t ub = p >= 0.57 + 0.19 ? 1 : 0;
      const vertex_t vb = (p >= 0.57 && p < 0.57 + 0.19) || p >= 0.57 + 0.19 + 0.19 ? 1 : 0;
      u = (u << 1) | ub;
      v = (v << 1) | vb;
    }
    if (u != v) edges.emplace_back(u, v);
  }
  return from_edges(n, std::move(edges), graph_kind::undirected);
}

/// Erdos-Renyi-like graph: m uniformly random undirected edges.
host_csr uniform_random(vertex_t n, std::uint64_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<vertex_t> pick(0, n - 1);
  std::vector<edge> edges;
  for (std::uint64_t e = 0; e < m; ++e) {
    const vertex_t u = pick(rng), v = pick(rng);
    if (u != v) edges.emplace_back(u, v);
  }
  return from_edges(n, std::move(edges), graph_kind::undirected);
}

/// Planted partition: blocks of `block` consecutive vertices; each vertex draws `inside` neighbours in
/// its block and `outside` anywhere.
host_csr planted_partition(vertex_t n, vertex_t block, int inside, int outside, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<vertex_t> any(0, n - 1), in_block(0, block - 1);
  std::vector<edge> edges;
  for (vertex_t u = 0; u < n; ++u) {
    for (int e = 0; e < inside; ++e) {
      const vertex_t v = u / block * block + in_block(rng);
      if (v != u) edges.emplace_back(u, v);
    }
    for (int e = 0; e < outside; ++e) {
      const vertex_t v = any(rng);
      if (v != u) edges.emplace_back(u, v);
    }
  }
  return from_edges(n, std::move(edges), graph_kind::undirected);
}

std::set<std::pair<edge, double>> weighted_entries(const host_csr& g) {
  std::set<std::pair<edge, double>> s;
  for (vertex_t u = 0; u < g.n; ++u)
    for (offset_t k = g.row_ptr[u]; k < g.row_ptr[u + 1]; ++k)
      s.insert({{u, g.col_idx[k]}, g.has_weights ? g.weights[k] : 0.0});
  return s;
}

bool rows_sorted(const host_csr& g) {
  for (vertex_t u = 0; u < g.n; ++u)
    if (!std::is_sorted(g.col_idx.begin() + g.row_ptr[u], g.col_idx.begin() + g.row_ptr[u + 1])) return false;
  return true;
}

struct bfs_result {
  std::vector<level_t> level;
  std::vector<vertex_t> parent;
};

/// Plain queue BFS; the parent is the first discoverer, so it depends on the labelling.
bfs_result bfs(const host_csr& g, vertex_t source) {
  bfs_result r{std::vector<level_t>(g.n, unreached_level), std::vector<vertex_t>(g.n, invalid_vertex)};
  std::vector<vertex_t> queue{source};
  r.level[source] = 0;
  for (std::size_t h = 0; h < queue.size(); ++h) {
    const vertex_t u = queue[h];
    for (offset_t k = g.row_ptr[u]; k < g.row_ptr[u + 1]; ++k) {
      const vertex_t v = g.col_idx[k];
      if (r.level[v] != unreached_level) continue;
      r.level[v] = r.level[u] + 1;
      r.parent[v] = u;
      queue.push_back(v);
    }
  }
  return r;
}

bool has_edge(const host_csr& g, vertex_t u, vertex_t v) {
  return std::binary_search(g.col_idx.begin() + g.row_ptr[u], g.col_idx.begin() + g.row_ptr[u + 1], v);
}

/// Algorithm 1 exactly as written: every remaining window vertex scored at every step, ties to the
/// earliest; N(j) is column j of `a`. `sequence` is the pre-order (old ids in window order). Windows
/// hold `window` vertices or, with `window_entries` > 0, end before their neighbourhoods exceed that
/// many entries, growing by whole groups of sigma.
std::vector<vertex_t> reference_jaccard(const host_csr& a, int sigma, vertex_t window, offset_t window_entries,
                                        const std::vector<vertex_t>& sequence) {
  std::vector<std::vector<vertex_t>> nbr(a.n);
  for (vertex_t u = 0; u < a.n; ++u)
    for (offset_t k = a.row_ptr[u]; k < a.row_ptr[u + 1]; ++k) nbr[a.col_idx[k]].push_back(u);
  for (auto& l : nbr) l.erase(std::unique(l.begin(), l.end()), l.end());
  std::vector<vertex_t> new_of_old(a.n);
  vertex_t s = 0;
  while (s < a.n) {
    vertex_t e = s;
    offset_t entries = 0;
    while (e < a.n && e - s < window) {
      const vertex_t group_end = std::min<vertex_t>(a.n, e + static_cast<vertex_t>(sigma));
      offset_t group_entries = 0;
      for (vertex_t i = e; i < group_end; ++i) group_entries += nbr[sequence[i]].size();
      if (window_entries > 0 && e > s && entries + group_entries > window_entries) break;
      entries += group_entries;
      e = group_end;
    }
    std::vector<vertex_t> queue(sequence.begin() + s, sequence.begin() + e);
    vertex_t position = s;
    while (!queue.empty()) {
      std::set<vertex_t> u_set(nbr[queue.front()].begin(), nbr[queue.front()].end());
      new_of_old[queue.front()] = position++;
      queue.erase(queue.begin());
      for (int r = 1; r < sigma && !queue.empty(); ++r) {
        std::size_t best = 0;
        std::uint64_t best_num = 0, best_den = 1;
        for (std::size_t q = 0; q < queue.size(); ++q) {
          std::uint64_t common = 0;
          for (vertex_t x : nbr[queue[q]]) common += u_set.count(x);
          const std::uint64_t uni = nbr[queue[q]].size() + u_set.size() - common;
          if (uni > 0 && common * best_den > best_num * uni) {
            best = q;
            best_num = common;
            best_den = uni;
          }
        }
        u_set.insert(nbr[queue[best]].begin(), nbr[queue[best]].end());
        new_of_old[queue[best]] = position++;
        queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(best));
      }
      position = s + (position - s + sigma - 1) / sigma * sigma;
    }
    s = e;
  }
  return new_of_old;
}

template <class F>
double seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("permutation validates its map and converts ids both ways", "[reorder]") {
  const auto p = permutation::from_new_of_old({2, 0, 3, 1});
  CHECK(p.size() == 4);
  CHECK(p.old_of_new() == std::vector<vertex_t>{1, 3, 0, 2});
  CHECK(p == permutation::from_old_of_new({1, 3, 0, 2}));
  CHECK(p.to_new(0) == 2);
  CHECK(p.to_old(2) == 0);
  CHECK_FALSE(p.is_identity());
  CHECK(permutation::identity(5).is_identity());
  CHECK(compose(p, p.inverse()).is_identity());
  CHECK(compose(p.inverse(), p).is_identity());
  const auto q = permutation::from_new_of_old({1, 2, 3, 0});
  const auto pq = compose(p, q);
  for (vertex_t v = 0; v < 4; ++v) CHECK(pq.to_new(v) == q.to_new(p.to_new(v)));

  CHECK_THROWS_WITH(permutation::from_new_of_old({0, 4, 1, 2}), ContainsSubstring("out of range"));
  CHECK_THROWS_WITH(permutation::from_new_of_old({0, 1, 1, 2}), ContainsSubstring("not a bijection"));
  CHECK_THROWS_WITH(permutation::from_old_of_new({3, 3, 0, 1}), ContainsSubstring("old_of_new"));
  CHECK_THROWS_AS(p.to_new(4), invalid_argument_error);
  CHECK_THROWS_AS(p.to_old(invalid_vertex), invalid_argument_error);
  CHECK_THROWS_WITH(compose(p, permutation::identity(3)), ContainsSubstring("compose"));
}

TEST_CASE("permute relabels a weighted directed graph and round-trips", "[reorder]") {
  host_csr g = from_edges(6, {{0, 1}, {0, 5}, {1, 2}, {2, 0}, {3, 3}, {4, 1}, {5, 4}, {5, 0}}, graph_kind::directed);
  g.has_weights = true;
  for (std::size_t k = 0; k < g.nnz(); ++k) g.weights.push_back(1.5 + static_cast<double>(k));
  const auto p = random_order(g.n, 7);
  const host_csr h = permute(g, p);
  CHECK(h.n == g.n);
  CHECK(h.kind == g.kind);
  CHECK(h.has_weights);
  CHECK(rows_sorted(h));
  std::set<std::pair<edge, double>> expected;
  for (const auto& [e, w] : weighted_entries(g)) expected.insert({{p.to_new(e.first), p.to_new(e.second)}, w});
  CHECK(weighted_entries(h) == expected);
  const host_csr back = permute(h, p.inverse());
  CHECK(back.row_ptr == g.row_ptr);
  CHECK(back.col_idx == g.col_idx);
  CHECK(back.weights == g.weights);

  CHECK_THROWS_WITH(permute(g, permutation::identity(5)), ContainsSubstring("5 vertices"));
}

TEST_CASE("every entry point rejects an inconsistent host_csr", "[reorder]") {
  const host_csr good = grid(3);
  auto broken = [&](auto mutate) {
    host_csr g = good;
    mutate(g);
    return g;
  };
  const host_csr short_ptr = broken([](host_csr& g) { g.row_ptr.pop_back(); });
  const host_csr wide = broken([](host_csr& g) { g.col_idx[2] = 9; });
  const host_csr unsorted = broken([](host_csr& g) { std::swap(g.col_idx[0], g.col_idx[1]); });
  const host_csr bad_end = broken([](host_csr& g) { g.row_ptr.back() += 1; });
  const host_csr decreasing = broken([](host_csr& g) { g.row_ptr[2] = g.row_ptr[4]; });
  const host_csr stray_weights = broken([](host_csr& g) { g.weights.assign(g.nnz(), 1.0); });
  CHECK_THROWS_WITH(rcm(short_ptr), ContainsSubstring("row_ptr"));
  CHECK_THROWS_WITH(bandwidth(wide), ContainsSubstring("square"));
  CHECK_THROWS_WITH(jaccard_windows(unsorted), ContainsSubstring("not sorted"));
  CHECK_THROWS_WITH(slice_compression(bad_end, 8), ContainsSubstring("row_ptr[n]"));
  CHECK_THROWS_WITH(analyze_degrees(decreasing), ContainsSubstring("non-decreasing"));
  CHECK_THROWS_WITH(permute(stray_weights, permutation::identity(9)), ContainsSubstring("has_weights"));
  CHECK_THROWS_AS(degree_order(wide), invalid_argument_error);
  CHECK_THROWS_AS(gorder_like(unsorted), invalid_argument_error);
  CHECK_THROWS_AS(compute(short_ptr, reorder_method::none), invalid_argument_error);
  CHECK_THROWS_AS(choose_reordering(wide), invalid_argument_error);

  // Repeated columns are only legal when the graph says it has duplicates.
  host_csr dup = from_edges(3, {{0, 1}, {1, 2}}, graph_kind::directed);
  dup.col_idx.insert(dup.col_idx.begin(), 1);
  for (std::size_t v = 1; v < dup.row_ptr.size(); ++v) ++dup.row_ptr[v];
  CHECK_THROWS_WITH(bandwidth(dup), ContainsSubstring("repeats"));
  dup.has_duplicates = true;
  CHECK(bandwidth(dup) == 1);
  CHECK(slice_compression(dup, 4) == 2.0 / (2 * 4));
}

TEST_CASE("results of a reordered graph map back to original ids", "[reorder]") {
  const host_csr g = rmat(9, 4, 3);
  const auto p = random_order(g.n, 11);
  const host_csr h = permute(g, p);
  const vertex_t source = 1;
  const auto original = bfs(g, source);
  const auto reordered = bfs(h, p.to_new(source));
  CHECK(to_original(reordered.level, p) == original.level);
  CHECK(to_permuted(original.level, p) == reordered.level);
  const auto parents = vertices_to_original(reordered.parent, p);
  std::size_t unreached = 0;
  for (vertex_t v = 0; v < g.n; ++v) {
    if (original.level[v] <= 0) {
      CHECK(parents[v] == invalid_vertex);
      unreached += original.level[v] == unreached_level;
      continue;
    }
    REQUIRE(parents[v] < g.n);
    CHECK(has_edge(g, parents[v], v));
    CHECK(original.level[parents[v]] == original.level[v] - 1);
  }
  CHECK(unreached > 0);  // R-MAT leaves isolated vertices: invalid parents must survive the mapping

  CHECK_THROWS_WITH(to_original(std::vector<int>(3), p), ContainsSubstring("per-vertex"));
  std::vector<vertex_t> bad(g.n, 0);
  bad[5] = g.n;
  CHECK_THROWS_WITH(vertices_to_original(bad, p), ContainsSubstring("neither a vertex"));
}

TEST_CASE("bandwidth and slice metrics on hand-checked matrices", "[reorder]") {
  // Row 0 fills one 4-wide slice; row 1 = {3, 4} straddles two; row 5 = {0} is alone.
  const host_csr a = from_edges(6, {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 3}, {1, 4}, {5, 0}}, graph_kind::directed);
  CHECK(bandwidth(a) == 5);
  CHECK(slice_count(a, 4) == 4);
  CHECK(slice_compression(a, 4) == 7.0 / (4 * 4));
  CHECK(slice_count(a, 8) == 3);
  CHECK(slice_compression(a, 8) == 7.0 / (3 * 8));
  CHECK(bandwidth(from_edges(4, {}, graph_kind::undirected)) == 0);
  CHECK(slice_compression(from_edges(4, {}, graph_kind::undirected), 8) == 0.0);
  CHECK(bandwidth(grid(5)) == 5);
  CHECK_THROWS_WITH(slice_count(a, 6), ContainsSubstring("sigma = 6"));
  CHECK_THROWS_AS(slice_compression(a, 64), invalid_argument_error);
}

TEST_CASE("RCM brings a randomly permuted grid back to bandwidth about K", "[reorder]") {
  const vertex_t k = 120;
  const host_csr shuffled = permute(grid(k), random_order(k * k, 5));
  const auto before = bandwidth(shuffled);
  permutation p;
  const double t = seconds([&] { p = rcm(shuffled); });
  const auto after = bandwidth(permute(shuffled, p));
  UNSCOPED_INFO("grid " << k << "x" << k << ": bandwidth " << before << " -> " << after << " in " << t << " s");
  CHECK(before > 10 * k);
  CHECK(after <= 2 * k);
  CHECK(after >= k);  // a grid's bandwidth cannot go below its width
}

TEST_CASE("RCM numbers components contiguously and symmetrises directed graphs", "[reorder]") {
  // A shuffled path (bandwidth 1 after RCM), two isolated vertices and a directed triangle.
  const vertex_t path = 50;
  const vertex_t n = path + 2 + 3;
  const auto shuffle = random_order(path, 3);
  std::vector<edge> edges;
  for (vertex_t i = 0; i + 1 < path; ++i) edges.emplace_back(shuffle.to_new(i), shuffle.to_new(i + 1));
  const host_csr undirected_part = from_edges(n, edges, graph_kind::undirected);
  edges.emplace_back(path + 2, path + 3);
  edges.emplace_back(path + 3, path + 4);
  edges.emplace_back(path + 4, path + 2);
  edges.emplace_back(path + 4, path + 4);  // a self-loop must not matter
  const host_csr directed = from_edges(n, edges, graph_kind::directed);
  std::vector<edge> both = edges;
  for (const auto& [u, v] : edges) both.emplace_back(v, u);
  const host_csr symmetrised = from_edges(n, both, graph_kind::directed);

  const auto p = rcm(directed);
  CHECK(p == rcm(symmetrised));
  // The path alone: consecutive path vertices get consecutive ids.
  const auto q = rcm(undirected_part);
  for (vertex_t i = 0; i + 1 < path; ++i) {
    const auto a = q.to_new(shuffle.to_new(i)), b = q.to_new(shuffle.to_new(i + 1));
    CHECK((a > b ? a - b : b - a) == 1);
  }
  // Each component occupies a contiguous id range.
  auto contiguous = [&](std::vector<vertex_t> ids) {
    std::sort(ids.begin(), ids.end());
    return ids.back() - ids.front() + 1 == ids.size();
  };
  std::vector<vertex_t> path_ids, triangle_ids;
  for (vertex_t i = 0; i < path; ++i) path_ids.push_back(p.to_new(i));
  for (vertex_t i = path + 2; i < n; ++i) triangle_ids.push_back(p.to_new(i));
  CHECK(contiguous(path_ids));
  CHECK(contiguous(triangle_ids));
  // Reverse Cuthill-McKee: the path's root (an end, found as pseudo-peripheral) gets its largest id.
  vertex_t last = 0;
  for (vertex_t i = 0; i < path; ++i)
    if (q.to_new(shuffle.to_new(i)) > q.to_new(shuffle.to_new(last))) last = i;
  CHECK((last == 0 || last == path - 1));
}

TEST_CASE("Jaccard-with-windows matches Algorithm 1 exactly", "[reorder]") {
  struct config {
    host_csr a;
    int sigma;
    vertex_t window;
    offset_t window_entries;
  };
  std::vector<edge> arcs;
  std::mt19937_64 rng(17);
  std::uniform_int_distribution<vertex_t> pick(0, 149);
  for (int e = 0; e < 900; ++e) arcs.emplace_back(pick(rng), pick(rng));
  const std::vector<config> configs = {
      {planted_partition(200, 10, 5, 2, 1), 8, 64, 0},          // windows 64, 64, 64, 8
      {planted_partition(203, 7, 4, 1, 2), 4, 32, 0},           // last window and cluster partial
      {from_edges(150, arcs, graph_kind::directed), 8, 48, 0},  // columns differ from rows
      {rmat(8, 4, 9), 16, 256, 0},                              // one window, hubs, isolated vertices
      {rmat(10, 8, 10), 8, 1024, 0},                            // windows dense and sparse
      {rmat(10, 8, 11), 8, 512, 1500},                          // dense windows cut by entries
  };
  for (const auto& c : configs) {
    for (const auto pre : {pre_order::none, pre_order::degree, pre_order::gorder_like}) {
      jaccard_options opt;
      opt.sigma = c.sigma;
      opt.window = c.window;
      opt.window_entries = c.window_entries;
      opt.pre = pre;
      opt.threads = 3;
      opt.min_degree_ratio = 0;
      const auto p = jaccard_windows(c.a, opt);
      std::vector<vertex_t> sequence = permutation::identity(c.a.n).old_of_new();
      if (pre == pre_order::gorder_like) sequence = gorder_like(c.a, opt.gorder).old_of_new();
      if (pre == pre_order::degree) {
        std::vector<std::size_t> size(c.a.n, 0);
        for (vertex_t j : c.a.col_idx) ++size[j];
        std::stable_sort(sequence.begin(), sequence.end(), [&](vertex_t x, vertex_t y) { return size[x] > size[y]; });
      }
      CHECK(p.new_of_old() == reference_jaccard(c.a, c.sigma, c.window, c.window_entries, sequence));
    }
  }
}

TEST_CASE("Jaccard-with-windows is deterministic across thread counts and validates options", "[reorder]") {
  const host_csr a = rmat(12, 8, 4);
  jaccard_options opt;
  opt.window = 512;
  opt.threads = 1;
  const auto serial = jaccard_windows(a, opt);
  opt.threads = 2;
  CHECK(jaccard_windows(a, opt) == serial);
  opt.threads = 7;
  CHECK(jaccard_windows(a, opt) == serial);

  jaccard_options bad;
  bad.sigma = 12;
  CHECK_THROWS_WITH(jaccard_windows(a, bad), ContainsSubstring("sigma = 12"));
  bad.sigma = 16;
  bad.window = 40;
  CHECK_THROWS_WITH(jaccard_windows(a, bad), ContainsSubstring("not a positive multiple"));
  bad.window = 0;
  CHECK_THROWS_AS(jaccard_windows(a, bad), invalid_argument_error);
  bad.window = 64;
  bad.min_degree_ratio = 1.5;
  CHECK_THROWS_WITH(jaccard_windows(a, bad), ContainsSubstring("min_degree_ratio"));
  gorder_options no_window;
  no_window.window = 0;
  CHECK_THROWS_WITH(gorder_like(a, no_window), ContainsSubstring("Gorder window"));
}

TEST_CASE("the Gorder-like pre-order keeps cliques together", "[reorder]") {
  const vertex_t cliques = 40, size = 6;
  std::vector<edge> edges;
  for (vertex_t c = 0; c < cliques; ++c)
    for (vertex_t i = 0; i < size; ++i)
      for (vertex_t j = i + 1; j < size; ++j) edges.emplace_back(c * size + i, c * size + j);
  const auto shuffle = random_order(cliques * size, 21);
  const host_csr g = permute(from_edges(cliques * size, edges, graph_kind::undirected), shuffle);
  const auto p = gorder_like(g);
  for (vertex_t c = 0; c < cliques; ++c) {
    std::vector<vertex_t> ids;
    for (vertex_t i = 0; i < size; ++i) ids.push_back(p.to_new(shuffle.to_new(c * size + i)));
    std::sort(ids.begin(), ids.end());
    CHECK(ids.back() - ids.front() == size - 1);
  }
}

TEST_CASE("Jaccard-with-windows raises the slice compression of a community graph", "[reorder]") {
  // Blocks of 32 consecutive ids: the generator's own order is the planted optimum to compare with.
  const vertex_t n = 1 << 14;
  const host_csr communities = planted_partition(n, 32, 12, 3, 8);
  const double planted_ratio = slice_compression(communities, 8);
  const host_csr shuffled = permute(communities, random_order(n, 99));
  const double random_ratio = slice_compression(shuffled, 8);
  CHECK(planted_ratio > 1.8 * random_ratio);
  struct run {
    pre_order pre;
    vertex_t window;
    double at_least;  // of the planted ratio
  };
  // Small windows of a shuffled graph hold few members of each block; the Gorder-like pre-order
  // regroups them first, and one window over the whole graph sees every block whole.
  for (const run r : {run{pre_order::none, 2048, 0.6}, run{pre_order::degree, 2048, 0.6},
                      run{pre_order::gorder_like, 2048, 0.95}, run{pre_order::none, n, 0.95}}) {
    jaccard_options opt;
    opt.window = r.window;
    opt.pre = r.pre;
    permutation p;
    const double t = seconds([&] { p = jaccard_windows(shuffled, opt); });
    const double ratio = slice_compression(permute(shuffled, p), 8);
    UNSCOPED_INFO("planted partition n=" << n << " pre-order " << static_cast<int>(r.pre) << " w=" << r.window
                                         << ": compression random " << random_ratio << " planted " << planted_ratio
                                         << " -> " << ratio << " in " << t << " s");
    CHECK(ratio > 1.3 * random_ratio);
    CHECK(ratio >= r.at_least * planted_ratio);
  }
}

TEST_CASE("social-graph test: Kronecker is social, grid and uniform random are not", "[reorder]") {
  const auto kron = analyze_degrees(rmat(15, 16, 5));
  UNSCOPED_INFO("kron: top1 " << kron.top1_share << " top10 " << kron.top10_share << " slope " << kron.slope << " R2 "
                              << kron.r_squared << " bins " << kron.fit_points);
  CHECK(kron.heavy_tailed);
  CHECK(kron.is_social());
  const auto mesh = analyze_degrees(grid(128));
  CHECK_FALSE(mesh.heavy_tailed);
  CHECK_FALSE(mesh.power_law);
  CHECK_FALSE(mesh.is_social());
  CHECK(mesh.top1_share < 0.02);
  // The row offsets alone give the same report.
  for (const auto& g : {rmat(15, 16, 5), grid(128)}) {
    const auto a = analyze_degrees(g), b = analyze_degrees(g.row_ptr);
    CHECK(a.is_social() == b.is_social());
    CHECK(a.top1_share == b.top1_share);
    CHECK(a.slope == b.slope);
    CHECK(a.m == b.m);
  }
  CHECK_THROWS_AS(analyze_degrees(std::vector<offset_t>{}), invalid_argument_error);
  CHECK_THROWS_AS(analyze_degrees(std::vector<offset_t>{1, 2}), invalid_argument_error);
  CHECK_THROWS_AS(analyze_degrees(std::vector<offset_t>{0, 5, 3}), invalid_argument_error);
  const auto er = analyze_degrees(uniform_random(1 << 15, 8 << 15, 6));
  UNSCOPED_INFO("uniform: top1 " << er.top1_share << " top10 " << er.top10_share << " slope " << er.slope << " R2 "
                                 << er.r_squared << " bins " << er.fit_points);
  CHECK_FALSE(er.heavy_tailed);
  CHECK_FALSE(er.power_law);
  CHECK_FALSE(er.is_social());
  CHECK(choose_reordering(rmat(12, 16, 1)).method == reorder_method::jaccard_windows);
  CHECK(choose_reordering(grid(64)).method == reorder_method::rcm);
  CHECK(analyze_degrees(from_edges(10, {}, graph_kind::undirected)).is_social() == false);
}

TEST_CASE("social-graph statistics on graphs with known degree sequences", "[reorder]") {
  // A star on 200 vertices: the centre (top 1 % = 2 vertices: centre + one leaf) holds half the entries.
  std::vector<edge> star;
  for (vertex_t v = 1; v < 200; ++v) star.emplace_back(0, v);
  const auto s = analyze_degrees(from_edges(200, star, graph_kind::undirected));
  CHECK(s.top1_share == (199.0 + 1.0) / 398.0);
  CHECK(s.top10_share == (199.0 + 19.0) / 398.0);
  CHECK(s.heavy_tailed);

  // Rows whose lengths follow count(d) ~ d^-3 (cumulative rounding keeps every bin's mass): the fit
  // must recover the exponent up to the bias of discrete bins, and the power-law branch alone must make
  // the graph social, since an exponent of 3 leaves the top 10 % with less than 40 % of the entries.
  const double gamma = 3.0;
  std::vector<offset_t> lengths;
  double cumulative = 0;
  std::size_t placed = 0;
  for (offset_t d = 1; d < 1024; ++d) {
    cumulative += 1.0e6 * std::pow(static_cast<double>(d), -gamma);
    const auto upto = static_cast<std::size_t>(std::llround(cumulative));
    lengths.insert(lengths.end(), upto - placed, d);
    placed = upto;
  }
  host_csr g;
  g.n = static_cast<vertex_t>(lengths.size());
  g.row_ptr.assign(lengths.size() + 1, 0);
  for (std::size_t v = 0; v < lengths.size(); ++v) g.row_ptr[v + 1] = g.row_ptr[v] + lengths[v];
  g.col_idx.resize(g.row_ptr.back());
  for (std::size_t v = 0; v < lengths.size(); ++v)
    std::iota(g.col_idx.begin() + g.row_ptr[v], g.col_idx.begin() + g.row_ptr[v + 1], vertex_t{0});
  const auto r = analyze_degrees(g);
  UNSCOPED_INFO("power law: slope " << r.slope << " R2 " << r.r_squared << " bins " << r.fit_points << " top1 "
                                    << r.top1_share << " top10 " << r.top10_share);
  CHECK(r.slope < -gamma + 0.25);
  CHECK(r.slope > -gamma - 0.25);
  CHECK(r.r_squared > 0.98);
  CHECK(r.fit_points == 10);
  CHECK(r.top10_share < 0.4);
  CHECK_FALSE(r.heavy_tailed);
  CHECK(r.power_law);
  CHECK(r.is_social());
  social_criteria steep_only;
  steep_only.slope_min = -2.5;
  CHECK_FALSE(analyze_degrees(g, steep_only).power_law);
}

TEST_CASE("compute dispatches every method", "[reorder]") {
  const host_csr g = rmat(10, 8, 12);
  CHECK(compute(g, reorder_method::none).is_identity());
  reorder_options opt;
  opt.seed = 5;
  CHECK(compute(g, reorder_method::random, opt) == random_order(g.n, 5));
  CHECK_FALSE(compute(g, reorder_method::random, opt) == compute(g, reorder_method::random));
  CHECK(compute(g, reorder_method::rcm) == rcm(g));
  opt.jaccard.window = 256;
  opt.jaccard.pre = pre_order::degree;
  CHECK(compute(g, reorder_method::jaccard_windows, opt) == jaccard_windows(g, opt.jaccard));
  const auto d = compute(g, reorder_method::degree);
  for (vertex_t k = 0; k + 1 < g.n; ++k) {
    const vertex_t a = d.to_old(k), b = d.to_old(k + 1);
    const auto da = g.row_ptr[a + 1] - g.row_ptr[a], db = g.row_ptr[b + 1] - g.row_ptr[b];
    CHECK((da > db || (da == db && a < b)));
  }
  // A row of 300 repeated entries: degrees far above n take the comparison-sort path.
  host_csr repeated = from_edges(4, {{1, 0}, {1, 2}, {3, 0}}, graph_kind::directed);
  repeated.has_duplicates = true;
  repeated.col_idx.insert(repeated.col_idx.begin() + static_cast<std::ptrdiff_t>(repeated.row_ptr[2]), 300, 3);
  for (std::size_t v = 3; v < repeated.row_ptr.size(); ++v) repeated.row_ptr[v] += 300;
  CHECK(degree_order(repeated).old_of_new() == std::vector<vertex_t>{2, 1, 3, 0});
  for (auto m : {reorder_method::none, reorder_method::random, reorder_method::degree, reorder_method::rcm,
                 reorder_method::jaccard_windows})
    CHECK(parse_reorder_method(to_string(m)) == m);
  CHECK_THROWS_WITH(parse_reorder_method("gorder"), ContainsSubstring("unknown method"));
}

// Large inputs for timing by hand: `bitgraph_host_tests "[reorder_bench]"`.
TEST_CASE("RCM on a 4M-vertex grid", "[.][reorder_bench]") {
  const vertex_t k = 2048;
  const host_csr shuffled = permute(grid(k), random_order(k * k, 1));
  permutation p;
  const double t = seconds([&] { p = rcm(shuffled); });
  const auto after = bandwidth(permute(shuffled, p));
  WARN("RCM grid " << k << "x" << k << ": " << t << " s, bandwidth " << bandwidth(shuffled) << " -> " << after);
  CHECK(after <= 2 * k);
}

TEST_CASE("Jaccard-with-windows on a 1M-vertex Kronecker graph", "[.][reorder_bench]") {
  const host_csr kron = permute(rmat(20, 16, 2), random_order(1 << 20, 3));
  const double before = slice_compression(kron, 8);
  for (const auto pre : {pre_order::none, pre_order::degree, pre_order::gorder_like}) {
    jaccard_options opt;
    opt.pre = pre;
    permutation p;
    const double t = seconds([&] { p = jaccard_windows(kron, opt); });
    const double after = slice_compression(permute(kron, p), 8);
    double t_pre = 0;
    if (pre == pre_order::gorder_like) t_pre = seconds([&] { (void)gorder_like(kron); });
    WARN("Kronecker n=" << kron.n << " m=" << kron.nnz() << " pre " << static_cast<int>(pre) << ": " << t
                        << " s (pre-order alone " << t_pre << " s), compression " << before << " -> " << after);
    CHECK(after > before);
  }
}
