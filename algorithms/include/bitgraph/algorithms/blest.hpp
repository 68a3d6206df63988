// Tensor-core BFS (Blest): a BVSS of the (optionally reordered) graph, the lazy/eager choice by update
// divergence, and levels mapped back to the caller's vertex ids.
#pragma once

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/bvss.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/ops/bvss_bfs.hpp"
#include "bitgraph/reorder/device_order.hpp"
#include "bitgraph/reorder/permutation.hpp"
#include "bitgraph/reorder/reorder.hpp"

namespace bitgraph {

/// How `make_blest_graph` orders the vertices before it builds the BVSS (ordering fills the slices: more
/// bits per slice, fewer VSSs per level).
enum class blest_ordering : std::uint8_t {
  /// `cluster` for social graphs (Blest's degree test, `reorder::analyze_degrees`); for others `rcm` where a BFS
  /// from the vertex of largest out-degree runs deeper than 2 log2(n) + 8 levels (meshes, geometric graphs: narrow
  /// wavefronts), else `degree` (random graphs of small diameter, which a banded order does not help)
  automatic,
  none,     ///< the caller's ids
  cluster,  ///< `reorder::cluster_order` on the device: hubs first, each vertex beside its top hub
  degree,   ///< `reorder::degree_order` on the device
  rcm,      ///< reverse Cuthill-McKee on the host (bands meshes)
  jaccard,  ///< Blest's Jaccard-with-windows on the host (slow: seconds per million vertices)
};

/// "auto", "none", "cluster", "degree", "rcm" or "jaccard".
inline std::string_view to_string(blest_ordering o) noexcept {
  switch (o) {
    case blest_ordering::automatic:
      return "auto";
    case blest_ordering::none:
      return "none";
    case blest_ordering::cluster:
      return "cluster";
    case blest_ordering::degree:
      return "degree";
    case blest_ordering::rcm:
      return "rcm";
    case blest_ordering::jaccard:
      return "jaccard";
  }
  return "?";
}

/// Options of `make_blest_graph`.
struct blest_options {
  blest_ordering ordering = blest_ordering::automatic;
  /// Whether the graph is known to have few, wide BFS levels (`blest_graph::shallow`); unset: `make_blest_graph`
  /// finds out with the same test `automatic` orders by (one BFS unless the graph is social). `make_bfs_plan` passes
  /// the answer it already has.
  std::optional<bool> shallow;
};

/// A graph prepared for Blest: the BVSS of its pull matrix (the in-edge CSR: slice set s = the
/// out-neighbours of 8s..8s+7 as pulling rows), built on a relabelled copy when a permutation is given
/// (`order.new_of_old[v]` = v's id in the BVSS; empty = identity).
template <class MemorySpace>
struct blest_graph {
  bvss_matrix<MemorySpace> bvss;
  csr_graph<MemorySpace> pull;                     ///< the pull matrix in BVSS ids, pattern only (bottom-up levels)
  reorder::vertex_order<MemorySpace> order;        ///< empty when the graph was not reordered
  std::vector<vertex_t> host_new_of_old;           ///< the same on the host (maps sources without a copy)
  bvss_report report;                              ///< footprint, compression, update divergence
  double build_seconds = 0;                        ///< BVSS construction (device)
  blest_ordering ordering = blest_ordering::none;  ///< the ordering applied (`automatic` resolved)
  double order_seconds = 0;                        ///< computing it and `shallow` (with blest_options)
  /// Few, wide BFS levels (a social graph, or one whose probe BFS stays within 2 log2(n) + 8 levels, as
  /// `blest_ordering::automatic` tests): `bfs_tensor_core`'s automatic `lazy_level_min_queue` then allows lazy levels.
  /// Set by `make_blest_graph` with `blest_options`; false from the overloads that take a permutation (a caller who
  /// knows may set it).
  bool shallow = false;
  bvss_bfs_workspace<MemorySpace> workspace;           ///< traversal buffers, reused by every BFS
  Kokkos::View<level_t*, MemorySpace> scratch_levels;  ///< levels in BVSS ids when reordered
};

/// Result of `bfs_tensor_core`: levels in the caller's ids and what the traversal did.
template <class MemorySpace>
struct blest_bfs_result {
  Kokkos::View<level_t*, MemorySpace> levels;
  bvss_bfs_stats stats;
};

/// Builds the Blest structure on `exec` from the pull matrix `g`: the graph's in-edge CSR (row v lists
/// the in-neighbours of v; for an undirected graph its CSR, in general `bit_graph::in_csr()`).
/// `new_of_old` (host, may be empty) relabels the vertices first, e.g. an RCM or Jaccard-with-windows
/// permutation from `reorder`; it must be a bijection of 0..n-1 (checked). Also measures the update
/// divergence, keeps the pull CSR in BVSS ids (the pattern: bottom-up levels scan it) and allocates the
/// traversal buffers.
/// Work: O(n + nnz) for the BVSS (plus a CSR rebuild, a sort of the relabelled edges, when permuted).
/// Throws `invalid_argument_error` for a permutation of the wrong length or not a bijection, or a graph whose
/// structure is broken (`check_csr_graph`),
/// `allocation_error` when a buffer does not fit. Fences `exec` (the build time is measured).
template <class ExecSpace>
blest_graph<memory_space_t<ExecSpace>> make_blest_graph(const ExecSpace& exec,
                                                        const csr_graph<memory_space_t<ExecSpace>>& g,
                                                        const std::vector<vertex_t>& new_of_old = {});

/// Builds the Blest structure of a prepared graph (its in-edge CSR), as above.
template <class ExecSpace>
blest_graph<memory_space_t<ExecSpace>> make_blest_graph(const ExecSpace& exec,
                                                        const bit_graph<memory_space_t<ExecSpace>>& g,
                                                        const std::vector<vertex_t>& new_of_old = {});

namespace detail {

/// A view's values on the host (fences `exec`).
template <class ExecSpace, class View>
std::vector<typename View::non_const_value_type> copy_to_host(const ExecSpace& exec, const View& v) {
  std::vector<typename View::non_const_value_type> out(v.extent(0));
  Kokkos::deep_copy(
      exec,
      Kokkos::View<typename View::non_const_value_type*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
          out.data(), out.size()),
      v);
  exec.fence();
  return out;
}

/// The vertex whose BFS depth tells `blest_ordering::automatic` a graph's shape: the first of largest out-degree
/// (`row_ptr` of the out-edges; 0 for a graph without vertices).
inline vertex_t blest_probe_vertex(const std::vector<offset_t>& row_ptr) {
  vertex_t best = 0;
  for (vertex_t v = 0; v + 1 < row_ptr.size(); ++v)
    if (row_ptr[v + 1] - row_ptr[v] > row_ptr[best + 1] - row_ptr[best]) best = v;
  return best;
}

/// Whether a non-social graph of `n` vertices whose probe BFS reached `depth` levels gets RCM: a BFS of many narrow
/// levels keeps each level's VSSs together in a banded order; one of few wide levels (a random graph) gains nothing
/// from it, and RCM's host pass costs seconds on large graphs (docs/PERFORMANCE.md).
inline bool blest_banded_shape(int depth, vertex_t n) {
  return n > 0 && double(depth) > 2.0 * std::log2(double(n)) + 8.0;
}

/// A graph's shape as `blest_ordering::automatic` sees it: the ordering it picks, and whether the graph has few, wide
/// levels (`blest_graph::shallow`: social, or not banded).
struct blest_shape {
  blest_ordering ordering = blest_ordering::rcm;
  bool shallow = false;
};

/// The shape of `g` whose pull matrix has these row offsets: a social graph (Blest's degree test) gets the cluster
/// order and is shallow; any other gets RCM or the degree order by `blest_banded_shape` of a BFS from
/// `blest_probe_vertex` (one BFS of `g` on `exec`), shallow when not banded. `out_row_ptr`: the out-edges' offsets on
/// the host where the caller has them (null: copied here for a directed graph; an undirected one's are the pull
/// matrix's).
template <class ExecSpace>
blest_shape blest_graph_shape(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                              const std::vector<offset_t>& pull_row_ptr,
                              const std::vector<offset_t>* out_row_ptr = nullptr) {
  if (reorder::analyze_degrees(pull_row_ptr).is_social()) return {blest_ordering::cluster, true};
  if (g.n() == 0) return {blest_ordering::rcm, false};
  const vertex_t probe = !g.directed()            ? blest_probe_vertex(pull_row_ptr)
                         : out_row_ptr != nullptr ? blest_probe_vertex(*out_row_ptr)
                                                  : blest_probe_vertex(copy_to_host(exec, g.csr.row_ptr));
  const bool banded = blest_banded_shape(bfs(exec, g, probe).depth, g.n());
  return {banded ? blest_ordering::rcm : blest_ordering::degree, !banded};
}

}  // namespace detail

/// Builds the Blest structure of `g` (its in-edge CSR) with the ordering `opts.ordering` picks and computes:
/// the device orderings cost milliseconds, the host ones (RCM, Jaccard) seconds on millions of vertices. The
/// choice and its cost are in the result's `ordering` and `order_seconds`; `shallow` is `opts.shallow` or found by
/// `detail::blest_graph_shape` (one BFS of `g`, shared with the automatic ordering's). Throws as above.
template <class ExecSpace>
blest_graph<memory_space_t<ExecSpace>> make_blest_graph(const ExecSpace& exec,
                                                        const bit_graph<memory_space_t<ExecSpace>>& g,
                                                        const blest_options& opts);

/// BFS levels from `source` (caller's id) by Blest's BVSS pulls, written to `levels` (length n, caller's
/// ids); the update scheme follows `opts.update` (automatic: lazy above the divergence threshold) and the
/// kernel path `opts.algorithm` (generic popcount emulation or cuda_mma), forwarded to `bvss_bfs` as given with
/// the graph's pull CSR, so levels with few unreached vertices run bottom-up (`opts.bottom_up_factor`); an automatic
/// (negative) `opts.lazy_level_min_queue` allows lazy levels only on a `shallow` graph.
/// Parents are not produced (the MMA popcounts do not say which in-neighbour matched). The traversal
/// reuses the buffers of `g`, so calls on one `blest_graph` must not overlap.
/// Work per level: the VSSs queued by the previous level (those whose slice set holds a frontier vertex).
/// Throws `invalid_argument_error` for source >= n or a wrong output length, and what `bvss_bfs` throws
/// (`unsupported_error` for a CUDA path on a host space). Fences `exec` before it returns.
template <class ExecSpace>
bvss_bfs_stats bfs_tensor_core(const ExecSpace& exec, const blest_graph<memory_space_t<ExecSpace>>& g, vertex_t source,
                               Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels, bvss_bfs_options opts = {});

/// As above, allocating the levels.
template <class ExecSpace>
blest_bfs_result<memory_space_t<ExecSpace>> bfs_tensor_core(const ExecSpace& exec,
                                                            const blest_graph<memory_space_t<ExecSpace>>& g,
                                                            vertex_t source, bvss_bfs_options opts = {});

/// BFS levels from `source` (caller's id) as `bfs_tensor_core` computes them, left in the graph's own ids:
/// `levels(g.order.new_of_old(v))` is the level of the caller's vertex v (`levels(v)` when the graph was not
/// reordered). It skips mapping the levels back, the traversal's last pass (a gather over three n-entry arrays), for
/// callers who reduce the levels (reached vertices, depth, a histogram) or map them later (`blest_levels_to_caller`).
/// Work, throws and fences as `bfs_tensor_core`.
template <class ExecSpace>
bvss_bfs_stats bfs_tensor_core_graph_ids(const ExecSpace& exec, const blest_graph<memory_space_t<ExecSpace>>& g,
                                         vertex_t source, Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels,
                                         bvss_bfs_options opts = {});

/// `caller(v) = graph_levels(g.order.new_of_old(v))`: levels in the graph's ids (`bfs_tensor_core_graph_ids`) in the
/// caller's, a copy when the graph was not reordered. O(n). Throws `invalid_argument_error` for a view whose length
/// is not the graph's vertex count, for views that overlap (a gather cannot run in place), or for a reordered graph
/// whose `order.new_of_old` has another length. Does not fence.
template <class ExecSpace>
void blest_levels_to_caller(const ExecSpace& exec, const blest_graph<memory_space_t<ExecSpace>>& g,
                            Kokkos::View<const level_t*, memory_space_t<ExecSpace>> graph_levels,
                            Kokkos::View<level_t*, memory_space_t<ExecSpace>> caller);

template <class ExecSpace>
blest_graph<memory_space_t<ExecSpace>> make_blest_graph(const ExecSpace& exec,
                                                        const csr_graph<memory_space_t<ExecSpace>>& g,
                                                        const std::vector<vertex_t>& new_of_old) {
  using mem = memory_space_t<ExecSpace>;
  reorder::permutation perm;
  if (!new_of_old.empty()) {
    BITGRAPH_CHECK_ARG(new_of_old.size() == g.n, "make_blest_graph", "the permutation has ", new_of_old.size(),
                       " entries but the graph has ", g.n, " vertices");
    perm = reorder::permutation::from_new_of_old(new_of_old);  // throws unless a bijection
  }
  detail::profiling_region region("bitgraph::make_blest_graph");
  blest_graph<mem> bg;
  const auto t0 = std::chrono::steady_clock::now();
  csr_graph<mem> pattern = csr_pattern(g);  // the BVSS holds the pattern: the weights need not be relabelled
  validate_csr_graph(exec, pattern, "make_blest_graph");  // once here, so that no traversal checks it again
  if (new_of_old.empty()) {
    bg.pull = pattern;
  } else {
    bg.host_new_of_old = new_of_old;
    bg.order = reorder::to_vertex_order(exec, perm);
    bg.pull = reorder::relabel(exec, pattern, bg.order);
  }
  bg.bvss = to_bvss(exec, bg.pull);
  exec.fence();
  bg.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  bg.report = report(bg.bvss);
  bg.report.update_divergence = update_divergence(exec, bg.bvss);
  bg.workspace = make_bvss_bfs_workspace(exec, bg.bvss);
  if (bg.order.size() > 0)
    bg.scratch_levels = allocate_view<Kokkos::View<level_t*, mem>>("bitgraph::blest::scratch_levels", g.n, false);
  return bg;
}

template <class ExecSpace>
blest_graph<memory_space_t<ExecSpace>> make_blest_graph(const ExecSpace& exec,
                                                        const bit_graph<memory_space_t<ExecSpace>>& g,
                                                        const std::vector<vertex_t>& new_of_old) {
  return make_blest_graph(exec, g.in_csr(), new_of_old);
}

template <class ExecSpace>
blest_graph<memory_space_t<ExecSpace>> make_blest_graph(const ExecSpace& exec,
                                                        const bit_graph<memory_space_t<ExecSpace>>& g,
                                                        const blest_options& opts) {
  const auto& pull = g.in_csr();  // Blest pulls from the transpose: for the out-edge slices, the in-edges
  const auto t0 = std::chrono::steady_clock::now();
  detail::blest_shape shape;
  if (opts.ordering == blest_ordering::automatic || !opts.shallow.has_value())
    shape = detail::blest_graph_shape(exec, g, detail::copy_to_host(exec, pull.row_ptr));
  const blest_ordering o = opts.ordering != blest_ordering::automatic ? opts.ordering : shape.ordering;
  std::vector<vertex_t> perm;
  if (o == blest_ordering::cluster || o == blest_ordering::degree) {
    perm = detail::copy_to_host(
        exec, (o == blest_ordering::cluster ? reorder::cluster_order(exec, pull) : reorder::degree_order(exec, pull))
                  .new_of_old);
  } else if (o == blest_ordering::rcm || o == blest_ordering::jaccard) {
    perm = reorder::compute(to_host_csr(pull), o == blest_ordering::rcm ? reorder::reorder_method::rcm
                                                                        : reorder::reorder_method::jaccard_windows)
               .new_of_old();
  }
  const double order_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto bg = make_blest_graph(exec, pull, perm);
  bg.ordering = o;
  bg.order_seconds = order_seconds;
  bg.shallow = opts.shallow.value_or(shape.shallow);
  return bg;
}

namespace detail {

/// `bfs_tensor_core`'s options for `g`: the graph's update divergence where the caller gave none, and automatic lazy
/// levels by its shape (a NaN or infinity is left for bvss_bfs to reject).
template <class Mem>
bvss_bfs_options blest_call_options(const blest_graph<Mem>& g, bvss_bfs_options opts) {
  if (opts.update_divergence < 0) opts.update_divergence = g.report.update_divergence;
  if (std::isfinite(opts.lazy_level_min_queue) && opts.lazy_level_min_queue < 0)
    opts.lazy_level_min_queue = g.shallow ? bvss_auto_lazy_level_min_queue : 0;
  return opts;
}

}  // namespace detail

template <class ExecSpace>
bvss_bfs_stats bfs_tensor_core(const ExecSpace& exec, const blest_graph<memory_space_t<ExecSpace>>& g, vertex_t source,
                               Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels, bvss_bfs_options opts) {
  const vertex_t n = g.bvss.n;
  detail::check_source<ExecSpace>("bfs_tensor_core", source, n);
  BITGRAPH_CHECK_ARG(levels.extent(0) == n, "bfs_tensor_core", "levels has ", levels.extent(0), " entries, expected ",
                     n);
  detail::profiling_region region("bitgraph::bfs_tensor_core");
  opts = detail::blest_call_options(g, opts);
  const bool permuted = !g.host_new_of_old.empty();
  const vertex_t s = permuted ? g.host_new_of_old[source] : source;
  if (!permuted) return bvss_bfs(exec, g.bvss, s, levels, opts, &g.workspace, &g.pull);
  // The traversal writes the levels in the caller's ids itself (in the same launch on CUDA).
  const bvss_bfs_relabel<memory_space_t<ExecSpace>> relabel{levels, g.order.new_of_old};
  return detail::bvss_bfs_relabelled(exec, g.bvss, s, g.scratch_levels, opts, &g.workspace, &g.pull, &relabel);
}

template <class ExecSpace>
blest_bfs_result<memory_space_t<ExecSpace>> bfs_tensor_core(const ExecSpace& exec,
                                                            const blest_graph<memory_space_t<ExecSpace>>& g,
                                                            vertex_t source, bvss_bfs_options opts) {
  using mem = memory_space_t<ExecSpace>;
  detail::check_source<ExecSpace>("bfs_tensor_core", source, g.bvss.n);
  blest_bfs_result<mem> r;
  r.levels = allocate_view<Kokkos::View<level_t*, mem>>("bitgraph::blest::levels", g.bvss.n, false);
  r.stats = bfs_tensor_core(exec, g, source, r.levels, opts);
  return r;
}

template <class ExecSpace>
bvss_bfs_stats bfs_tensor_core_graph_ids(const ExecSpace& exec, const blest_graph<memory_space_t<ExecSpace>>& g,
                                         vertex_t source, Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels,
                                         bvss_bfs_options opts) {
  const vertex_t n = g.bvss.n;
  detail::check_source<ExecSpace>("bfs_tensor_core_graph_ids", source, n);
  BITGRAPH_CHECK_ARG(levels.extent(0) == n, "bfs_tensor_core_graph_ids", "levels has ", levels.extent(0),
                     " entries, expected ", n);
  detail::profiling_region region("bitgraph::bfs_tensor_core_graph_ids");
  const vertex_t s = g.host_new_of_old.empty() ? source : g.host_new_of_old[source];
  return bvss_bfs(exec, g.bvss, s, levels, detail::blest_call_options(g, opts), &g.workspace, &g.pull);
}

template <class ExecSpace>
void blest_levels_to_caller(const ExecSpace& exec, const blest_graph<memory_space_t<ExecSpace>>& g,
                            Kokkos::View<const level_t*, memory_space_t<ExecSpace>> graph_levels,
                            Kokkos::View<level_t*, memory_space_t<ExecSpace>> caller) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = g.bvss.n;
  BITGRAPH_CHECK_ARG(graph_levels.extent(0) == n && caller.extent(0) == n, "blest_levels_to_caller", "the levels have ",
                     graph_levels.extent(0), " and ", caller.extent(0), " entries, expected ", n);
  const auto from = reinterpret_cast<std::uintptr_t>(graph_levels.data());
  const auto to = reinterpret_cast<std::uintptr_t>(caller.data());
  const std::uintptr_t bytes = std::uintptr_t(n) * sizeof(level_t);
  BITGRAPH_CHECK_ARG(n == 0 || from + bytes <= to || to + bytes <= from, "blest_levels_to_caller",
                     "the graph's levels and the caller's overlap in memory (a gather cannot run in place)");
  detail::profiling_region region("bitgraph::blest_levels_to_caller");
  if (g.host_new_of_old.empty()) {
    Kokkos::deep_copy(exec, caller, graph_levels);
    return;
  }
  // make_blest_graph checked the permutation; a graph put together by hand must still carry it on the device.
  BITGRAPH_CHECK_ARG(g.order.new_of_old.extent(0) == n, "blest_levels_to_caller", "the graph's order has ",
                     g.order.new_of_old.extent(0), " entries on the device, expected ", n);
  Kokkos::parallel_for("bitgraph::blest_levels_to_caller", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                       detail::bvss_bfs_relabel_levels<mem>{graph_levels, g.order.new_of_old, caller});
}

}  // namespace bitgraph
