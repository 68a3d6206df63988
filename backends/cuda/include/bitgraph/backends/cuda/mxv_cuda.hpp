// CUDA specialisations of the B2SR and CSR product dispatch: warp-per-32-rows BMV kernels for pulls on
// row-major tiles, the portable kernels otherwise (push scatters, column-major tiles, `generic`).
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/backends/cuda/bmv_warp.hpp"
#include "bitgraph/ops/mxv.hpp"

namespace bitgraph::detail {

template <class S, class Y, class X, class Accum>
struct b2sr_mxv_impl<Kokkos::Cuda, S, Y, X, Accum> {
  using mem = Kokkos::CudaSpace;
  static void run(const Kokkos::Cuda& exec, Y& y, const mask_args<mem>& mask, const b2sr_matrix<mem>& a,
                  const b2sr_matrix<mem>* at, const X& x, const mxv_options& opts, bool transpose_input) {
    if (opts.algorithm == op_algorithm::cuda_mma) {
      throw unsupported_error("bitgraph::mxv: there is no tensor-core kernel for B2SR products (use cuda-warp)");
    }
    if (opts.algorithm == op_algorithm::generic) {
      b2sr_mxv_generic<Kokkos::Cuda, S, Y, X, Accum>::run(exec, y, mask, a, at, x, opts, transpose_input);
      return;
    }
    const auto plan = plan_b2sr_product<Kokkos::Cuda, S>(exec, a, at, x, opts, transpose_input);
    const bool warp_ok = !plan.push && plan.matrix->order == bit_order::row_major;
    if (!warp_ok) {
      if (opts.algorithm == op_algorithm::cuda_warp) {
        if (plan.push) throw unsupported_error("bitgraph::mxv: the cuda-warp kernels are pull kernels; push uses 'generic'");
        throw unsupported_error("bitgraph::mxv: the cuda-warp kernels read row-major tiles; this matrix is column-major");
      }
      b2sr_mxv_generic<Kokkos::Cuda, S, Y, X, Accum>::run(exec, y, mask, a, at, x, opts, transpose_input);
      return;
    }
    using T_ = typename S::value_type;
    constexpr bool XBits = is_bitmap<X>::value;
    constexpr bool YBits = is_bitmap<Y>::value;
    const std::uint32_t* xb = nullptr;
    const T_* xv = nullptr;
    std::uint32_t* yb = nullptr;
    T_* yv = nullptr;
    if constexpr (XBits) xb = x.words.data();
    else xv = x.data();
    if constexpr (YBits) yb = y.words.data();
    else yv = y.data();
    dispatch_tile_dim(plan.matrix->tile_dim, [&](auto td) {
      cuda::launch_bmv_warp<decltype(td)::value, S, XBits, YBits, Accum>(exec, *plan.matrix, xb, xv, yb, yv,
                                                                          mask.bits.data(), mask.masked, mask.complement,
                                                                          mask.replace, opts.early_exit);
    });
  }
};

}  // namespace bitgraph::detail
