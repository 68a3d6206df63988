// Blest's compression-oriented ordering (Algorithm 1, JaccardWithWindows) and the Gorder-flavoured
// pre-order it starts from: groups of sigma vertices with similar neighbourhoods become slice sets.
#pragma once

#include <cstdint>

#include "bitgraph/formats/host_csr.hpp"
#include "bitgraph/reorder/permutation.hpp"

namespace bitgraph::reorder {

/// Order applied before the windows are cut, so that similar vertices tend to share a window.
enum class pre_order : std::uint8_t {
  none,         ///< windows are ranges of input ids
  degree,       ///< descending |N(j)|, ties by id
  gorder_like,  ///< `gorder_like()`: greedy placement by common-neighbour score (the paper uses Gorder)
};

/// Parameters of `gorder_like`.
struct gorder_options {
  /// Gorder's sliding window: a vertex is scored against the last `window` placed vertices (>= 1).
  vertex_t window = 5;
  /// Shared neighbours u held by more than this many vertices (|{x : u in N(x)}| > hub_degree) are
  /// skipped when counting common neighbours: a hub is common to almost everyone, says little about
  /// similarity and would cost its degree squared. On R-MAT graphs 16 gives, after
  /// Jaccard-with-windows, the compression of 64 to 1024 (within 0.5 %) at a third of 64's time.
  vertex_t hub_degree = 16;
};

/// Parameters of `jaccard_windows`.
struct jaccard_options {
  int sigma = 8;                           ///< slice width: 4, 8, 16 or 32
  vertex_t window = vertex_t{1} << 16;     ///< vertices per window; a positive multiple of `sigma`
  pre_order pre = pre_order::gorder_like;  ///< order the windows are cut from
  gorder_options gorder;                   ///< used when `pre == pre_order::gorder_like`
  /// Only vertices j with |N(j)| >= min_degree_ratio * |U| may join a cluster. Any other has
  /// J < min_degree_ratio, so a pick changes only when the best similarity is below the ratio; in
  /// exchange a cluster around a hub (huge U) no longer visits the window's low-degree vertices. On
  /// R-MAT graphs 0.5 runs the densest windows 2.2-2.5x faster for < 0.3 % less compression. In
  /// [0, 1]; 0 = Algorithm 1's picks exactly.
  double min_degree_ratio = 0.5;
  /// A window also ends (on a multiple of sigma, after at least sigma vertices) before its vertices'
  /// neighbourhoods exceed this many entries. Degree and Gorder-like pre-orders put the hubs first, so
  /// on skewed graphs the first fixed-size window would hold most of the graph and its sequential
  /// clustering would bound the run; cut by entries, it becomes several windows clustered in parallel
  /// (R-MAT scale 20: slowest window 2.6 s instead of 37 s, 0.3-0.5 % less compression). 0 = windows
  /// of exactly `window` vertices, as in the paper.
  offset_t window_entries = offset_t{1} << 21;
  unsigned threads = 0;  ///< worker threads over windows; 0 = hardware concurrency
};

/// A Gorder-flavoured greedy order on the neighbourhoods N(j) = column j of `a` (see `jaccard_windows`
/// for what `a` is). Starting from the vertex of largest |N(j)|, it repeatedly appends the unplaced
/// vertex with the highest score against the last `window` placed vertices v, where a vertex x scores
/// one per shared neighbour (u in N(x) and in N(v), u not a hub) and one per direction of an edge
/// between x and v: Gorder's S_s + S_n. Scores live in bucketed arrays (the k-core layout), so each
/// update is O(1); when no unplaced vertex scores above zero, the next vertex by descending |N(j)| is
/// taken. Unlike Gorder, hub neighbours are skipped instead of being fully expanded, which bounds the
/// work by O(m * hub_degree). Serial. Throws `invalid_argument_error` if `a` is inconsistent or
/// `window` is 0.
permutation gorder_like(const host_csr& a, const gorder_options& options = {});

/// Blest's JaccardWithWindows (Algorithm 1). `a` is the matrix Blest builds its slices from, with
/// `a[u][j] = 1` when u pulls from j: the adjacency of the transposed graph for a directed graph, the
/// graph itself for an undirected one. The compared neighbourhoods are its columns, N(j) = {u : a[u][j]}
/// (so for an undirected graph, the rows).
///
/// The pre-ordered vertex sequence is cut into windows of `window` vertices (fewer where
/// `window_entries` ends one early), processed in parallel and independently. Inside a window,
/// clusters of sigma vertices are formed one after another: the first unclustered vertex is the seed,
/// U = N(seed), then sigma - 1 times the unclustered vertex j of the window maximising
/// |N(j) ∩ U| / |N(j) ∪ U| (ties to the earliest in the window; the earliest unclustered vertex if none
/// shares a neighbour with U) joins and U grows by N(j). Cluster l of the window starting at position
/// s takes new ids s + l*sigma, ..., so each cluster is one slice set.
///
/// Instead of scoring all w window vertices at every step (O(w^2 * d) per window), |N(j) ∩ U| is
/// counted incrementally, only for vertices sharing an element with U (via each element's list of the
/// window vertices holding it), and only down to a degree floor: since J <= |N(j)| / |U|, vertices of
/// low degree are counted only if no better candidate turns up. The scan for the maximum goes from the
/// highest count down and stops when count / |U| cannot beat the best. The cost per cluster is the
/// length of the (degree-truncated) holder lists of U's elements, worst for the clusters of hubs; see
/// docs/reorder.md for measurements. The result does not depend on the number of threads, and with
/// `min_degree_ratio = 0` and `window_entries = 0` it is exactly Algorithm 1's. Memory
/// O(w + entries of the window) per thread.
///
/// Throws `invalid_argument_error` if `a` is inconsistent, `sigma` is not 4, 8, 16 or 32, `window` is
/// not a positive multiple of `sigma`, `min_degree_ratio` is outside [0, 1] or the Gorder window is 0.
permutation jaccard_windows(const host_csr& a, const jaccard_options& options = {});

}  // namespace bitgraph::reorder
