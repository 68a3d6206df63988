// The portable fold and unfold kernels (BitMat), primary templates of their dispatch: on B2SR (tile column
// / row sets ORed into a bitmap; unfold through select's tile filter) and on dense bit matrices.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/dense_bit_matrix.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/select_generic.hpp"

namespace bitgraph::detail {

/// ORs the T-bit segment `seg` into bits [j*T, j*T + T) of a bitmap's words; atomic because
/// neighbouring segments (T < 32) share a word and several tiles may hit the same segment.
template <int T, class Words>
KOKKOS_FORCEINLINE_FUNCTION void or_segment_atomic(const Words& words, std::uint64_t j, std::uint64_t seg) {
  if (!seg) return;
  const std::uint64_t bit0 = j * T;
  if constexpr (T == 64) {
    const std::uint32_t lo = static_cast<std::uint32_t>(seg), hi = static_cast<std::uint32_t>(seg >> 32);
    if (lo) Kokkos::atomic_fetch_or(&words(bit0 / 32), lo);
    if (hi) Kokkos::atomic_fetch_or(&words(bit0 / 32 + 1), hi);
  } else {
    Kokkos::atomic_fetch_or(&words(bit0 / 32), static_cast<std::uint32_t>(seg << (bit0 % 32)));
  }
}

/// Tile filter of unfold: in a row-major tile every word (a row) is ANDed with the mask segment of the
/// tile column; in a column-major tile word w is column tc*T + w, kept whole or dropped.
template <int T, class Mem>
struct unfold_tile_filter {
  Kokkos::View<const std::uint32_t*, Mem> mask;
  bool row_major;
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(vertex_t, vertex_t tc, int w) const {
    if (row_major) return static_cast<std::uint64_t>(bitmap_segment<T>(mask, tc));
    return bitmap_test(mask, std::uint64_t(tc) * T + w) ? ~std::uint64_t(0) : 0;
  }
};

/// fold over rows: every tile ORs its column set into segment tc.
template <class Mem, int T>
struct b2sr_fold_rows_functor {
  using word = tile_word_t<T>;
  Kokkos::View<const vertex_t*, Mem> tcol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> words;
  Kokkos::View<std::uint32_t*, Mem> ow;
  bool row_major;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k) const {
    std::uint64_t seg = 0;
    for (int w = 0; w < T; ++w) {
      const std::uint64_t x = static_cast<std::uint64_t>(words(k * T + w));
      if (row_major)
        seg |= x;  // OR of the rows: the columns present
      else if (x)
        seg |= std::uint64_t(1) << w;  // a non-empty column word
    }
    or_segment_atomic<T>(ow, tcol(k), seg);
  }
};

/// fold over columns: one thread per tile row ORs its tiles' row sets.
template <class Mem, int T>
struct b2sr_fold_columns_functor {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> words;
  Kokkos::View<std::uint32_t*, Mem> ow;
  bool row_major;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    std::uint64_t seg = 0;
    for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) {
      for (int w = 0; w < T; ++w) {
        const std::uint64_t x = static_cast<std::uint64_t>(words(k * T + w));
        if (!row_major)
          seg |= x;  // OR of the columns: the rows present
        else if (x)
          seg |= std::uint64_t(1) << w;  // a non-empty row word
      }
    }
    or_segment_atomic<T>(ow, tr, seg);
  }
};

/// fold and unfold of B2SR matrices, dispatching the tile dimension.
template <class ExecSpace>
struct b2sr_fold_generic {
  using mem = memory_space_t<ExecSpace>;
  /// Bit j of `out` = column j has an entry.
  static void fold_rows(const ExecSpace& exec, const b2sr_matrix<mem>& a, const bitmap<mem>& out) {
    dispatch_tile_dim(a.tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      Kokkos::parallel_for("bitgraph::fold_rows::b2sr",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, a.n_tiles),
                           b2sr_fold_rows_functor<mem, T>{a.tile_col_idx, a.template tile_words<tile_word_t<T>>(),
                                                          out.words, a.order == bit_order::row_major});
    });
  }
  /// Bit i of `out` = row i has an entry.
  static void fold_columns(const ExecSpace& exec, const b2sr_matrix<mem>& a, const bitmap<mem>& out) {
    dispatch_tile_dim(a.tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      Kokkos::parallel_for("bitgraph::fold_columns::b2sr", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n_tile_rows),
                           b2sr_fold_columns_functor<mem, T>{a.tile_row_ptr, a.template tile_words<tile_word_t<T>>(),
                                                             out.words, a.order == bit_order::row_major});
    });
  }
  static b2sr_matrix<mem> unfold(const ExecSpace& exec, const b2sr_matrix<mem>& a, const bitmap<mem>& mask) {
    return dispatch_tile_dim(a.tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      unfold_tile_filter<T, mem> f{mask.words, a.order == bit_order::row_major};
      return filter_b2sr_tiles<ExecSpace, T>(exec, a, f, graph_kind::directed);
    });
  }
};

template <class ExecSpace>
struct b2sr_fold_impl : b2sr_fold_generic<ExecSpace> {};

/// One thread per (block of 32 rows, word): ORs its 32 words locally, one atomic per non-zero result, so
/// both tall and wide matrices keep every thread busy.
template <class Mem>
struct dense_fold_rows_functor {
  static constexpr offset_t rows_per_thread = 32;
  Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Mem> in;
  Kokkos::View<std::uint32_t*, Mem> ow;
  offset_t rows, wpr;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t t) const {
    const offset_t b = t / wpr, w = t % wpr;
    const offset_t r0 = b * rows_per_thread;
    const offset_t r1 = r0 + rows_per_thread < rows ? r0 + rows_per_thread : rows;
    std::uint32_t acc = 0;
    for (offset_t r = r0; r < r1; ++r) acc |= in(r, w);
    if (acc) Kokkos::atomic_fetch_or(&ow(w), acc);
  }
};

/// One thread per output word: bit r says whether row 32*wi + r has any set word.
template <class Mem>
struct dense_fold_columns_functor {
  Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Mem> in;
  Kokkos::View<std::uint32_t*, Mem> ow;
  std::uint64_t rows;
  offset_t wpr;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t wi) const {
    std::uint32_t acc = 0;
    for (int b = 0; b < 32; ++b) {
      const std::uint64_t r = std::uint64_t(wi) * 32 + b;
      if (r >= rows) break;
      for (offset_t w = 0; w < wpr; ++w) {
        if (in(r, w)) {
          acc |= std::uint32_t(1) << b;
          break;
        }
      }
    }
    ow(wi) = acc;
  }
};

/// One thread per word of the matrix: out(i, w) = in(i, w) AND mask(w).
template <class Mem>
struct dense_unfold_functor {
  Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Mem> in;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, Mem> o;
  Kokkos::View<const std::uint32_t*, Mem> mw;
  offset_t wpr;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t t) const {
    const offset_t r = t / wpr, w = t % wpr;
    o(r, w) = in(r, w) & mw(w);
  }
};

/// Expands a B2SR pattern: one thread per row places each tile's T-bit row segment.
template <class Mem, int T>
struct dense_from_b2sr_functor {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<const vertex_t*, Mem> tcol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> words;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, Mem> o;
  bool row_major;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    const vertex_t tr = i / T;
    const int r = static_cast<int>(i % T);
    for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) {
      const std::uint64_t seg = tile_row_bits<T>(words, k, r, row_major);
      if (!seg) continue;
      // A segment fills part of one word (T <= 32, T divides 32) or exactly two (T = 64).
      const std::uint64_t bit0 = std::uint64_t(tcol(k)) * T;
      const std::uint64_t placed = T == 64 ? seg : seg << (bit0 % 32);
      o(i, bit0 / 32) |= static_cast<std::uint32_t>(placed);
      if (T == 64) o(i, bit0 / 32 + 1) |= static_cast<std::uint32_t>(placed >> 32);
    }
  }
};

/// fold and unfold of dense bit matrices (BitMat §"Parallelized fold/unfold").
template <class ExecSpace>
struct dense_fold_generic {
  using mem = memory_space_t<ExecSpace>;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;

  static void fold_rows(const ExecSpace& exec, const dense_bit_matrix<mem>& m, const bitmap<mem>& out) {
    const offset_t wpr = m.words.extent(1);
    const offset_t blocks = ceil_div<offset_t>(m.rows, dense_fold_rows_functor<mem>::rows_per_thread);
    Kokkos::parallel_for("bitgraph::fold_rows::dense", policy(exec, 0, blocks * wpr),
                         dense_fold_rows_functor<mem>{m.words, out.words, m.rows, wpr});
  }
  static void fold_columns(const ExecSpace& exec, const dense_bit_matrix<mem>& m, const bitmap<mem>& out) {
    Kokkos::parallel_for("bitgraph::fold_columns::dense", Kokkos::RangePolicy<ExecSpace>(exec, 0, out.words.extent(0)),
                         dense_fold_columns_functor<mem>{m.words, out.words, m.rows, m.words.extent(1)});
  }
  static void unfold(const ExecSpace& exec, const dense_bit_matrix<mem>& m, const bitmap<mem>& mask,
                     const dense_bit_matrix<mem>& out) {
    const offset_t wpr = m.words.extent(1);
    Kokkos::parallel_for("bitgraph::unfold::dense", policy(exec, 0, offset_t(m.rows) * wpr),
                         dense_unfold_functor<mem>{m.words, out.words, mask.words, wpr});
  }
  static void from_b2sr(const ExecSpace& exec, const b2sr_matrix<mem>& a, const dense_bit_matrix<mem>& out) {
    dispatch_tile_dim(a.tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      Kokkos::parallel_for(
          "bitgraph::to_dense_bit_matrix", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n),
          dense_from_b2sr_functor<mem, T>{a.tile_row_ptr, a.tile_col_idx, a.template tile_words<tile_word_t<T>>(),
                                          out.words, a.order == bit_order::row_major});
    });
  }
};

template <class ExecSpace>
struct dense_fold_impl : dense_fold_generic<ExecSpace> {};

}  // namespace bitgraph::detail
