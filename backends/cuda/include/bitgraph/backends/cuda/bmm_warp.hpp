// CUDA warp kernel for the masked BMM sum (bmm_bin_bin_sum_masked, Bit-GraphBLAS Listing 2 shape):
// one warp per 32 x 32 mask tile, lane = row, B^T rows broadcast with __shfl_sync, fused reduction.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/types.hpp"

namespace bitgraph::cuda {

/// Threads per block of the BMM kernel.
inline constexpr int bmm_block_threads = 256;

/// A template only so that the header can be included by several translation units (one definition).
template <int TileDim = 32>
__global__ void __launch_bounds__(bmm_block_threads)
    bmm_sum_masked_warp_kernel(offset_t n_mask_tiles, const vertex_t* __restrict__ mrow_of,
                               const vertex_t* __restrict__ mcol, const std::uint32_t* __restrict__ mw,
                               const offset_t* __restrict__ aptr, const vertex_t* __restrict__ acol,
                               const std::uint32_t* __restrict__ aw, const offset_t* __restrict__ bptr,
                               const vertex_t* __restrict__ bcol, const std::uint32_t* __restrict__ bw,
                               unsigned long long* __restrict__ total) {
  const offset_t warp = (offset_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (warp >= n_mask_tiles) return;
  const vertex_t ti = __ldg(mrow_of + warp), tj = __ldg(mcol + warp);
  const std::uint32_t m = __ldg(mw + warp * 32 + lane);
  // Union of the mask rows: only these columns of B^T's tile are ever needed.
  const std::uint32_t cols = __reduce_or_sync(0xffffffffu, m);
  unsigned long long count = 0;
  offset_t pa = __ldg(aptr + ti), ea = __ldg(aptr + ti + 1), pb = __ldg(bptr + tj), eb = __ldg(bptr + tj + 1);
  while (pa < ea && pb < eb) {  // uniform across the warp: every lane reads the same indices
    const vertex_t ka = __ldg(acol + pa), kb = __ldg(bcol + pb);
    if (ka < kb) {
      ++pa;
    } else if (kb < ka) {
      ++pb;
    } else {
      const std::uint32_t a = __ldg(aw + pa * 32 + lane);
      const std::uint32_t b = __ldg(bw + pb * 32 + lane);
      std::uint32_t todo = cols;
      while (todo) {
        const int c = __ffs(todo) - 1;
        todo &= todo - 1;
        const std::uint32_t bc = __shfl_sync(0xffffffffu, b, c);
        if ((m >> c) & 1u) count += __popc(a & bc);
      }
      ++pa;
      ++pb;
    }
  }
  // Warp reduction, then one atomic per tile.
  for (int off = 16; off > 0; off >>= 1) count += __shfl_down_sync(0xffffffffu, count, off);
  if (lane == 0 && count) atomicAdd(total, count);
}

}  // namespace bitgraph::cuda
