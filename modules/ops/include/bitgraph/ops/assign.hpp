// Assignment of a scalar to a dense vector or bitmap under a mask (w<m> = s) or at a list of indices
// (w(I) = s), and apply: w<m> = accum(w, f(u)) for a unary operator f.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/ewise.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

// ------------------------------------------------------------------------------- unary operators
//
// A unary operator for `apply` is a struct with `apply(x)`, or `apply(i, x)` when it needs the position.

/// x.
struct identity_op {
  static constexpr std::string_view name = "identity";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T x) {
    return x;
  }
};

/// |x| (x itself for unsigned types).
struct abs_op {
  static constexpr std::string_view name = "abs";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T x) {
    if constexpr (std::is_signed_v<T>) {
      return x < T(0) ? static_cast<T>(-x) : x;
    } else {
      return x;
    }
  }
};

/// -x, the additive inverse (wraps around for unsigned types).
struct ainv_op {
  static constexpr std::string_view name = "ainv";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T x) {
    return static_cast<T>(-x);
  }
};

/// x * s: TIMES with its second operand bound to the scalar s (scaling a vector).
template <class T>
struct times_scalar {
  T s{};
  KOKKOS_INLINE_FUNCTION constexpr T apply(T x) const { return static_cast<T>(x * s); }
};

/// op(x, s) for any binary operator of the element-wise ops (monoid, `apply(a, b)` or a semiring
/// multiply operator, which sees the position as i and j).
template <class Op, class T>
struct bind_second {
  Op op{};
  T s{};
  KOKKOS_INLINE_FUNCTION T apply(vertex_t i, T x) const { return detail::elementwise::apply_binary(op, x, s, i); }
};

/// Makes `bind_second<Op, T>{op, s}`.
template <class Op, class T>
bind_second<Op, T> bind_second_of(const Op& op, T s) {
  return bind_second<Op, T>{op, s};
}

namespace detail {

namespace elementwise {

template <class F, class T, class = void>
struct has_unary_apply : std::false_type {};
template <class F, class T>
struct has_unary_apply<F, T, std::void_t<decltype(std::declval<const F&>().apply(std::declval<T>()))>> : std::true_type {};

template <class F, class T, class = void>
struct has_positional_apply : std::false_type {};
template <class F, class T>
struct has_positional_apply<F, T, std::void_t<decltype(std::declval<const F&>().apply(std::declval<vertex_t>(), std::declval<T>()))>>
    : std::true_type {};

/// f(x) at position i in whichever form `F` provides.
template <class F, class T>
KOKKOS_FORCEINLINE_FUNCTION T apply_unary(const F& f, vertex_t i, T x) {
  if constexpr (has_unary_apply<F, T>::value) return static_cast<T>(f.apply(x));
  else return static_cast<T>(f.apply(i, x));
}

}  // namespace elementwise

/// Dense w<mask> = accum(w, s); portable.
template <class ExecSpace, class Accum, class T, BITGRAPH_TU_LOCAL_PARAM>
struct assign_dense_impl {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask, T s, T absent) {
    const auto mbits = mask.bits;
    const bool masked = mask.masked, complement = mask.complement, replace = mask.replace;
    auto out = w;
    Kokkos::parallel_for(
        "bitgraph::assign::dense", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, w.extent(0)),
        KOKKOS_LAMBDA(const offset_t i) {
          const bool allowed = mask_allows(mbits, masked, complement, i);
          out(i) = elementwise::merge_dense<Accum>(out(i), s, allowed, replace, absent);
        });
  }
};

/// Bitmap w<mask> = accum(w, s), one thread per word; portable.
template <class ExecSpace, class Accum, BITGRAPH_TU_LOCAL_PARAM>
struct assign_bits_impl {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const bitmap<mem>& w, const mask_args<mem>& mask, bool s) {
    const auto mbits = mask.bits;
    const bool masked = mask.masked, complement = mask.complement, replace = mask.replace;
    auto out = w.words;
    const std::uint64_t n = w.n;
    const std::uint32_t t = s ? ~std::uint32_t(0) : 0u;
    Kokkos::parallel_for(
        "bitgraph::assign::bits", Kokkos::RangePolicy<ExecSpace>(exec, 0, out.extent(0)), KOKKOS_LAMBDA(const std::size_t wi) {
          const std::uint32_t valid = elementwise::valid_bits(wi, n);
          const std::uint32_t allowed = elementwise::allowed_word(mbits, masked, complement, wi) & valid;
          out(wi) = merge_output_bits<Accum>(out(wi), t & valid, allowed, replace) & valid;
        });
  }
};

/// w(I) = s for a dense vector or bitmap after the indices were checked; portable.
template <class ExecSpace, class T, BITGRAPH_TU_LOCAL_PARAM>
struct assign_indices_impl {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const Kokkos::View<const vertex_t*, mem>& idx,
                  T s) {
    auto out = w;
    auto ix = idx;
    Kokkos::parallel_for(
        "bitgraph::assign::indices", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, idx.extent(0)),
        KOKKOS_LAMBDA(const offset_t p) { out(ix(p)) = s; });
  }
  static void run_bits(const ExecSpace& exec, const bitmap<mem>& w, const Kokkos::View<const vertex_t*, mem>& idx,
                       bool s) {
    auto out = w.words;
    auto ix = idx;
    // Several indices may share a word (or repeat): atomic OR / AND keep every update.
    Kokkos::parallel_for(
        "bitgraph::assign::indices_bits", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, idx.extent(0)),
        KOKKOS_LAMBDA(const offset_t p) {
          const vertex_t i = ix(p);
          const std::uint32_t bit = std::uint32_t(1) << (i & 31);
          if (s) Kokkos::atomic_fetch_or(&out(i >> 5), bit);
          else Kokkos::atomic_fetch_and(&out(i >> 5), ~bit);
        });
  }
};

/// Dense w<mask> = accum(w, f(u)); f is applied to present entries only; portable.
template <class ExecSpace, class Accum, class F, class T, BITGRAPH_TU_LOCAL_PARAM>
struct apply_dense_impl {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask, const F& f,
                  const Kokkos::View<const T*, mem>& u, T absent) {
    const auto mbits = mask.bits;
    const bool masked = mask.masked, complement = mask.complement, replace = mask.replace;
    auto out = w;
    auto in = u;
    const F op = f;
    Kokkos::parallel_for(
        "bitgraph::apply::dense", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, w.extent(0)),
        KOKKOS_LAMBDA(const offset_t i) {
          const bool allowed = mask_allows(mbits, masked, complement, i);
          T t = absent;
          if (allowed) {
            const T x = in(i);
            if (x != absent) t = elementwise::apply_unary(op, static_cast<vertex_t>(i), x);
          }
          out(i) = elementwise::merge_dense<Accum>(out(i), t, allowed, replace, absent);
        });
  }
};

/// Number of indices >= n (the caller throws when there are any, before anything is written).
template <class ExecSpace>
BITGRAPH_TU_LOCAL offset_t count_out_of_range(const ExecSpace& exec, const Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>>& idx,
                            std::uint64_t n) {
  auto ix = idx;
  offset_t bad = 0;
  Kokkos::parallel_reduce(
      "bitgraph::assign::check_indices", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, idx.extent(0)),
      KOKKOS_LAMBDA(const offset_t p, offset_t& acc) { acc += ix(p) >= n ? 1 : 0; }, bad);
  return bad;
}

}  // namespace detail

/// Dense w<mask> = accum(w, s): every position the mask allows receives s (combined with the old entry
/// under an accumulator); excluded positions keep their value, or become `absent` under `replace`.
/// `absent` (default: the accumulator's identity, else T{}) marks missing entries, as for `ewise_add`.
/// O(n). Throws `invalid_argument_error` when the mask length differs from w's.
template <class ExecSpace, class W, class Mask, class Accum>
  requires detail::is_dense<W>::value && detail::elementwise::is_mask_v<Mask>
void assign(const ExecSpace& exec, W& w, const Mask& mask, const Accum&, typename W::non_const_value_type s,
            typename W::non_const_value_type absent =
                detail::elementwise::default_absent<typename W::non_const_value_type, void, Accum>()) {
  using T = typename W::non_const_value_type;
  using mem = memory_space_t<ExecSpace>;
  detail::elementwise::check_accumulator<Accum>("assign");
  detail::elementwise::check_mask_length("assign", mask, w.extent(0));
  detail::assign_dense_impl<ExecSpace, Accum, T>::run(exec, Kokkos::View<T*, mem>(w), detail::to_mask_args<mem>(mask), s,
                                                      absent);
}

/// Bitmap w<mask> = accum(w, s) with s a Boolean: sets (or clears) every allowed bit; the only
/// accumulator is LOR (so with it, s = false changes nothing). One thread per word.
template <class ExecSpace, class Mask, class Accum>
  requires detail::elementwise::is_mask_v<Mask>
void assign(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask, const Accum&, bool s) {
  using mem = memory_space_t<ExecSpace>;
  detail::elementwise::check_bitmap_accumulator<Accum>("assign");
  detail::elementwise::check_bitmap("assign", "output", w);
  detail::elementwise::check_mask_length("assign", mask, w.n);
  detail::assign_bits_impl<ExecSpace, Accum>::run(exec, w, detail::to_mask_args<mem>(mask), s);
}

/// Dense w(I) = s: writes s at every listed index (repeats are harmless). All indices are checked
/// (< n) before anything is written; throws `invalid_argument_error` naming how many are out of range.
template <class ExecSpace, class W>
  requires detail::is_dense<W>::value
void assign(const ExecSpace& exec, W& w, const Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>>& indices,
            typename W::non_const_value_type s) {
  using T = typename W::non_const_value_type;
  using mem = memory_space_t<ExecSpace>;
  const offset_t bad = detail::count_out_of_range(exec, indices, w.extent(0));
  BITGRAPH_CHECK_ARG(bad == 0, "assign", bad, " of ", indices.extent(0), " indices are >= n = ", w.extent(0));
  detail::assign_indices_impl<ExecSpace, T>::run(exec, Kokkos::View<T*, mem>(w), indices, s);
}

/// Bitmap w(I) = s: sets (s true) or clears (s false) the listed bits with atomics. Indices are
/// checked as for the dense form.
template <class ExecSpace>
void assign(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w,
            const Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>>& indices, bool s) {
  detail::elementwise::check_bitmap("assign", "output", w);
  const offset_t bad = detail::count_out_of_range(exec, indices, w.n);
  BITGRAPH_CHECK_ARG(bad == 0, "assign", bad, " of ", indices.extent(0), " indices are >= n = ", w.n);
  detail::assign_indices_impl<ExecSpace, std::uint32_t>::run_bits(exec, w, indices, s);
}

/// Dense w<mask> = accum(w, f(u)): f (`apply(x)` or `apply(i, x)`) maps every present entry of u (one
/// that differs from `absent`); absent entries stay absent; then the merge of `ewise_add`. `absent`
/// defaults to the accumulator's identity, else T{}. Throws `invalid_argument_error` on length
/// mismatches.
template <class ExecSpace, class W, class Mask, class Accum, class F, class U>
  requires detail::is_dense<W>::value
void apply(const ExecSpace& exec, W& w, const Mask& mask, const Accum&, const F& f, const U& u,
           typename W::non_const_value_type absent =
               detail::elementwise::default_absent<typename W::non_const_value_type, void, Accum>()) {
  using T = typename W::non_const_value_type;
  using mem = memory_space_t<ExecSpace>;
  static_assert(detail::is_dense<U>::value, "the input must be a dense vector (1-D view)");
  static_assert(std::is_same_v<typename U::non_const_value_type, T>, "the input's value type must be the output's");
  static_assert(detail::elementwise::has_unary_apply<F, T>::value || detail::elementwise::has_positional_apply<F, T>::value,
                "f needs apply(x) or apply(i, x)");
  detail::elementwise::check_accumulator<Accum>("apply");
  BITGRAPH_CHECK_ARG(u.extent(0) == w.extent(0), "apply", "input has ", u.extent(0), " entries but the output has ",
                     w.extent(0));
  detail::elementwise::check_mask_length("apply", mask, w.extent(0));
  detail::apply_dense_impl<ExecSpace, Accum, F, T>::run(exec, Kokkos::View<T*, mem>(w), detail::to_mask_args<mem>(mask), f,
                                                        Kokkos::View<const T*, mem>(u), absent);
}

}  // namespace bitgraph
