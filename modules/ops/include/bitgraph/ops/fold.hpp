// fold and unfold (BitMat): the OR of a bit matrix's rows or columns as a bitmap, and a bit matrix with
// every row ANDed with a bitmap, on B2SR patterns and on dense bit matrices.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/backends/fold.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/dense_bit_matrix.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"

namespace bitgraph {

// Every form returns a new object and fences `exec`; malformed operands (tile dimension, word arrays, mask
// length) throw `invalid_argument_error`.

/// fold over the rows of a B2SR pattern: the OR of all rows, a bitmap of n bits whose bit j is set iff
/// column j has an entry. Every tile ORs its words (or tests its column words) and ORs the T-bit result
/// into the bitmap atomically: O(tiles · T).
template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_rows(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a);

/// fold over the columns of a B2SR pattern: a bitmap of n bits whose bit i is set iff row i has an entry.
/// One thread per tile row: O(tiles · T).
template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_columns(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a);

/// unfold of a B2SR pattern: a new B2SR whose every row is ANDed with `mask` (n bits), i.e. the columns
/// outside the mask removed. Tiles left empty are dropped and the tile rows rebuilt (count, scan, fill);
/// tile size and packing order are kept. The result is directed.
template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> unfold(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                              const bitmap<memory_space_t<ExecSpace>>& mask);

/// The B2SR pattern as an n x n dense bit matrix (one thread per row).
template <class ExecSpace>
dense_bit_matrix<memory_space_t<ExecSpace>> to_dense_bit_matrix(const ExecSpace& exec,
                                                                const b2sr_matrix<memory_space_t<ExecSpace>>& a);

/// fold over the rows of a dense bit matrix: a bitmap of `cols` bits, the OR of all rows.
template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_rows(const ExecSpace& exec,
                                            const dense_bit_matrix<memory_space_t<ExecSpace>>& m);

/// fold over the columns of a dense bit matrix: a bitmap of `rows` bits, bit i set iff row i is not empty.
template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_columns(const ExecSpace& exec,
                                               const dense_bit_matrix<memory_space_t<ExecSpace>>& m);

/// unfold of a dense bit matrix: a new matrix whose every row is ANDed with `mask` (`cols` bits), every
/// word in parallel.
template <class ExecSpace>
dense_bit_matrix<memory_space_t<ExecSpace>> unfold(const ExecSpace& exec,
                                                   const dense_bit_matrix<memory_space_t<ExecSpace>>& m,
                                                   const bitmap<memory_space_t<ExecSpace>>& mask);

namespace detail {

template <class Mem>
void check_dense_bit_matrix(const char* func, const dense_bit_matrix<Mem>& m) {
  BITGRAPH_CHECK_ARG(m.words.extent(0) == m.rows && m.words.extent(1) == dense_bit_matrix<Mem>::words_per_row(m.cols),
                     func, "a ", m.rows, " x ", m.cols, " bit matrix needs ", m.rows, " x ",
                     dense_bit_matrix<Mem>::words_per_row(m.cols), " words, not ", m.words.extent(0), " x ",
                     m.words.extent(1));
}

template <class Mem>
void check_b2sr(const char* func, const b2sr_matrix<Mem>& a) {
  BITGRAPH_CHECK_ARG(valid_tile_dim(a.tile_dim), func, "tile dimension ", a.tile_dim,
                     " is not one of 4, 8, 16, 32, 64");
}

template <class Mem>
void check_unfold_mask(const bitmap<Mem>& mask, vertex_t cols) {
  check_bitmap("unfold", "mask", mask);
  BITGRAPH_CHECK_ARG(mask.n == cols, "unfold", "mask has ", mask.n, " bits but the matrix has ", cols, " columns");
}

}  // namespace detail

template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_rows(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  detail::check_b2sr("fold_rows", a);
  detail::profiling_region region("bitgraph::fold_rows");
  auto out = make_bitmap(exec, a.n);
  detail::b2sr_fold_impl<ExecSpace>::fold_rows(exec, a, out);
  exec.fence();
  return out;
}

template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_columns(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  detail::check_b2sr("fold_columns", a);
  detail::profiling_region region("bitgraph::fold_columns");
  auto out = make_bitmap(exec, a.n);
  detail::b2sr_fold_impl<ExecSpace>::fold_columns(exec, a, out);
  exec.fence();
  return out;
}

template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> unfold(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                              const bitmap<memory_space_t<ExecSpace>>& mask) {
  detail::check_b2sr("unfold", a);
  detail::check_unfold_mask(mask, a.n);
  detail::profiling_region region("bitgraph::unfold");
  auto out = detail::b2sr_fold_impl<ExecSpace>::unfold(exec, a, mask);
  exec.fence();
  return out;
}

template <class ExecSpace>
dense_bit_matrix<memory_space_t<ExecSpace>> to_dense_bit_matrix(const ExecSpace& exec,
                                                                const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  detail::check_b2sr("to_dense_bit_matrix", a);
  detail::profiling_region region("bitgraph::to_dense_bit_matrix");
  auto m = make_dense_bit_matrix(exec, a.n, a.n);
  detail::dense_fold_impl<ExecSpace>::from_b2sr(exec, a, m);
  exec.fence();
  return m;
}

template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_rows(const ExecSpace& exec,
                                            const dense_bit_matrix<memory_space_t<ExecSpace>>& m) {
  detail::check_dense_bit_matrix("fold_rows", m);
  detail::profiling_region region("bitgraph::fold_rows");
  auto out = make_bitmap(exec, m.cols);
  detail::dense_fold_impl<ExecSpace>::fold_rows(exec, m, out);
  exec.fence();
  return out;
}

template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> fold_columns(const ExecSpace& exec,
                                               const dense_bit_matrix<memory_space_t<ExecSpace>>& m) {
  detail::check_dense_bit_matrix("fold_columns", m);
  detail::profiling_region region("bitgraph::fold_columns");
  auto out = make_bitmap(exec, m.rows);
  detail::dense_fold_impl<ExecSpace>::fold_columns(exec, m, out);
  exec.fence();
  return out;
}

template <class ExecSpace>
dense_bit_matrix<memory_space_t<ExecSpace>> unfold(const ExecSpace& exec,
                                                   const dense_bit_matrix<memory_space_t<ExecSpace>>& m,
                                                   const bitmap<memory_space_t<ExecSpace>>& mask) {
  detail::check_dense_bit_matrix("unfold", m);
  detail::check_unfold_mask(mask, m.cols);
  detail::profiling_region region("bitgraph::unfold");
  auto out = make_dense_bit_matrix(exec, m.rows, m.cols);
  detail::dense_fold_impl<ExecSpace>::unfold(exec, m, mask, out);
  exec.fence();
  return out;
}

}  // namespace bitgraph
