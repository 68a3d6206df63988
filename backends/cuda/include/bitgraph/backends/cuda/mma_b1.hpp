// Wrapper for the binary tensor-core instruction mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc
// and the fragment layout it expects.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace bitgraph::cuda {

/// One warp-wide 8x8x128 binary MMA: D = popc(A AND B) + C, where A is 8x128 bits (row-major), B is
/// 128x8 bits (column-major), C and D are 8x8 int32.
///
/// Fragment layout (PTX ISA, "Matrix Fragments for mma.m8n8k128"): lane `t` holds
///   - `a`: bits k = 32*(t % 4) .. 32*(t % 4) + 31 of row t / 4 of A (bit i of the word = k offset i);
///   - `b`: the same k range of column t / 4 of B;
///   - `c[j]`, `d[j]`: element (row t / 4, column 2*(t % 4) + j), j = 0, 1.
/// All 32 lanes of the warp must call it together (it is `.sync.aligned`). Callable only on sm_75+
/// devices; host code that reaches it aborts, so host paths use the popcount emulation instead.
KOKKOS_FORCEINLINE_FUNCTION void mma_m8n8k128_and_popc(std::int32_t d[2], std::uint32_t a, std::uint32_t b,
                                                       const std::int32_t c[2]) {
#if defined(__CUDA_ARCH__)
  asm volatile(
      "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc "
      "{%0, %1}, {%2}, {%3}, {%4, %5};\n"
      : "=r"(d[0]), "=r"(d[1])
      : "r"(a), "r"(b), "r"(c[0]), "r"(c[1]));
#else
  (void)d;
  (void)a;
  (void)b;
  (void)c;
  Kokkos::abort("bitgraph::cuda::mma_m8n8k128_and_popc called from host code");
#endif
}

/// Row of the A / C fragment that lane `lane` holds.
KOKKOS_FORCEINLINE_FUNCTION constexpr int mma_fragment_row(int lane) { return lane >> 2; }
/// First output column of the C / D fragment that lane `lane` holds (it also holds the next one).
KOKKOS_FORCEINLINE_FUNCTION constexpr int mma_fragment_col(int lane) { return (lane & 3) << 1; }
/// Which 32-bit slice of the 128-bit k dimension lane `lane` supplies in A and B.
KOKKOS_FORCEINLINE_FUNCTION constexpr int mma_fragment_kword(int lane) { return lane & 3; }

}  // namespace bitgraph::cuda
