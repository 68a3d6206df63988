// CUDA leaf of the BMM ops: the warp kernel (bmm_warp.hpp) for the masked sum on 32 x 32 row-major
// tiles. Every other path (the unmasked sum, SpGEMM, other tile shapes, `generic`) goes back to the generic
// core.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/backends/cuda/bmm_warp.hpp"
#include "bitgraph/backends/cuda/check.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/ops/detail/mxm_generic.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph::detail {

template <>
struct bmm_sum_masked_impl<Kokkos::Cuda> {
  using mem = Kokkos::CudaSpace;
  using generic = bmm_sum_masked_generic<Kokkos::Cuda>;
  /// The warp kernel reads 32 x 32 row-major tiles.
  static constexpr int preferred_tile = 32;

  static path_offer offer(const b2sr_matrix<mem>& m, const b2sr_matrix<mem>& a, const b2sr_matrix<mem>& bt) {
    path_offer o = generic::offer(m, a, bt);
    const bool warp_ok = m.tile_dim == 32 && m.order == bit_order::row_major && a.order == bit_order::row_major &&
                         bt.order == bit_order::row_major;
    if (!warp_ok) return o.refuse(op_algorithm::cuda_warp, "the cuda-warp kernel needs 32-bit row-major tiles");
    return o.offer(op_algorithm::cuda_warp);
  }

  static std::uint64_t run(op_algorithm path, const Kokkos::Cuda& exec, const b2sr_matrix<mem>& m,
                           const b2sr_matrix<mem>& a, const b2sr_matrix<mem>& bt) {
    if (path != op_algorithm::cuda_warp) return run_generic<generic>(exec, m, a, bt);
    if (m.n_tiles == 0) return 0;
    auto mrow_of = tile_row_of_tiles(exec, m);
    Kokkos::View<unsigned long long, mem> total("bitgraph::bmm_masked::total");
    const offset_t blocks = (m.n_tiles * 32 + cuda::bmm_block_threads - 1) / cuda::bmm_block_threads;
    cuda::bmm_sum_masked_warp_kernel<32>
        <<<static_cast<unsigned>(blocks), cuda::bmm_block_threads, 0, exec.cuda_stream()>>>(
            m.n_tiles, mrow_of.data(), m.tile_col_idx.data(), m.template tile_words<std::uint32_t>().data(),
            a.tile_row_ptr.data(), a.tile_col_idx.data(), a.template tile_words<std::uint32_t>().data(),
            bt.tile_row_ptr.data(), bt.tile_col_idx.data(), bt.template tile_words<std::uint32_t>().data(),
            total.data());
    BITGRAPH_CUDA_CHECK("bmm_sum_masked", "launching the warp BMM kernel", cudaGetLastError());
    unsigned long long h = 0;
    Kokkos::deep_copy(exec, h, total);
    exec.fence();
    return h;
  }
};

}  // namespace bitgraph::detail
