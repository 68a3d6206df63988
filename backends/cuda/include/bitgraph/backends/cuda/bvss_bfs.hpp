// Blest on CUDA: every BFS level in one persistent cooperative kernel (grid-wide sync between levels),
// warps taking VSSs round-robin from the queue and resolving their 128 slices with two
// mma.sync.m8n8k128.b1.and.popc, all 64 outputs of each MMA useful (Blest §4.1, Alg. 2 and 3).
#pragma once

#include <Kokkos_Core.hpp>
#include <cooperative_groups.h>

#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <string>

#include "bitgraph/backends/cuda/mma_b1.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/bvss.hpp"
#include "bitgraph/ops/bvss_bfs.hpp"

namespace bitgraph::cuda {

/// Threads per block of the persistent kernel.
inline constexpr int blest_block_threads = 256;

/// Device state of one traversal.
struct blest_state {
  vertex_t n;
  vertex_t n_slice_sets;
  const offset_t* real_ptrs;
  const vertex_t* v2r;
  const uint4* rows;  // 4 row ids per lane and VSS
  const std::uint32_t* masks;
  level_t* levels;
  uint2* queue[2];  // (VSS, its slice set): carrying the slice set saves a dependent load per VSS
  unsigned long long* counters;  // [3], see the kernel
  level_t* pushed;               // eager: last level each slice set was enqueued at
  std::uint32_t* visited;        // lazy: visited bitmap (ceil(n / 32) words)
  std::uint32_t* visited_before; // lazy: the bitmap as of the last sweep (only this kernel's thread t writes word t)
  unsigned long long* processed; // VSSs taken from the queues
  unsigned long long* depth;
};

// Data other SMs wrote in earlier levels (levels, queues, the visited bitmap) is read with __ldcg: L1 is
// not coherent across SMs and a grid sync does not invalidate it, so those loads must go to L2.
__device__ __forceinline__ std::uint32_t blest_alpha(const level_t* levels, vertex_t n, vertex_t ss, level_t l) {
  std::uint32_t a = 0;
#pragma unroll
  for (int j = 0; j < bvss_sigma; ++j) {
    const vertex_t v = ss * bvss_sigma + j;
    if (v < n && __ldcg(levels + v) == l - 1) a |= 1u << j;
  }
  return a;
}

template <bool Lazy>
__global__ void __launch_bounds__(blest_block_threads) blest_kernel(blest_state s) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  const int lane = threadIdx.x & 31;
  const unsigned long long warp = (static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned long long warps = static_cast<unsigned long long>(gridDim.x) * blockDim.x / 32;
  const unsigned long long thread = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned long long threads = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  // Counters: level l reads its queue size from counters[l % 3], appends to counters[(l + 1) % 3] and
  // clears counters[(l + 2) % 3] (last used at level l - 1, next used at level l + 1), so one grid sync
  // per level suffices in the eager scheme.
  const std::uint32_t fragb_word = (lane % 9 == 0) ? 1u : ((lane % 9 == 4) ? 2u : 0u);
  unsigned long long processed = 0;
  for (level_t l = 1;; ++l) {
    const uint2* cq = s.queue[(l - 1) & 1];
    uint2* nq = s.queue[l & 1];
    unsigned long long* next_counter = s.counters + (l + 1) % 3;
    const unsigned long long size = *(volatile unsigned long long*)(s.counters + l % 3);
    if (thread == 0) s.counters[(l + 2) % 3] = 0;
    for (unsigned long long q = warp; q < size; q += warps) {
      const uint2 entry = __ldcg(cq + q);
      const vertex_t v = entry.x, ss = entry.y;
      const std::uint32_t alpha = blest_alpha(s.levels, s.n, ss, l);
      const uint4 u = s.rows[32 * offset_t(v) + lane];
      const std::uint32_t mask = s.masks[32 * offset_t(v) + lane];
      // fragB: lanes t % 9 == 0 hold α in bits 0-7 (selects the first packed slice), t % 9 == 4 hold it
      // in bits 8-15 (the second); the 4 x 8 word matrix then has α exactly where each lane's own
      // fragA word meets its own two output columns.
      const std::uint32_t b = fragb_word == 1u ? alpha : (fragb_word == 2u ? alpha << 8 : 0u);
      const std::int32_t zero[2] = {0, 0};
      std::int32_t lo[2], hi[2];
      mma_m8n8k128_and_popc(lo, mask & 0xffffu, b, zero);
      mma_m8n8k128_and_popc(hi, mask >> 16, b, zero);
      const std::int32_t pop[4] = {lo[0], lo[1], hi[0], hi[1]};
      const vertex_t row[4] = {u.x, u.y, u.z, u.w};
      // Slice sets this lane must enqueue (eager), collected so that the warp allocates queue space
      // with one atomic instead of one per discovery.
      vertex_t push_ss[4];
      offset_t push_cnt[4];
      unsigned long long need = 0;
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        push_cnt[c] = 0;
        push_ss[c] = 0;
        if (pop[c] == 0) continue;
        const vertex_t r = row[c];
        if (__ldcg(s.levels + r) != unreached_level) continue;
        if (Lazy) {
          atomicOr(s.visited + r / 32, 1u << (r % 32));  // result unused: compiles to an asynchronous RED
        } else {
          s.levels[r] = l;
          const vertex_t ss_out = r / bvss_sigma;
          if (atomicExch(s.pushed + ss_out, l) != l) {
            push_ss[c] = ss_out;
            push_cnt[c] = s.real_ptrs[ss_out + 1] - s.real_ptrs[ss_out];
            need += push_cnt[c];
          }
        }
      }
      if (!Lazy && __any_sync(0xffffffffu, need != 0)) {
        unsigned long long incl = need;
        for (int off = 1; off < 32; off <<= 1) {
          const unsigned long long o = __shfl_up_sync(0xffffffffu, incl, off);
          if (lane >= off) incl += o;
        }
        unsigned long long base = 0;
        if (lane == 31) base = atomicAdd(next_counter, incl);
        unsigned long long at = __shfl_sync(0xffffffffu, base, 31) + incl - need;
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          const offset_t b0 = push_cnt[c] ? s.real_ptrs[push_ss[c]] : 0;
          for (offset_t k = 0; k < push_cnt[c]; ++k) nq[at++] = make_uint2(static_cast<vertex_t>(b0 + k), push_ss[c]);
        }
      }
      ++processed;
    }
    grid.sync();
    if (Lazy) {
      // Stage 2: coalesced sweep of the visited bitmap; new vertices get their level and their slice
      // sets' VSSs are appended with one atomic per warp (warp-aggregated allocation).
      const unsigned long long words = (static_cast<unsigned long long>(s.n) + 31) / 32;
      for (unsigned long long base = thread - lane; base < words; base += threads) {
        const unsigned long long t = base + lane;
        std::uint32_t fresh = 0;
        if (t < words) {
          // New this level = set now but not at the last sweep (Alg. 3's Vcurr XOR Vnext): one coalesced
          // word compare instead of a level lookup per visited vertex.
          const std::uint32_t now = __ldcg(s.visited + t);
          fresh = now & ~s.visited_before[t];
          if (fresh) s.visited_before[t] = now;
          std::uint32_t f = fresh;
          while (f) {
            const int bit = __ffs(f) - 1;
            f &= f - 1;
            s.levels[t * 32 + bit] = l;
          }
        }
        unsigned long long need = 0;
#pragma unroll
        for (int set = 0; set < 4; ++set)
          if ((fresh >> (8 * set)) & 0xffu) {
            const vertex_t ss_out = static_cast<vertex_t>(t * 4 + set);
            need += s.real_ptrs[ss_out + 1] - s.real_ptrs[ss_out];
          }
        unsigned long long incl = need;
        for (int off = 1; off < 32; off <<= 1) {
          const unsigned long long o = __shfl_up_sync(0xffffffffu, incl, off);
          if (lane >= off) incl += o;
        }
        unsigned long long start = 0;
        if (lane == 31 && incl) start = atomicAdd(next_counter, incl);
        start = __shfl_sync(0xffffffffu, start, 31);
        unsigned long long at = start + incl - need;
#pragma unroll
        for (int set = 0; set < 4; ++set)
          if ((fresh >> (8 * set)) & 0xffu) {
            const vertex_t ss_out = static_cast<vertex_t>(t * 4 + set);
            for (offset_t k = s.real_ptrs[ss_out]; k < s.real_ptrs[ss_out + 1]; ++k)
              nq[at++] = make_uint2(static_cast<vertex_t>(k), ss_out);
          }
      }
      grid.sync();
    }
    if (*(volatile unsigned long long*)next_counter == 0) {
      if (thread == 0) *s.depth = static_cast<unsigned long long>(l - 1);
      break;
    }
  }
  atomicAdd(s.processed, processed);
}

}  // namespace bitgraph::cuda

namespace bitgraph::detail {

template <>
struct bvss_bfs_impl<Kokkos::Cuda> {
  using mem = Kokkos::CudaSpace;
  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw error(std::string("bitgraph::bvss_bfs: ") + what + ": " + cudaGetErrorString(e));
  }

  static bvss_bfs_stats run(const Kokkos::Cuda& exec, const bvss_matrix<mem>& b, vertex_t source,
                            Kokkos::View<level_t*, mem> levels, bool lazy, op_algorithm alg,
                            const bvss_bfs_workspace<mem>& ws) {
    if (alg == op_algorithm::generic) return bvss_bfs_generic<Kokkos::Cuda>::run(exec, b, source, levels, lazy, ws);
    int dev = 0, sms = 0, coop = 0, cc = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "attribute");
    check(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev), "attribute");
    check(cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, dev), "attribute");
    if (!coop || cc < 8) {
      if (alg == op_algorithm::cuda_mma)
        throw unsupported_error("bitgraph::bvss_bfs: the device lacks cooperative launch or b1 MMA (sm_80+)");
      return bvss_bfs_generic<Kokkos::Cuda>::run(exec, b, source, levels, lazy, ws);
    }
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
    // Level 1's queue: the VSSs of the source's slice set.
    auto real_ptrs = b.real_ptrs;
    const vertex_t ss0 = source / bvss_sigma;
    Kokkos::parallel_for(
        "bitgraph::blest::init", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, 1), KOKKOS_LAMBDA(const int) {
          unsigned long long c = 0;
          // Little-endian uint2 = (x, y) = (VSS, slice set).
          for (offset_t v = real_ptrs(ss0); v < real_ptrs(ss0 + 1); ++v) qa(c++) = (std::uint64_t(ss0) << 32) | v;
          counters(1) = c;
          counters(2) = 0;
          counters(0) = 0;
          counters(3) = 0;
          counters(4) = 0;
        });
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
    void* fn = lazy ? reinterpret_cast<void*>(cuda::blest_kernel<true>) : reinterpret_cast<void*>(cuda::blest_kernel<false>);
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, cuda::blest_block_threads, 0), "occupancy");
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
    check(cudaLaunchCooperativeKernel(fn, dim3(blocks), dim3(cuda::blest_block_threads), args, 0, exec.cuda_stream()),
          "cooperative launch");
    unsigned long long h[5] = {0, 0, 0, 0, 0};
    Kokkos::deep_copy(exec, Kokkos::View<unsigned long long*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(h, 5),
                      counters);
    exec.fence();
    st.depth = static_cast<int>(h[4]);
    st.vss_processed = h[3];
    return st;
  }
};

}  // namespace bitgraph::detail
