// Blest on CUDA: every BFS level in one persistent cooperative kernel (grid-wide sync between levels),
// warps taking VSSs round-robin from the queue and resolving their 128 slices with two
// mma.sync.m8n8k128.b1.and.popc, all 64 outputs of each MMA useful (Blest §4.1, Alg. 2 and 3).
#pragma once

#include <cooperative_groups.h>
#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/backends/cuda/ptx/mma_b1.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/bvss_layout.hpp"

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
  uint2* queue[2];                // (VSS, its slice set): carrying the slice set saves a dependent load per VSS
  unsigned long long* counters;   // [3], see the kernel
  level_t* pushed;                // eager: last level each slice set was enqueued at
  std::uint32_t* visited;         // lazy: visited bitmap (ceil(n / 32) words)
  std::uint32_t* visited_before;  // lazy: the bitmap as of the last sweep (only this kernel's thread t writes word t)
  unsigned long long* processed;  // VSSs taken from the queues
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
      sm80_mma_m8n8k128_b1_and_popc::fma(lo, mask & 0xffffu, b, zero);
      sm80_mma_m8n8k128_b1_and_popc::fma(hi, mask >> 16, b, zero);
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

/// Level 1's queue (the VSSs of the source's slice set) and the counters' start values, one thread.
struct blest_init {
  Kokkos::View<const offset_t*, Kokkos::CudaSpace> real_ptrs;
  Kokkos::View<std::uint64_t*, Kokkos::CudaSpace> qa;
  Kokkos::View<unsigned long long*, Kokkos::CudaSpace> counters;
  vertex_t ss0;
  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    unsigned long long c = 0;
    // Little-endian uint2 = (x, y) = (VSS, slice set).
    for (offset_t v = real_ptrs(ss0); v < real_ptrs(ss0 + 1); ++v) qa(c++) = (std::uint64_t(ss0) << 32) | v;
    counters(1) = c;
    counters(2) = 0;
    counters(0) = 0;
    counters(3) = 0;
    counters(4) = 0;
  }
};

}  // namespace bitgraph::cuda
