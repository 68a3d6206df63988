// GraphBLAS Kronecker product of valued CSR matrices: C<M, replace> = accum(C, kron(A, B)) (GrB_kronecker), with
// any binary operator of ops/operators.hpp in place of the product and the structural matrix masks and
// accumulators of ewise_matrix.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/kronecker_generic.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/matrix_assign.hpp"
#include "bitgraph/ops/mxm_csr.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph {

/// C<mask, replace> = accum(C, kron(A, B)) (GraphBLAS GrB_kronecker; `opts.transpose_a` / `transpose_b` use Aᵀ /
/// Bᵀ, GrB_INP0 / GrB_INP1 = GrB_TRAN). With A of ra x ca and B of rb x cb, T = kron(A, B) is (ra · rb) x (ca · cb)
/// and holds op(A(i1, j1), B(i2, j2)) at (i1 · rb + i2, j1 · cb + j2) for every pair of stored entries, nothing
/// elsewhere. `op` is a binary operator of operators.hpp: a monoid, a struct with `apply(a, b)` or a multiply
/// operator, which gets T's row and column as `apply(a, b, i, j)` (as in `ewise_add`; `secondi_op` gives T's column).
/// A's value is always the first operand. Then the merge of `ewise_add` with T as its only operand: allowed positions
/// take T's entry (without an accumulator, C's entry is deleted where T has none) or accum(C, T) where both exist
/// and the one present otherwise; excluded positions keep C's entry, or lose it under `replace`. `mask` is
/// `no_mask{}` or `mask_of(matrix or graph, complement, replace)` (structural, C-sized); `accum` is
/// `no_accumulator{}`, `accumulate_with<Monoid>{}` or a binary operator of operators.hpp, called accum(C, T). C is
/// given new arrays; views of its old arrays keep the old matrix. C may be A or B.
///
/// Kernel: one thread per row of T, count, scan, fill (A's row in order, B's row inside it: ascending columns, no
/// sort); then the row merge. Work O(ra · rb + nnz(A) · nnz(B) + nnz(C) + nnz(mask)), plus O(nnz log) per transposed
/// operand; T is stored (nnz(A) · nnz(B) entries).
///
/// Throws `invalid_argument_error` naming `kronecker` when C is not (ra · rb) x (ca · cb), the mask's shape is not
/// C's, or an operand's arrays do not fit its shape; `size_error` when T's rows or columns would exceed
/// `max_vertices` or its entries 2^64 - 1; `allocation_error` when memory runs out. C is unchanged when it throws.
/// Fences `exec`.
template <class ExecSpace, class T, class Mask, class Accum, class Op>
void kronecker(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
               const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a,
               const csr_matrix<T, memory_space_t<ExecSpace>>& b, const matrix_op_options& opts = {}) {
  const char* func = "kronecker";
  detail::check_matrix_op_types<Mask, Accum, T>();
  static_assert(detail::elementwise::is_binary_op_v<Op, T>, "op needs combine(a, b), apply(a, b) or apply(a, b, i, j)");
  detail::choose_path<ExecSpace>(func, opts.algorithm, detail::path_offer{});
  detail::check_csr_matrix(func, "A", a);
  detail::check_csr_matrix(func, "B", b);
  detail::check_csr_matrix(func, "C", c);
  const std::uint64_t ra = opts.transpose_a ? a.n_cols : a.n_rows, ca = opts.transpose_a ? a.n_rows : a.n_cols;
  const std::uint64_t rb = opts.transpose_b ? b.n_cols : b.n_rows, cb = opts.transpose_b ? b.n_rows : b.n_cols;
  // T's shape and entries, before anything is multiplied in 32 bits or allocated.
  if (ra * rb > max_vertices || ca * cb > max_vertices)
    throw size_error(detail::concat("bitgraph::kronecker: the product would be ", ra * rb, " x ", ca * cb,
                                    ", over the ", max_vertices, " rows or columns a matrix may have"));
  if (b.nnz > 0 && a.nnz > ~std::uint64_t(0) / b.nnz)
    throw size_error(
        detail::concat("bitgraph::kronecker: the product would hold ", a.nnz, " x ", b.nnz, " entries, over 2^64 - 1"));
  BITGRAPH_CHECK_ARG(c.n_rows == ra * rb && c.n_cols == ca * cb, func, "C is ", c.n_rows, " x ", c.n_cols,
                     " but kron(A, B) is ", ra * rb, " x ", ca * cb);
  detail::check_matrix_mask(func, mask, c.n_rows, c.n_cols);
  detail::profiling_region region("bitgraph::kronecker");
  const auto ao = opts.transpose_a ? transpose(exec, a) : detail::with_row_ptr(exec, a);
  const auto bo = opts.transpose_b ? transpose(exec, b) : detail::with_row_ptr(exec, b);
  const auto t = detail::kronecker_impl<ExecSpace, Op, T>::run(exec, ao, bo, op);
  detail::merge_matrix(exec, c, mask, accum, t);
}

/// kron(A, B) as a new matrix (no mask, no accumulator); as the full form otherwise.
template <class ExecSpace, class Op, class T>
csr_matrix<T, memory_space_t<ExecSpace>> kronecker(const ExecSpace& exec, const Op& op,
                                                   const csr_matrix<T, memory_space_t<ExecSpace>>& a,
                                                   const csr_matrix<T, memory_space_t<ExecSpace>>& b) {
  csr_matrix<T, memory_space_t<ExecSpace>> c;
  const std::uint64_t rows = std::uint64_t(a.n_rows) * b.n_rows, cols = std::uint64_t(a.n_cols) * b.n_cols;
  // Sizes beyond 32 bits are refused by the full form; C's shape is only a placeholder then.
  c.n_rows = rows > max_vertices ? 0 : static_cast<vertex_t>(rows);
  c.n_cols = cols > max_vertices ? 0 : static_cast<vertex_t>(cols);
  kronecker(exec, c, no_mask{}, no_accumulator{}, op, a, b);
  return c;
}

}  // namespace bitgraph
