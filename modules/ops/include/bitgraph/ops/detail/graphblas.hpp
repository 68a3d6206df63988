// The GraphBLAS output rules in one place, for every op and kernel (host and device): which positions a
// mask lets through (complement), what an excluded position becomes (kept, or cleared under replace), how a
// result merges with the old value (accumulator), and which bits of a bitmap word lie below n.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph::detail {

// ------------------------------------------------------------------------------------ word rules

/// The bits of 32-bit word `wi` of an n-bit bitmap that lie below n (bits at or beyond n stay zero).
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t valid_bits(std::uint64_t wi, std::uint64_t n) {
  const std::uint64_t first = wi * 32;
  if (first >= n) return 0u;
  if (n - first >= 32) return ~std::uint32_t(0);
  return (std::uint32_t(1) << (n - first)) - 1u;
}

/// The positions of a mask word that may be written: every one without a mask, the set bits of the
/// word, or with `complement` its clear bits.
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t allowed_bits(std::uint32_t mask_word, bool masked, bool complement) {
  if (!masked) return ~std::uint32_t(0);
  return complement ? ~mask_word : mask_word;
}

/// The new value of one output element. `t` is the op's result there and `absent` marks "no entry" (for
/// products the semiring's identity). Excluded positions keep `old`, or become absent under `replace`.
/// Without an accumulator the result replaces the old value (an absent result deletes it); with one, an
/// absent result keeps the old value, an absent old value takes the result as it is (GraphBLAS z = t
/// where w has no entry), and otherwise the accumulator's monoid combines them.
/// `t` ⊕ (a ⊗ x(j)) when x(j) is present, else `t`, without a branch: with a random input about half of the
/// entries are absent, a coin toss for a branch predictor (on the host the presence test was most of a
/// product's cycles). An absent input multiplies as one (no overflow on the identity) and is then dropped.
template <class S>
KOKKOS_FORCEINLINE_FUNCTION typename S::value_type add_if_present(typename S::value_type t, typename S::value_type a,
                                                                  typename S::value_type xj, bool present, vertex_t i,
                                                                  vertex_t j) {
  const typename S::value_type c = S::multiply(a, present ? xj : S::one(), i, j);
  return S::add(t, present ? c : S::identity());
}

template <class Accum, class T>
KOKKOS_FORCEINLINE_FUNCTION T merge_value(T old, T t, bool allowed, bool replace, T absent) {
  if (!allowed) return replace ? absent : old;
  if constexpr (std::is_same_v<Accum, no_accumulator>) {
    return t;
  } else {
    if (t == absent) return old;
    if (old == absent) return t;
    return static_cast<T>(Accum::monoid::combine(old, t));
  }
}

/// The same rule on a bitmap word (Boolean outputs, where a clear bit is the absent entry and the only
/// accumulator is LOR): `t` holds the result bits, `allowed` the mask's bits, `valid` the bits below n.
template <class Accum, class W>
KOKKOS_FORCEINLINE_FUNCTION W merge_bits(W old, W t, W allowed, W valid, bool replace) {
  W z;
  if constexpr (std::is_same_v<Accum, no_accumulator>) {
    z = t;
  } else {
    z = old | t;  // LOR, checked by the faces
  }
  return ((allowed & z) | (~allowed & (replace ? W(0) : old))) & valid;
}

/// The value that marks an absent entry of a dense vector when the caller gives none: the identity of
/// the operator's monoid (as products use their semiring's), else of the accumulator's monoid, else T{}.
template <class T, class Op, class Accum>
constexpr T default_absent() {
  if constexpr (elementwise::has_identity<Op>::value) {
    return static_cast<T>(Op::identity());
  } else if constexpr (!std::is_same_v<Accum, no_accumulator>) {
    return static_cast<T>(Accum::monoid::identity());
  } else {
    return T{};
  }
}

// ------------------------------------------------------------------------------------ masks

/// A mask reduced to what kernels need; `masked` false means "no mask" (every position allowed).
template <class MemorySpace>
struct mask_args {
  Kokkos::View<const std::uint32_t*, MemorySpace> bits;
  bool masked = false;
  bool complement = false;
  bool replace = false;

  /// True when position i may be written.
  KOKKOS_FORCEINLINE_FUNCTION bool allows(std::uint64_t i) const {
    return !masked || (bitmap_test(bits, i) != complement);
  }
  /// The positions of word `wi` that may be written (not clipped to n).
  KOKKOS_FORCEINLINE_FUNCTION std::uint32_t allowed_word(std::uint64_t wi) const {
    return allowed_bits(masked ? bits(wi) : 0u, masked, complement);
  }
};

template <class M>
inline constexpr bool is_mask_v = std::is_same_v<M, no_mask> || is_vector_mask_v<M>;

/// The kernel form of a face's mask argument.
template <class MemorySpace, class Mask>
mask_args<MemorySpace> to_mask_args(const Mask& mask) {
  static_assert(is_mask_v<Mask>, "the mask must be no_mask or a vector_mask");
  mask_args<MemorySpace> m;
  if constexpr (is_vector_mask_v<Mask>) {
    m.bits = mask.bits.words;
    m.masked = true;
    m.complement = mask.complement;
    m.replace = mask.replace;
  }
  return m;
}

// ------------------------------------------------------------------------------------ argument checks

template <class A>
struct is_accumulator : std::false_type {};
template <>
struct is_accumulator<no_accumulator> : std::true_type {};
template <class M>
struct is_accumulator<accumulate_with<M>> : std::true_type {};

/// Checks a mask's length (and its word array) against the output's.
template <class Mask>
void check_mask_length(const char* func, const Mask& mask, std::uint64_t n) {
  static_assert(is_mask_v<Mask>, "the mask must be no_mask or a vector_mask");
  if constexpr (is_vector_mask_v<Mask>) {
    BITGRAPH_CHECK_ARG(mask.bits.n == n, func, "mask has ", mask.bits.n, " bits but the output has ", n, " entries");
    BITGRAPH_CHECK_ARG(mask.bits.words.extent(0) == bitmap<Kokkos::HostSpace>::words_for(mask.bits.n), func,
                       "mask bitmap has ", mask.bits.words.extent(0), " words, expected ",
                       bitmap<Kokkos::HostSpace>::words_for(mask.bits.n));
  }
}

/// Checks that a bitmap's word array matches its length.
template <class Mem>
void check_bitmap(const char* func, const char* what, const bitmap<Mem>& b) {
  BITGRAPH_CHECK_ARG(b.words.extent(0) == bitmap<Kokkos::HostSpace>::words_for(b.n), func, what, " bitmap of ", b.n,
                     " bits has ", b.words.extent(0), " words, expected ", bitmap<Kokkos::HostSpace>::words_for(b.n));
}

/// Checks that a sparse vector's arrays hold its nnz entries.
template <class T, class Mem>
void check_sparse(const char* func, const char* what, const sparse_vector<T, Mem>& s) {
  BITGRAPH_CHECK_ARG(s.indices.extent(0) >= s.nnz, func, what, " has nnz = ", s.nnz, " but only ", s.indices.extent(0),
                     " indices");
  BITGRAPH_CHECK_ARG(s.values.extent(0) == 0 || s.values.extent(0) >= s.nnz, func, what, " has nnz = ", s.nnz,
                     " but only ", s.values.extent(0), " values");
  BITGRAPH_CHECK_ARG(s.nnz <= s.n, func, what, " has nnz = ", s.nnz, " > n = ", s.n);
}

template <class Accum>
void check_accumulator(const char*) {
  static_assert(is_accumulator<Accum>::value, "the accumulator must be no_accumulator or accumulate_with<Monoid>");
}

/// The only accumulator a bitmap output takes is LOR.
template <class Accum>
void check_bitmap_accumulator(const char* func) {
  check_accumulator<Accum>(func);
  if constexpr (!std::is_same_v<Accum, no_accumulator>) {
    if (!std::is_same_v<typename Accum::monoid, lor_monoid>)
      throw invalid_argument_error(concat("bitgraph::", func, ": the only accumulator on a bitmap output is LOR"));
  }
}

}  // namespace bitgraph::detail
