// CUDA leaf of bvss_bfs: Blest's persistent cooperative kernel (blest_kernel.hpp), all levels in one launch
// with b1 tensor-core MMAs, on devices with cooperative launch and sm_80+. `generic` goes back to the
// generic core.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string_view>

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
                            Kokkos::View<level_t*, mem> levels, bool lazy, const bvss_bfs_workspace<mem>& ws,
                            const csr_graph<mem>* pull, const bvss_bfs_options& opts) {
    if (path != op_algorithm::cuda_mma) return run_generic<generic>(exec, b, source, levels, lazy, ws, pull, opts);
    const int sms = tensor_core_sms();
    bvss_bfs_stats st;
    st.lazy = lazy;
    st.tensor_cores = true;
    // The kernel's prologue resets levels, stamps or bitmaps, the first queue and the counters: one launch.
    cuda::blest_state s;
    s.n = b.n;
    s.n_slice_sets = b.n_slice_sets;
    s.source = source;
    s.real_ptrs = b.real_ptrs.data();
    s.v2r = b.virtual_to_real.data();
    s.rows = reinterpret_cast<const uint4*>(b.row_ids.data());
    s.masks = b.masks.data();
    const bool bottom_up = pull != nullptr && opts.bottom_up_factor > 0;
    s.pull_ptr = bottom_up ? pull->row_ptr.data() : nullptr;
    s.pull_col = bottom_up ? pull->col_idx.data() : nullptr;
    s.bottom_up_factor = opts.bottom_up_factor;
    s.bottom_up_min_queue = opts.bottom_up_min_queue;
    s.bottom_up_scan_cost = opts.bottom_up_scan_cost;
    // BITGRAPH_BLEST_SCAN_COST overrides the option (for tuning).
    if (const char* env = std::getenv("BITGRAPH_BLEST_SCAN_COST"); env && *env) s.bottom_up_scan_cost = std::atof(env);
    s.avg_degree = bottom_up && b.n > 0 ? double(pull->nnz) / double(b.n) : 0.0;
    s.levels = levels.data();
    s.queue[0] = reinterpret_cast<uint2*>(ws.queue_a.data());
    s.queue[1] = reinterpret_cast<uint2*>(ws.queue_b.data());
    s.counters = ws.counters.data();
    s.pushed = ws.pushed.data();
    s.visited = ws.visited.data();
    s.visited_before = ws.visited_before.data();
    const std::uint32_t words = static_cast<std::uint32_t>((std::uint64_t(b.n) + 31) / 32);
    // BITGRAPH_BLEST_SHARED_FRONTIER=0 turns the shared frontier bitmap off (for tuning).
    const char* shared_env = std::getenv("BITGRAPH_BLEST_SHARED_FRONTIER");
    const bool shared_ok = !(shared_env && std::string_view(shared_env) == "0");
    s.frontier_words = bottom_up && shared_ok && words <= cuda::blest_max_frontier_words ? words : 0;
    const std::size_t smem = std::size_t(s.frontier_words) * sizeof(std::uint32_t);
    // As many blocks as can be co-resident (a cooperative launch requires it).
    int per_sm = 0;
    void* fn =
        lazy ? reinterpret_cast<void*>(cuda::blest_kernel<true>) : reinterpret_cast<void*>(cuda::blest_kernel<false>);
    BITGRAPH_CUDA_CHECK("bvss_bfs", "occupancy",
                        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, cuda::blest_block_threads, smem));
    // Fewer resident blocks make each grid sync cheaper, more hide the latency of wide levels: a mesh (thousands of
    // narrow levels, grid-sync bound) runs fastest with one block per SM, a graph of average degree 8 or more (few
    // wide levels, bottom-up scans) with four (measured on the H100, docs/PERFORMANCE.md).
    // BITGRAPH_BLEST_BLOCKS_PER_SM overrides the choice (for tuning).
    const int want_bps = b.n > 0 && double(b.nnz) >= 8.0 * double(b.n) ? 4 : 1;
    int bps = per_sm > 0 ? std::min(per_sm, want_bps) : 1;
    if (const char* env = std::getenv("BITGRAPH_BLEST_BLOCKS_PER_SM"); env && *env) {
      const int want = std::atoi(env);
      if (want > 0) bps = std::min(want, per_sm > 0 ? per_sm : 1);
    }
    const int blocks = bps * sms;
    void* args[] = {&s};
    BITGRAPH_CUDA_CHECK(
        "bvss_bfs", "cooperative launch",
        cudaLaunchCooperativeKernel(fn, dim3(blocks), dim3(cuda::blest_block_threads), args, smem, exec.cuda_stream()));
    unsigned long long h[bvss_counter_slots] = {};
    Kokkos::deep_copy(exec,
                      Kokkos::View<unsigned long long*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                          h, bvss_counter_slots),
                      Kokkos::subview(ws.counters, Kokkos::make_pair(0, bvss_counter_slots)));
    exec.fence();
    st.depth = static_cast<int>(h[bvss_counter_depth]);
    st.vss_processed = h[bvss_counter_processed];
    st.bottom_up_levels = static_cast<int>(h[bvss_counter_bottom_up]);
    return st;
  }
};

}  // namespace bitgraph::detail
