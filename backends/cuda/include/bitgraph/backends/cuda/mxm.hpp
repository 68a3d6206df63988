// CUDA leaf of the BMM ops: the warp kernel (bmm_warp.hpp) on 32 x 32 row-major tiles for the masked sum, and as
// the masked dot step of the B2SR mxm (Boolean product tiles under a plain mask; counts for PLUS_PAIR). Every
// other path (the unmasked sum, SpGEMM, other tile shapes, `generic`) goes back to the generic core.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <utility>

#include "bitgraph/backends/cuda/bmm_warp.hpp"
#include "bitgraph/backends/cuda/check.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/ops/detail/mxm_bits_generic.hpp"
#include "bitgraph/ops/detail/mxm_generic.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph::detail {

/// One warp per tile of `m` (32-bit row-major tiles of m, a and bt), each handing its products to `sink`.
/// Asynchronous on `exec`; throws `cuda_error` naming `func` when the launch fails.
template <class Sink>
void launch_bmm_masked_warp(const Kokkos::Cuda& exec, const char* func, const b2sr_matrix<Kokkos::CudaSpace>& m,
                            const b2sr_matrix<Kokkos::CudaSpace>& a, const b2sr_matrix<Kokkos::CudaSpace>& bt,
                            Sink sink) {
  if (m.n_tiles == 0) return;
  auto mrow_of = tile_row_of_tiles(exec, m);
  const offset_t blocks = (m.n_tiles * 32 + cuda::bmm_block_threads - 1) / cuda::bmm_block_threads;
  cuda::bmm_masked_warp_kernel<Sink><<<static_cast<unsigned>(blocks), cuda::bmm_block_threads, 0, exec.cuda_stream()>>>(
      m.n_tiles, mrow_of.data(), m.tile_col_idx.data(), m.template tile_words<std::uint32_t>().data(),
      a.tile_row_ptr.data(), a.tile_col_idx.data(), a.template tile_words<std::uint32_t>().data(),
      bt.tile_row_ptr.data(), bt.tile_col_idx.data(), bt.template tile_words<std::uint32_t>().data(), sink);
  BITGRAPH_CUDA_CHECK(func, "launching the warp BMM kernel", cudaGetLastError());
}

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
    Kokkos::View<unsigned long long, mem> total("bitgraph::bmm_masked::total");
    launch_bmm_masked_warp(exec, "bmm_sum_masked", m, a, bt, cuda::bmm_sum_sink{total.data()});
    unsigned long long h = 0;
    Kokkos::deep_copy(exec, h, total);
    exec.fence();
    return h;
  }
};

/// The masked dot step of the B2SR mxm on the warp kernel; the face offers `cuda_warp` only for 32-bit
/// row-major operands, so no other shape reaches it.
struct cuda_masked_dot {
  using mem = Kokkos::CudaSpace;
  static void bits(const Kokkos::Cuda& exec, const b2sr_matrix<mem>& m, const b2sr_matrix<mem>& a,
                   const b2sr_matrix<mem>& bt, const Kokkos::View<std::uint8_t*, mem>& out) {
    launch_bmm_masked_warp(exec, "mxm", m, a, bt, cuda::bmm_bits_sink{reinterpret_cast<std::uint32_t*>(out.data())});
  }
  static void counts(const Kokkos::Cuda& exec, const b2sr_matrix<mem>& m, const b2sr_matrix<mem>& a,
                     const b2sr_matrix<mem>& bt, const Kokkos::View<const offset_t*, mem>& off,
                     const Kokkos::View<std::uint32_t*, mem>& cnt) {
    launch_bmm_masked_warp(exec, "mxm", m, a, bt, cuda::bmm_count_sink{off.data(), cnt.data()});
  }
};

template <>
struct mxm_bits_impl<Kokkos::Cuda> {
  using generic = mxm_bits_generic<Kokkos::Cuda>;
  using warp = mxm_bits_generic<Kokkos::Cuda, cuda_masked_dot>;

  static path_offer offer(bool dot_runs, bool warp_shape) {
    path_offer o = generic::offer(dot_runs, warp_shape);
    if (!dot_runs) {
      return o.refuse(op_algorithm::cuda_warp,
                      "a Boolean mxm without a plain mask runs the portable SpGEMM only; use 'generic'");
    }
    if (!warp_shape) {
      return o.refuse(op_algorithm::cuda_warp,
                      "the cuda-warp kernel needs 32-bit row-major tiles (A, the mask, and B under transpose_b)");
    }
    return o.offer(op_algorithm::cuda_warp);
  }

  template <class... Args>
  static void run(op_algorithm path, const Kokkos::Cuda& exec, Args&&... args) {
    if (path != op_algorithm::cuda_warp) return run_generic<generic>(exec, std::forward<Args>(args)...);
    warp::run(path, exec, std::forward<Args>(args)...);
  }
};

}  // namespace bitgraph::detail
