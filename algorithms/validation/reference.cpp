// Host reference implementations: BFS, Dijkstra, PageRank, weakly connected components, triangles.
#include "bitgraph/algorithms/reference.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <queue>
#include <thread>
#include <utility>
#include <vector>

#include "bitgraph/core/error.hpp"

namespace bitgraph::reference {

namespace {

/// Weight of stored entry p (1 for unweighted graphs).
double weight_at(const host_csr& g, offset_t p) { return g.has_weights ? g.weights[p] : 1.0; }

void require_source(const host_csr& g, vertex_t source, const char* func) {
  BITGRAPH_CHECK_ARG(source < g.n, func, "source ", source, " is out of range (graph has ", g.n, " vertices)");
}

/// Dijkstra's precondition; infinite weights are refused too, since "no edge" is expressed by absence.
void require_valid_weights(const host_csr& g, const char* func) {
  if (!g.has_weights) return;
  for (offset_t p = 0; p < g.nnz(); ++p) {
    const double w = g.weights[p];
    BITGRAPH_CHECK_ARG(std::isfinite(w) && w >= 0.0, func, "weight ", w, " of entry ", p,
                       " is not a finite non-negative number (Dijkstra needs non-negative weights)");
  }
}

void require_params(const pagerank_params& params, const char* func) {
  BITGRAPH_CHECK_ARG(params.damping >= 0.0 && params.damping < 1.0, func, "damping ", params.damping,
                     " must lie in [0, 1)");
  BITGRAPH_CHECK_ARG(params.tolerance > 0.0 && std::isfinite(params.tolerance), func, "tolerance ", params.tolerance,
                     " must be positive and finite");
  BITGRAPH_CHECK_ARG(params.max_iterations >= 1, func, "max_iterations ", params.max_iterations, " must be at least 1");
  BITGRAPH_CHECK_ARG(params.dangling == pagerank_dangling::redistribute || params.dangling == pagerank_dangling::ignore,
                     func, "unknown dangling policy ", static_cast<int>(params.dangling));
}

/// Distinct out-neighbours per vertex: repeated entries are one edge, as in a GraphBLAS matrix.
std::vector<std::uint64_t> distinct_out_degrees(const host_csr& g) {
  std::vector<std::uint64_t> deg(g.n, 0);
  for (vertex_t u = 0; u < g.n; ++u)
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p)
      if (p == g.row_ptr[u] || g.col_idx[p] != g.col_idx[p - 1]) ++deg[u];
  return deg;
}

/// One PageRank iteration from `t` into `r`; returns sum |r - t|.
double pagerank_iterate(const host_csr& g, const std::vector<std::uint64_t>& outdeg, const std::vector<double>& t,
                        const pagerank_params& params, std::vector<double>& r) {
  const double n = static_cast<double>(g.n);
  const double d = params.damping;
  double teleport = (1.0 - d) / n;
  if (params.dangling == pagerank_dangling::redistribute) {
    double sink_rank = 0.0;
    for (vertex_t u = 0; u < g.n; ++u)
      if (outdeg[u] == 0) sink_rank += t[u];
    teleport += d / n * sink_rank;
  }
  r.assign(g.n, teleport);
  for (vertex_t u = 0; u < g.n; ++u) {
    if (outdeg[u] == 0) continue;
    const double share = d * t[u] / static_cast<double>(outdeg[u]);
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p)
      if (p == g.row_ptr[u] || g.col_idx[p] != g.col_idx[p - 1]) r[g.col_idx[p]] += share;
  }
  double rdiff = 0.0;
  for (vertex_t v = 0; v < g.n; ++v) rdiff += std::abs(r[v] - t[v]);
  return rdiff;
}

/// Union-find whose roots are always the smallest id of their set, so labels come out as minimum ids.
class min_union_find {
 public:
  explicit min_union_find(vertex_t n) : parent_(n) {
    for (vertex_t v = 0; v < n; ++v) parent_[v] = v;
  }
  vertex_t find(vertex_t v) {
    while (parent_[v] != v) {
      parent_[v] = parent_[parent_[v]];  // path halving keeps trees shallow without recursion
      v = parent_[v];
    }
    return v;
  }
  void unite(vertex_t a, vertex_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (a < b) std::swap(a, b);
    parent_[a] = b;
  }

 private:
  std::vector<vertex_t> parent_;
};

std::vector<vertex_t> component_labels(const host_csr& g) {
  min_union_find uf(g.n);
  for (vertex_t u = 0; u < g.n; ++u)
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) uf.unite(u, g.col_idx[p]);
  std::vector<vertex_t> label(g.n);
  for (vertex_t v = 0; v < g.n; ++v) label[v] = uf.find(v);
  return label;
}

/// Runs body(begin, end, worker) over [0, count) in chunks handed out dynamically, so that skewed rows
/// (hubs of power-law graphs) do not leave threads idle; `worker` < threads indexes per-thread scratch.
void parallel_chunks(std::uint64_t count, unsigned threads, std::uint64_t chunk,
                     const std::function<void(std::uint64_t, std::uint64_t, unsigned)>& body) {
  if (threads <= 1 || count <= chunk) {
    body(0, count, 0);
    return;
  }
  std::atomic<std::uint64_t> next{0};
  auto worker = [&](unsigned id) {
    for (;;) {
      const std::uint64_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
      if (begin >= count) return;
      body(begin, std::min(count, begin + chunk), id);
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
}

}  // namespace

void require_well_formed(const host_csr& g, const char* func) {
  const std::size_t n = g.n;
  BITGRAPH_CHECK_ARG(g.row_ptr.size() == n + 1, func, "malformed host_csr: row_ptr has ", g.row_ptr.size(),
                     " entries, expected n + 1 = ", n + 1);
  BITGRAPH_CHECK_ARG(g.row_ptr[0] == 0, func, "malformed host_csr: row_ptr[0] is ", g.row_ptr[0], ", not 0");
  BITGRAPH_CHECK_ARG(g.row_ptr[n] == g.nnz(), func, "malformed host_csr: row_ptr[n] is ", g.row_ptr[n],
                     " but col_idx has ", g.nnz(), " entries");
  if (g.has_weights) {
    BITGRAPH_CHECK_ARG(g.weights.size() == g.nnz(), func, "malformed host_csr: ", g.weights.size(), " weights for ",
                       g.nnz(), " entries");
  } else {
    BITGRAPH_CHECK_ARG(g.weights.empty(), func, "malformed host_csr: has_weights is false but ", g.weights.size(),
                       " weights are stored");
  }
  for (vertex_t u = 0; u < g.n; ++u) {
    const offset_t begin = g.row_ptr[u];
    const offset_t end = g.row_ptr[u + 1];
    BITGRAPH_CHECK_ARG(begin <= end && end <= g.nnz(), func, "malformed host_csr: row_ptr[", u + 1, "] = ", end,
                       " is below row_ptr[", u, "] = ", begin, " or above nnz = ", g.nnz());
    for (offset_t p = begin; p < end; ++p) {
      const vertex_t v = g.col_idx[p];
      BITGRAPH_CHECK_ARG(v < g.n, func, "malformed host_csr: row ", u, " has column ", v, " >= n = ", g.n);
      if (p > begin) {
        const vertex_t prev = g.col_idx[p - 1];
        BITGRAPH_CHECK_ARG(prev < v || (prev == v && g.has_duplicates), func, "malformed host_csr: row ", u, " is not ",
                           g.has_duplicates ? "sorted" : "strictly ascending", " (column ", prev, " before ", v, ")");
      }
    }
  }
}

std::vector<level_t> bfs_levels(const host_csr& g, vertex_t source) {
  constexpr const char* func = "reference::bfs_levels";
  require_well_formed(g, func);
  require_source(g, source, func);
  std::vector<level_t> level(g.n, unreached_level);
  std::vector<vertex_t> queue;
  queue.reserve(g.n);
  queue.push_back(source);
  level[source] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const vertex_t u = queue[head];
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) {
      const vertex_t v = g.col_idx[p];
      if (level[v] == unreached_level) {
        level[v] = level[u] + 1;
        queue.push_back(v);
      }
    }
  }
  return level;
}

std::vector<double> closeness(const host_csr& g, const std::vector<vertex_t>& sources) {
  constexpr const char* func = "reference::closeness";
  require_well_formed(g, func);
  std::vector<char> is_source(g.n, sources.empty() ? 1 : 0);
  for (const vertex_t s : sources) {
    require_source(g, s, func);
    BITGRAPH_CHECK_ARG(!is_source[s], func, "source ", s, " is repeated");
    is_source[s] = 1;
  }
  const double count = sources.empty() ? double(g.n) : double(sources.size());
  std::vector<double> sum(g.n, 0), reached(g.n, 0);
  for (vertex_t u = 0; u < g.n; ++u) {
    if (!is_source[u]) continue;
    const auto level = bfs_levels(g, u);
    for (vertex_t v = 0; v < g.n; ++v)
      if (v != u && level[v] != unreached_level) {
        sum[v] += level[v];
        reached[v] += 1;
      }
  }
  std::vector<double> c(g.n);
  for (vertex_t v = 0; v < g.n; ++v) c[v] = closeness_value(reached[v], count - is_source[v], sum[v]);
  return c;
}

std::vector<double> dijkstra(const host_csr& g, vertex_t source) {
  constexpr const char* func = "reference::dijkstra";
  require_well_formed(g, func);
  require_source(g, source, func);
  require_valid_weights(g, func);
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(g.n, inf);
  using item = std::pair<double, vertex_t>;
  // Lazy deletion: stale heap items are skipped when popped, which avoids a decrease-key heap.
  std::priority_queue<item, std::vector<item>, std::greater<>> heap;
  dist[source] = 0.0;
  heap.emplace(0.0, source);
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[u]) continue;
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) {
      const vertex_t v = g.col_idx[p];
      const double cand = d + weight_at(g, p);
      if (cand < dist[v]) {
        dist[v] = cand;
        heap.emplace(cand, v);
      }
    }
  }
  return dist;
}

std::vector<double> pagerank_step(const host_csr& g, const std::vector<double>& rank, const pagerank_params& params) {
  constexpr const char* func = "reference::pagerank_step";
  require_well_formed(g, func);
  require_params(params, func);
  BITGRAPH_CHECK_ARG(rank.size() == g.n, func, "rank has ", rank.size(), " entries, graph has ", g.n, " vertices");
  std::vector<double> r;
  if (g.n == 0) return r;
  pagerank_iterate(g, distinct_out_degrees(g), rank, params, r);
  return r;
}

pagerank_result pagerank(const host_csr& g, const pagerank_params& params) {
  constexpr const char* func = "reference::pagerank";
  require_well_formed(g, func);
  require_params(params, func);
  pagerank_result res;
  if (g.n == 0) {
    res.converged = true;
    return res;
  }
  const auto outdeg = distinct_out_degrees(g);
  res.rank.assign(g.n, 1.0 / static_cast<double>(g.n));
  std::vector<double> next;
  while (res.iterations < params.max_iterations) {
    const double rdiff = pagerank_iterate(g, outdeg, res.rank, params, next);
    res.rank.swap(next);
    ++res.iterations;
    if (rdiff < params.tolerance) {
      res.converged = true;
      break;
    }
  }
  return res;
}

std::vector<vertex_t> components(const host_csr& g) {
  require_well_formed(g, "reference::components");
  return component_labels(g);
}

std::uint64_t count_components(const host_csr& g) {
  require_well_formed(g, "reference::count_components");
  const auto label = component_labels(g);
  std::uint64_t count = 0;
  for (vertex_t v = 0; v < g.n; ++v) count += label[v] == v ? 1 : 0;
  return count;
}

std::uint64_t triangles(const host_csr& g, unsigned threads) {
  require_well_formed(g, "reference::triangles");
  const vertex_t n = g.n;
  if (n == 0) return 0;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  // Threads cost more than they save on small graphs.
  if (g.nnz() < (offset_t{1} << 16)) threads = 1;
  constexpr std::uint64_t chunk = 256;
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, (std::uint64_t{n} + chunk - 1) / chunk));

  // In-neighbour lists; filled in ascending source order, so every list comes out sorted.
  std::vector<offset_t> in_ptr(std::size_t(n) + 1, 0);
  for (offset_t p = 0; p < g.nnz(); ++p) ++in_ptr[std::size_t(g.col_idx[p]) + 1];
  for (vertex_t v = 0; v < n; ++v) in_ptr[v + 1] += in_ptr[v];
  std::vector<vertex_t> in_idx(g.nnz());
  {
    std::vector<offset_t> fill(in_ptr.begin(), in_ptr.end() - 1);
    for (vertex_t u = 0; u < n; ++u)
      for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) in_idx[fill[g.col_idx[p]]++] = u;
  }

  // Visits the undirected simple neighbourhood of u (out- and in-lists merged, loops and repeats
  // dropped) in ascending id order; no symmetrised copy of the graph is ever stored.
  auto for_each_neighbour = [&](vertex_t u, auto&& visit) {
    offset_t a = g.row_ptr[u];
    const offset_t a_end = g.row_ptr[u + 1];
    offset_t b = in_ptr[u];
    const offset_t b_end = in_ptr[u + 1];
    vertex_t last = invalid_vertex;
    while (a < a_end || b < b_end) {
      vertex_t v;
      if (b == b_end || (a < a_end && g.col_idx[a] <= in_idx[b]))
        v = g.col_idx[a++];
      else
        v = in_idx[b++];
      if (v == u || v == last) continue;
      last = v;
      visit(v);
    }
  };

  std::vector<std::uint64_t> degree(n, 0);
  parallel_chunks(n, threads, chunk * 16, [&](std::uint64_t begin, std::uint64_t end, unsigned) {
    for (auto u = static_cast<vertex_t>(begin); u < end; ++u) {
      std::uint64_t d = 0;
      for_each_neighbour(u, [&](vertex_t) { ++d; });
      degree[u] = d;
    }
  });

  // Orienting every edge towards the endpoint of higher (degree, id) bounds each out-list by
  // O(sqrt(m)), which is what keeps power-law hubs cheap; each triangle is then found exactly once.
  auto before = [&](vertex_t a, vertex_t b) { return degree[a] < degree[b] || (degree[a] == degree[b] && a < b); };
  std::vector<offset_t> out_ptr(std::size_t(n) + 1, 0);
  std::vector<vertex_t> out_len(n, 0);
  for (vertex_t u = 0; u < n; ++u) out_ptr[u + 1] = out_ptr[u] + degree[u];
  std::vector<vertex_t> out_idx(out_ptr[n]);
  parallel_chunks(n, threads, chunk * 16, [&](std::uint64_t begin, std::uint64_t end, unsigned) {
    for (auto u = static_cast<vertex_t>(begin); u < end; ++u) {
      vertex_t len = 0;
      for_each_neighbour(u, [&](vertex_t v) {
        if (before(u, v)) out_idx[out_ptr[u] + len++] = v;
      });
      out_len[u] = len;
    }
  });

  // Each u marks its out-list in a per-thread bitmap, then probes the out-list of every out-neighbour
  // v: one load per wedge and no data-dependent branches, several times faster than merging lists.
  std::vector<std::vector<std::uint64_t>> marks(threads);
  std::atomic<std::uint64_t> total{0};
  parallel_chunks(n, threads, chunk, [&](std::uint64_t begin, std::uint64_t end, unsigned worker) {
    auto& bits = marks[worker];
    if (bits.empty()) bits.assign((std::size_t(n) + 63) / 64, 0);
    std::uint64_t local = 0;
    for (auto u = static_cast<vertex_t>(begin); u < end; ++u) {
      const vertex_t* ou = out_idx.data() + out_ptr[u];
      const vertex_t* ou_end = ou + out_len[u];
      for (const vertex_t* pv = ou; pv != ou_end; ++pv) bits[*pv >> 6] |= std::uint64_t{1} << (*pv & 63);
      for (const vertex_t* pv = ou; pv != ou_end; ++pv) {
        const vertex_t* pw = out_idx.data() + out_ptr[*pv];
        const vertex_t* pw_end = pw + out_len[*pv];
        for (; pw != pw_end; ++pw) local += (bits[*pw >> 6] >> (*pw & 63)) & 1;
      }
      for (const vertex_t* pv = ou; pv != ou_end; ++pv) bits[*pv >> 6] = 0;
    }
    total.fetch_add(local, std::memory_order_relaxed);
  });
  return total.load();
}

}  // namespace bitgraph::reference
