// CUDA leaf of advance_levels: a batch of levels in one persistent cooperative kernel, a grid sync between
// levels instead of a launch (a grid's thousands of levels of a few thousand vertices each are bound by the
// per-level chain, not by bytes), the next queue's slots taken with one atomic per block. A single level, or a
// device without cooperative launch, goes back to the generic core.
#pragma once

#include <cooperative_groups.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

#include "bitgraph/backends/cuda/check.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/ops/detail/advance_generic.hpp"

namespace bitgraph::cuda {

/// Threads per block of the persistent advance.
inline constexpr int advance_block_threads = 256;

/// Device state of one batch of levels.
struct advance_state {
  const offset_t* row_ptr;
  const vertex_t* col;
  vertex_t* queue[2];  // level first_level + k reads queue[k % 2], appends to the other
  unsigned long long* ring;
  std::uint32_t* visited;
  level_t* levels;
  vertex_t* parents;  // null without Parents
  level_t first_level;
  unsigned count;
  int log_width;
};

// What other SMs wrote in earlier levels of this launch (the queues, the visited bitmap, the ring) is read with
// __ldcg: L1 is not coherent across SMs and a grid sync does not invalidate it, and a queue buffer was last read
// two levels ago. row_ptr and col do not change.
template <bool Parents>
__global__ void __launch_bounds__(advance_block_threads) advance_levels_kernel(advance_state s) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  __shared__ unsigned int claims;
  // The level's sums in two slots by parity, the next one cleared while this one is read: the compiler loads a slot
  // in every thread (thread 0's test of it, speculated), so clearing the slot being read raced with those loads.
  __shared__ unsigned long long base, edges_sum[2], widest_max[2];
  const int lane = threadIdx.x & 31;
  const unsigned long long first = static_cast<unsigned long long>(blockIdx.x) * blockDim.x;
  const unsigned long long threads = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  const unsigned long long width = 1ull << s.log_width;
  constexpr unsigned long long slots_in_ring = detail::advance_ring_slots;
  if (threadIdx.x == 0) claims = 0, edges_sum[0] = edges_sum[1] = 0, widest_max[0] = widest_max[1] = 0;
  __syncthreads();
  for (unsigned k = 0; k < s.count; ++k) {
    const level_t d = s.first_level + static_cast<level_t>(k);
    const vertex_t* in = s.queue[k & 1];
    vertex_t* out = s.queue[(k + 1) & 1];
    unsigned long long* cur = s.ring + 3 * (static_cast<unsigned long long>(d) % slots_in_ring);
    const unsigned long long len = __ldcg(s.ring + 3 * (static_cast<unsigned long long>(d - 1) % slots_in_ring));
    if (len == 0) break;  // the last level found nothing; every thread read the same value after the sync
    if (first == 0 && threadIdx.x == 0) {
      unsigned long long* next = s.ring + 3 * (static_cast<unsigned long long>(d + 1) % slots_in_ring);
      next[0] = next[1] = next[2] = 0;
    }
    const unsigned long long slots = len << s.log_width;
    unsigned long long edges = 0, widest = 0;
    // Block-uniform loop: every thread of a block reaches the barriers of the queue-slot allocation.
    for (unsigned long long b = first; b < slots; b += threads) {
      const unsigned long long e = b + threadIdx.x;
      vertex_t i = 0, j = 0;
      bool won = false;
      if (e < slots) {
        i = __ldcg(in + (e >> s.log_width));
        const offset_t pos = __ldg(s.row_ptr + i) + (e & (width - 1));
        if (pos < __ldg(s.row_ptr + i + 1)) {  // width >= every out-degree: one edge per slot at most
          j = __ldg(s.col + pos);
          const offset_t dj = __ldg(s.row_ptr + j + 1) - __ldg(s.row_ptr + j);  // loaded beside the claim
          const std::uint32_t bit = 1u << (j & 31);
          if (!(__ldcg(s.visited + (j >> 5)) & bit) && !(atomicOr(s.visited + (j >> 5), bit) & bit)) {
            won = true;
            s.levels[j] = d;
            if (Parents) s.parents[j] = i;
            edges += dj;
            widest = dj > widest ? dj : widest;
          }
        }
      }
      const unsigned mask = __ballot_sync(0xffffffffu, won);
      unsigned at = 0;
      if (lane == 0 && mask) at = atomicAdd(&claims, static_cast<unsigned>(__popc(mask)));
      __syncthreads();
      if (threadIdx.x == 0) {
        base = claims ? atomicAdd(cur, static_cast<unsigned long long>(claims)) : 0;
        claims = 0;
      }
      __syncthreads();
      at = __shfl_sync(0xffffffffu, at, 0);
      if (won) out[base + at + __popc(mask & ((1u << lane) - 1u))] = j;
    }
    // The next frontier's out-edges and widest degree: warp, then block, then one atomic each per block.
    for (int off = 16; off > 0; off >>= 1) {
      edges += __shfl_down_sync(0xffffffffu, edges, off);
      const unsigned long long w = __shfl_down_sync(0xffffffffu, widest, off);
      widest = w > widest ? w : widest;
    }
    const unsigned p = k & 1;
    if (lane == 0 && edges) {
      atomicAdd(&edges_sum[p], edges);
      atomicMax(&widest_max[p], widest);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      if (edges_sum[p]) {
        atomicAdd(cur + 1, edges_sum[p]);
        atomicMax(cur + 2, widest_max[p]);
      }
      edges_sum[p ^ 1] = 0;
      widest_max[p ^ 1] = 0;
    }
    grid.sync();
  }
}

}  // namespace bitgraph::cuda

namespace bitgraph::detail {

template <>
struct advance_levels_impl<Kokkos::Cuda> {
  using mem = Kokkos::CudaSpace;
  using generic = advance_levels_generic<Kokkos::Cuda>;

  /// The current device's SM count, or 0 when it lacks cooperative launch.
  static int cooperative_sms() {
    int dev = 0, sms = 0, coop = 0;
    BITGRAPH_CUDA_CHECK("advance_levels", "cudaGetDevice", cudaGetDevice(&dev));
    BITGRAPH_CUDA_CHECK("advance_levels", "device attribute",
                        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    BITGRAPH_CUDA_CHECK("advance_levels", "device attribute",
                        cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    return coop ? sms : 0;
  }

  static path_offer offer(const advance_args<mem>& a) {
    path_offer o = generic::offer(a);
    if (a.count < 2) return o.refuse(op_algorithm::cuda_warp, "one level is a plain launch");
    if (a.widest > advance_narrow_degree)
      return o.refuse(op_algorithm::cuda_warp, "a frontier vertex may have more out-edges than a batch handles");
    if (cooperative_sms() == 0) return o.refuse(op_algorithm::cuda_warp, "the device lacks cooperative launch");
    return o.offer(op_algorithm::cuda_warp);
  }

  static advance_done run(op_algorithm path, const Kokkos::Cuda& exec, const advance_args<mem>& a) {
    if (path != op_algorithm::cuda_warp) return run_generic<generic>(exec, a);
    int log_width = 0;
    while ((offset_t(1) << log_width) < a.widest) ++log_width;
    advance_seed_ring(exec, a);
    cuda::advance_state s;
    s.row_ptr = a.row_ptr.data();
    s.col = a.col.data();
    s.queue[0] = a.qa.data();
    s.queue[1] = a.qb.data();
    s.ring = reinterpret_cast<unsigned long long*>(a.ring.data());
    s.visited = a.visited.data();
    s.levels = a.levels.data();
    s.parents = a.parents.extent(0) > 0 ? a.parents.data() : nullptr;
    s.first_level = a.first_level;
    s.count = static_cast<unsigned>(std::min<offset_t>(a.count, advance_max_levels));
    s.log_width = log_width;
    // All blocks must be co-resident (a cooperative launch requires it); two per SM keep each grid sync cheap, as
    // for the tensor-core BFS's persistent kernel (measured best there on grids), and a grid's frontiers
    // (a few thousand vertices, four slots each) fit in them.
    int per_sm = 0;
    void* fn = s.parents ? reinterpret_cast<void*>(cuda::advance_levels_kernel<true>)
                         : reinterpret_cast<void*>(cuda::advance_levels_kernel<false>);
    BITGRAPH_CUDA_CHECK("advance_levels", "occupancy",
                        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, cuda::advance_block_threads, 0));
    const int blocks = std::max(1, std::min(per_sm, 2)) * cooperative_sms();
    void* args[] = {&s};
    BITGRAPH_CUDA_CHECK(
        "advance_levels", "cooperative launch",
        cudaLaunchCooperativeKernel(fn, dim3(blocks), dim3(cuda::advance_block_threads), args, 0, exec.cuda_stream()));
    return advance_read_ring(exec, a);
  }
};

}  // namespace bitgraph::detail
