// The B2SR matrix type (bit-block compressed sparse row, Bit-GraphBLAS §III) and the tile helpers every
// kernel on it shares: block CSR whose non-empty T x T tiles are dense bit matrices, T in {4, 8, 16, 32,
// 64}. Built and converted by formats/b2sr.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph {

/// How the T x T bits of a tile are packed into T words of T bits (Bit-GraphBLAS Fig. 2).
enum class bit_order : std::uint8_t {
  row_major,  ///< word r holds row r of the tile; bit c of it is A(r, c). Pull (A·x) reads rows.
  col_major,  ///< word c holds column c of the tile; bit r of it is A(r, c). Push (x·A) reads columns.
};

/// "row" or "col".
inline std::string_view to_string(bit_order o) { return o == bit_order::row_major ? "row" : "col"; }

/// True for the supported tile dimensions 4, 8, 16, 32 and 64.
constexpr bool valid_tile_dim(int t) { return t == 4 || t == 8 || t == 16 || t == 32 || t == 64; }

/// Bytes of one tile word for tile dimension `t` (Table I: 4 and 8 use a byte, 16 a short, 32 an int,
/// 64 a 64-bit word).
constexpr int tile_word_bytes(int t) { return t <= 8 ? 1 : t / 8; }

/// The unsigned word type that holds one row (or column) of a T x T tile.
template <int T>
using tile_word_t = std::conditional_t<
    (T <= 8), std::uint8_t,
    std::conditional_t<(T == 16), std::uint16_t, std::conditional_t<(T == 32), std::uint32_t, std::uint64_t>>>;

/// A square bit matrix in B2SR form. Tile row `i` covers rows [i*T, (i+1)*T); its non-empty tiles are
/// `tile_col_idx[tile_row_ptr[i] .. tile_row_ptr[i+1])` (ascending tile columns), and tile `k`'s T words
/// are at `tile_words<W>()[k*T .. k*T + T)` packed as `order` says. Bits beyond n (the last, partial
/// tile row or column) are always zero.
template <class MemorySpace>
struct b2sr_matrix {
  using memory_space = MemorySpace;
  vertex_t n = 0;    ///< rows = columns
  offset_t nnz = 0;  ///< number of set bits (entries of the pattern)
  int tile_dim = 8;  ///< T
  bit_order order = bit_order::row_major;
  vertex_t n_tile_rows = 0;                            ///< ceil(n / T), also the number of tile columns
  offset_t n_tiles = 0;                                ///< number of non-empty tiles
  graph_kind kind = graph_kind::directed;              ///< carried over from the CSR it was built from
  Kokkos::View<offset_t*, MemorySpace> tile_row_ptr;   ///< n_tile_rows + 1
  Kokkos::View<vertex_t*, MemorySpace> tile_col_idx;   ///< n_tiles
  Kokkos::View<std::uint8_t*, MemorySpace> tile_bits;  ///< n_tiles * T words of tile_word_bytes(T) bytes
  /// Tiles in the longest tile row, recorded by the builders (0: not recorded; a product then measures
  /// it). Products balance their work by it: one long tile row would otherwise hold up a whole kernel.
  offset_t longest_tile_row = 0;

  /// The tile words as an array of `Word` (which must match `tile_word_t<T>` for this tile_dim).
  template <class Word>
  Kokkos::View<Word*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> tile_words() const {
    return Kokkos::View<Word*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
        reinterpret_cast<Word*>(tile_bits.data()), n_tiles * static_cast<offset_t>(tile_dim));
  }
};

/// Options for `to_b2sr`.
struct b2sr_options {
  int tile_dim = 8;                        ///< 4, 8, 16, 32 or 64 (see `choose_tile_dim` for automatic)
  bit_order order = bit_order::row_major;  ///< packing of each tile
};

namespace detail {

/// A matrix without arrays that has `a`'s n, tile dimension and bit order: the output the short forms of the
/// B2SR operations (mxm, ewise_add, ewise_mult) pass to their full forms, which size it.
template <class MemorySpace>
b2sr_matrix<MemorySpace> empty_like(const b2sr_matrix<MemorySpace>& a) {
  b2sr_matrix<MemorySpace> c;
  c.n = a.n;
  c.tile_dim = a.tile_dim;
  c.order = a.order;
  return c;
}

/// Calls `f(std::integral_constant<int, T>{})` for the runtime tile dimension `t`.
template <class F>
decltype(auto) dispatch_tile_dim(int t, F&& f) {
  switch (t) {
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 8:
      return f(std::integral_constant<int, 8>{});
    case 16:
      return f(std::integral_constant<int, 16>{});
    case 32:
      return f(std::integral_constant<int, 32>{});
    case 64:
      return f(std::integral_constant<int, 64>{});
    default:
      throw invalid_argument_error(concat("bitgraph: tile dimension ", t, " is not one of 4, 8, 16, 32, 64"));
  }
}

/// Walks the T rows of one tile row of a CSR in tile-column order: a T-way merge over the row
/// segments (each sorted by column). For every distinct tile column `tc` it calls
/// `visit(tc, row_in_tile, col_in_tile)` for each entry, grouped by tile column, and
/// `end_tile(tc)` after the last entry of that tile. One thread owns a tile row, so no atomics.
template <int T, class RowPtr, class ColIdx, class Visit, class EndTile>
KOKKOS_INLINE_FUNCTION void merge_tile_row(const RowPtr& row_ptr, const ColIdx& col_idx, vertex_t n, vertex_t tile_row,
                                           Visit&& visit, EndTile&& end_tile) {
  offset_t cur[T], end[T];
  const vertex_t r0 = tile_row * T;
  for (int r = 0; r < T; ++r) {
    const vertex_t row = r0 + r;
    cur[r] = row < n ? row_ptr(row) : 0;
    end[r] = row < n ? row_ptr(row + 1) : 0;
  }
  while (true) {
    vertex_t tc = invalid_vertex;
    for (int r = 0; r < T; ++r)
      if (cur[r] < end[r]) {
        const vertex_t c = col_idx(cur[r]) / T;
        tc = c < tc ? c : tc;
      }
    if (tc == invalid_vertex) return;
    for (int r = 0; r < T; ++r) {
      while (cur[r] < end[r]) {
        const vertex_t c = col_idx(cur[r]);
        if (c / T != tc) break;
        visit(tc, r, static_cast<int>(c % T));
        ++cur[r];
      }
    }
    end_tile(tc);
  }
}

/// Row `r` of tile `k` as a T-bit mask (bit c = A(r, c)) whatever the packing order.
template <int T, class Words>
KOKKOS_INLINE_FUNCTION std::uint64_t tile_row_bits(const Words& words, offset_t k, int r, bool row_major) {
  if (row_major) return static_cast<std::uint64_t>(words(k * T + r));
  std::uint64_t out = 0;
  for (int c = 0; c < T; ++c) out |= static_cast<std::uint64_t>((words(k * T + c) >> r) & 1u) << c;
  return out;
}

}  // namespace detail

}  // namespace bitgraph
