// Portable bit intrinsics (population count, trailing zeros) usable in host and device code.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace bitgraph {

/// Number of set bits of a 32-bit word (`__popc` on device, a builtin on host).
KOKKOS_FORCEINLINE_FUNCTION int popcount(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  return __builtin_popcount(x);
#endif
}

/// Number of set bits of a 64-bit word.
KOKKOS_FORCEINLINE_FUNCTION int popcount(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return __builtin_popcountll(x);
#endif
}

/// Index of the lowest set bit of a non-zero 32-bit word.
KOKKOS_FORCEINLINE_FUNCTION int count_trailing_zeros(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs(static_cast<int>(x)) - 1;
#else
  return __builtin_ctz(x);
#endif
}

/// Index of the lowest set bit of a non-zero 64-bit word.
KOKKOS_FORCEINLINE_FUNCTION int count_trailing_zeros(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}

/// Ceiling of a / b for unsigned integers.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION constexpr T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

}  // namespace bitgraph
