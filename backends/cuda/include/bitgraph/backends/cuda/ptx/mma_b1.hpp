// PTX atom: the binary tensor-core MMA mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc, one struct
// per instruction with its capability guard (the .and.popc form needs sm_80; sm_75 had only .xor.popc).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800)
#define BITGRAPH_CUDA_SM80_ENABLED 1
#endif

namespace bitgraph::cuda {

/// One warp-wide 8x8x128 binary MMA: D = popc(A AND B) + C, where A is 8x128 bits (row-major), B is
/// 128x8 bits (column-major), C and D are 8x8 int32.
///
/// Fragment layout (PTX ISA, "Matrix Fragments for mma.m8n8k128"): lane `t` holds
///   - `a`: bits k = 32*(t % 4) .. 32*(t % 4) + 31 of row t / 4 of A (bit i of the word = k offset i);
///   - `b`: the same k range of column t / 4 of B;
///   - `c[j]`, `d[j]`: element (row t / 4, column 2*(t % 4) + j), j = 0, 1.
/// All 32 lanes of the warp must call it together (it is `.sync.aligned`). Device code compiled for
/// sm_80+ only; anywhere else (host code, older architectures) it aborts, so portable paths use the
/// popcount emulation instead.
struct sm80_mma_m8n8k128_b1_and_popc {
  KOKKOS_FORCEINLINE_FUNCTION static void fma(std::int32_t d[2], std::uint32_t a, std::uint32_t b,
                                              const std::int32_t c[2]) {
#if defined(BITGRAPH_CUDA_SM80_ENABLED)
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
    Kokkos::abort("bitgraph::cuda::sm80_mma_m8n8k128_b1_and_popc needs device code compiled for sm_80 or newer");
#endif
  }

  /// Row of the A / C fragment that lane `lane` holds.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int fragment_row(int lane) { return lane >> 2; }
  /// First output column of the C / D fragment that lane `lane` holds (it also holds the next one).
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int fragment_col(int lane) { return (lane & 3) << 1; }
  /// Which 32-bit slice of the 128-bit k dimension lane `lane` supplies in A and B.
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int fragment_kword(int lane) { return lane & 3; }
};

}  // namespace bitgraph::cuda
