// The BVSS pull traversal of Blest (Alg. 2 eager, Alg. 3 lazy vertex updates) with frontier-aware VSS
// queues: the portable version evaluates each slice with a popcount (host emulation of the tensor-core
// layout); the CUDA backend runs all levels in one persistent kernel with m8n8k128 b1 MMAs.
#pragma once

#include <Kokkos_Core.hpp>

#include <cmath>
#include <initializer_list>
#include <utility>

#include "bitgraph/backends/bvss_bfs.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/bvss.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph {

/// Allocates the workspace for traversals of `b` (two queues of n_vss entries, per-slice-set levels and
/// four n-bit bitmaps: visited, its last sweep and two frontiers). Throws `allocation_error` when it does not fit.
template <class ExecSpace>
bvss_bfs_workspace<memory_space_t<ExecSpace>> make_bvss_bfs_workspace(const ExecSpace&,
                                                                      const bvss_matrix<memory_space_t<ExecSpace>>& b) {
  using mem = memory_space_t<ExecSpace>;
  bvss_bfs_workspace<mem> w;
  const offset_t cap = b.n_vss > 0 ? b.n_vss : 1;
  w.queue_a = allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::bvss_bfs::queue_a", cap, false);
  w.queue_b = allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::bvss_bfs::queue_b", cap, false);
  w.counters =
      allocate_view<Kokkos::View<unsigned long long*, mem>>("bitgraph::bvss_bfs::counters", detail::bvss_counter_slots);
  w.pushed = allocate_view<Kokkos::View<level_t*, mem>>("bitgraph::bvss_bfs::pushed", b.n_slice_sets, false);
  w.visited =
      allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss_bfs::visited", ceil_div<std::uint64_t>(b.n, 32));
  w.visited_before = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss_bfs::visited_before",
                                                                      ceil_div<std::uint64_t>(b.n, 32));
  w.stats = allocate_view<Kokkos::View<unsigned long long*, readback_space_t<mem>>>("bitgraph::bvss_bfs::stats",
                                                                                    detail::bvss_stat_slots);
  w.frontier = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss_bfs::frontier",
                                                                2 * ceil_div<std::uint64_t>(b.n, 32), false);
  w.hubs = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bvss_bfs::hubs",
                                                       b.nnz / (detail::bvss_hub_row + 1) + 1, false);
  return w;
}

/// BFS levels from `source` by pulls over a BVSS (Blest): level l processes only the VSSs queued at level
/// l - 1 (those whose slice set holds a frontier vertex); a slice (u, mask) discovers u when mask AND the
/// slice set's 8 frontier bits is non-zero. `levels` (length n) receives the levels, `unreached_level`
/// elsewhere. Work per level: the queued VSSs · 32 words. Paths: `generic` (one kernel per level,
/// popcount emulation) everywhere, `cuda_mma` (one persistent cooperative kernel, b1 MMAs; automatic on
/// CUDA devices of sm_80+ with cooperative launch). `opts.update` picks eager or lazy vertex updates
/// (automatic: eager when bottom-up levels are enabled, else lazy above `lazy_threshold` update divergence).
/// `workspace` (from `make_bvss_bfs_workspace` for this `b`) avoids allocating per call; one is allocated when it is
/// null. `pull` (optional) is the pull matrix of `b` as CSR (what `to_bvss` was built from): with it a level whose
/// unreached vertices are fewer than `opts.bottom_up_factor` times its queued VSSs (and whose queue holds at
/// least `opts.bottom_up_min_queue` n VSSs, and whose predicted scan is cheaper than the pull:
/// `opts.bottom_up_scan_cost`, `opts.bottom_up_dense_degree`) runs bottom-up instead (each unreached vertex scans its
/// row and stops at the first vertex of the previous level; Blest's switching kernel), which spares the wide middle
/// levels of power-law graphs most of their pulls.
/// Throws `invalid_argument_error` for source >= n, a wrong length, a foreign workspace, a `pull` of another
/// size, a negative or non-finite `bottom_up_factor`, `bottom_up_min_queue`, `bottom_up_scan_cost`,
/// `bottom_up_dense_degree` or `lazy_level_max_fanout`, a non-finite `lazy_level_min_queue`, or a `block_threads`
/// other than 0, 256 and 1024,
/// `unsupported_error` for a path the
/// device or space lacks. Fences `exec` (the stats are read back).
template <class ExecSpace>
bvss_bfs_stats bvss_bfs(const ExecSpace& exec, const bvss_matrix<memory_space_t<ExecSpace>>& b, vertex_t source,
                        Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels, const bvss_bfs_options& opts = {},
                        const bvss_bfs_workspace<memory_space_t<ExecSpace>>* workspace = nullptr,
                        const csr_graph<memory_space_t<ExecSpace>>* pull = nullptr);

namespace detail {

/// `bvss_bfs` that also writes `relabel` (null: nothing) after the last level. For callers whose `relabel.ids` is a
/// checked permutation of 0..n-1 (bfs_tensor_core); only the lengths are checked here.
template <class ExecSpace>
bvss_bfs_stats bvss_bfs_relabelled(const ExecSpace& exec, const bvss_matrix<memory_space_t<ExecSpace>>& b,
                                   vertex_t source, Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels,
                                   const bvss_bfs_options& opts,
                                   const bvss_bfs_workspace<memory_space_t<ExecSpace>>* workspace,
                                   const csr_graph<memory_space_t<ExecSpace>>* pull,
                                   const bvss_bfs_relabel<memory_space_t<ExecSpace>>* relabel) {
  using impl = detail::bvss_bfs_impl<ExecSpace>;
  BITGRAPH_CHECK_ARG(source < b.n, "bvss_bfs", "source vertex ", source, " is out of range: the graph has ", b.n,
                     " vertices");
  BITGRAPH_CHECK_ARG(levels.extent(0) == b.n, "bvss_bfs", "levels has ", levels.extent(0), " entries, expected ", b.n);
  if (workspace != nullptr) {
    BITGRAPH_CHECK_ARG(workspace->queue_a.extent(0) >= b.n_vss && workspace->pushed.extent(0) == b.n_slice_sets &&
                           workspace->counters.extent(0) >= std::size_t(detail::bvss_counter_slots) &&
                           workspace->stats.extent(0) >= std::size_t(detail::bvss_stat_slots),
                       "bvss_bfs", "the workspace was made for another BVSS");
  }
  // The switching rules' numbers, each finite and non-negative (lazy_level_min_queue may be negative: automatic, which
  // is never here).
  for (const auto& [name, value] : {std::pair<const char*, double>{"bottom_up_factor", opts.bottom_up_factor},
                                    {"bottom_up_min_queue", opts.bottom_up_min_queue},
                                    {"bottom_up_scan_cost", opts.bottom_up_scan_cost},
                                    {"bottom_up_dense_degree", opts.bottom_up_dense_degree},
                                    {"lazy_level_max_fanout", opts.lazy_level_max_fanout}})
    BITGRAPH_CHECK_ARG(std::isfinite(value) && value >= 0, "bvss_bfs", name, " must be finite and non-negative, not ",
                       value);
  BITGRAPH_CHECK_ARG(std::isfinite(opts.lazy_level_min_queue), "bvss_bfs",
                     "lazy_level_min_queue must be finite (negative: automatic), not ", opts.lazy_level_min_queue);
  BITGRAPH_CHECK_ARG(opts.block_threads == 0 || opts.block_threads == 256 || opts.block_threads == 1024, "bvss_bfs",
                     "block_threads must be 0 (automatic), 256 or 1024, not ", opts.block_threads);
  if (pull != nullptr) {
    BITGRAPH_CHECK_ARG(pull->n == b.n, "bvss_bfs", "the pull CSR has ", pull->n, " vertices and the BVSS ", b.n);
    check_csr_graph(exec, *pull, "bvss_bfs");  // once for a hand-built CSR, free for a validated one
  }
  const op_algorithm path = detail::choose_path<ExecSpace>("bvss_bfs", opts.algorithm, impl::offer(b));
  bool lazy = opts.update == bvss_update::lazy;
  if (opts.update == bvss_update::automatic && !(pull != nullptr && opts.bottom_up_factor > 0)) {
    // With bottom-up levels the wide levels no longer pull, and the lazy scheme's extra sweep and grid sync per
    // level cost more than scattered updates save: automatic is eager then (docs/PERFORMANCE.md).
    const double div = opts.update_divergence >= 0 ? opts.update_divergence : update_divergence(exec, b);
    lazy = div > opts.lazy_threshold;
  }
  if (relabel != nullptr) {
    BITGRAPH_CHECK_ARG(relabel->out.extent(0) == b.n && relabel->ids.extent(0) == b.n, "bvss_bfs",
                       "the relabelled levels and their ids need ", b.n, " entries, not ", relabel->out.extent(0),
                       " and ", relabel->ids.extent(0));
  }
  detail::profiling_region region("bitgraph::bvss_bfs");
  if (workspace != nullptr) return impl::run(path, exec, b, source, levels, lazy, *workspace, pull, opts, relabel);
  return impl::run(path, exec, b, source, levels, lazy, make_bvss_bfs_workspace(exec, b), pull, opts, relabel);
}

}  // namespace detail

template <class ExecSpace>
bvss_bfs_stats bvss_bfs(const ExecSpace& exec, const bvss_matrix<memory_space_t<ExecSpace>>& b, vertex_t source,
                        Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels, const bvss_bfs_options& opts,
                        const bvss_bfs_workspace<memory_space_t<ExecSpace>>* workspace,
                        const csr_graph<memory_space_t<ExecSpace>>* pull) {
  return detail::bvss_bfs_relabelled(exec, b, source, levels, opts, workspace, pull, nullptr);
}

}  // namespace bitgraph
