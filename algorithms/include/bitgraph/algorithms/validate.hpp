// Validators that decide whether an algorithm's output is a correct answer for a host graph.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bitgraph/algorithms/reference.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/host_csr.hpp"

/// Output checkers in the spirit of LAGraph's `LG_check_*`. Each accepts every correct answer (any
/// valid BFS tree, any component labelling) and rejects wrong ones with a `verdict` naming the first
/// few problems. Bad *arguments* (source out of range, a vector of the wrong size, a malformed `host_csr`,
/// parameters out of range) throw `invalid_argument_error` instead; a wrong answer is a failed verdict,
/// never an exception, and so is a graph the answer cannot be judged on (`check_sssp` over NaN, infinite or
/// negative weights). Host-only; no Kokkos.
namespace bitgraph::validate {

using reference::pagerank_dangling;
using reference::pagerank_params;

/// Outcome of a check.
struct verdict {
  bool ok = true;            ///< the answer is correct
  std::uint64_t errors = 0;  ///< number of problems found (0 when ok)
  std::string message;       ///< the first few problems (vertex ids, expected vs got); empty when ok

  /// True when the answer is correct, so `REQUIRE(check_x(...))` reads naturally.
  explicit operator bool() const noexcept { return ok; }
};

/// Relative tolerance of `check_sssp` for non-integer weights.
inline constexpr double sssp_relative_tolerance = 1e-9;

/// Largest graph for which `check_sssp` also compares with `reference::dijkstra`.
inline constexpr vertex_t sssp_reference_max_vertices = 200000;

/// Largest graph for which `check_pagerank` also compares with `reference::pagerank`.
inline constexpr vertex_t pagerank_reference_max_vertices = 100000;

/// Largest allowed |rank - reference| (per vertex) in that comparison: LAGraph's test threshold.
inline constexpr double pagerank_reference_tolerance = 1e-4;

/// Largest allowed |sum of ranks - 1| with `pagerank_dangling::redistribute` (sum <= 1 + this with
/// `ignore`, where sinks leak rank).
inline constexpr double pagerank_sum_tolerance = 1e-6;

/// BFS from `source` along the out-edges of `g`. `levels` must hold the exact BFS distance of every
/// reachable vertex (0 at the source) and `unreached_level` elsewhere. When `parents` is given,
/// parents[source] == source, every other reached v has a parent p with an entry p -> v in `g` one level
/// closer to the source, and unreached vertices have `invalid_vertex`. Throws `invalid_argument_error`
/// if `source >= g.n` or a vector's size differs from `g.n`.
verdict check_bfs(const host_csr& g, vertex_t source, const std::vector<level_t>& levels,
                  const std::vector<vertex_t>* parents = nullptr);

/// Parents-only form of `check_bfs`, for traversals that return no levels; same rules for `parents`.
verdict check_bfs_parents(const host_csr& g, vertex_t source, const std::vector<vertex_t>& parents);

/// Single-source shortest paths from `source` (weight 1 per entry when `g` has no weights).
/// dist[source] == 0; no edge u -> v relaxes (dist[u] + w < dist[v] beyond `sssp_relative_tolerance`);
/// every finite distance is realised by a path from the source made of tight edges
/// (dist[u] + w == dist[v] within the tolerance); unreachable vertices hold +infinity exactly. For
/// graphs of at most `sssp_reference_max_vertices` vertices the distances are also compared with
/// `reference::dijkstra`: exactly when every weight is an integer, within the tolerance otherwise.
/// A graph with a negative, NaN or infinite weight gets a failed verdict naming those edges (no distance
/// can be checked against such weights). Throws `invalid_argument_error` for a bad source or size.
verdict check_sssp(const host_csr& g, vertex_t source, const std::vector<double>& dist);

/// PageRank with `params` (see `reference::pagerank`): every rank finite and positive; one more
/// iteration applied to `rank` changes it by less than `params.tolerance` in L1 norm; the ranks sum to
/// 1 within `pagerank_sum_tolerance` (redistribute) or to at most 1 + that (ignore); and for graphs of
/// at most `pagerank_reference_max_vertices` vertices, max |rank - reference::pagerank| is below
/// `pagerank_reference_tolerance`. Throws `invalid_argument_error` for a bad size or parameters.
verdict check_pagerank(const host_csr& g, const std::vector<double>& rank, const pagerank_params& params = {});

/// Weakly connected components: `labels` must induce the same partition of the vertices as the
/// components of `g` with edge directions ignored. Any label values are accepted (minimum id,
/// representative, consecutive numbers, ...) as long as two vertices share a label exactly when they
/// are connected. Throws `invalid_argument_error` if `labels.size() != g.n`.
verdict check_components(const host_csr& g, const std::vector<vertex_t>& labels);

/// Largest allowed relative difference of `check_closeness` (the same sums in another order, or contracted
/// into fused multiply-adds, may differ in the last bits).
inline constexpr double closeness_relative_tolerance = 1e-12;

/// Largest |sources| x (n + nnz) for which `check_closeness` compares every vertex with
/// `reference::closeness` (one BFS per source); larger checks compare `closeness_checked_vertices`.
inline constexpr std::uint64_t closeness_reference_max_work = std::uint64_t(1) << 30;

/// On larger graphs `check_closeness` compares the vertices 0, s, 2s, ... with s = max(1, n / this) (this many
/// to twice as many), each by one BFS over the in-edges from it.
inline constexpr vertex_t closeness_checked_vertices = 256;

/// Closeness centrality over `sources` (empty: every vertex, the exact measure; else the distinct sampled
/// sources, `closeness_result::sampled`), as `reference::closeness` defines it: every value finite and within
/// [0, 1], and equal to the reference within `closeness_relative_tolerance`, for every vertex while
/// |sources| x (n + nnz) <= `closeness_reference_max_work`, else for about `closeness_checked_vertices` vertices
/// spread over the ids (O(those vertices x (n + nnz))). Throws `invalid_argument_error` if
/// `closeness.size() != g.n` or a source is out of range or repeated.
verdict check_closeness(const host_csr& g, const std::vector<double>& closeness,
                        const std::vector<vertex_t>& sources = {});

/// Triangle count: `count` must equal `reference::triangles(g)` exactly.
verdict check_triangles(const host_csr& g, std::uint64_t count);

}  // namespace bitgraph::validate
