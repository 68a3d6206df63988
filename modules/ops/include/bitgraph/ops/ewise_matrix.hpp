// GraphBLAS element-wise add (union) and multiply (intersection) of valued CSR matrices, like
// GrB_Matrix_eWiseAdd / GrB_Matrix_eWiseMult: C<M, replace> = accum(C, A op B) with a structural matrix mask
// (complement, replace), an accumulator and any binary operator of ops/operators.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/ewise_matrix_generic.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/mxm_csr.hpp"
#include "bitgraph/ops/operators.hpp"

namespace bitgraph {

/// C<mask, replace> = accum(C, A ⊕ B) on CSR matrices of one shape (GraphBLAS GrB_Matrix_eWiseAdd).
///
/// T, the union: T(i, j) = op(A(i, j), B(i, j)) where both store (i, j), the one stored value where only one
/// does, no entry elsewhere. `op` is a binary operator of operators.hpp: a monoid (`plus_monoid<T>`, ...),
/// a struct with `apply(a, b)` (`minus_op` or a user's), or a multiply operator (`times_op`, `first_op`,
/// `second_op`, `pair_op`, ...), called as `apply(a, b, i, j)` with the entry's row and column (so
/// `secondi_op` yields the column j, GraphBLAS's SECONDJ). A's value is always the first operand. Then the
/// GraphBLAS merge, as for the CSR `mxm`: where the mask allows, C takes T (no accumulator; T's absence
/// deletes C's entry) or accum(C, T) where both exist and whichever exists otherwise; where it excludes, C
/// keeps its entry, or loses it under `replace`. `mask` is `no_mask{}` or `mask_of(matrix or graph,
/// complement, replace)` (structural: its values are not read); `accum` is `no_accumulator{}`,
/// `accumulate_with<Monoid>{}` or a binary operator of operators.hpp. C is given new arrays; views of its old
/// arrays are left as they were. C may be one of the operands. `opts.transpose_a` / `transpose_b` use Aᵀ / Bᵀ
/// (GrB_INP0 / GrB_INP1 = GrB_TRAN), materialised by `transpose` first (O(nnz + sort) each).
///
/// Kernel: one thread per row walks the rows of A, B, C and the mask together (count, scan, fill); T is never
/// stored. Work O(n_rows + nnz(A) + nnz(B) + nnz(C) + nnz(mask)), memory O(n_rows + nnz of the result).
///
/// Throws `invalid_argument_error` naming `ewise_add` when A, B (as transposed) and C differ in shape, the mask's
/// shape is not C's, or an operand's arrays do not fit its shape; `unsupported_error` for a forced CUDA path (there
/// is none); `allocation_error` when memory runs out. Fences `exec`.
template <class ExecSpace, class T, class Mask, class Accum, class Op>
void ewise_add(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
               const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a,
               const csr_matrix<T, memory_space_t<ExecSpace>>& b, const matrix_op_options& opts = {});

/// C<mask, replace> = accum(C, A ⊗ B) on CSR matrices of one shape (GraphBLAS GrB_Matrix_eWiseMult).
///
/// T, the intersection: T(i, j) = op(A(i, j), B(i, j)) where both store (i, j), no entry elsewhere. Operators,
/// mask, accumulator, merge, kernel, work, errors (naming `ewise_mult`) and fencing as for `ewise_add`.
template <class ExecSpace, class T, class Mask, class Accum, class Op>
void ewise_mult(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask,
                const Accum& accum, const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a,
                const csr_matrix<T, memory_space_t<ExecSpace>>& b, const matrix_op_options& opts = {});

/// A ⊕ B as a new matrix (no mask, no accumulator); as the full form otherwise.
template <class ExecSpace, class Op, class T>
csr_matrix<T, memory_space_t<ExecSpace>> ewise_add(const ExecSpace& exec, const Op& op,
                                                   const csr_matrix<T, memory_space_t<ExecSpace>>& a,
                                                   const csr_matrix<T, memory_space_t<ExecSpace>>& b) {
  csr_matrix<T, memory_space_t<ExecSpace>> c;
  c.n_rows = a.n_rows;
  c.n_cols = a.n_cols;
  ewise_add(exec, c, no_mask{}, no_accumulator{}, op, a, b);
  return c;
}

/// A ⊗ B as a new matrix (no mask, no accumulator); as the full form otherwise.
template <class ExecSpace, class Op, class T>
csr_matrix<T, memory_space_t<ExecSpace>> ewise_mult(const ExecSpace& exec, const Op& op,
                                                    const csr_matrix<T, memory_space_t<ExecSpace>>& a,
                                                    const csr_matrix<T, memory_space_t<ExecSpace>>& b) {
  csr_matrix<T, memory_space_t<ExecSpace>> c;
  c.n_rows = a.n_rows;
  c.n_cols = a.n_cols;
  ewise_mult(exec, c, no_mask{}, no_accumulator{}, op, a, b);
  return c;
}

namespace detail {

template <bool Mult, class ExecSpace, class T, class Mask, class Accum, class Op>
void ewise_matrix(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask,
                  const Accum& accum, const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a_in,
                  const csr_matrix<T, memory_space_t<ExecSpace>>& b_in, const matrix_op_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  const char* func = Mult ? "ewise_mult" : "ewise_add";
  static_assert(std::is_same_v<Mask, no_mask> || is_matrix_mask_v<Mask>,
                "the mask of a matrix ewise op must be no_mask or a matrix_mask (mask_of a csr_matrix or csr_graph)");
  static_assert(is_csr_accumulator_v<Accum, T>,
                "accum must be no_accumulator, accumulate_with<Monoid> or a binary operator on the value type");
  static_assert(elementwise::is_binary_op_v<Op, T>, "op needs combine(a, b), apply(a, b) or apply(a, b, i, j)");
  choose_path<ExecSpace>(func, opts.algorithm, path_offer{});
  check_csr_matrix(func, "A", a_in);
  check_csr_matrix(func, "B", b_in);
  check_csr_matrix(func, "C", c);
  const auto a = opts.transpose_a ? transpose(exec, a_in) : a_in;
  const auto b = opts.transpose_b ? transpose(exec, b_in) : b_in;
  BITGRAPH_CHECK_ARG(a.n_rows == b.n_rows && a.n_cols == b.n_cols, func, "A", opts.transpose_a ? "ᵀ" : "", " is ",
                     a.n_rows, " x ", a.n_cols, " but B", opts.transpose_b ? "ᵀ" : "", " is ", b.n_rows, " x ",
                     b.n_cols);
  BITGRAPH_CHECK_ARG(c.n_rows == a.n_rows && c.n_cols == a.n_cols, func, "C is ", c.n_rows, " x ", c.n_cols,
                     " but A and B are ", a.n_rows, " x ", a.n_cols);
  check_matrix_mask(func, mask, c.n_rows, c.n_cols);
  profiling_region region(Mult ? "bitgraph::ewise_mult_matrix" : "bitgraph::ewise_add_matrix");

  // One all-zero row_ptr stands in for every missing one (array-less operands, mask, or a C that cannot
  // survive: no accumulator and no mask or a replacing one, where every old entry is overwritten or dropped).
  auto zeros = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::ewise_matrix::zeros", offset_t(c.n_rows) + 1);
  auto or_zeros = [&](csr_matrix<T, mem> m, bool drop) {
    if (drop || m.row_ptr.extent(0) == 0) {
      m.row_ptr = zeros;
      m.nnz = 0;
    }
    return m;
  };
  ewise_matrix_args<T, mem> args;
  args.mask = to_csr_mask_args<mem>(mask, zeros);
  constexpr bool accumulates = !std::is_same_v<Accum, no_accumulator>;
  args.a = or_zeros(a, false);
  args.b = or_zeros(b, false);
  args.c_old = or_zeros(c, !accumulates && (!args.mask.masked || args.mask.replace));
  c = ewise_matrix_impl<ExecSpace, Mult, Accum, Op, T>::run(exec, args, accum, op);
}

}  // namespace detail

template <class ExecSpace, class T, class Mask, class Accum, class Op>
void ewise_add(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
               const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a,
               const csr_matrix<T, memory_space_t<ExecSpace>>& b, const matrix_op_options& opts) {
  detail::ewise_matrix<false>(exec, c, mask, accum, op, a, b, opts);
}

template <class ExecSpace, class T, class Mask, class Accum, class Op>
void ewise_mult(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask,
                const Accum& accum, const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a,
                const csr_matrix<T, memory_space_t<ExecSpace>>& b, const matrix_op_options& opts) {
  detail::ewise_matrix<true>(exec, c, mask, accum, op, a, b, opts);
}

}  // namespace bitgraph
