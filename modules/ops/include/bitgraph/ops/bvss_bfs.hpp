// The BVSS pull traversal of Blest (Alg. 2 eager, Alg. 3 lazy vertex updates) with frontier-aware VSS
// queues: the portable version evaluates each slice with a popcount (host emulation of the tensor-core
// layout); the CUDA backend runs all levels in one persistent kernel with m8n8k128 b1 MMAs.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/backends/bvss_bfs.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/bvss.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph {

/// Allocates the workspace for traversals of `b` (two queues of n_vss entries, per-slice-set levels and
/// two n-bit bitmaps). Throws `allocation_error` when it does not fit.
template <class ExecSpace>
bvss_bfs_workspace<memory_space_t<ExecSpace>> make_bvss_bfs_workspace(const ExecSpace&,
                                                                      const bvss_matrix<memory_space_t<ExecSpace>>& b) {
  using mem = memory_space_t<ExecSpace>;
  bvss_bfs_workspace<mem> w;
  const offset_t cap = b.n_vss > 0 ? b.n_vss : 1;
  w.queue_a = allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::bvss_bfs::queue_a", cap, false);
  w.queue_b = allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::bvss_bfs::queue_b", cap, false);
  w.counters = allocate_view<Kokkos::View<unsigned long long*, mem>>("bitgraph::bvss_bfs::counters", 5);
  w.pushed = allocate_view<Kokkos::View<level_t*, mem>>("bitgraph::bvss_bfs::pushed", b.n_slice_sets, false);
  w.visited =
      allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss_bfs::visited", ceil_div<std::uint64_t>(b.n, 32));
  w.visited_before = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss_bfs::visited_before",
                                                                      ceil_div<std::uint64_t>(b.n, 32));
  return w;
}

/// BFS levels from `source` by pulls over a BVSS (Blest): level l processes only the VSSs queued at level
/// l - 1 (those whose slice set holds a frontier vertex); a slice (u, mask) discovers u when mask AND the
/// slice set's 8 frontier bits is non-zero. `levels` (length n) receives the levels, `unreached_level`
/// elsewhere. Work per level: the queued VSSs · 32 words. Paths: `generic` (one kernel per level,
/// popcount emulation) everywhere, `cuda_mma` (one persistent cooperative kernel, b1 MMAs; automatic on
/// CUDA devices of sm_80+ with cooperative launch). `opts.update` picks eager or lazy vertex updates
/// (automatic: lazy above `lazy_threshold` update divergence). `workspace` (from
/// `make_bvss_bfs_workspace` for this `b`) avoids allocating per call; one is allocated when it is null.
/// Throws `invalid_argument_error` for source >= n, a wrong length or a foreign workspace,
/// `unsupported_error` for a path the device or space lacks. Fences `exec` (the stats are read back).
template <class ExecSpace>
bvss_bfs_stats bvss_bfs(const ExecSpace& exec, const bvss_matrix<memory_space_t<ExecSpace>>& b, vertex_t source,
                        Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels, const bvss_bfs_options& opts = {},
                        const bvss_bfs_workspace<memory_space_t<ExecSpace>>* workspace = nullptr) {
  using impl = detail::bvss_bfs_impl<ExecSpace>;
  BITGRAPH_CHECK_ARG(source < b.n, "bvss_bfs", "source vertex ", source, " is out of range: the graph has ", b.n,
                     " vertices");
  BITGRAPH_CHECK_ARG(levels.extent(0) == b.n, "bvss_bfs", "levels has ", levels.extent(0), " entries, expected ", b.n);
  if (workspace != nullptr) {
    BITGRAPH_CHECK_ARG(workspace->queue_a.extent(0) >= b.n_vss && workspace->pushed.extent(0) == b.n_slice_sets,
                       "bvss_bfs", "the workspace was made for another BVSS");
  }
  const op_algorithm path = detail::choose_path<ExecSpace>("bvss_bfs", opts.algorithm, impl::offer(b));
  bool lazy = opts.update == bvss_update::lazy;
  if (opts.update == bvss_update::automatic) {
    const double div = opts.update_divergence >= 0 ? opts.update_divergence : update_divergence(exec, b);
    lazy = div > opts.lazy_threshold;
  }
  detail::profiling_region region("bitgraph::bvss_bfs");
  if (workspace != nullptr) return impl::run(path, exec, b, source, levels, lazy, *workspace);
  return impl::run(path, exec, b, source, levels, lazy, make_bvss_bfs_workspace(exec, b));
}

}  // namespace bitgraph
