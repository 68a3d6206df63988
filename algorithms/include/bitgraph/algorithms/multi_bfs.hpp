// Multi-source BFS (up to 128 sources in one traversal, bit-parallel) and closeness centrality on top of it.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bitgraph/algorithms/detail/multi_bfs_kernels.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/launch.hpp"
#include "bitgraph/core/sort.hpp"
#include "bitgraph/reorder/device_order.hpp"

namespace bitgraph {

/// Most sources one multi-source traversal carries (two 64-bit words per vertex).
inline constexpr std::size_t multi_bfs_max_sources = 128;

/// The vertex order a multi-source traversal runs in (its levels and sums are always in the caller's ids).
enum class multi_bfs_order {
  automatic,  ///< `degree` when the degrees are skewed and `traversals` pay for the relabelling, else `none`
  none,       ///< the caller's ids
  /// Hubs first (`reorder::degree_order`, on the device): the per-vertex words most edges lead to share a few
  /// cache lines and stay in cache, and a pull meets the hubs (the most sources' bits) first in every row, so it
  /// stops sooner. Costs a relabelled copy of the graph's pattern (and of its transpose when directed), built once
  /// per graph and kept in the workspace.
  degree,
};

/// "auto", "none" or "degree".
inline std::string_view to_string(multi_bfs_order o) noexcept {
  return o == multi_bfs_order::none ? "none" : o == multi_bfs_order::degree ? "degree" : "auto";
}

/// A level in 32 bits: a compact one (`multi_bfs_result::levels8`) widened, `unreached_level8` becoming
/// `unreached_level`; a `level_t` as it is.
constexpr level_t widen_level(level8_t l) noexcept { return l == unreached_level8 ? unreached_level : level_t(l); }
constexpr level_t widen_level(level_t l) noexcept { return l; }

/// Options of `multi_source_bfs`.
struct multi_bfs_options {
  bool levels = true;  ///< keep levels(i, v) (k x n entries); false keeps only the counts
  /// Keep the levels as 8 bits each (`multi_bfs_result::levels8`, `unreached_level8` where not reached) instead of
  /// 32 (`levels`): a quarter of the memory and of the bytes the traversal writes. A traversal that reaches a vertex
  /// at a level over `max_level8` throws `size_error`.
  bool compact_levels = false;
  /// A level pulls (bottom-up, early exit once every missing source is covered) when the frontier's out-edges
  /// exceed (the in-edges of the vertices some source has not reached yet + the vertices with edges) / `pull_ratio`;
  /// else it pushes. Must be positive and finite. Lower than a single-source BFS's 14: a pull for 128 sources seldom
  /// stops early, so pushing pays longer.
  double pull_ratio = 6;
  multi_bfs_order order = multi_bfs_order::automatic;
  /// Traversals the caller expects to run on this graph with one workspace (`automatic` weighs the relabelling
  /// against them). At least 1.
  std::size_t traversals = 1;
  /// Frontier words a pull gathers per pass. A pull that gathers from more words than the cache holds runs in column
  /// blocks of this many bytes: pass b scans, in every row still missing a source, the entries whose columns lie in
  /// block b, so that its gathers hit cache (at most 64 blocks; split offsets of 16 bits per row and block kept in the
  /// workspace). 0: automatic, 16 MiB on CUDA (a fraction of the L2 cache) where the in-degrees are not skewed (in
  /// a skewed graph the hubs' words, which most entries lead to, stay in cache anyway), one pass on host spaces.
  /// Only the levels before half of the (source, vertex) pairs are reached run in blocks: later rows stop after a few
  /// entries.
  std::size_t pull_block_bytes = 0;
  /// A pull level before half of the (source, vertex) pairs are reached pushes, instead of pulling, the sources whose
  /// frontier holds fewer vertices than `slow_source_share` x the median advancing source's: a row stops early only
  /// once every missing source is covered, and a source with a small frontier covers few rows, so it kept most long
  /// rows scanning to their end. Pushing them costs their frontiers' out-edges, and finding them a pass over the
  /// frontier words per such level. 0: never; negative: automatic (1/32 on CUDA where the frontier words exceed the
  /// L2 cache, `detail::multi_bfs_split_frontier_bytes`; else 0). Must be finite.
  double slow_source_share = -1;
};

/// Result of `multi_source_bfs`.
template <class MemorySpace>
struct multi_bfs_result {
  /// levels(i, v): the level of v from sources[i] (0 at the source), `unreached_level` where v is not reachable;
  /// extents (k, n), a source's levels strided by k (LayoutLeft keeps a vertex's k levels together, as the
  /// traversal writes them). Empty when `levels` was off or `compact_levels` on.
  Kokkos::View<level_t**, Kokkos::LayoutLeft, MemorySpace> levels;
  /// The same levels in 8 bits (`unreached_level8` where not reached) when `compact_levels` was on; else empty.
  Kokkos::View<level8_t**, Kokkos::LayoutLeft, MemorySpace> levels8;
  int depth = 0;            ///< the largest level over all sources
  std::uint64_t pairs = 0;  ///< (source, vertex) pairs reached, the sources themselves included
  std::string directions;   ///< per level: 'p' push, 'u' pull (bottom-up)
  int split_levels = 0;     ///< pull levels that pushed their slow sources (`multi_bfs_options::slow_source_share`)
  multi_bfs_order order = multi_bfs_order::none;  ///< the order the traversal ran in (`automatic` resolved)
};

/// Buffers of `multi_source_bfs` kept between calls (a caller running many traversals on one graph passes the same
/// workspace): the graph in the traversal's order, the per-vertex words, the frontier slots, the segment lists of
/// the long rows, the sparse levels' lists and the levels. The graph part (with the lists) is rebuilt when the graph
/// (its row pointers) or the order changes, the words when their count changes; the slots grow and the levels follow
/// the source count.
template <class MemorySpace>
struct multi_bfs_workspace {
  // The out-row pointers the traversal graph was made from, held so that their memory cannot go to another graph
  // while the workspace compares against it.
  Kokkos::View<const offset_t*, MemorySpace> graph;
  multi_bfs_order order = multi_bfs_order::automatic;  // the resolved order the graph part was built for
  reorder::vertex_order<MemorySpace> ids;              // empty in the caller's order
  csr_graph<MemorySpace> out, in;                      // the traversal's out- and in-edges (patterns)
  double prepare_seconds = 0;                          // building the graph part, the last time it was built
  vertex_t n = 0;
  // Vertices from `live` on have no edge in the traversal's order (degree order puts a graph's isolated vertices
  // there): the passes over vertices stop at it, and the frontier slots beyond it stay zero.
  vertex_t live = 0;
  int words = 0;
  int slots = 0;
  Kokkos::View<std::uint64_t*, MemorySpace> seen, visit, history;     // n W, n W, slots n W words
  Kokkos::View<level_t**, Kokkos::LayoutLeft, MemorySpace> levels;    // k x n, the last call's (32-bit levels)
  Kokkos::View<level8_t**, Kokkos::LayoutLeft, MemorySpace> levels8;  // k x n, the last call's (compact levels)
  Kokkos::View<vertex_t*, MemorySpace> sources;                       // k, the last call's
  detail::multi_bfs_segments<MemorySpace> out_segments, in_segments;
  // Sparse levels: the candidate list, the listed frontier, their counts, and the per-vertex stamps that list a
  // vertex once per level (`stamp`: the last level's, counted across calls).
  Kokkos::View<vertex_t*, MemorySpace> candidates, queue;
  Kokkos::View<unsigned long long*, MemorySpace> counts;
  Kokkos::View<std::uint32_t*, MemorySpace> mark;
  std::uint32_t stamp = 0;
  // Column blocks of the pull (`multi_bfs_options::pull_block_bytes`; 1: one pass): the per-row and per-segment
  // split offsets, made for `blocks_words` words per vertex and `blocks_bytes` per block as the option asked
  // (0: automatic); `in_skew` the in-degree skew (negative until the automatic choice needs it).
  int pull_blocks = 1, blocks_words = 0;
  std::size_t blocks_bytes = 0;
  double in_skew = -1;
  Kokkos::View<std::uint16_t*, MemorySpace> row_split, segment_split;
  // Per source, the vertices in its frontier (`multi_bfs_options::slow_source_share`), and their host copy.
  Kokkos::View<unsigned long long*, MemorySpace> source_counts;
  typename Kokkos::View<unsigned long long*, MemorySpace>::HostMirror source_counts_host;
};

/// BFS from every vertex of `sources` (1 to 128 of them, duplicates allowed) in one traversal: each vertex
/// carries one bit per source, so a pass over the edges advances all sources by a level. Level per source in
/// `levels(i, v)` (the same levels as `bfs` from sources[i]). Work per level: the frontier's out-edges (push)
/// or the in-edges of the vertices some source has not reached, scanned until every missing source is covered
/// (pull; a source whose frontier is empty has finished and is not waited for); O(n') per level for the update (n' = n
/// less the vertices without edges that the traversal's order puts last: degree order puts every one there), except on
/// sparse levels (a frontier of at most n / 16 out-edges, often the first and the last levels), which list the vertices
/// they reach and update only those after clearing one slot; each of the k n levels is written once (from per-level
/// frontier slots kept for up to 16 levels; deeper traversals write the rest level by level). Memory: 2 n W words of 64
/// bits (W = 2 words for more than 64 sources) plus up to 16 n W of slots (never more bytes than the levels' k n
/// entries) plus the levels (4 or, with `compact_levels`, 1 byte each), n 32-bit stamps and two lists of n / 16 ids,
/// for a pull in B column blocks (`pull_block_bytes`) B - 1 16-bit offsets per vertex with edges and per segment of
/// 1,024 entries of the long in-rows, and in degree order a relabelled copy of the pattern (of the transpose too when
/// directed). Relabelling (`order`) costs a device sort of n keys and a pass over the entries, once per graph and
/// workspace. An early pull level that pushes its slow sources (`slow_source_share`) adds a pass over the frontier
/// words and a read-back of 128 counters. Throws `invalid_argument_error` for no or more than 128 sources, a source
/// >= n, a bad `pull_ratio` or `slow_source_share`, or `traversals` = 0; `size_error` with `compact_levels` when a
/// level exceeds 254; `allocation_error` when the buffers do not fit. Fences `exec` (each level's counts are read
/// back).
template <class ExecSpace>
multi_bfs_result<memory_space_t<ExecSpace>> multi_source_bfs(const ExecSpace& exec,
                                                             const bit_graph<memory_space_t<ExecSpace>>& g,
                                                             const std::vector<vertex_t>& sources,
                                                             const multi_bfs_options& opts = {});

/// `multi_source_bfs` on the caller's workspace: no allocation after the first call on a graph with as many
/// sources; the result's levels alias the workspace's (the next call on it overwrites them).
template <class ExecSpace>
multi_bfs_result<memory_space_t<ExecSpace>> multi_source_bfs(const ExecSpace& exec,
                                                             const bit_graph<memory_space_t<ExecSpace>>& g,
                                                             const std::vector<vertex_t>& sources,
                                                             const multi_bfs_options& opts,
                                                             multi_bfs_workspace<memory_space_t<ExecSpace>>& ws);

/// Options of `closeness_centrality`.
struct closeness_options {
  /// 0: exact, every vertex a source (ceil(n / 128) traversals). Otherwise this many distinct random sources
  /// (all of them when samples >= n), and each vertex's closeness is estimated from its distances to them
  /// (Eppstein and Wang's sampling).
  vertex_t samples = 0;
  std::uint64_t seed = 1;  ///< of the sample
  /// The traversals' vertex order (`automatic` weighs the relabelling against the ceil(sources / 128) traversals).
  multi_bfs_order order = multi_bfs_order::automatic;
};

/// Result of `closeness_centrality`.
template <class MemorySpace>
struct closeness_result {
  Kokkos::View<double*, MemorySpace> closeness;  ///< per vertex
  vertex_t sources = 0;                          ///< sources traversed from
  int traversals = 0;                            ///< multi-source traversals run
  bool exact = true;
  multi_bfs_order order = multi_bfs_order::none;  ///< the order they ran in
  /// Sampled: the sources drawn (the graph's ids, distinct, in the order drawn), so that the estimate can be
  /// reproduced or checked (`validate::check_closeness`). Empty when exact.
  std::vector<vertex_t> sampled;
};

/// Closeness centrality with Wasserman and Faust's scaling for graphs that are not connected (NetworkX's
/// `closeness_centrality`, wf_improved): for vertex v with R(v) other vertices u that reach it at total
/// distance S(v) = sum of d(u, v), closeness(v) = (R / (n - 1)) * (R / S), 0 when R = 0; for a connected graph
/// (n - 1) / S. Distances run from u to v (incoming closeness on a directed graph; pass the reversed graph for
/// outgoing). Sampled: R / (n - 1) and S / R are estimated over the sampled sources other than v. Built on
/// `multi_source_bfs` without levels (per-vertex sums in the update pass). Work: ceil(sources / 128)
/// multi-source traversals. Throws `invalid_argument_error` for an empty graph; `allocation_error` when
/// the buffers do not fit. Fences `exec`.
template <class ExecSpace>
closeness_result<memory_space_t<ExecSpace>> closeness_centrality(const ExecSpace& exec,
                                                                 const bit_graph<memory_space_t<ExecSpace>>& g,
                                                                 const closeness_options& opts = {});

namespace detail {

/// Optional per-vertex sums a traversal adds to (closeness).
template <class Mem>
struct multi_bfs_sums {
  Kokkos::View<double*, Mem> distance_sum;         // sum of the levels at which v was reached
  Kokkos::View<std::uint32_t*, Mem> reached_from;  // sources (other than v) that reached v
  Kokkos::View<std::uint32_t*, Mem> self;          // sources at v
};

/// Closeness of each vertex from its sums over `total` sources.
template <class Mem>
struct closeness_finish {
  Kokkos::View<const double*, Mem> distance_sum;
  Kokkos::View<const std::uint32_t*, Mem> reached_from;
  Kokkos::View<const std::uint32_t*, Mem> self;
  Kokkos::View<double*, Mem> closeness;
  double total;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    const double others = total - double(self(v));
    const double r = double(reached_from(v));
    closeness(v) = (r > 0 && others > 0) ? (r / others) * (r / distance_sum(v)) : 0.0;
  }
};

/// The segments of `csr`'s rows over `light` entries, row by row or, when `by_place`, by their place in the row
/// (`multi_bfs_segments`; a stable sort keeps the rows ascending within a place).
template <class ExecSpace>
multi_bfs_segments<memory_space_t<ExecSpace>> make_multi_bfs_segments(const ExecSpace& exec,
                                                                      const csr_graph<memory_space_t<ExecSpace>>& csr,
                                                                      offset_t light = multi_bfs_light_max<ExecSpace>,
                                                                      bool by_place = false) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = csr.n;
  auto at = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::multi_bfs::segment_at", std::size_t(n) + 1, false);
  Kokkos::parallel_for("bitgraph::multi_bfs::segment_count", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                       multi_bfs_segment_count<mem>{csr.row_ptr, at, light});
  Kokkos::deep_copy(exec, Kokkos::subview(at, n), offset_t(0));
  const offset_t total = exclusive_scan(exec, at, "bitgraph::multi_bfs::segment_scan");
  multi_bfs_segments<mem> seg;
  seg.vertex = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::multi_bfs::segment_vertex", total, false);
  seg.first = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::multi_bfs::segment_first", total, false);
  offset_t last_place = 0;
  if (by_place && total > 1)
    Kokkos::parallel_reduce("bitgraph::multi_bfs::segment_last_place", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                            multi_bfs_segment_last_place<mem>{csr.row_ptr}, Kokkos::Max<offset_t>(last_place));
  Kokkos::View<std::uint32_t*, mem> place;
  if (last_place > 0)
    place = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::multi_bfs::segment_place", total, false);
  Kokkos::parallel_for("bitgraph::multi_bfs::segment_fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                       multi_bfs_segment_fill<mem>{csr.row_ptr, at, seg, light, place});
  if (last_place > 0) {
    radix_sort_pairs<ExecSpace, vertex_t>(exec, place, seg.vertex, total,
                                          key_bits(static_cast<std::uint32_t>(last_place)), true);
    Kokkos::parallel_for("bitgraph::multi_bfs::segment_first", Kokkos::RangePolicy<ExecSpace>(exec, 0, total),
                         multi_bfs_segment_first<mem>{csr.row_ptr, seg.vertex, place, seg.first});
  }
  return seg;
}

/// One past the last vertex with an out- or in-edge (a max reduction).
template <class Mem>
struct multi_bfs_last_live {
  Kokkos::View<const offset_t*, Mem> out_ptr, in_ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, vertex_t& acc) const {
    if ((out_ptr(v + 1) > out_ptr(v) || in_ptr(v + 1) > in_ptr(v)) && v + 1 > acc) acc = v + 1;
  }
};

/// Frontier slots a traversal keeps when it writes k levels per vertex: slot l holds the bits first reached at level
/// l, and the levels are written from them at the end; at most 16, and never more words than the levels hold
/// (k n entries of `level_bytes`). Below 3 the levels are written level by level (0), and 2 slots alternate.
inline int multi_bfs_history_levels(std::size_t k, int words, std::size_t level_bytes = sizeof(level_t)) {
  const std::size_t fit = k * level_bytes / (sizeof(std::uint64_t) * std::size_t(words));
  const int h = static_cast<int>(fit < std::size_t(multi_bfs_max_history) ? fit : multi_bfs_max_history);
  return h >= 3 ? h : 0;
}

/// Sum of the squared row lengths (the degree skew's numerator).
template <class Mem>
struct multi_bfs_square_degrees {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, double& acc) const {
    const double d = double(row_ptr(v + 1) - row_ptr(v));
    acc += d * d;
  }
};

/// Degree skew E[d^2] / E[d]^2 of the rows of `csr`: 1 when every row is as long, about 1 + 1 / E[d] for uniform
/// random graphs, tens and more where a few hubs hold most entries (the share of edges that lead to a vertex grows
/// with its degree, so the skew says how much of the traffic the hubs' words take). 0 for a graph without entries.
template <class ExecSpace>
double multi_bfs_degree_skew(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& csr) {
  if (csr.n == 0 || csr.nnz == 0) return 0;
  double squares = 0;
  reduce_range("bitgraph::multi_bfs::degree_skew", exec, csr.n,
               multi_bfs_square_degrees<memory_space_t<ExecSpace>>{csr.row_ptr}, squares);
  const double mean = double(csr.nnz) / double(csr.n);
  return squares / double(csr.n) / (mean * mean);
}

/// Skew above which `multi_bfs_order::automatic` relabels, and the traversals the relabelling must be spread over:
/// it costs about as much as 40 traversals of a skewed graph save (both scale with the entries; docs/PERFORMANCE.md).
inline constexpr double multi_bfs_order_skew = 8;
inline constexpr std::size_t multi_bfs_order_traversals = 40;

/// The order `opts.order` resolves to on `g`; a workspace already built for `g` under `automatic` keeps its choice.
template <class ExecSpace>
multi_bfs_order resolve_multi_bfs_order(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                        const multi_bfs_options& opts,
                                        const multi_bfs_workspace<memory_space_t<ExecSpace>>& ws) {
  if (opts.order != multi_bfs_order::automatic) return opts.order;
  if (ws.graph.data() == g.csr.row_ptr.data() && ws.n == g.n() && ws.order != multi_bfs_order::automatic)
    return ws.order;
  return opts.traversals >= multi_bfs_order_traversals && multi_bfs_degree_skew(exec, g.csr) >= multi_bfs_order_skew
             ? multi_bfs_order::degree
             : multi_bfs_order::none;
}

/// Candidates a sparse level may list: a level whose frontier has at most this many out-edges pushes from a list of
/// its vertices and updates only the vertices it offered bits to (instead of passes over all n; the last levels
/// of a traversal and often the first).
inline std::size_t multi_bfs_sparse_capacity(vertex_t n) { return std::max<std::size_t>(std::size_t(n) / 16, 256); }

/// Column blocks a pull with `words` per vertex runs in on `ws` (its graph part prepared), `bytes` of frontier words
/// per block as `multi_bfs_options::pull_block_bytes` asks (0: automatic); the split offsets are remade when the
/// graph, the words or the request change.
template <class ExecSpace>
void prepare_multi_bfs_pull_blocks(const ExecSpace& exec, int words, std::size_t bytes,
                                   multi_bfs_workspace<memory_space_t<ExecSpace>>& ws) {
  using mem = memory_space_t<ExecSpace>;
  if (ws.blocks_words == words && ws.blocks_bytes == bytes) return;
  constexpr std::size_t automatic = multi_bfs_pull_block_bytes<ExecSpace>;
  std::size_t block = bytes;
  if (block == 0 && automatic > 0) {
    if (ws.in_skew < 0) ws.in_skew = multi_bfs_degree_skew(exec, ws.in);
    block = ws.in_skew < multi_bfs_order_skew ? automatic : 0;
  }
  const std::size_t rows = ws.live, segs = ws.in_segments.vertex.extent(0);
  const std::size_t words_bytes = rows * std::size_t(words) * sizeof(std::uint64_t);
  const std::size_t blocks =
      block == 0 ? 1
                 : std::min<std::size_t>(multi_bfs_max_pull_blocks,
                                         std::max<std::size_t>(1, words_bytes / block + (words_bytes % block != 0)));
  ws.blocks_words = 0;  // a failed allocation leaves the offsets to be made again
  ws.pull_blocks = 1;
  ws.row_split = {};
  ws.segment_split = {};
  if (blocks > 1) {
    const vertex_t width = static_cast<vertex_t>((rows + blocks - 1) / blocks);
    const int count = static_cast<int>(blocks);
    ws.row_split =
        allocate_view<Kokkos::View<std::uint16_t*, mem>>("bitgraph::multi_bfs::row_split", (blocks - 1) * rows, false);
    Kokkos::parallel_for("bitgraph::multi_bfs::split_rows", Kokkos::RangePolicy<ExecSpace>(exec, 0, rows),
                         multi_bfs_split_rows<mem>{ws.in.row_ptr,
                                                   ws.in.col_idx,
                                                   {},
                                                   {},
                                                   ws.row_split,
                                                   rows,
                                                   multi_bfs_pull_light_max<ExecSpace>,
                                                   width,
                                                   count});
    if (segs > 0) {
      ws.segment_split = allocate_view<Kokkos::View<std::uint16_t*, mem>>("bitgraph::multi_bfs::segment_split",
                                                                          (blocks - 1) * segs, false);
      Kokkos::parallel_for(
          "bitgraph::multi_bfs::split_segments", Kokkos::RangePolicy<ExecSpace>(exec, 0, segs),
          multi_bfs_split_rows<mem>{ws.in.row_ptr, ws.in.col_idx, ws.in_segments.vertex, ws.in_segments.first,
                                    ws.segment_split, segs, multi_bfs_segment, width, count});
    }
    ws.pull_blocks = count;
  }
  ws.blocks_bytes = bytes;
  ws.blocks_words = words;
}

/// Makes `ws` fit a traversal of `g` in `order` (resolved) with `words` per vertex, `slots` frontier slots and pulls
/// in blocks of `pull_block_bytes` (`prepare_multi_bfs_pull_blocks`), keeping what already fits.
template <class ExecSpace>
void prepare_multi_bfs_workspace(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                 multi_bfs_order order, int words, int slots, std::size_t pull_block_bytes,
                                 multi_bfs_workspace<memory_space_t<ExecSpace>>& ws) {
  using mem = memory_space_t<ExecSpace>;
  using words_view = Kokkos::View<std::uint64_t*, mem>;
  const vertex_t n = g.n();
  const std::size_t len = std::size_t(n) * std::size_t(words);
  if (ws.graph.data() != g.csr.row_ptr.data() || ws.n != n || ws.order != order) {
    ws = multi_bfs_workspace<mem>{};
    const auto t0 = std::chrono::steady_clock::now();
    if (order == multi_bfs_order::degree) {
      ws.ids = reorder::degree_order(exec, g.csr);
      ws.out = reorder::relabel(exec, csr_pattern(g.csr), ws.ids);
      ws.in = g.directed() ? reorder::relabel(exec, csr_pattern(g.csr_t), ws.ids) : ws.out;
    } else {
      ws.out = g.csr;
      ws.in = g.in_csr();
    }
    ws.live = 0;
    Kokkos::parallel_reduce("bitgraph::multi_bfs::live", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                            multi_bfs_last_live<mem>{ws.out.row_ptr, ws.in.row_ptr}, Kokkos::Max<vertex_t>(ws.live));
    ws.out_segments = make_multi_bfs_segments(exec, ws.out);
    // The pull scans longer rows with one thread than the push does.
    ws.in_segments = g.directed() || multi_bfs_pull_light_max<ExecSpace> != multi_bfs_light_max<ExecSpace>
                         ? make_multi_bfs_segments(exec, ws.in, multi_bfs_pull_light_max<ExecSpace>, true)
                         : ws.out_segments;
    const std::size_t cap = multi_bfs_sparse_capacity(n);
    ws.candidates = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::multi_bfs::candidates", cap, false);
    ws.queue = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::multi_bfs::queue", cap, false);
    ws.counts = allocate_view<Kokkos::View<unsigned long long*, mem>>("bitgraph::multi_bfs::counts", 2);
    ws.mark = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::multi_bfs::mark", n);
    ws.stamp = 0;
    exec.fence();
    ws.prepare_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ws.n = n;
    ws.order = order;
    ws.graph = g.csr.row_ptr;  // last: a workspace whose allocation failed is rebuilt by the next call
  }
  if (ws.words != words || ws.seen.extent(0) != len) {
    ws.words = 0;  // the old words and slots go before the new ones are allocated
    ws.seen = words_view();
    ws.visit = words_view();
    ws.history = words_view();
    ws.slots = 0;
    ws.seen = allocate_view<words_view>("bitgraph::multi_bfs::seen", len, false);
    ws.visit = allocate_view<words_view>("bitgraph::multi_bfs::visit", len, false);
    ws.words = words;
  }
  if (ws.slots < slots) {
    ws.history = words_view();  // the old slots go before the new ones are allocated
    ws.slots = 0;
    ws.history = allocate_view<words_view>("bitgraph::multi_bfs::frontier_slots", std::size_t(slots) * len, false);
    ws.slots = slots;
    // Beyond `live` only the reset and the seed write (slot 0), and the levels pass reads every slot of every vertex:
    // zeroed here, once per allocation (a new graph part or word count reallocates the slots too).
    Kokkos::parallel_for(
        "bitgraph::multi_bfs::zero_beyond_live",
        Kokkos::RangePolicy<ExecSpace>(exec, 0, std::size_t(slots) * std::size_t(n - ws.live)),
        multi_bfs_zero_beyond<mem>{ws.history, std::size_t(n), std::size_t(ws.live), std::size_t(words)});
  }
  prepare_multi_bfs_pull_blocks(exec, words, pull_block_bytes, ws);
}

/// Frontier words above which `multi_bfs_options::slow_source_share`'s automatic choice pushes the slow sources on
/// CUDA: well over an H100's or H200's L2, where a pull's gathers go to DRAM, so that the entries the slow sources keep
/// scanning cost more than pushing them does (docs/PERFORMANCE.md: kron:24's frontier words gain, kron:22's and
/// urand:22's lose).
inline constexpr std::size_t multi_bfs_split_frontier_bytes = std::size_t(96) << 20;

/// `multi_bfs_options::slow_source_share` resolved for a traversal with `words` per vertex over `live` vertices:
/// negative (automatic) is 1/32 on CUDA where the frontier words exceed `multi_bfs_split_frontier_bytes`, else 0.
template <class ExecSpace>
double resolve_slow_source_share(double share, vertex_t live, int words) {
  if (share >= 0) return share;
  const std::size_t bytes = std::size_t(live) * std::size_t(words) * sizeof(std::uint64_t);
  return is_cuda_space_v<ExecSpace> && bytes > multi_bfs_split_frontier_bytes ? 1.0 / 32 : 0.0;
}

/// The advancing sources (bits of `advancing`) whose frontier in `frontier` holds fewer vertices than `share` x the
/// median advancing source's (`multi_bfs_options::slow_source_share`); counts them on the device and reads back
/// 64 W counters.
template <int W, class ExecSpace>
multi_bfs_bits<W> multi_bfs_slow_sources(const ExecSpace& exec,
                                         Kokkos::View<const multi_bfs_bits<W>*, memory_space_t<ExecSpace>> frontier,
                                         const multi_bfs_bits<W>& advancing, std::size_t k, double share,
                                         multi_bfs_workspace<memory_space_t<ExecSpace>>& ws) {
  using mem = memory_space_t<ExecSpace>;
  if (ws.source_counts.extent(0) < std::size_t(64 * W)) {
    ws.source_counts = allocate_view<Kokkos::View<unsigned long long*, mem>>("bitgraph::multi_bfs::source_counts",
                                                                             std::size_t(multi_bfs_max_sources));
    ws.source_counts_host = Kokkos::create_mirror_view(ws.source_counts);
  }
  const auto counts = Kokkos::subview(ws.source_counts, Kokkos::make_pair(0, 64 * W));
  Kokkos::deep_copy(exec, counts, 0ull);
  using count = multi_bfs_source_frontier_size<ExecSpace, W>;
  const auto shape = shape_for<ExecSpace>(multi_bfs_count_lanes);
  // One wave of teams at most: each team adds its threads' sums once (64 W atomics a team).
  const std::size_t per_team = count::tile * std::size_t(shape.team_size);
  const std::size_t needed = (std::size_t(ws.live) + per_team - 1) / per_team;
  const std::size_t wave =
      std::max<std::size_t>(1, std::size_t(exec.concurrency()) / std::size_t(shape.team_size * shape.vector_length));
  const int teams = static_cast<int>(std::clamp<std::size_t>(needed, 1, wave));
  Kokkos::parallel_for("bitgraph::multi_bfs::source_frontier_size",
                       Kokkos::TeamPolicy<ExecSpace>(exec, teams, shape.team_size, shape.vector_length)
                           .set_scratch_size(0, Kokkos::PerTeam(count::scratch_bytes(shape.team_size))),
                       count{frontier, counts, std::size_t(ws.live)});
  const auto host = Kokkos::subview(ws.source_counts_host, Kokkos::make_pair(0, 64 * W));
  Kokkos::deep_copy(exec, host, counts);
  exec.fence();
  const auto advances = [&](std::size_t i) { return ((advancing.w[i / 64] >> (i % 64)) & 1u) != 0; };
  std::vector<unsigned long long> sizes;
  for (std::size_t i = 0; i < k; ++i)
    if (advances(i)) sizes.push_back(host(i));
  multi_bfs_bits<W> slow{};
  if (sizes.size() < 2) return slow;
  std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
  const double below = share * double(sizes[sizes.size() / 2]);
  for (std::size_t i = 0; i < k; ++i)
    if (advances(i) && double(host(i)) < below) slow.w[i / 64] |= std::uint64_t(1) << (i % 64);
  return slow;
}

/// One multi-source traversal with W words per vertex on `ws` (prepared for W words and, when `levels` is given,
/// `history` slots; 2 slots without levels or history).
template <int W, class ExecSpace>
void multi_bfs_run(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                   Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> sources,
                   multi_bfs_workspace<memory_space_t<ExecSpace>>& ws, int history,
                   const multi_bfs_level_out<memory_space_t<ExecSpace>>& levels,
                   const multi_bfs_sums<memory_space_t<ExecSpace>>& sums, double pull_ratio, double slow_share,
                   multi_bfs_result<memory_space_t<ExecSpace>>& r) {
  using mem = memory_space_t<ExecSpace>;
  using bits = multi_bfs_bits<W>;
  using bits_view = Kokkos::View<bits*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using const_bits = Kokkos::View<const bits*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const vertex_t n = g.n();
  const vertex_t live = ws.live;  // the passes over vertices stop here
  const std::size_t k = sources.extent(0);
  const auto& out = ws.out;  // in the traversal's order
  const auto& in = ws.in;
  const multi_bfs_ids<mem> caller_id{ws.ids.old_of_new}, traversal_id{ws.ids.new_of_old};
  const bits_view seen(reinterpret_cast<bits*>(ws.seen.data()), n);
  const bits_view visit(reinterpret_cast<bits*>(ws.visit.data()), n);
  bits* const slots = reinterpret_cast<bits*>(ws.history.data());
  // Slot of the bits first reached at level l: l itself while the history lasts, then two alternate.
  const auto slot = [&](level_t l) { return bits_view(slots + std::size_t(l < history ? l : l % 2) * n, n); };
  const bool keep_levels = levels.kept();
  bool direct = keep_levels && history == 0;  // levels written level by level
  r.pairs = k;
  // Every level unreached (the direct mode's start), in either width.
  const auto fill = [&](const auto& view, const auto unreached) {
    using level = std::remove_const_t<decltype(unreached)>;
    using flat = Kokkos::View<level*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    Kokkos::parallel_for("bitgraph::multi_bfs::fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, view.span()),
                         multi_bfs_fill<mem, level>{flat(view.data(), view.span()), unreached});
  };
  if (direct && levels.wide.extent(0) > 0)
    fill(levels.wide, unreached_level);
  else if (direct)
    fill(levels.narrow, unreached_level8);
  Kokkos::parallel_for("bitgraph::multi_bfs::reset", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                       multi_bfs_reset<mem, W>{seen, visit, slot(0)});
  Kokkos::parallel_for("bitgraph::multi_bfs::seed", Kokkos::RangePolicy<ExecSpace>(exec, 0, k),
                       multi_bfs_seed<mem, W>{seen, slot(0), sources, traversal_id,
                                              direct ? levels : multi_bfs_level_out<mem>{}, sums.self});
  bits full;
  for (int j = 0; j < W; ++j) {
    const std::size_t b = k > std::size_t(64 * j) ? std::min<std::size_t>(64, k - 64 * j) : 0;
    full.w[j] = b == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << b) - 1;
  }
  // Rows over the light bounds (push: `light`, pull: `pull_light`) go to the segment kernels.
  constexpr offset_t light = multi_bfs_light_max<ExecSpace>;
  constexpr offset_t pull_light = multi_bfs_pull_light_max<ExecSpace>;
  const auto shape = shape_for<ExecSpace>(32);
  const auto segment_policy = [&](std::size_t count) {
    const std::size_t teams = (count + std::size_t(shape.team_size) - 1) / std::size_t(shape.team_size);
    return Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(teams), shape.team_size, shape.vector_length);
  };
  // The sources' out-edges decide the first step like any frontier's. Heavy / hubs: frontier rows over the light /
  // hub bound, read from level 2 on (level 1 pushes from the sources' rows or pulls).
  unsigned long long frontier_edges = 0, frontier_heavy = 0, frontier_hubs = 0;
  Kokkos::parallel_reduce("bitgraph::multi_bfs::source_edges", Kokkos::RangePolicy<ExecSpace>(exec, 0, k),
                          multi_bfs_source_edges<mem>{sources, g.csr.row_ptr}, frontier_edges);
  // A sparse level (its frontier's out-edges fit the candidate list) lists the vertices it offers bits to and
  // updates only them; its new frontier is listed too, and the next level, when sparse and without a hub row in its
  // frontier, pushes from that list.
  const std::size_t cap = ws.candidates.extent(0);
  std::size_t listed = 0;  // the frontier's vertices in ws.queue (0: not listed)
  // In-edges a pull scans at most: those of the vertices some source has not reached yet.
  unsigned long long pull_edges = in.nnz;
  // The sources whose frontier is not empty: a pull waits only for them, since a source that has finished reaches
  // nothing more (one source in a small component would otherwise keep every row from stopping early).
  bits advancing = full;
  // Levels 0 .. depth written from the history slots (unreached where no slot has the bit); later levels direct.
  const auto write_history = [&](level_t depth) {
    const bool wide = levels.wide.extent(0) > 0;
    const std::size_t group = wide ? multi_bfs_expand_group : multi_bfs_expand8_group;
    int shift = 0;  // groups of sources of each word per vertex, rounded up to a power of two
    while ((std::size_t(1) << shift) * group < std::min<std::size_t>(k, 64)) ++shift;
    const auto policy = Kokkos::RangePolicy<ExecSpace>(exec, 0, std::size_t(n) << shift);
    const const_bits hist(slots, std::size_t(history) * n);
    if (wide)
      Kokkos::parallel_for("bitgraph::multi_bfs::expand", policy,
                           multi_bfs_expand<mem, W>{hist, seen, caller_id, levels.wide, std::size_t(n), k, shift,
                                                    static_cast<int>(depth)});
    else
      Kokkos::parallel_for("bitgraph::multi_bfs::expand8", policy,
                           multi_bfs_expand8<mem, W>{hist, seen, caller_id, levels.narrow, std::size_t(n), k, shift,
                                                     static_cast<int>(depth)});
    direct = true;
  };
  // (source, vertex) pairs first reached at the last two levels (level 0: the sources).
  unsigned long long new_pairs = k, new_pairs_before = ~0ull;
  // Whether the last frontier slot holds the bits of the listed vertices only (a sparse level that no history reads
  // skips zeroing its slot; elsewhere the slot holds an older level's bits).
  bool frontier_listed_only = false;
  for (level_t l = 1;; ++l) {
    const bool bottom_up = double(frontier_edges) * pull_ratio > double(pull_edges) + double(live);
    const bool sparse = !bottom_up && frontier_edges <= cap;
    const bool from_queue = !bottom_up && l > 1 && listed > 0 && frontier_hubs == 0;
    bits_view frontier_slot = slot(l - 1);
    if (frontier_listed_only && !from_queue) {
      // A pass over every vertex reads the frontier: rebuild it whole in this level's slot (its update writes the
      // slot only after the pass).
      frontier_slot = slot(l);
      Kokkos::parallel_for("bitgraph::multi_bfs::clear", Kokkos::RangePolicy<ExecSpace>(exec, 0, live),
                           multi_bfs_clear<mem, W>{frontier_slot});
      Kokkos::parallel_for("bitgraph::multi_bfs::copy_listed", Kokkos::RangePolicy<ExecSpace>(exec, 0, listed),
                           multi_bfs_copy_listed<mem, W>{slot(l - 1), frontier_slot, ws.queue});
    }
    const const_bits frontier(frontier_slot.data(), n);
    // The traversal's tail (sparse levels, few new pairs and fewer each level) ends the history: the slots are read
    // once up to here, and the tail's levels are written as reached instead of zeroing a slot per level.
    if (sparse && keep_levels && !direct && l > 1 && new_pairs < new_pairs_before &&
        new_pairs <= std::uint64_t(live) / multi_bfs_tail_pairs)
      write_history(l - 1);
    multi_bfs_appender<mem> app;
    if (sparse) {
      if (++ws.stamp == 0) {  // the stamps wrapped: none may match a new one
        Kokkos::deep_copy(exec, ws.mark, std::uint32_t(0));
        ws.stamp = 1;
      }
      Kokkos::deep_copy(exec, ws.counts, 0ull);
      app = {ws.candidates, ws.counts, ws.mark, ws.stamp};
    }
    r.directions += bottom_up ? 'u' : 'p';
    if (bottom_up) {
      // Rows scan far before half of the pairs are reached (later rows stop after a few entries): blocks pay then, and
      // so does pushing the slow sources, which would keep most long rows scanning to their end.
      const bool early = double(r.pairs) * 2 < double(k) * double(live);
      bits pulled = advancing, pushed{};
      if (early && slow_share > 0 && k > 1) {
        pushed = multi_bfs_slow_sources<W>(exec, frontier, advancing, k, slow_share, ws);
        pulled = multi_bfs_missing(pushed, advancing);
      }
      const int blocks = early ? ws.pull_blocks : 1;
      for (int b = 0; b < blocks && multi_bfs_any(pulled); ++b) {
        Kokkos::parallel_for(
            "bitgraph::multi_bfs::pull", Kokkos::RangePolicy<ExecSpace>(exec, 0, live),
            multi_bfs_pull<mem, W>{
                frontier, seen, visit, in.row_ptr, in.col_idx, pulled, pull_light, {ws.row_split, live, b, blocks}});
        if (ws.in_segments.vertex.extent(0) > 0)
          Kokkos::parallel_for(
              "bitgraph::multi_bfs::pull_segments", segment_policy(ws.in_segments.vertex.extent(0)),
              multi_bfs_pull_segments<ExecSpace, W>{frontier,
                                                    seen,
                                                    visit,
                                                    in.row_ptr,
                                                    in.col_idx,
                                                    ws.in_segments,
                                                    pulled,
                                                    {ws.segment_split, ws.in_segments.vertex.extent(0), b, blocks}});
      }
      // After the pull, whose thread-per-row pass stores its rows' candidates whole.
      if (multi_bfs_any(pushed)) {
        ++r.split_levels;
        Kokkos::parallel_for(
            "bitgraph::multi_bfs::push_slow", Kokkos::RangePolicy<ExecSpace>(exec, 0, live),
            multi_bfs_push<mem, W>{frontier, seen, visit, out.row_ptr, out.col_idx, light, {}, pushed});
        // Batched, without the `seen` filter: the slow sources have reached few vertices, so it seldom filters
        // their offers, and their frontiers' hub rows are most of the work (docs/PERFORMANCE.md).
        if ((frontier_heavy > 0 || l == 1) && ws.out_segments.vertex.extent(0) > 0)  // level 1: not counted
          Kokkos::parallel_for("bitgraph::multi_bfs::push_slow_segments",
                               segment_policy(ws.out_segments.vertex.extent(0)),
                               multi_bfs_push_segments<ExecSpace, W, true, false>{
                                   frontier, seen, visit, out.row_ptr, out.col_idx, ws.out_segments, {}, pushed});
      }
    } else if (l == 1) {
      // Teams per source: enough warps for a hub source's row on a GPU; a few on host spaces.
      const int spread = is_cuda_space_v<ExecSpace> ? static_cast<int>((2048 + k - 1) / k) : 2;
      Kokkos::parallel_for(
          "bitgraph::multi_bfs::push_sources",
          Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>(k) * spread, shape.team_size, shape.vector_length),
          multi_bfs_push_sources<ExecSpace, W>{seen, visit, out.row_ptr, out.col_idx, sources, traversal_id, spread,
                                               app});
    } else if (from_queue) {
      Kokkos::parallel_for(
          "bitgraph::multi_bfs::push_queue", segment_policy(listed),
          multi_bfs_push_queue<ExecSpace, W>{frontier, seen, visit, out.row_ptr, out.col_idx, ws.queue, listed, app});
    } else {
      Kokkos::parallel_for("bitgraph::multi_bfs::push", Kokkos::RangePolicy<ExecSpace>(exec, 0, live),
                           multi_bfs_push<mem, W>{frontier, seen, visit, out.row_ptr, out.col_idx, light, app});
      const auto push_segments = [&](auto batched, auto use_seen) {
        Kokkos::parallel_for("bitgraph::multi_bfs::push_segments", segment_policy(ws.out_segments.vertex.extent(0)),
                             multi_bfs_push_segments<ExecSpace, W, decltype(batched)::value, decltype(use_seen)::value>{
                                 frontier, seen, visit, out.row_ptr, out.col_idx, ws.out_segments, app});
      };
      // While few (source, vertex) pairs are reached, `seen` seldom filters an offer: the hub rows' push then skips
      // that gather (the update pass masks the seen bits anyway).
      const bool filter_seen = double(r.pairs) * 8 > double(k) * double(live);
      if (frontier_heavy > 0 && ws.out_segments.vertex.extent(0) > 0) {  // the last levels seldom hold a hub
        if (frontier_hubs > 0 && filter_seen)
          push_segments(std::true_type{}, std::true_type{});
        else if (frontier_hubs > 0)
          push_segments(std::true_type{}, std::false_type{});
        else
          push_segments(std::false_type{}, std::true_type{});
      }
    }
    multi_bfs_level_stats st;
    const auto direct_levels = direct ? levels : multi_bfs_level_out<mem>{};
    const multi_bfs_update<mem, W> update{seen,
                                          visit,
                                          slot(l),
                                          out.row_ptr,
                                          in.row_ptr,
                                          caller_id,
                                          direct_levels,
                                          sums.distance_sum,
                                          sums.reached_from,
                                          l,
                                          light,
                                          multi_bfs_hub_min<ExecSpace>,
                                          full};
    if (sparse) {
      // The slot is written only where a candidate gains bits: zero it first while a history will read it; else the
      // next level reads the listed vertices' bits only, or rebuilds the slot whole.
      frontier_listed_only = direct || !keep_levels;
      if (!frontier_listed_only)
        Kokkos::parallel_for("bitgraph::multi_bfs::clear", Kokkos::RangePolicy<ExecSpace>(exec, 0, live),
                             multi_bfs_clear<mem, W>{slot(l)});
      reduce_range("bitgraph::multi_bfs::update_list", exec, std::max<std::size_t>(frontier_edges, 1),
                   multi_bfs_update_list<mem, W>{update, ws.candidates, ws.queue, ws.counts}, st);
      listed = static_cast<std::size_t>(st.active);
    } else {
      reduce_range("bitgraph::multi_bfs::update", exec, live, update, st);
      listed = 0;
      frontier_listed_only = false;
    }
    pull_edges -= st.done_in < pull_edges ? st.done_in : pull_edges;
    if (st.active > 0) {
      r.depth = l;
      r.pairs += st.pairs;
      frontier_edges = st.out_edges;
      frontier_heavy = st.heavy;
      frontier_hubs = st.hubs;
      for (int j = 0; j < W; ++j) advancing.w[j] = st.advancing[j];
    }
    new_pairs_before = new_pairs;
    new_pairs = st.pairs;
    if (st.active > 0 && levels.narrow.extent(0) > 0 && l > max_level8)
      throw size_error(concat("bitgraph::multi_source_bfs: a source reaches a vertex at level ", l,
                              ", over the compact levels' largest (", max_level8, "); keep 32-bit levels"));
    // The history ends at the traversal's end or when its slots run out: every level so far written from it.
    const bool last = st.active == 0;
    if (keep_levels && !direct && (last || l + 1 == history)) write_history(l);
    if (last) break;
  }
}

/// The traversal for k <= 128 sources: one word per vertex up to 64 sources, two above.
template <class ExecSpace>
void multi_bfs_dispatch(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                        Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> sources,
                        multi_bfs_workspace<memory_space_t<ExecSpace>>& ws, int history,
                        const multi_bfs_level_out<memory_space_t<ExecSpace>>& levels,
                        const multi_bfs_sums<memory_space_t<ExecSpace>>& sums, double pull_ratio, double slow_share,
                        multi_bfs_result<memory_space_t<ExecSpace>>& r) {
  if (ws.words == 1)
    multi_bfs_run<1>(exec, g, sources, ws, history, levels, sums, pull_ratio, slow_share, r);
  else
    multi_bfs_run<2>(exec, g, sources, ws, history, levels, sums, pull_ratio, slow_share, r);
}

}  // namespace detail

template <class ExecSpace>
multi_bfs_result<memory_space_t<ExecSpace>> multi_source_bfs(const ExecSpace& exec,
                                                             const bit_graph<memory_space_t<ExecSpace>>& g,
                                                             const std::vector<vertex_t>& sources,
                                                             const multi_bfs_options& opts) {
  multi_bfs_workspace<memory_space_t<ExecSpace>> ws;
  return multi_source_bfs(exec, g, sources, opts, ws);
}

template <class ExecSpace>
multi_bfs_result<memory_space_t<ExecSpace>> multi_source_bfs(const ExecSpace& exec,
                                                             const bit_graph<memory_space_t<ExecSpace>>& g,
                                                             const std::vector<vertex_t>& sources,
                                                             const multi_bfs_options& opts,
                                                             multi_bfs_workspace<memory_space_t<ExecSpace>>& ws) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = g.n();
  BITGRAPH_CHECK_ARG(!sources.empty() && sources.size() <= multi_bfs_max_sources, "multi_source_bfs",
                     "takes 1 to 128 sources, not ", sources.size());
  for (const vertex_t s : sources) detail::check_source<ExecSpace>("multi_source_bfs", s, n);
  BITGRAPH_CHECK_ARG(std::isfinite(opts.pull_ratio) && opts.pull_ratio > 0, "multi_source_bfs",
                     "pull_ratio must be positive and finite, not ", opts.pull_ratio);
  BITGRAPH_CHECK_ARG(opts.traversals >= 1, "multi_source_bfs", "traversals must be at least 1");
  BITGRAPH_CHECK_ARG(std::isfinite(opts.slow_source_share), "multi_source_bfs",
                     "slow_source_share must be finite, not ", opts.slow_source_share);
  detail::profiling_region region("bitgraph::multi_source_bfs");
  const std::size_t k = sources.size();
  const int words = k <= 64 ? 1 : 2;
  const bool compact = opts.levels && opts.compact_levels;
  const int history =
      opts.levels ? detail::multi_bfs_history_levels(k, words, compact ? sizeof(level8_t) : sizeof(level_t)) : 0;
  const multi_bfs_order order = detail::resolve_multi_bfs_order(exec, g, opts, ws);
  detail::prepare_multi_bfs_workspace(exec, g, order, words, std::max(history, 2), opts.pull_block_bytes, ws);
  if (ws.sources.extent(0) != k)
    ws.sources = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::multi_bfs::sources", k, false);
  Kokkos::deep_copy(
      exec, ws.sources,
      Kokkos::View<const vertex_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(sources.data(), k));
  multi_bfs_result<mem> r;
  r.order = order;
  // Kept between calls: the levels are the largest buffer (2 GiB of 32-bit levels for 128 sources on kron:22). The
  // width not asked for is released before the other is allocated.
  const auto fit = [&](auto& view, const char* label) {
    if (view.extent(0) != k || view.extent(1) != std::size_t(n)) {
      view = {};
      view = allocate_view<std::remove_reference_t<decltype(view)>>(label, k, n, false);
    }
    return view;
  };
  if (opts.levels && !compact) {
    ws.levels8 = {};
    r.levels = fit(ws.levels, "bitgraph::multi_bfs::levels");
  } else if (compact) {
    ws.levels = {};
    r.levels8 = fit(ws.levels8, "bitgraph::multi_bfs::levels8");
  }
  detail::multi_bfs_dispatch(exec, g, Kokkos::View<const vertex_t*, mem>(ws.sources), ws, history,
                             detail::multi_bfs_level_out<mem>{r.levels, r.levels8}, {}, opts.pull_ratio,
                             detail::resolve_slow_source_share<ExecSpace>(opts.slow_source_share, ws.live, ws.words),
                             r);
  exec.fence();
  return r;
}

template <class ExecSpace>
closeness_result<memory_space_t<ExecSpace>> closeness_centrality(const ExecSpace& exec,
                                                                 const bit_graph<memory_space_t<ExecSpace>>& g,
                                                                 const closeness_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = g.n();
  BITGRAPH_CHECK_ARG(n > 0, "closeness_centrality", "the graph has no vertices");
  detail::profiling_region region("bitgraph::closeness_centrality");
  closeness_result<mem> r;
  // The sources: every vertex, or a sample without repetition (a partial Fisher-Yates shuffle).
  std::vector<vertex_t> all(n);
  std::iota(all.begin(), all.end(), vertex_t(0));
  r.exact = opts.samples == 0 || opts.samples >= n;
  const vertex_t count = r.exact ? n : opts.samples;
  if (!r.exact) {
    std::mt19937_64 rng(opts.seed);
    for (vertex_t i = 0; i < count; ++i) {
      std::uniform_int_distribution<vertex_t> pick(i, n - 1);
      std::swap(all[i], all[pick(rng)]);
    }
    all.resize(count);
    r.sampled = all;
  }
  r.sources = count;
  detail::multi_bfs_sums<mem> sums{allocate_view<Kokkos::View<double*, mem>>("bitgraph::closeness::distance_sum", n),
                                   allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::closeness::reached", n),
                                   allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::closeness::self", n)};
  multi_bfs_workspace<mem> ws;
  multi_bfs_options mo;
  mo.order = opts.order;
  mo.traversals = (std::size_t(count) + multi_bfs_max_sources - 1) / multi_bfs_max_sources;
  detail::prepare_multi_bfs_workspace(exec, g, detail::resolve_multi_bfs_order(exec, g, mo, ws), count <= 64 ? 1 : 2, 2,
                                      mo.pull_block_bytes, ws);
  r.order = ws.order;
  auto src = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::closeness::sources", count, false);
  Kokkos::deep_copy(
      exec, src,
      Kokkos::View<const vertex_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(all.data(), count));
  for (std::size_t at = 0; at < count; at += multi_bfs_max_sources) {
    const std::size_t end = std::min<std::size_t>(count, at + multi_bfs_max_sources);
    multi_bfs_result<mem> pass;
    detail::multi_bfs_dispatch(
        exec, g, Kokkos::View<const vertex_t*, mem>(Kokkos::subview(src, Kokkos::make_pair(at, end))), ws, 0, {}, sums,
        mo.pull_ratio, detail::resolve_slow_source_share<ExecSpace>(mo.slow_source_share, ws.live, ws.words), pass);
    ++r.traversals;
  }
  r.closeness = allocate_view<Kokkos::View<double*, mem>>("bitgraph::closeness", n, false);
  Kokkos::parallel_for(
      "bitgraph::closeness::finish", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      detail::closeness_finish<mem>{sums.distance_sum, sums.reached_from, sums.self, r.closeness, double(count)});
  exec.fence();
  return r;
}

}  // namespace bitgraph
