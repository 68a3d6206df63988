// GraphBLAS extract on valued CSR matrices: C<M, replace> = accum(C, A(I, J)) (GrB_Matrix_extract), with the
// index lists of `assign` (repeats allowed here, as GraphBLAS allows them) and the structural matrix masks and
// accumulators of ewise_matrix.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/assign.hpp"
#include "bitgraph/ops/detail/matrix_extract_generic.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/matrix_assign.hpp"
#include "bitgraph/ops/mxm_csr.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph {

/// C<mask, replace> = accum(C, A(I, J)) (GraphBLAS GrB_Matrix_extract; with `opts.transpose_a`, Aᵀ(I, J) as
/// GrB_INP0 = GrB_TRAN): C is |I| x |J| and T = A(I, J) holds A(I[a], J[b]) at (a, b), its values converted to C's
/// type. `rows` and `cols` are index views (any order; an index may be listed more than once, which copies that row
/// or column of A again) or `all_indices{}`. Then the merge of `ewise_add` with T as its only operand: allowed
/// positions take T's entry (without an accumulator, C's entry is deleted where T has none) or accum(C, T) where
/// both exist and the one present otherwise; excluded positions keep C's entry, or lose it under `replace`.
/// `mask` is `no_mask{}` or `mask_of(matrix or graph, complement, replace)` (structural, C-sized); `accum` is
/// `no_accumulator{}`, `accumulate_with<Monoid>{}` or a binary operator of operators.hpp, called accum(C, T). C is
/// given new arrays; views of its old arrays keep the old matrix. C may be A.
///
/// Kernel: for a list J, A's columns inverted into buckets of J's positions (atomic counts, a scan, atomic
/// cursors); T by a count pass, a scan and a fill pass over its rows (each entry of A's row I[a] copied to every
/// position of its column in J), T's rows heap-sorted when J is a list; then the row merge. Work
/// O(|I| + |J| + n_cols(A) + the entries of A's rows I x their columns' repeats (nnz(T)) log + nnz(C) + nnz(mask)),
/// plus O(nnz(A) log) for a transpose.
///
/// Throws `invalid_argument_error` naming `extract` when C is not |I| x |J|, the mask's shape is not C's, an
/// operand's arrays do not fit its shape, or indices are out of range (saying how many); `allocation_error` when
/// memory runs out. C is unchanged when it throws. Fences `exec`.
template <class ExecSpace, class T, class Mask, class Accum, class TA>
void extract(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
             const csr_matrix<TA, memory_space_t<ExecSpace>>& a, const index_list<memory_space_t<ExecSpace>>& rows,
             const index_list<memory_space_t<ExecSpace>>& cols, const matrix_op_options& opts = {}) {
  using mem = memory_space_t<ExecSpace>;
  const char* func = "extract";
  detail::check_matrix_op_types<Mask, Accum, T>();
  detail::choose_path<ExecSpace>(func, opts.algorithm, detail::path_offer{});
  detail::check_csr_matrix(func, "A", a);
  detail::check_csr_matrix(func, "C", c);
  const vertex_t a_rows = opts.transpose_a ? a.n_cols : a.n_rows;
  const vertex_t a_cols = opts.transpose_a ? a.n_rows : a.n_cols;
  const offset_t ni = rows.all ? a_rows : rows.indices.extent(0);
  const offset_t nj = cols.all ? a_cols : cols.indices.extent(0);
  BITGRAPH_CHECK_ARG(c.n_rows == ni && c.n_cols == nj, func, "C is ", c.n_rows, " x ", c.n_cols, " but I x J is ", ni,
                     " x ", nj);
  detail::check_matrix_mask(func, mask, c.n_rows, c.n_cols);
  // The range checks of the assigns, before any index is used as a subscript; repeats are allowed.
  const auto check_range = [&](const index_list<mem>& l, const char* what, const char* dim, vertex_t n) {
    if (l.all) return;
    const offset_t bad = detail::assign_indices_impl<ExecSpace, std::uint32_t>::count_out_of_range(exec, l.indices, n);
    BITGRAPH_CHECK_ARG(bad == 0, func, bad, " of the ", l.indices.extent(0), " indices of ", what, " are >= ", dim,
                       " = ", n);
  };
  check_range(rows, "I", opts.transpose_a ? "n_rows(Aᵀ)" : "n_rows(A)", a_rows);
  check_range(cols, "J", opts.transpose_a ? "n_cols(Aᵀ)" : "n_cols(A)", a_cols);
  detail::profiling_region region("bitgraph::extract_matrix");
  const auto ao = opts.transpose_a ? transpose(exec, a) : detail::with_row_ptr(exec, a);
  const auto t =
      detail::matrix_extract_impl<ExecSpace, TA, T>::run(exec, ao, rows.indices, rows.all, cols.indices, cols.all);
  detail::merge_matrix(exec, c, mask, accum, t);
}

}  // namespace bitgraph
