// CUDA leaf of bvss_bfs: Blest's persistent cooperative kernel (blest_kernel.hpp), all levels in one launch
// with b1 tensor-core MMAs, on devices with cooperative launch and sm_80+. `generic` goes back to the
// generic core.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "bitgraph/backends/cuda/blest_kernel.hpp"
#include "bitgraph/backends/cuda/check.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/ops/detail/bvss_bfs_generic.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph::detail {

template <>
struct bvss_bfs_impl<Kokkos::Cuda> {
  using mem = Kokkos::CudaSpace;
  using generic = bvss_bfs_generic<Kokkos::Cuda>;

  /// The current device's SM count, or 0 when it lacks cooperative launch or b1 MMA (sm_80+).
  static int tensor_core_sms() {
    int dev = 0, sms = 0, coop = 0, cc = 0;
    BITGRAPH_CUDA_CHECK("bvss_bfs", "cudaGetDevice", cudaGetDevice(&dev));
    BITGRAPH_CUDA_CHECK("bvss_bfs", "device attribute",
                        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    BITGRAPH_CUDA_CHECK("bvss_bfs", "device attribute",
                        cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    BITGRAPH_CUDA_CHECK("bvss_bfs", "device attribute",
                        cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, dev));
    return coop && cc >= 8 ? sms : 0;
  }

  static path_offer offer(const bvss_matrix<mem>& b) {
    path_offer o = generic::offer(b);
    if (tensor_core_sms() == 0)
      return o.refuse(op_algorithm::cuda_mma, "the device lacks cooperative launch or b1 MMA (sm_80+)");
    return o.offer(op_algorithm::cuda_mma);
  }

  static bvss_bfs_stats run(op_algorithm path, const Kokkos::Cuda& exec, const bvss_matrix<mem>& b, vertex_t source,
                            Kokkos::View<level_t*, mem> levels, bool lazy, const bvss_bfs_workspace<mem>& ws) {
    if (path != op_algorithm::cuda_mma) return run_generic<generic>(exec, b, source, levels, lazy, ws);
    const int sms = tensor_core_sms();
    const vertex_t n = b.n;
    bvss_bfs_stats st;
    st.lazy = lazy;
    st.tensor_cores = true;
    Kokkos::deep_copy(exec, levels, unreached_level);
    Kokkos::deep_copy(exec, Kokkos::subview(levels, source), level_t(0));
    auto qa = ws.queue_a;
    auto qb = ws.queue_b;
    auto counters = ws.counters;  // [0..2] rotating queue sizes, [3] VSSs processed, [4] depth
    if (lazy) {
      Kokkos::deep_copy(exec, ws.visited, std::uint32_t(0));
      Kokkos::deep_copy(exec, Kokkos::subview(ws.visited, source / 32), std::uint32_t(1) << (source % 32));
      Kokkos::deep_copy(exec, ws.visited_before, ws.visited);
    } else {
      Kokkos::deep_copy(exec, ws.pushed, level_t(-1));
    }
    Kokkos::parallel_for("bitgraph::blest::init", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, 1),
                         cuda::blest_init{b.real_ptrs, qa, counters, source / bvss_sigma});
    cuda::blest_state s;
    s.n = n;
    s.n_slice_sets = b.n_slice_sets;
    s.real_ptrs = b.real_ptrs.data();
    s.v2r = b.virtual_to_real.data();
    s.rows = reinterpret_cast<const uint4*>(b.row_ids.data());
    s.masks = b.masks.data();
    s.levels = levels.data();
    s.queue[0] = reinterpret_cast<uint2*>(qa.data());
    s.queue[1] = reinterpret_cast<uint2*>(qb.data());
    s.counters = counters.data();
    s.pushed = ws.pushed.data();
    s.visited = ws.visited.data();
    s.visited_before = ws.visited_before.data();
    s.processed = counters.data() + 3;
    s.depth = counters.data() + 4;
    // As many blocks as can be co-resident (a cooperative launch requires it).
    int per_sm = 0;
    void* fn =
        lazy ? reinterpret_cast<void*>(cuda::blest_kernel<true>) : reinterpret_cast<void*>(cuda::blest_kernel<false>);
    BITGRAPH_CUDA_CHECK("bvss_bfs", "occupancy",
                        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, cuda::blest_block_threads, 0));
    // Fewer resident blocks make each grid sync cheaper; high-diameter graphs (thousands of levels with
    // small frontiers) gain from that, wide frontiers need the warps. BITGRAPH_BLEST_BLOCKS_PER_SM
    // overrides the choice (for tuning).
    // Two blocks per SM measured best on the H100 for both ends: kron:20 (few wide levels) within 1 %
    // of 4 blocks, grid2d:2048 (4094 narrow levels, grid-sync bound) 40 % faster than full occupancy.
    int bps = per_sm > 0 ? std::min(per_sm, 2) : 1;
    if (const char* env = std::getenv("BITGRAPH_BLEST_BLOCKS_PER_SM"); env && *env) {
      const int want = std::atoi(env);
      if (want > 0) bps = std::min(want, per_sm > 0 ? per_sm : 1);
    }
    const int blocks = bps * sms;
    void* args[] = {&s};
    BITGRAPH_CUDA_CHECK(
        "bvss_bfs", "cooperative launch",
        cudaLaunchCooperativeKernel(fn, dim3(blocks), dim3(cuda::blest_block_threads), args, 0, exec.cuda_stream()));
    unsigned long long h[5] = {0, 0, 0, 0, 0};
    Kokkos::deep_copy(
        exec, Kokkos::View<unsigned long long*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(h, 5),
        counters);
    exec.fence();
    st.depth = static_cast<int>(h[4]);
    st.vss_processed = h[3];
    return st;
  }
};

}  // namespace bitgraph::detail
