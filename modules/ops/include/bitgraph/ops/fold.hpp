// BitMat's fold and unfold on compressed bit matrices: fold ORs all rows (or all columns) into one bit
// array; unfold ANDs every row with a mask bit array, each row independently. For B2SR patterns and for
// plain dense bit matrices (`dense_bit_matrix`), parallel per row / word / tile.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/ewise.hpp"
#include "bitgraph/ops/select.hpp"

namespace bitgraph {

/// An uncompressed rows x cols bit matrix (BitMat's "bitmat"). Row i is `words(i, 0 .. words_per_row)`
/// laid out exactly like a `bitmap` of `cols` bits: bit j is bit j % 32 of word j / 32, rows are padded
/// with zero bits to a multiple of 64, and bits >= cols are always zero. LayoutRight keeps each row
/// contiguous on every space, so a row is one coalesced run of words.
template <class MemorySpace>
struct dense_bit_matrix {
  using memory_space = MemorySpace;
  using words_view = Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, MemorySpace>;
  vertex_t rows = 0;  ///< number of rows
  vertex_t cols = 0;  ///< number of columns (bits per row)
  words_view words;   ///< rows x words_per_row(cols)

  /// 32-bit words of one row of `cols` bits (padded to 64-bit multiples, as a bitmap).
  static constexpr std::uint64_t words_per_row(std::uint64_t cols) { return 2 * ((cols + 63) / 64); }
};

/// An all-zero rows x cols bit matrix in `exec`'s memory space. Throws `allocation_error` when it
/// does not fit.
template <class ExecSpace>
dense_bit_matrix<memory_space_t<ExecSpace>> make_dense_bit_matrix(const ExecSpace&, vertex_t rows, vertex_t cols) {
  using mat = dense_bit_matrix<memory_space_t<ExecSpace>>;
  mat m;
  m.rows = rows;
  m.cols = cols;
  const std::uint64_t wpr = mat::words_per_row(cols);
  const std::size_t bytes = detail::checked_bytes<std::uint32_t>(std::uint64_t(rows) * wpr, "bitgraph::dense_bit_matrix");
  try {
    m.words = typename mat::words_view("bitgraph::dense_bit_matrix", rows, wpr);
  } catch (const std::bad_alloc& e) {
    throw allocation_error(detail::concat("bitgraph: allocation of 'bitgraph::dense_bit_matrix' (", bytes, " bytes) failed: ",
                                          e.what()));
  } catch (const std::runtime_error& e) {
    throw allocation_error(detail::concat("bitgraph: allocation of 'bitgraph::dense_bit_matrix' (", bytes, " bytes) failed: ",
                                          e.what()));
  }
  return m;
}

namespace detail {

namespace elementwise {

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

}  // namespace elementwise

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

/// fold and unfold on B2SR for tile dimension T; portable.
template <class ExecSpace, int T, BITGRAPH_TU_LOCAL_PARAM>
struct b2sr_fold_kernels {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;

  /// Bit j of `out` = column j has an entry: every tile ORs its column set into segment tc.
  static void fold_rows(const ExecSpace& exec, const b2sr_matrix<mem>& a, const bitmap<mem>& out) {
    auto tcol = a.tile_col_idx;
    auto words = a.template tile_words<word>();
    auto ow = out.words;
    const bool row_major = a.order == bit_order::row_major;
    Kokkos::parallel_for(
        "bitgraph::fold_rows::b2sr", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, a.n_tiles),
        KOKKOS_LAMBDA(const offset_t k) {
          std::uint64_t seg = 0;
          for (int w = 0; w < T; ++w) {
            const std::uint64_t x = static_cast<std::uint64_t>(words(k * T + w));
            if (row_major) seg |= x;                        // OR of the rows: the columns present
            else if (x) seg |= std::uint64_t(1) << w;      // a non-empty column word
          }
          elementwise::or_segment_atomic<T>(ow, tcol(k), seg);
        });
  }

  /// Bit i of `out` = row i has an entry: one thread per tile row ORs its tiles' row sets.
  static void fold_columns(const ExecSpace& exec, const b2sr_matrix<mem>& a, const bitmap<mem>& out) {
    auto ptr = a.tile_row_ptr;
    auto words = a.template tile_words<word>();
    auto ow = out.words;
    const bool row_major = a.order == bit_order::row_major;
    Kokkos::parallel_for(
        "bitgraph::fold_columns::b2sr", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n_tile_rows),
        KOKKOS_LAMBDA(const vertex_t tr) {
          std::uint64_t seg = 0;
          for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) {
            for (int w = 0; w < T; ++w) {
              const std::uint64_t x = static_cast<std::uint64_t>(words(k * T + w));
              if (!row_major) seg |= x;                     // OR of the columns: the rows present
              else if (x) seg |= std::uint64_t(1) << w;     // a non-empty row word
            }
          }
          elementwise::or_segment_atomic<T>(ow, tr, seg);
        });
  }

  static b2sr_matrix<mem> unfold(const ExecSpace& exec, const b2sr_matrix<mem>& a, const bitmap<mem>& mask) {
    unfold_tile_filter<T, mem> f{mask.words, a.order == bit_order::row_major};
    return filter_b2sr_tiles<ExecSpace, T>(exec, a, f, graph_kind::directed);
  }
};

/// fold and unfold of B2SR matrices, dispatching the tile dimension; backends may specialise it.
template <class ExecSpace>
struct b2sr_fold_impl {
  using mem = memory_space_t<ExecSpace>;
  static void fold_rows(const ExecSpace& exec, const b2sr_matrix<mem>& a, const bitmap<mem>& out) {
    dispatch_tile_dim(a.tile_dim, [&](auto td) { b2sr_fold_kernels<ExecSpace, decltype(td)::value>::fold_rows(exec, a, out); });
  }
  static void fold_columns(const ExecSpace& exec, const b2sr_matrix<mem>& a, const bitmap<mem>& out) {
    dispatch_tile_dim(a.tile_dim, [&](auto td) { b2sr_fold_kernels<ExecSpace, decltype(td)::value>::fold_columns(exec, a, out); });
  }
  static b2sr_matrix<mem> unfold(const ExecSpace& exec, const b2sr_matrix<mem>& a, const bitmap<mem>& mask) {
    return dispatch_tile_dim(a.tile_dim,
                             [&](auto td) { return b2sr_fold_kernels<ExecSpace, decltype(td)::value>::unfold(exec, a, mask); });
  }
};

/// fold and unfold of dense bit matrices (BitMat §"Parallelized fold/unfold"); portable.
template <class ExecSpace, BITGRAPH_TU_LOCAL_PARAM>
struct dense_fold_impl {
  using mem = memory_space_t<ExecSpace>;
  static constexpr vertex_t rows_per_thread = 32;

  /// One thread per (block of 32 rows, word): ORs its 32 words locally, one atomic per non-zero
  /// result, so both tall and wide matrices keep every thread busy.
  static void fold_rows(const ExecSpace& exec, const dense_bit_matrix<mem>& m, const bitmap<mem>& out) {
    auto in = m.words;
    auto ow = out.words;
    const vertex_t rows = m.rows;
    const offset_t wpr = m.words.extent(1);
    const offset_t blocks = ceil_div<offset_t>(rows, rows_per_thread);
    Kokkos::parallel_for(
        "bitgraph::fold_rows::dense", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, blocks * wpr),
        KOKKOS_LAMBDA(const offset_t t) {
          const offset_t b = t / wpr, w = t % wpr;
          const offset_t r0 = b * rows_per_thread;
          const offset_t r1 = r0 + rows_per_thread < rows ? r0 + rows_per_thread : rows;
          std::uint32_t acc = 0;
          for (offset_t r = r0; r < r1; ++r) acc |= in(r, w);
          if (acc) Kokkos::atomic_fetch_or(&ow(w), acc);
        });
  }

  /// One thread per output word: bit r says whether row 32*wi + r has any set word.
  static void fold_columns(const ExecSpace& exec, const dense_bit_matrix<mem>& m, const bitmap<mem>& out) {
    auto in = m.words;
    auto ow = out.words;
    const vertex_t rows = m.rows;
    const offset_t wpr = m.words.extent(1);
    Kokkos::parallel_for(
        "bitgraph::fold_columns::dense", Kokkos::RangePolicy<ExecSpace>(exec, 0, ow.extent(0)), KOKKOS_LAMBDA(const std::size_t wi) {
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
        });
  }

  /// One thread per word of the matrix: out(i, w) = in(i, w) AND mask(w).
  static void unfold(const ExecSpace& exec, const dense_bit_matrix<mem>& m, const bitmap<mem>& mask,
                     const dense_bit_matrix<mem>& out) {
    auto in = m.words;
    auto o = out.words;
    auto mw = mask.words;
    const offset_t wpr = m.words.extent(1);
    Kokkos::parallel_for(
        "bitgraph::unfold::dense", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, offset_t(m.rows) * wpr),
        KOKKOS_LAMBDA(const offset_t t) {
          const offset_t r = t / wpr, w = t % wpr;
          o(r, w) = in(r, w) & mw(w);
        });
  }

  /// Expands a B2SR pattern: one thread per row places each tile's T-bit row segment.
  template <int T>
  static void from_b2sr(const ExecSpace& exec, const b2sr_matrix<mem>& a, const dense_bit_matrix<mem>& out) {
    using word = tile_word_t<T>;
    auto ptr = a.tile_row_ptr;
    auto tcol = a.tile_col_idx;
    auto words = a.template tile_words<word>();
    auto o = out.words;
    const bool row_major = a.order == bit_order::row_major;
    Kokkos::parallel_for(
        "bitgraph::to_dense_bit_matrix", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n), KOKKOS_LAMBDA(const vertex_t i) {
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
        });
  }
};

template <class Mem>
void check_dense_bit_matrix(const char* func, const dense_bit_matrix<Mem>& m) {
  BITGRAPH_CHECK_ARG(m.words.extent(0) == m.rows && m.words.extent(1) == dense_bit_matrix<Mem>::words_per_row(m.cols),
                     func, "a ", m.rows, " x ", m.cols, " bit matrix needs ", m.rows, " x ",
                     dense_bit_matrix<Mem>::words_per_row(m.cols), " words, not ", m.words.extent(0), " x ",
                     m.words.extent(1));
}

template <class Mem>
void check_b2sr(const char* func, const b2sr_matrix<Mem>& a) {
  BITGRAPH_CHECK_ARG(valid_tile_dim(a.tile_dim), func, "tile dimension ", a.tile_dim, " is not one of 4, 8, 16, 32, 64");
}

}  // namespace detail

/// fold over the rows of a B2SR pattern: the OR of all rows, a bitmap of n bits whose bit j is set iff
/// column j has an entry. Every tile ORs its words (or tests its column words) and ORs the T-bit result
/// into the bitmap atomically: O(tiles · T).
template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_rows(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  detail::check_b2sr("fold_rows", a);
  auto out = make_bitmap(exec, a.n);
  detail::b2sr_fold_impl<ExecSpace>::fold_rows(exec, a, out);
  exec.fence();
  return out;
}

/// fold over the columns of a B2SR pattern: a bitmap of n bits whose bit i is set iff row i has an
/// entry. One thread per tile row: O(tiles · T).
template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_columns(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  detail::check_b2sr("fold_columns", a);
  auto out = make_bitmap(exec, a.n);
  detail::b2sr_fold_impl<ExecSpace>::fold_columns(exec, a, out);
  exec.fence();
  return out;
}

/// unfold of a B2SR pattern: a new B2SR whose every row is ANDed with `mask` (n bits), i.e. the columns
/// outside the mask removed. Tiles left empty are dropped and the tile rows rebuilt (count, scan,
/// fill); tile size and packing order are kept. The result is directed. Throws
/// `invalid_argument_error` when the mask length is not n.
template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> unfold(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                              const bitmap<memory_space_t<ExecSpace>>& mask) {
  detail::check_b2sr("unfold", a);
  detail::elementwise::check_bitmap("unfold", "mask", mask);
  BITGRAPH_CHECK_ARG(mask.n == a.n, "unfold", "mask has ", mask.n, " bits but the matrix has ", a.n, " columns");
  auto out = detail::b2sr_fold_impl<ExecSpace>::unfold(exec, a, mask);
  exec.fence();
  return out;
}

/// The B2SR pattern as an n x n dense bit matrix (one thread per row).
template <class ExecSpace>
dense_bit_matrix<memory_space_t<ExecSpace>> to_dense_bit_matrix(const ExecSpace& exec,
                                                                const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  detail::check_b2sr("to_dense_bit_matrix", a);
  auto m = make_dense_bit_matrix(exec, a.n, a.n);
  detail::dispatch_tile_dim(a.tile_dim, [&](auto td) {
    detail::dense_fold_impl<ExecSpace>::template from_b2sr<decltype(td)::value>(exec, a, m);
  });
  exec.fence();
  return m;
}

/// fold over the rows of a dense bit matrix: a bitmap of `cols` bits, the OR of all rows.
template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_rows(const ExecSpace& exec, const dense_bit_matrix<memory_space_t<ExecSpace>>& m) {
  detail::check_dense_bit_matrix("fold_rows", m);
  auto out = make_bitmap(exec, m.cols);
  detail::dense_fold_impl<ExecSpace>::fold_rows(exec, m, out);
  exec.fence();
  return out;
}

/// fold over the columns of a dense bit matrix: a bitmap of `rows` bits, bit i set iff row i is not
/// empty.
template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_columns(const ExecSpace& exec, const dense_bit_matrix<memory_space_t<ExecSpace>>& m) {
  detail::check_dense_bit_matrix("fold_columns", m);
  auto out = make_bitmap(exec, m.rows);
  detail::dense_fold_impl<ExecSpace>::fold_columns(exec, m, out);
  exec.fence();
  return out;
}

/// unfold of a dense bit matrix: a new matrix whose every row is ANDed with `mask` (`cols` bits), every
/// word in parallel. Throws `invalid_argument_error` when the mask length is not `cols`.
template <class ExecSpace>
dense_bit_matrix<memory_space_t<ExecSpace>> unfold(const ExecSpace& exec, const dense_bit_matrix<memory_space_t<ExecSpace>>& m,
                                                   const bitmap<memory_space_t<ExecSpace>>& mask) {
  detail::check_dense_bit_matrix("unfold", m);
  detail::elementwise::check_bitmap("unfold", "mask", mask);
  BITGRAPH_CHECK_ARG(mask.n == m.cols, "unfold", "mask has ", mask.n, " bits but the matrix has ", m.cols, " columns");
  auto out = make_dense_bit_matrix(exec, m.rows, m.cols);
  detail::dense_fold_impl<ExecSpace>::unfold(exec, m, mask, out);
  exec.fence();
  return out;
}

}  // namespace bitgraph
