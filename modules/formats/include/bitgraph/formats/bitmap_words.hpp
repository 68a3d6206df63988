// Word-level access to a bitmap's words (any rank-1 view of 32-bit words): test a bit, set one atomically,
// read the T-bit segment a B2SR tile column multiplies. Shared by the bitmap type and every bit kernel.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/formats/b2sr_matrix.hpp"

namespace bitgraph {

/// Reads bit `i` of a bitmap's word array.
template <class Words>
KOKKOS_FORCEINLINE_FUNCTION bool bitmap_test(const Words& words, std::uint64_t i) {
  return (words(i >> 5) >> (i & 31)) & 1u;
}

/// Sets bit `i` atomically (safe when several threads write the same word).
template <class Words>
KOKKOS_FORCEINLINE_FUNCTION void bitmap_set_atomic(const Words& words, std::uint64_t i) {
  Kokkos::atomic_fetch_or(&words(i >> 5), std::uint32_t(1) << (i & 31));
}

/// Segment `j` of width T (bits [j*T, j*T + T)) of a bitmap's word array as a tile word.
template <int T, class Words>
KOKKOS_FORCEINLINE_FUNCTION tile_word_t<T> bitmap_segment(const Words& words, std::uint64_t j) {
  if constexpr (T == 64) {
    return static_cast<std::uint64_t>(words(2 * j)) | (static_cast<std::uint64_t>(words(2 * j + 1)) << 32);
  } else if constexpr (T == 32) {
    return words(j);
  } else {
    constexpr int per_word = 32 / T;
    return static_cast<tile_word_t<T>>((words(j / per_word) >> (T * (j % per_word))) & ((1u << T) - 1u));
  }
}

}  // namespace bitgraph
