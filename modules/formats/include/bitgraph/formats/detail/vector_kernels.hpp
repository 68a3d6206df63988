// Kernels of the vector conversions (formats/vectors.hpp), as named functors.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/bitmap_words.hpp"

namespace bitgraph::detail {

template <class Mem>
struct popcount_words {
  Kokkos::View<const std::uint32_t*, Mem> w;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, offset_t& acc) const { acc += popcount(w(i)); }
};

/// Sets bit idx(i), counting the indices >= n instead.
template <class Mem>
struct set_indices {
  Kokkos::View<const vertex_t*, Mem> idx;
  Kokkos::View<std::uint32_t*, Mem> w;
  vertex_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, offset_t& nbad) const {
    const vertex_t v = idx(i);
    if (v >= n) {
      ++nbad;
      return;
    }
    bitmap_set_atomic(w, v);
  }
};

/// One thread per output word: no atomics, coalesced reads of the 32 inputs it owns.
template <class Mem, class T>
struct dense_to_bits {
  Kokkos::View<const T*, Mem> x;
  Kokkos::View<std::uint32_t*, Mem> w;
  std::uint64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t k) const {
    std::uint32_t word = 0;
    for (int i = 0; i < 32; ++i) {
      const std::uint64_t j = k * 32 + i;
      if (j < n && x(j) != T{}) word |= std::uint32_t(1) << i;
    }
    w(k) = word;
  }
};

template <class Mem, class T>
struct bits_to_dense {
  Kokkos::View<const std::uint32_t*, Mem> w;
  Kokkos::View<T*, Mem> x;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { x(i) = bitmap_test(w, i) ? T(1) : T(0); }
};

/// Exclusive scan of the words' popcounts (the output position of each word's first set bit).
template <class Mem>
struct scan_word_counts {
  Kokkos::View<const std::uint32_t*, Mem> w;
  Kokkos::View<offset_t*, Mem> offs;
  std::size_t nw;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t k, offset_t& acc, const bool final) const {
    const offset_t c = k < nw ? popcount(w(k)) : 0;
    if (final) offs(k) = acc;
    acc += c;
  }
};

template <class Mem>
struct bits_to_indices {
  Kokkos::View<const std::uint32_t*, Mem> w;
  Kokkos::View<const offset_t*, Mem> offs;
  Kokkos::View<vertex_t*, Mem> idx;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t k) const {
    std::uint32_t word = w(k);
    offset_t p = offs(k);
    while (word) {
      idx(p++) = static_cast<vertex_t>(k * 32 + count_trailing_zeros(word));
      word &= word - 1;
    }
  }
};

/// Exclusive scan of the entries that differ from `zero`.
template <class Mem, class T>
struct scan_present {
  Kokkos::View<const T*, Mem> x;
  Kokkos::View<offset_t*, Mem> offs;
  std::size_t n;
  T zero;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, offset_t& acc, const bool final) const {
    const offset_t c = (i < n && x(i) != zero) ? 1 : 0;
    if (final) offs(i) = acc;
    acc += c;
  }
};

template <class Mem, class T>
struct dense_to_sparse_fill {
  Kokkos::View<const T*, Mem> x;
  Kokkos::View<const offset_t*, Mem> offs;
  Kokkos::View<vertex_t*, Mem> idx;
  Kokkos::View<T*, Mem> val;
  T zero;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    if (x(i) != zero) {
      idx(offs(i)) = static_cast<vertex_t>(i);
      val(offs(i)) = x(i);
    }
  }
};

template <class Mem, class T>
struct sparse_to_dense_fill {
  Kokkos::View<const vertex_t*, Mem> idx;
  Kokkos::View<const T*, Mem> val;
  Kokkos::View<T*, Mem> x;
  bool has_values;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const { x(idx(p)) = has_values ? val(p) : T(1); }
};

}  // namespace bitgraph::detail
