// GraphBLAS apply and select on valued CSR matrices, like GrB_Matrix_apply (unary operators, a bound binary
// operator, index-unary operators such as GrB_ROWINDEX) and GrB_Matrix_select (GrB_TRIL, GrB_TRIU, GrB_DIAG,
// GrB_OFFDIAG, GrB_VALUEGT, ...): C<M, replace> = accum(C, f(A)) with a structural matrix mask (complement,
// replace), an accumulator and the transpose of A.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/detail/matrix_apply_generic.hpp"
#include "bitgraph/ops/mxm_csr.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/ops/options.hpp"
#include "bitgraph/ops/select.hpp"

namespace bitgraph {

// ------------------------------------------------------------------------- index-unary operators
//
// Matrix `apply` takes a unary operator of operators.hpp (`apply(x)`: identity_op, abs_op, ainv_op,
// times_scalar, or a user's), `bind_second` (`apply(i, x)`, called with the row), or an index-unary operator
// `apply(i, j, x)` that sees the entry's row and column. The three below are GraphBLAS's positional ones; each
// carries its thunk s and yields a std::int64_t (GrB_*_INT64), converted to C's value type.

/// i + s: the entry's row index plus s (GrB_ROWINDEX_INT64 with thunk s).
struct row_index_op {
  std::int64_t s = 0;
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr std::int64_t apply(vertex_t i, vertex_t, T) const {
    return std::int64_t(i) + s;
  }
};

/// j + s: the entry's column index plus s (GrB_COLINDEX_INT64 with thunk s).
struct col_index_op {
  std::int64_t s = 0;
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr std::int64_t apply(vertex_t, vertex_t j, T) const {
    return std::int64_t(j) + s;
  }
};

/// j − (i + s): the entry's diagonal index relative to diagonal s (GrB_DIAGINDEX_INT64 with thunk s, as
/// SuiteSparse:GraphBLAS defines it; 0 on the diagonal a `diag(s)` selection keeps).
struct diag_index_op {
  std::int64_t s = 0;
  template <class T>
  KOKKOS_INLINE_FUNCTION constexpr std::int64_t apply(vertex_t i, vertex_t j, T) const {
    return std::int64_t(j) - (std::int64_t(i) + s);
  }
};

// ------------------------------------------------------------------------------ matrix predicates
//
// Matrix `select` takes a predicate `apply(i, j, x)` returning true for the entries to keep, or a vector
// predicate of operators.hpp (`apply(i, x)`: value_eq, value_gt, ... = GrB_VALUEEQ, GrB_VALUEGT, ...),
// called with the row.

/// The band selections of `select_kind` around diagonal k as a predicate: with d = j − i, tril keeps d <= k
/// (GrB_TRIL: j <= i + k), triu d >= k (GrB_TRIU), diag d == k (GrB_DIAG), offdiag d != k (GrB_OFFDIAG).
struct band_select {
  select_kind kind = select_kind::tril;
  std::int64_t k = 0;
  template <class T>
  KOKKOS_INLINE_FUNCTION bool apply(vertex_t i, vertex_t j, T) const {
    return detail::elementwise::band_keeps(static_cast<int>(kind), std::int64_t(j) - std::int64_t(i), k);
  }
};

/// j <= i + k (GrB_TRIL).
inline band_select tril(std::int64_t k = 0) { return band_select{select_kind::tril, k}; }
/// j >= i + k (GrB_TRIU).
inline band_select triu(std::int64_t k = 0) { return band_select{select_kind::triu, k}; }
/// j == i + k (GrB_DIAG).
inline band_select diag(std::int64_t k = 0) { return band_select{select_kind::diag, k}; }
/// j != i + k (GrB_OFFDIAG).
inline band_select offdiag(std::int64_t k = 0) { return band_select{select_kind::offdiag, k}; }

// ------------------------------------------------------------------------------------------ ops

/// C<mask, replace> = accum(C, f(A)) on CSR matrices (GraphBLAS GrB_Matrix_apply, GrB_Matrix_apply_BinaryOp2nd
/// through `bind_second`, GrB_Matrix_apply_IndexOp through an `apply(i, j, x)` operator).
///
/// T has A's pattern (Aᵀ's with `opts.transpose_a`) and T(i, j) = f(A(i, j)): `f` is `apply(x)` (identity_op,
/// abs_op, ainv_op, times_scalar, a user's), `apply(i, x)` (bind_second; i is the row) or `apply(i, j, x)`
/// (row_index_op, col_index_op, diag_index_op, a user's). Values convert as GraphBLAS typecasts: A's value
/// type TA is passed to f, and f's result is converted to C's value type T (so an int32 A may give a double C).
/// Then the GraphBLAS merge, as for `ewise_add`: where the mask allows, C takes T (no accumulator) or accum(C,
/// T) where both exist and whichever exists otherwise; where it excludes, C keeps its entry, or loses it under
/// `replace`. `mask` is `no_mask{}` or `mask_of(matrix or graph, complement, replace)` (structural); `accum` is
/// `no_accumulator{}`, `accumulate_with<Monoid>{}` or a binary operator of operators.hpp on T. C is given new
/// arrays; views of its old arrays are left as they were. C may be A.
///
/// Kernel: one thread per row walks the rows of A, C and the mask together (count, scan, fill); T is never
/// stored and f is called only where the mask allows. Work O(n_rows + nnz(A) + nnz(C) + nnz(mask)), plus
/// O(nnz(A) + Σ row log row) for the transpose; memory O(n_rows + nnz of the result) (+ nnz(A) transposed).
///
/// Throws `invalid_argument_error` naming `apply` when C is not A's shape (Aᵀ's with `transpose_a`), the
/// mask's shape is not C's, or an operand's arrays do not fit its shape; `unsupported_error` for a forced
/// CUDA path; `allocation_error` when memory runs out. Fences `exec`.
template <class ExecSpace, class T, class Mask, class Accum, class F, class TA>
void apply(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
           const F& f, const csr_matrix<TA, memory_space_t<ExecSpace>>& a, const matrix_op_options& opts = {});

/// C<mask, replace> = accum(C, select(A)) on CSR matrices (GraphBLAS GrB_Matrix_select).
///
/// T holds the entries A(i, j) of A (of Aᵀ with `opts.transpose_a`) for which `pred` holds, values kept
/// (converted from TA to T): `pred` is `apply(i, j, x)` (`tril(k)`, `triu(k)`, `diag(k)`, `offdiag(k)`, any
/// `band_select`, a user's) or a vector predicate `apply(i, x)` of operators.hpp (value_eq, value_ne, value_gt,
/// value_ge, value_lt, value_le; i is the row). Mask, accumulator, merge, kernel, work, errors (naming
/// `select`) and fencing as for matrix `apply`; the predicate is called only where the mask allows.
template <class ExecSpace, class T, class Mask, class Accum, class P, class TA>
void select(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
            const P& pred, const csr_matrix<TA, memory_space_t<ExecSpace>>& a, const matrix_op_options& opts = {});

namespace detail {

template <class F, class TA>
struct matrix_entry_result {
  using type = std::decay_t<decltype(std::declval<const F&>().apply(vertex_t{}, vertex_t{}, std::declval<TA>()))>;
};
template <class F, class TA>
struct matrix_unary_result {
  using type = std::decay_t<decltype(std::declval<const F&>().apply(std::declval<TA>()))>;
};
template <class F, class TA>
struct matrix_positional_result {
  using type = std::decay_t<decltype(std::declval<const F&>().apply(vertex_t{}, std::declval<TA>()))>;
};

/// The value type f yields on an entry of type TA, in the form `apply` calls (the short form's result type).
template <class F, class TA>
using matrix_apply_result_t =
    typename std::conditional_t<elementwise::has_entry_apply<F, TA>::value, matrix_entry_result<F, TA>,
                                std::conditional_t<elementwise::has_unary_apply<F, TA>::value,
                                                   matrix_unary_result<F, TA>, matrix_positional_result<F, TA>>>::type;

template <bool Select, class ExecSpace, class T, class Mask, class Accum, class F, class TA>
void matrix_apply(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask,
                  const Accum& accum, const F& f, const csr_matrix<TA, memory_space_t<ExecSpace>>& a_in,
                  const matrix_op_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  const char* func = Select ? "select" : "apply";
  static_assert(std::is_same_v<Mask, no_mask> || is_matrix_mask_v<Mask>,
                "the mask of a matrix apply / select must be no_mask or a matrix_mask (mask_of a csr_matrix or "
                "csr_graph)");
  static_assert(is_csr_accumulator_v<Accum, T>,
                "accum must be no_accumulator, accumulate_with<Monoid> or a binary operator on C's value type");
  if constexpr (Select) {
    static_assert(elementwise::is_matrix_predicate_v<F, TA>, "the predicate needs apply(i, j, x) or apply(i, x)");
  } else {
    static_assert(elementwise::is_matrix_unary_v<F, TA>, "f needs apply(x), apply(i, x) or apply(i, j, x)");
  }
  choose_path<ExecSpace>(func, opts.algorithm, path_offer{});
  check_csr_matrix(func, "A", a_in);
  check_csr_matrix(func, "C", c);
  const vertex_t a_rows = opts.transpose_a ? a_in.n_cols : a_in.n_rows;
  const vertex_t a_cols = opts.transpose_a ? a_in.n_rows : a_in.n_cols;
  BITGRAPH_CHECK_ARG(c.n_rows == a_rows && c.n_cols == a_cols, func, "C is ", c.n_rows, " x ", c.n_cols, " but A",
                     opts.transpose_a ? "ᵀ" : "", " is ", a_rows, " x ", a_cols);
  check_matrix_mask(func, mask, c.n_rows, c.n_cols);
  profiling_region region(Select ? "bitgraph::select_matrix" : "bitgraph::apply_matrix");

  // One all-zero row_ptr stands in for every missing one (an array-less A, mask, or a C that cannot survive:
  // no accumulator and no mask or a replacing one, where every old entry is overwritten or dropped).
  auto zeros = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::matrix_apply::zeros", offset_t(c.n_rows) + 1);
  matrix_apply_args<TA, T, mem> args;
  args.mask = to_csr_mask_args<mem>(mask, zeros);
  constexpr bool accumulates = !std::is_same_v<Accum, no_accumulator>;
  args.a = opts.transpose_a ? transpose(exec, a_in) : a_in;
  if (args.a.row_ptr.extent(0) == 0) {
    args.a.row_ptr = zeros;
    args.a.nnz = 0;
  }
  args.c_old = c;
  if ((!accumulates && (!args.mask.masked || args.mask.replace)) || args.c_old.row_ptr.extent(0) == 0) {
    args.c_old.row_ptr = zeros;
    args.c_old.nnz = 0;
  }
  c = matrix_apply_impl<ExecSpace, Select, Accum, F, TA, T>::run(exec, args, accum, f);
}

}  // namespace detail

template <class ExecSpace, class T, class Mask, class Accum, class F, class TA>
void apply(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
           const F& f, const csr_matrix<TA, memory_space_t<ExecSpace>>& a, const matrix_op_options& opts) {
  detail::matrix_apply<false>(exec, c, mask, accum, f, a, opts);
}

template <class ExecSpace, class T, class Mask, class Accum, class P, class TA>
void select(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
            const P& pred, const csr_matrix<TA, memory_space_t<ExecSpace>>& a, const matrix_op_options& opts) {
  detail::matrix_apply<true>(exec, c, mask, accum, pred, a, opts);
}

/// f(A) (f(Aᵀ) with `opts.transpose_a`) as a new matrix whose value type is f's result type on TA (std::int64_t
/// for the positional operators); no mask, no accumulator. As the full form otherwise.
template <class ExecSpace, class F, class TA>
csr_matrix<detail::matrix_apply_result_t<F, TA>, memory_space_t<ExecSpace>> apply(
    const ExecSpace& exec, const F& f, const csr_matrix<TA, memory_space_t<ExecSpace>>& a,
    const matrix_op_options& opts = {}) {
  csr_matrix<detail::matrix_apply_result_t<F, TA>, memory_space_t<ExecSpace>> c;
  c.n_rows = opts.transpose_a ? a.n_cols : a.n_rows;
  c.n_cols = opts.transpose_a ? a.n_rows : a.n_cols;
  apply(exec, c, no_mask{}, no_accumulator{}, f, a, opts);
  return c;
}

/// The entries of A (of Aᵀ with `opts.transpose_a`) for which `pred` holds, as a new matrix of A's value type;
/// no mask, no accumulator. As the full form otherwise.
template <class ExecSpace, class P, class TA>
csr_matrix<TA, memory_space_t<ExecSpace>> select(const ExecSpace& exec, const P& pred,
                                                 const csr_matrix<TA, memory_space_t<ExecSpace>>& a,
                                                 const matrix_op_options& opts = {}) {
  csr_matrix<TA, memory_space_t<ExecSpace>> c;
  c.n_rows = opts.transpose_a ? a.n_cols : a.n_rows;
  c.n_cols = opts.transpose_a ? a.n_rows : a.n_cols;
  select(exec, c, no_mask{}, no_accumulator{}, pred, a, opts);
  return c;
}

/// The entries of A in a band of diagonals (`select_kind` around offset k, as for a csr_graph), values kept, as a
/// new matrix: `select(exec, band_select{s, k}, A)`. Throws `invalid_argument_error` for an unknown selection.
template <class ExecSpace, class TA>
csr_matrix<TA, memory_space_t<ExecSpace>> select(const ExecSpace& exec,
                                                 const csr_matrix<TA, memory_space_t<ExecSpace>>& a, select_kind s,
                                                 std::int64_t k = 0) {
  detail::check_select_kind(s);
  return select(exec, band_select{s, k}, a);
}

}  // namespace bitgraph
