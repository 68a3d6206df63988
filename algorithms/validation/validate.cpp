// Output validators: BFS, SSSP, PageRank, connected components, closeness, triangle count.
#include "bitgraph/algorithms/validate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bitgraph/core/error.hpp"

namespace bitgraph::validate {

namespace {

/// Collects problems; keeps the text of the first few only, so huge failures stay readable.
class problems {
 public:
  explicit problems(const char* check) : check_(check) {}

  template <class... Args>
  void add(fmt::format_string<Args...> text, Args&&... args) {
    if (errors_ < max_listed) listed_.push_back(fmt::format(text, std::forward<Args>(args)...));
    ++errors_;
  }

  /// Counts problems that were already described by one listed message.
  void add_uncounted(std::uint64_t extra) { errors_ += extra; }

  std::uint64_t errors() const { return errors_; }

  verdict finish() const {
    verdict v;
    v.ok = errors_ == 0;
    v.errors = errors_;
    if (errors_ == 0) return v;
    v.message = fmt::format("{}: {} problem{}: ", check_, errors_, errors_ == 1 ? "" : "s");
    for (std::size_t i = 0; i < listed_.size(); ++i) {
      if (i > 0) v.message += "; ";
      v.message += listed_[i];
    }
    if (errors_ > listed_.size()) v.message += fmt::format("; ... ({} more)", errors_ - listed_.size());
    return v;
  }

 private:
  static constexpr std::size_t max_listed = 5;
  const char* check_;
  std::uint64_t errors_ = 0;
  std::vector<std::string> listed_;
};

/// Is there a stored entry u -> v? Rows are sorted, so a binary search.
bool has_edge(const host_csr& g, vertex_t u, vertex_t v) {
  const auto begin = g.col_idx.begin() + static_cast<std::ptrdiff_t>(g.row_ptr[u]);
  const auto end = g.col_idx.begin() + static_cast<std::ptrdiff_t>(g.row_ptr[u + 1]);
  return std::binary_search(begin, end, v);
}

/// Parent rules shared by `check_bfs` and `check_bfs_parents`, judged against the reference levels so
/// that a bad parent is reported even when the claimed levels are also wrong.
void check_parents(const host_csr& g, vertex_t source, const std::vector<level_t>& ref,
                   const std::vector<vertex_t>& parents, problems& out) {
  for (vertex_t v = 0; v < g.n; ++v) {
    const vertex_t p = parents[v];
    if (v == source) {
      if (p != source) out.add("source {} has parent {}, expected itself", source, p);
    } else if (ref[v] == unreached_level) {
      if (p != invalid_vertex) out.add("vertex {} is unreachable but has parent {}", v, p);
    } else if (p == invalid_vertex) {
      out.add("vertex {} is reachable (level {}) but has no parent", v, ref[v]);
    } else if (p >= g.n) {
      out.add("vertex {} has parent {}, which is out of range", v, p);
    } else if (ref[p] != ref[v] - 1) {
      out.add("vertex {} (level {}) has parent {} at level {}, expected level {}", v, ref[v], p, ref[p], ref[v] - 1);
    } else if (!has_edge(g, p, v)) {
      out.add("vertex {} has parent {} but there is no edge {} -> {}", v, p, p, v);
    }
  }
}

/// Equality up to a relative tolerance; infinities only equal themselves.
bool close(double a, double b, double rel) {
  if (a == b) return true;
  if (!std::isfinite(a) || !std::isfinite(b)) return false;
  return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

/// Integer weights add up exactly in doubles (below 2^53), so their distances are compared exactly.
bool integer_weights(const host_csr& g) {
  if (!g.has_weights) return true;
  constexpr double exact_limit = 9007199254740992.0;  // 2^53
  return std::all_of(g.weights.begin(), g.weights.end(),
                     [&](double w) { return w == std::floor(w) && w <= exact_limit; });
}

/// The in-edges of `g` as rows (columns ascending: rows are filled in source order).
host_csr reversed(const host_csr& g) {
  host_csr r;
  r.n = g.n;
  r.kind = g.kind;
  r.has_duplicates = g.has_duplicates;
  r.row_ptr.assign(std::size_t(g.n) + 1, 0);
  for (const vertex_t v : g.col_idx) ++r.row_ptr[std::size_t(v) + 1];
  for (vertex_t v = 0; v < g.n; ++v) r.row_ptr[v + 1] += r.row_ptr[v];
  r.col_idx.resize(g.col_idx.size());
  std::vector<offset_t> next(r.row_ptr.begin(), r.row_ptr.end() - 1);
  for (vertex_t u = 0; u < g.n; ++u)
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) r.col_idx[next[g.col_idx[p]]++] = u;
  return r;
}

}  // namespace

verdict check_bfs(const host_csr& g, vertex_t source, const std::vector<level_t>& levels,
                  const std::vector<vertex_t>* parents) {
  constexpr const char* func = "validate::check_bfs";
  const auto ref = reference::bfs_levels(g, source);  // checks g and source
  BITGRAPH_CHECK_ARG(levels.size() == g.n, func, "levels has ", levels.size(), " entries, graph has ", g.n,
                     " vertices");
  BITGRAPH_CHECK_ARG(parents == nullptr || parents->size() == g.n, func, "parents has ", parents ? parents->size() : 0,
                     " entries, graph has ", g.n, " vertices");
  problems out("check_bfs");
  for (vertex_t v = 0; v < g.n; ++v) {
    if (levels[v] == ref[v]) continue;
    if (ref[v] == unreached_level)
      out.add("vertex {} is unreachable but has level {} (expected {})", v, levels[v], unreached_level);
    else if (levels[v] == unreached_level)
      out.add("vertex {} is reachable at level {} but marked unreached", v, ref[v]);
    else
      out.add("vertex {} has level {}, expected {}", v, levels[v], ref[v]);
  }
  if (parents != nullptr) check_parents(g, source, ref, *parents, out);
  return out.finish();
}

verdict check_bfs_parents(const host_csr& g, vertex_t source, const std::vector<vertex_t>& parents) {
  const auto ref = reference::bfs_levels(g, source);
  BITGRAPH_CHECK_ARG(parents.size() == g.n, "validate::check_bfs_parents", "parents has ", parents.size(),
                     " entries, graph has ", g.n, " vertices");
  problems out("check_bfs_parents");
  check_parents(g, source, ref, parents, out);
  return out.finish();
}

verdict check_sssp(const host_csr& g, vertex_t source, const std::vector<double>& dist) {
  constexpr const char* func = "validate::check_sssp";
  constexpr double inf = std::numeric_limits<double>::infinity();
  reference::require_well_formed(g, func);
  BITGRAPH_CHECK_ARG(source < g.n, func, "source ", source, " is out of range (graph has ", g.n, " vertices)");
  BITGRAPH_CHECK_ARG(dist.size() == g.n, func, "dist has ", dist.size(), " entries, graph has ", g.n, " vertices");
  problems out("check_sssp");
  // A negative, NaN or infinite weight makes no distance checkable (and Dijkstra inapplicable): the verdict
  // fails, naming the weights, instead of throwing, so that a caller validating a run reports it as such.
  for (vertex_t u = 0; u < g.n && g.has_weights; ++u) {
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) {
      const double w = g.weights[p];
      if (!(std::isfinite(w) && w >= 0.0))
        out.add("edge {} -> {} (entry {}) has weight {}: shortest paths need finite non-negative weights", u,
                g.col_idx[p], p, w);
    }
  }
  if (out.errors() > 0) return out.finish();
  auto weight = [&](offset_t p) { return g.has_weights ? g.weights[p] : 1.0; };
  const double rel = integer_weights(g) ? 0.0 : sssp_relative_tolerance;

  std::vector<char> valid(g.n, 1);
  for (vertex_t v = 0; v < g.n; ++v) {
    if (std::isnan(dist[v]) || dist[v] < 0.0) {
      valid[v] = 0;
      out.add("vertex {} has distance {}, which is not a valid distance", v, dist[v]);
    }
  }
  if (dist[source] != 0.0 && valid[source]) out.add("source {} has distance {}, expected 0", source, dist[source]);

  // No edge may still improve a distance: every distance is at most the true one.
  for (vertex_t u = 0; u < g.n; ++u) {
    if (!valid[u] || dist[u] == inf) continue;
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) {
      const vertex_t v = g.col_idx[p];
      const double cand = dist[u] + weight(p);
      if (valid[v] && cand < dist[v] && !close(cand, dist[v], rel))
        out.add("edge {} -> {} (weight {}) relaxes: dist[{}] + w = {} < dist[{}] = {}", u, v, weight(p), u, cand, v,
                dist[v]);
    }
  }

  // Every finite distance must be the length of an actual path from the source, i.e. reachable through
  // tight edges; this, unlike "some in-edge is tight", also rejects zero-weight cycles that prop each
  // other up below their true distance.
  std::vector<char> supported(g.n, 0);
  if (valid[source] && dist[source] == 0.0) {
    std::vector<vertex_t> queue{source};
    supported[source] = 1;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const vertex_t u = queue[head];
      for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) {
        const vertex_t v = g.col_idx[p];
        if (!supported[v] && valid[v] && dist[v] != inf && close(dist[u] + weight(p), dist[v], rel)) {
          supported[v] = 1;
          queue.push_back(v);
        }
      }
    }
  }
  for (vertex_t v = 0; v < g.n; ++v)
    if (v != source && valid[v] && dist[v] != inf && !supported[v])
      out.add("vertex {}: distance {} is not the length of any path from the source", v, dist[v]);

  if (g.n <= sssp_reference_max_vertices) {
    const auto ref = reference::dijkstra(g, source);
    for (vertex_t v = 0; v < g.n; ++v)
      if (valid[v] && !close(dist[v], ref[v], rel))
        out.add("vertex {} has distance {}, Dijkstra says {}", v, dist[v], ref[v]);
  }
  return out.finish();
}

verdict check_pagerank(const host_csr& g, const std::vector<double>& rank, const pagerank_params& params) {
  // pagerank_step checks g, the size of rank and the parameters.
  const auto next = reference::pagerank_step(g, rank, params);
  problems out("check_pagerank");
  if (g.n == 0) return out.finish();

  double sum = 0.0;
  double change = 0.0;
  for (vertex_t v = 0; v < g.n; ++v) {
    if (!std::isfinite(rank[v]) || !(rank[v] > 0.0)) out.add("vertex {} has rank {}, expected positive", v, rank[v]);
    sum += rank[v];
    change += std::abs(next[v] - rank[v]);
  }
  // One iteration contracts the L1 distance to the fixed point by the damping factor, so a vector on
  // which the algorithm stopped (its last change < tolerance) moves by less than that again.
  if (!(change < params.tolerance))
    out.add("one more iteration changes the ranks by {} (L1), not below the tolerance {}", change, params.tolerance);
  if (params.dangling == pagerank_dangling::redistribute) {
    if (!(std::abs(sum - 1.0) <= pagerank_sum_tolerance))
      out.add("ranks sum to {}, expected 1 (sinks redistribute their rank)", sum);
  } else if (!(sum <= 1.0 + pagerank_sum_tolerance)) {
    out.add("ranks sum to {}, expected at most 1", sum);
  }
  if (g.n <= pagerank_reference_max_vertices) {
    const auto ref = reference::pagerank(g, params);
    for (vertex_t v = 0; v < g.n; ++v)
      if (!(std::abs(rank[v] - ref.rank[v]) < pagerank_reference_tolerance))
        out.add("vertex {} has rank {}, reference {} (after {} iterations)", v, rank[v], ref.rank[v], ref.iterations);
  }
  return out.finish();
}

verdict check_components(const host_csr& g, const std::vector<vertex_t>& labels) {
  const auto ref = reference::components(g);
  BITGRAPH_CHECK_ARG(labels.size() == g.n, "validate::check_components", "labels has ", labels.size(),
                     " entries, graph has ", g.n, " vertices");
  // One (component, label, witness vertex) triple per distinct pairing; the partitions agree exactly when
  // the pairing is one-to-one.
  struct pairing {
    vertex_t component, label, witness;
  };
  std::vector<pairing> pairs(g.n);
  for (vertex_t v = 0; v < g.n; ++v) pairs[v] = {ref[v], labels[v], v};
  auto by_component = [](const pairing& a, const pairing& b) {
    return std::tie(a.component, a.label, a.witness) < std::tie(b.component, b.label, b.witness);
  };
  std::sort(pairs.begin(), pairs.end(), by_component);
  pairs.erase(
      std::unique(pairs.begin(), pairs.end(),
                  [](const pairing& a, const pairing& b) { return a.component == b.component && a.label == b.label; }),
      pairs.end());

  problems out("check_components");
  for (std::size_t i = 0, j; i < pairs.size(); i = j) {
    for (j = i + 1; j < pairs.size() && pairs[j].component == pairs[i].component;) ++j;
    if (j - i > 1) {
      out.add("component of vertex {} is split: vertices {} and {} are connected but labelled {} and {}{}",
              pairs[i].component, pairs[i].witness, pairs[i + 1].witness, pairs[i].label, pairs[i + 1].label,
              j - i > 2 ? fmt::format(" ({} labels in all)", j - i) : std::string());
      out.add_uncounted(j - i - 2);
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const pairing& a, const pairing& b) {
    return std::tie(a.label, a.component) < std::tie(b.label, b.component);
  });
  for (std::size_t i = 0, j; i < pairs.size(); i = j) {
    for (j = i + 1; j < pairs.size() && pairs[j].label == pairs[i].label;) ++j;
    if (j - i > 1) {
      out.add("label {} merges components: vertices {} and {} share it but are not connected{}", pairs[i].label,
              pairs[i].witness, pairs[i + 1].witness,
              j - i > 2 ? fmt::format(" ({} components in all)", j - i) : std::string());
      out.add_uncounted(j - i - 2);
    }
  }
  return out.finish();
}

verdict check_closeness(const host_csr& g, const std::vector<double>& closeness, const std::vector<vertex_t>& sources) {
  constexpr const char* func = "validate::check_closeness";
  reference::require_well_formed(g, func);
  BITGRAPH_CHECK_ARG(closeness.size() == g.n, func, "closeness has ", closeness.size(), " entries, graph has ", g.n,
                     " vertices");
  std::vector<char> is_source(g.n, sources.empty() ? 1 : 0);
  for (const vertex_t s : sources) {
    BITGRAPH_CHECK_ARG(s < g.n, func, "source ", s, " is out of range (graph has ", g.n, " vertices)");
    BITGRAPH_CHECK_ARG(!is_source[s], func, "source ", s, " is repeated");
    is_source[s] = 1;
  }
  problems out("check_closeness");
  for (vertex_t v = 0; v < g.n; ++v)
    if (!(closeness[v] >= 0.0 && closeness[v] <= 1.0))
      out.add("vertex {} has closeness {}, outside [0, 1]", v, closeness[v]);
  const std::uint64_t count = sources.empty() ? g.n : sources.size();
  const auto compare = [&](vertex_t v, double expected) {
    if (!close(closeness[v], expected, closeness_relative_tolerance))
      out.add("vertex {} has closeness {}, expected {}", v, closeness[v], expected);
  };
  if (double(count) * (double(g.n) + double(g.nnz())) <= double(closeness_reference_max_work)) {
    const auto ref = reference::closeness(g, sources);
    for (vertex_t v = 0; v < g.n; ++v) compare(v, ref[v]);
    return out.finish();
  }
  // One vertex's closeness from the distances to it: a BFS over the in-edges from it.
  const host_csr in = reversed(g);
  const std::uint64_t step = std::max<vertex_t>(1, g.n / closeness_checked_vertices);
  for (std::uint64_t at = 0; at < g.n; at += step) {  // 64 bits: no wrap near 2^32 vertices
    const auto v = static_cast<vertex_t>(at);
    const auto level = reference::bfs_levels(in, v);
    double sum = 0, reached = 0;
    for (vertex_t u = 0; u < g.n; ++u)
      if (u != v && is_source[u] && level[u] != unreached_level) {
        sum += level[u];
        reached += 1;
      }
    compare(v, reference::closeness_value(reached, double(count) - is_source[v], sum));
  }
  return out.finish();
}

verdict check_triangles(const host_csr& g, std::uint64_t count) {
  const std::uint64_t expected = reference::triangles(g);
  problems out("check_triangles");
  if (count != expected) out.add("triangle count {}, expected {}", count, expected);
  return out.finish();
}

}  // namespace bitgraph::validate
