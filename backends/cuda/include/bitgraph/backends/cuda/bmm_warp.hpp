// CUDA warp kernel for the masked BMM sum (bmm_bin_bin_sum_masked, Bit-GraphBLAS Listing 2 shape):
// one warp per 32 x 32 mask tile, lane = row, B^T rows broadcast with __shfl_sync, fused reduction.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/ops/mxm.hpp"

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

namespace bitgraph {
/// The warp kernel reads 32 x 32 row-major tiles.
template <>
struct bmm_preferred_tile<Kokkos::Cuda> : std::integral_constant<int, 32> {};
}  // namespace bitgraph

namespace bitgraph::detail {

template <>
struct bmm_impl<Kokkos::Cuda> {
  using mem = Kokkos::CudaSpace;
  static std::uint64_t sum(const Kokkos::Cuda& exec, const b2sr_matrix<mem>& a, const b2sr_matrix<mem>& b,
                           const mxm_options& opts) {
    if (opts.algorithm == op_algorithm::cuda_warp || opts.algorithm == op_algorithm::cuda_mma) {
      throw unsupported_error("bitgraph::bmm_sum: the CUDA kernels cover the masked sum only; use 'generic'");
    }
    return dispatch_tile_dim(a.tile_dim, [&](auto td) { return bmm_sum_generic<Kokkos::Cuda, decltype(td)::value>(exec, a, b); });
  }

  static std::uint64_t sum_masked(const Kokkos::Cuda& exec, const b2sr_matrix<mem>& m, const b2sr_matrix<mem>& a,
                                  const b2sr_matrix<mem>& bt, const mxm_options& opts) {
    if (opts.algorithm == op_algorithm::cuda_mma) {
      throw unsupported_error("bitgraph::bmm_sum_masked: no tensor-core kernel; use cuda-warp or generic");
    }
    const bool warp_ok = m.tile_dim == 32 && m.order == bit_order::row_major && a.order == bit_order::row_major &&
                         bt.order == bit_order::row_major;
    if (opts.algorithm == op_algorithm::generic || (!warp_ok && opts.algorithm == op_algorithm::automatic)) {
      return dispatch_tile_dim(m.tile_dim, [&](auto td) {
        return bmm_sum_masked_generic<Kokkos::Cuda, decltype(td)::value>(exec, m, a, bt);
      });
    }
    if (!warp_ok) {
      throw unsupported_error("bitgraph::bmm_sum_masked: the cuda-warp kernel needs 32-bit row-major tiles");
    }
    if (m.n_tiles == 0) return 0;
    auto mrow_of = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bmm_masked::tile_rows", m.n_tiles, false);
    auto mptr = m.tile_row_ptr;
    Kokkos::parallel_for(
        "bitgraph::bmm_masked::rows", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, m.n_tile_rows),
        KOKKOS_LAMBDA(const vertex_t tr) {
          for (offset_t k = mptr(tr); k < mptr(tr + 1); ++k) mrow_of(k) = tr;
        });
    Kokkos::View<unsigned long long, mem> total("bitgraph::bmm_masked::total");
    const offset_t blocks = (m.n_tiles * 32 + cuda::bmm_block_threads - 1) / cuda::bmm_block_threads;
    cuda::bmm_sum_masked_warp_kernel<32><<<static_cast<unsigned>(blocks), cuda::bmm_block_threads, 0, exec.cuda_stream()>>>(
        m.n_tiles, mrow_of.data(), m.tile_col_idx.data(), m.template tile_words<std::uint32_t>().data(),
        a.tile_row_ptr.data(), a.tile_col_idx.data(), a.template tile_words<std::uint32_t>().data(), bt.tile_row_ptr.data(),
        bt.tile_col_idx.data(), bt.template tile_words<std::uint32_t>().data(), total.data());
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) throw error(std::string("bitgraph::bmm_sum_masked: CUDA launch failed: ") + cudaGetErrorString(err));
    unsigned long long h = 0;
    Kokkos::deep_copy(exec, h, total);
    exec.fence();
    return h;
  }

  static b2sr_matrix<mem> spgemm(const Kokkos::Cuda& exec, const b2sr_matrix<mem>& a, const b2sr_matrix<mem>& b,
                                 const mxm_options& opts) {
    if (opts.algorithm == op_algorithm::cuda_warp || opts.algorithm == op_algorithm::cuda_mma) {
      throw unsupported_error("bitgraph::mxm: Boolean SpGEMM has the portable kernel only; use 'generic'");
    }
    return dispatch_tile_dim(a.tile_dim,
                             [&](auto td) { return spgemm_boolean_generic<Kokkos::Cuda, decltype(td)::value>(exec, a, b); });
  }
};

}  // namespace bitgraph::detail
