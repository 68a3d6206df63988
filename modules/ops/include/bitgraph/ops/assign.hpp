// Assignment of a scalar to a vector under a mask (or at listed indices), and apply: a unary operator
// (ops/operators.hpp) over a vector's present entries, both under the GraphBLAS rules.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "bitgraph/backends/assign.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

// All forms are asynchronous on `exec` except the indexed ones, which read their index check back first.

/// Dense w<mask> = accum(w, s): every position the mask allows receives s (combined with the old entry
/// under an accumulator); excluded positions keep their value, or become `absent` under `replace`.
/// `absent` (default: the accumulator's identity, else T{}) marks missing entries, as for `ewise_add`.
/// O(n). Throws `invalid_argument_error` when the mask length differs from w's.
template <class ExecSpace, class W, class Mask, class Accum>
requires detail::is_dense<W>::value && detail::is_mask_v<Mask>
void assign(
    const ExecSpace& exec, W& w, const Mask& mask, const Accum&, typename W::non_const_value_type s,
    typename W::non_const_value_type absent = detail::default_absent<typename W::non_const_value_type, void, Accum>());

/// Bitmap w<mask> = accum(w, s) with s a Boolean: sets (or clears) every allowed bit; the only
/// accumulator is LOR (so with it, s = false changes nothing). One thread per word, O(n / 32).
template <class ExecSpace, class Mask, class Accum>
requires detail::is_mask_v<Mask>
void assign(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask, const Accum&, bool s);

/// Dense w(I) = s: writes s at every listed index (repeats are harmless). All indices are checked (< n)
/// before anything is written; throws `invalid_argument_error` naming how many are out of range. O(|I|).
template <class ExecSpace, class W>
requires detail::is_dense<W>::value void assign(const ExecSpace& exec, W& w,
                                                const Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>>& indices,
                                                typename W::non_const_value_type s);

/// Bitmap w(I) = s: sets (s true) or clears (s false) the listed bits with atomics. Indices are checked
/// as for the dense form.
template <class ExecSpace>
void assign(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w,
            const Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>>& indices, bool s);

/// Dense w<mask> = accum(w, f(u)): f (`apply(x)` or `apply(i, x)`) maps every present entry of u (one
/// that differs from `absent`); absent entries stay absent; then the merge of `ewise_add`. `absent`
/// defaults to the accumulator's identity, else T{}. O(n). Throws `invalid_argument_error` on length
/// mismatches.
template <class ExecSpace, class W, class Mask, class Accum, class F, class U>
requires detail::is_dense<W>::value void apply(
    const ExecSpace& exec, W& w, const Mask& mask, const Accum&, const F& f, const U& u,
    typename W::non_const_value_type absent = detail::default_absent<typename W::non_const_value_type, void, Accum>());

namespace detail {

/// The indexed forms check every index before writing any.
template <class ExecSpace>
void check_indices(const ExecSpace& exec, const Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>>& indices,
                   std::uint64_t n) {
  const offset_t bad = assign_indices_impl<ExecSpace, std::uint32_t>::count_out_of_range(exec, indices, n);
  BITGRAPH_CHECK_ARG(bad == 0, "assign", bad, " of ", indices.extent(0), " indices are >= n = ", n);
}

}  // namespace detail

template <class ExecSpace, class W, class Mask, class Accum>
requires detail::is_dense<W>::value && detail::is_mask_v<Mask>
void assign(const ExecSpace& exec, W& w, const Mask& mask, const Accum&, typename W::non_const_value_type s,
            typename W::non_const_value_type absent) {
  using T = typename W::non_const_value_type;
  using mem = memory_space_t<ExecSpace>;
  detail::check_accumulator<Accum>("assign");
  detail::check_mask_length("assign", mask, w.extent(0));
  detail::profiling_region region("bitgraph::assign");
  detail::assign_dense_impl<ExecSpace, Accum, T>::run(exec, Kokkos::View<T*, mem>(w), detail::to_mask_args<mem>(mask),
                                                      s, absent);
}

template <class ExecSpace, class Mask, class Accum>
requires detail::is_mask_v<Mask>
void assign(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask, const Accum&, bool s) {
  using mem = memory_space_t<ExecSpace>;
  detail::check_bitmap_accumulator<Accum>("assign");
  detail::check_bitmap("assign", "output", w);
  detail::check_mask_length("assign", mask, w.n);
  detail::profiling_region region("bitgraph::assign");
  detail::assign_bits_impl<ExecSpace, Accum>::run(exec, w, detail::to_mask_args<mem>(mask), s);
}

template <class ExecSpace, class W>
requires detail::is_dense<W>::value void assign(const ExecSpace& exec, W& w,
                                                const Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>>& indices,
                                                typename W::non_const_value_type s) {
  using T = typename W::non_const_value_type;
  using mem = memory_space_t<ExecSpace>;
  detail::check_indices(exec, indices, w.extent(0));
  detail::profiling_region region("bitgraph::assign");
  detail::assign_indices_impl<ExecSpace, T>::run(exec, Kokkos::View<T*, mem>(w), indices, s);
}

template <class ExecSpace>
void assign(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w,
            const Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>>& indices, bool s) {
  detail::check_bitmap("assign", "output", w);
  detail::check_indices(exec, indices, w.n);
  detail::profiling_region region("bitgraph::assign");
  detail::assign_indices_impl<ExecSpace, std::uint32_t>::run_bits(exec, w, indices, s);
}

template <class ExecSpace, class W, class Mask, class Accum, class F, class U>
requires detail::is_dense<W>::value void apply(const ExecSpace& exec, W& w, const Mask& mask, const Accum&, const F& f,
                                               const U& u, typename W::non_const_value_type absent) {
  using T = typename W::non_const_value_type;
  using mem = memory_space_t<ExecSpace>;
  static_assert(detail::is_dense<U>::value, "the input must be a dense vector (1-D view)");
  static_assert(std::is_same_v<typename U::non_const_value_type, T>, "the input's value type must be the output's");
  static_assert(
      detail::elementwise::has_unary_apply<F, T>::value || detail::elementwise::has_positional_apply<F, T>::value,
      "f needs apply(x) or apply(i, x)");
  detail::check_accumulator<Accum>("apply");
  BITGRAPH_CHECK_ARG(u.extent(0) == w.extent(0), "apply", "input has ", u.extent(0), " entries but the output has ",
                     w.extent(0));
  detail::check_mask_length("apply", mask, w.extent(0));
  detail::profiling_region region("bitgraph::apply");
  detail::apply_dense_impl<ExecSpace, Accum, F, T>::run(exec, Kokkos::View<T*, mem>(w), detail::to_mask_args<mem>(mask),
                                                        f, Kokkos::View<const T*, mem>(u), absent);
}

}  // namespace bitgraph
