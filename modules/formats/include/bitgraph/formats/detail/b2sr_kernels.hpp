// Kernels of the B2SR builder and conversions (formats/b2sr.hpp), as named functors: tile counting and
// filling from CSR, B2SR back to CSR, the transpose, and the popcount of a word array.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/b2sr_matrix.hpp"
#include "bitgraph/formats/detail/csr_generic.hpp"

namespace bitgraph::detail {

template <class Mem, class Word>
using const_words_view = Kokkos::View<const Word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class Mem, class Word>
using words_view = Kokkos::View<Word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// Set bits of a word array (the nnz of a B2SR built or filtered tile by tile).
template <class Mem, class Word>
struct count_word_bits {
  const_words_view<Mem, Word> words;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i, offset_t& acc) const {
    acc += popcount(static_cast<std::uint64_t>(words(i)));
  }
};

/// Non-empty T x T tiles of tile row `tile_rows(i)` (or of tile row i itself without a list), summed.
template <class Mem, int T>
struct count_tiles_functor {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  Kokkos::View<const vertex_t*, Mem> tile_rows;  // empty: every tile row
  vertex_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, offset_t& acc) const {
    const vertex_t tr = tile_rows.extent(0) > 0 ? tile_rows(i) : static_cast<vertex_t>(i);
    merge_tile_row<T>(
        row_ptr, col_idx, n, tr, [](vertex_t, int, int) {}, [&](vertex_t) { ++acc; });
  }
};

/// Build pass 1: the non-empty tiles of every tile row.
template <class Mem, int T>
struct b2sr_count_tiles {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  Kokkos::View<offset_t*, Mem> ptr;
  vertex_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    offset_t count = 0;
    merge_tile_row<T>(
        row_ptr, col_idx, n, tr, [](vertex_t, int, int) {}, [&](vertex_t) { ++count; });
    ptr(tr) = count;
  }
};

/// Build pass 2: tile column indices and bits (the bits are zero on entry).
template <class Mem, int T>
struct b2sr_fill_tiles {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<vertex_t*, Mem> tcol;
  words_view<Mem, word> words;
  vertex_t n;
  bool row_major;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    offset_t k = ptr(tr);
    merge_tile_row<T>(
        row_ptr, col_idx, n, tr,
        [&](vertex_t, int r, int c) {
          if (row_major) {
            words(k * T + r) |= static_cast<word>(word(1) << c);
          } else {
            words(k * T + c) |= static_cast<word>(word(1) << r);
          }
        },
        [&](vertex_t tc) {
          tcol(k) = tc;
          ++k;
        });
  }
};

/// B2SR -> CSR pass 1: entries of row u (popcounts of its tile-row bits).
template <class Mem, int T>
struct b2sr_row_counts {
  Kokkos::View<const offset_t*, Mem> ptr;
  const_words_view<Mem, tile_word_t<T>> words;
  Kokkos::View<offset_t*, Mem> row_ptr;
  bool row_major;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    const vertex_t tr = u / T;
    const int r = static_cast<int>(u % T);
    offset_t c = 0;
    for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) c += popcount(tile_row_bits<T>(words, k, r, row_major));
    row_ptr(u) = c;
  }
};

/// B2SR -> CSR pass 2: the columns of row u, ascending.
template <class Mem, int T>
struct b2sr_row_fill {
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<const vertex_t*, Mem> tcol;
  const_words_view<Mem, tile_word_t<T>> words;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<vertex_t*, Mem> cols;
  bool row_major;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    const vertex_t tr = u / T;
    const int r = static_cast<int>(u % T);
    offset_t p = row_ptr(u);
    for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) {
      std::uint64_t bits = tile_row_bits<T>(words, k, r, row_major);
      while (bits) {
        const int c = count_trailing_zeros(bits);
        cols(p++) = tcol(k) * T + c;
        bits &= bits - 1;
      }
    }
  }
};

/// Transpose: the tile row of every tile.
template <class Mem>
struct tile_source_rows {
  Kokkos::View<const offset_t*, Mem> aptr;
  Kokkos::View<vertex_t*, Mem> src_row;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    for (offset_t k = aptr(tr); k < aptr(tr + 1); ++k) src_row(k) = tr;
  }
};

/// Transpose: tiles per new tile row (atomic; `ptr` is zero on entry).
template <class Mem>
struct tile_column_counts {
  Kokkos::View<const vertex_t*, Mem> acol;
  Kokkos::View<offset_t*, Mem> ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k) const { atomic_fetch_add_offset(&ptr(acol(k)), 1); }
};

/// Transpose: scatter tile ids; perm(k') = source tile of new tile k'.
template <class Mem>
struct tile_scatter {
  Kokkos::View<const vertex_t*, Mem> acol, src_row;
  Kokkos::View<offset_t*, Mem> cursor;
  Kokkos::View<vertex_t*, Mem> new_col;
  Kokkos::View<offset_t*, Mem> perm;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k) const {
    const offset_t p = atomic_fetch_add_offset(&cursor(acol(k)), 1);
    new_col(p) = src_row(k);
    perm(p) = k;
  }
};

/// Transpose: sort each new tile row so tile columns ascend (perm alike).
template <class Mem>
struct tile_row_sort {
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<vertex_t*, Mem> new_col;
  Kokkos::View<offset_t*, Mem> perm;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t tr) const { sort_segment(new_col, perm, ptr(tr), ptr(tr + 1)); }
};

/// Transpose: a tile of A^T holds the same bits as its source tile read in the other packing order;
/// keeping the order therefore means transposing the T x T bit block.
template <class Mem, int T>
struct tile_bits_transpose {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> perm;
  const_words_view<Mem, word> src;
  words_view<Mem, word> dst;
  bool keep_order;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k) const {
    const offset_t s = perm(k);
    for (int i = 0; i < T; ++i) {
      if (!keep_order) {
        dst(k * T + i) = src(s * T + i);
      } else {
        word w = 0;
        for (int j = 0; j < T; ++j) w |= static_cast<word>(((src(s * T + j) >> i) & 1u) << j);
        dst(k * T + i) = w;
      }
    }
  }
};

}  // namespace bitgraph::detail
