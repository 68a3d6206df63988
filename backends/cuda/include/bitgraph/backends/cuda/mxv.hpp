// CUDA leaf of mxv / vxm: the warp BMV kernels (bmv_warp.hpp) for pulls on row-major tiles, by rows (a
// lane per row, 32 rows per warp) or by tiles (equal runs of tiles per warp, atomics into the result) as the
// plan says; the warp CSR kernels (spmv_warp.hpp) for CSR pulls, by rows or by entries. Every other path
// (pushes, column-major tiles, `generic`) goes back to the generic core.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "bitgraph/backends/cuda/bmv_warp.hpp"
#include "bitgraph/backends/cuda/spmv_warp.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/ops/detail/mxv_generic.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph::detail {

/// A vector operand's words when it is a bitmap (else null), and its values when it is dense (else null), as
/// the kernels take them (const for an input).
template <class V>
auto raw_words(V& v) {
  using word = std::conditional_t<std::is_const_v<V>, const std::uint32_t, std::uint32_t>;
  if constexpr (is_bitmap<std::remove_const_t<V>>::value)
    return static_cast<word*>(v.words.data());
  else
    return static_cast<word*>(nullptr);
}
template <class S, class V>
auto raw_values(V& v) {
  using value = std::conditional_t<std::is_const_v<V>, const typename S::value_type, typename S::value_type>;
  if constexpr (is_bitmap<std::remove_const_t<V>>::value)
    return static_cast<value*>(nullptr);
  else
    return static_cast<value*>(v.data());
}

/// Both vector operands as the kernels take them: x's words and values (const), y's words and values.
template <class S, class X, class Y>
struct raw_operands {
  decltype(raw_words(std::declval<const X&>())) xb;
  decltype(raw_values<S>(std::declval<const X&>())) xv;
  decltype(raw_words(std::declval<Y&>())) yb;
  decltype(raw_values<S>(std::declval<Y&>())) yv;
};
template <class S, class X, class Y>
raw_operands<S, X, Y> make_raw_operands(const X& x, Y& y) {
  return {raw_words(x), raw_values<S>(x), raw_words(y), raw_values<S>(y)};
}

template <class S, class Y, class X, class Accum>
struct b2sr_mxv_impl<Kokkos::Cuda, S, Y, X, Accum> {
  using mem = Kokkos::CudaSpace;
  using generic = b2sr_mxv_generic<Kokkos::Cuda, S, Y, X, Accum>;

  static path_offer offer(const mxv_plan<mem>& plan) {
    path_offer o = generic::offer(plan);
    if (plan.push)
      return o.refuse(op_algorithm::cuda_warp, "the cuda-warp kernels are pull kernels; push uses 'generic'");
    if (plan.matrix->order != bit_order::row_major)
      return o.refuse(op_algorithm::cuda_warp,
                      "the cuda-warp kernels read row-major tiles; this matrix is column-major");
    return o.offer(op_algorithm::cuda_warp);
  }

  static void run(op_algorithm path, const Kokkos::Cuda& exec, Y& y, const mask_args<mem>& mask,
                  const mxv_plan<mem>& plan, const X& x, const mxv_options& opts) {
    if (path != op_algorithm::cuda_warp) return run_generic<generic>(exec, y, mask, plan, x, opts);
    constexpr bool XBits = is_bitmap<X>::value;
    constexpr bool YBits = is_bitmap<Y>::value;
    const auto v = make_raw_operands<S>(x, y);
    dispatch_tile_dim(plan.matrix->tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      if (plan.by_tiles) {
        pull_into_targets<Kokkos::Cuda, S, Accum>(exec, y, mask, plan.matrix->n, [&](auto tbits, auto tval) {
          cuda::launch_bmv_tiles<T, S, XBits, YBits>(exec, *plan.matrix, v.xb, v.xv, tbits.data(), tval.data(),
                                                     mask.bits.data(), mask.masked, mask.complement, opts.early_exit);
        });
      } else {
        cuda::launch_bmv_warp<T, S, XBits, YBits, Accum>(exec, *plan.matrix, v.xb, v.xv, v.yb, v.yv, mask.bits.data(),
                                                         mask.masked, mask.complement, mask.replace, opts.early_exit);
      }
    });
  }
};

template <class S, class Y, class X, class Accum>
struct csr_mxv_impl<Kokkos::Cuda, S, Y, X, Accum> {
  using mem = Kokkos::CudaSpace;
  using generic = csr_mxv_generic<Kokkos::Cuda, S, Y, X, Accum>;

  static path_offer offer() { return generic::offer().offer(op_algorithm::cuda_warp); }

  static int group_lanes(op_algorithm path, const csr_rows<mem>& a) {
    return path == op_algorithm::cuda_warp ? cuda::spmv_group_lanes(a.nnz, a.local_rows)
                                           : generic::group_lanes(path, a);
  }

  static void run(op_algorithm path, const Kokkos::Cuda& exec, Y& y, const mask_args<mem>& mask, const csr_rows<mem>& a,
                  const X& x, const mxv_options& opts, bool by_entries) {
    if (path != op_algorithm::cuda_warp) return run_generic<generic>(exec, y, mask, a, x, opts, by_entries);
    constexpr bool XBits = is_bitmap<X>::value;
    constexpr bool YBits = is_bitmap<Y>::value;
    const auto v = make_raw_operands<S>(x, y);
    const auto in = cuda::make_spmv_operands(a);
    if (by_entries) {
      csr_pull_into_targets<Kokkos::Cuda, S, Accum>(exec, y, mask, a, [&](auto tbits, auto tval) {
        cuda::launch_spmv_entries<S, XBits, YBits>(exec, in, v.xb, v.xv, tbits.data(), tval.data(), mask.bits.data(),
                                                   mask.masked, mask.complement);
      });
      return;
    }
    cuda::launch_spmv_rows<S, XBits, YBits, Accum>(exec, in, v.xb, v.xv, v.yb, v.yv, mask.bits.data(), mask.masked,
                                                   mask.complement, mask.replace,
                                                   opts.early_exit && allows_early_exit_v<S>);
  }
};

}  // namespace bitgraph::detail
