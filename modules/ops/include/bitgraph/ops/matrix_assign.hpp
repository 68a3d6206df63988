// GraphBLAS assign, reduce and transpose on valued CSR matrices: C<M, replace>(I, J) = accum(C(I, J), A) and
// = accum(C(I, J), s) (GrB_Matrix_assign, GrB_Matrix_assign_Scalar), w<m> = accum(w, ⊕_j A(:, j)) into a dense
// vector (GrB_Matrix_reduce_Monoid, rows or columns) and C<M, replace> = accum(C, Aᵀ) (GrB_transpose), with the
// structural matrix masks and accumulators of ewise_matrix.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/assign.hpp"
#include "bitgraph/ops/detail/ewise_matrix_generic.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/detail/matrix_assign_generic.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/mxm_csr.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/ops/options.hpp"
#include "bitgraph/ops/reduce.hpp"

namespace bitgraph {

/// Every row (or column) of the output: GraphBLAS's GrB_ALL as an index list of `assign`.
struct all_indices {};

/// The rows I or the columns J of an `assign`: a view of indices (any order, no repeats) or `all_indices{}`.
/// Converts implicitly from either.
template <class MemorySpace>
struct index_list {
  Kokkos::View<const vertex_t*, MemorySpace> indices;  ///< the listed indices (unused when `all`)
  bool all = false;                                    ///< every index of the dimension, in order

  index_list(all_indices) : all(true) {}
  template <class V, class = std::enable_if_t<std::is_convertible_v<V, Kokkos::View<const vertex_t*, MemorySpace>>>>
  index_list(const V& v) : indices(v) {}
};

/// C<mask, replace>(I, J) = accum(C(I, J), A) (GraphBLAS GrB_Matrix_assign): A is |I| x |J| (Aᵀ with
/// `opts.transpose_a`) and A(a, b) lands at (I[a], J[b]); its values are converted to C's type.
///
/// Z, the C-sized intermediate: inside the region I x J, A's entry (no accumulator: where A has none, C's entry
/// is deleted) or accum(C, A) where both exist and the one present otherwise; outside the region, C's entry as
/// it is. Then the mask, which is C-sized: allowed positions take Z; excluded ones keep C's entry, or lose it
/// under `replace`, across all of C. `rows` and `cols` are index views (any order) or `all_indices{}`. `mask` is
/// `no_mask{}` or `mask_of(matrix or graph, complement, replace)` (structural); `accum` is `no_accumulator{}`,
/// `accumulate_with<Monoid>{}` or a binary operator of operators.hpp, called accum(C, A). C is given new arrays;
/// views of its old arrays are left as they were. C may be A.
///
/// Kernel: index maps of I and J (atomics, which also find repeats), A scattered to C's coordinates (count,
/// scan, fill, a heap sort per row when J is a list), then one thread per row of C walks C, the region's row and
/// the mask together (count, scan, fill). Work O(n_rows + n_cols + nnz(A) log + nnz(C) + nnz(mask)), memory
/// O(n_rows + n_cols + nnz(A) + nnz of the result).
///
/// Throws `invalid_argument_error` naming `assign` when A's shape is not |I| x |J|, the mask's shape is not C's,
/// an operand's arrays do not fit its shape, indices are out of range (saying how many) or listed twice (GraphBLAS
/// leaves repeats undefined); `allocation_error` when memory runs out. C is unchanged when it throws. Fences
/// `exec`.
template <class ExecSpace, class T, class Mask, class Accum, class TA>
void assign(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
            const csr_matrix<TA, memory_space_t<ExecSpace>>& a, const index_list<memory_space_t<ExecSpace>>& rows,
            const index_list<memory_space_t<ExecSpace>>& cols, const matrix_op_options& opts = {});

/// C<mask, replace>(I, J) = accum(C(I, J), s) (GraphBLAS GrB_Matrix_assign_Scalar): every position of the region
/// I x J gets s (converted to C's type), or accum(C, s) where C has an entry; then the mask as for the matrix
/// form. Kernel as the matrix form without A: the region's columns are listed ascending once (a scan over C's
/// columns). Work O(n_rows + n_cols + |I|·|J| + nnz(C) + nnz(mask)). Throws and fences as the matrix form.
template <class ExecSpace, class T, class Mask, class Accum, class S>
requires std::is_arithmetic_v<S>
void assign(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
            S s, const index_list<memory_space_t<ExecSpace>>& rows, const index_list<memory_space_t<ExecSpace>>& cols);

/// w<mask> = accum(w, ⊕_j A(i, j)) for a valued CSR matrix (GraphBLAS GrB_Matrix_reduce_Monoid into a vector;
/// with `opts.transpose_a`, ⊕_i A(i, j): the column reductions). `monoid` is any monoid of semirings.hpp
/// (plus_monoid, min_monoid, max_monoid, times_monoid, lor_monoid, ...) or a user's (`value_type`, `identity()`,
/// `combine(a, b)`); A's values are converted to its type, which is w's. w is a dense vector, as for the other
/// reductions (reduce.hpp): the identity marks an absent entry, so an empty row yields no entry (nor does a row
/// whose sum is the identity). The merge: allowed positions take the row's value (no accumulator) or accum(w, t)
/// where both are present and the present one otherwise; excluded ones keep w(i), or become the identity under
/// `replace`. `mask` is `no_mask{}` or a vector mask (`mask_of(bitmap, complement, replace)`); `accum` is
/// `no_accumulator{}`, `accumulate_with<Monoid>{}` or a binary operator of operators.hpp.
///
/// Kernel: one thread per row, combining in column order. Work O(n_rows + nnz), plus a transpose (O(nnz log))
/// for the columns. Throws `invalid_argument_error` naming `reduce_rows` when w or the mask does not have one
/// entry per row (column) or A's arrays do not fit its shape; `allocation_error` when memory runs out. Fences
/// `exec`.
template <class ExecSpace, class W, class Mask, class Accum, class M, class TA>
requires detail::is_dense<W>::value void reduce_rows(const ExecSpace& exec, W& w, const Mask& mask, const Accum& accum,
                                                     const M& monoid,
                                                     const csr_matrix<TA, memory_space_t<ExecSpace>>& a,
                                                     const matrix_op_options& opts = {});

/// w<mask> = accum(w, ⊕_i A(i, j)): `reduce_rows` of Aᵀ (GrB_Matrix_reduce_Monoid with GrB_DESC_T0); with
/// `opts.transpose_a` the row reductions. Rules, work, errors (naming `reduce_columns`) and fencing as there.
template <class ExecSpace, class W, class Mask, class Accum, class M, class TA>
requires detail::is_dense<W>::value void reduce_columns(const ExecSpace& exec, W& w, const Mask& mask,
                                                        const Accum& accum, const M& monoid,
                                                        const csr_matrix<TA, memory_space_t<ExecSpace>>& a,
                                                        const matrix_op_options& opts = {});

/// C<mask, replace> = accum(C, Aᵀ) (GraphBLAS GrB_transpose; with `opts.transpose_a`, as GrB_DESC_T0, A itself).
/// A's values are converted to C's type. The merge, mask and accumulator as for `ewise_add` (whose row kernel
/// merges Aᵀ into C: one thread per row walking C, Aᵀ and the mask). C may be A. Work O(nnz(A) log + n_rows +
/// nnz(C) + nnz(mask)). Throws `invalid_argument_error` naming `transpose` when C is not cols(A) x rows(A), the
/// mask's shape is not C's, or an operand's arrays do not fit its shape; `allocation_error` when memory runs out.
/// C is given new arrays. Fences `exec`.
template <class ExecSpace, class T, class Mask, class Accum, class TA>
void transpose(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
               const csr_matrix<TA, memory_space_t<ExecSpace>>& a, const matrix_op_options& opts = {});

namespace detail {

/// An index list checked against its dimension and turned into a map index -> position in the list.
template <class Mem>
struct checked_indices {
  Kokkos::View<vertex_t*, Mem> map;  ///< dimension-sized, invalid_vertex off the list (empty for all)
  Kokkos::View<const vertex_t*, Mem> list;
  vertex_t size = 0;
  bool all = false;
};

/// Checks the range first, then builds the map, counting repeats.
template <class ExecSpace>
checked_indices<memory_space_t<ExecSpace>> check_index_list(const ExecSpace& exec, const char* func, const char* what,
                                                            const char* dim,
                                                            const index_list<memory_space_t<ExecSpace>>& l,
                                                            vertex_t n) {
  using mem = memory_space_t<ExecSpace>;
  checked_indices<mem> r;
  if (l.all) {
    r.all = true;
    r.size = n;
    return r;
  }
  const offset_t len = l.indices.extent(0);
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
  // The range check of the vector assign (ops/assign.hpp), before any index is used as a subscript.
  const offset_t bad = assign_indices_impl<ExecSpace, std::uint32_t>::count_out_of_range(exec, l.indices, n);
  BITGRAPH_CHECK_ARG(bad == 0, func, bad, " of the ", len, " indices of ", what, " are >= ", dim, " = ", n);
  r.map = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::matrix_assign::map", n, false);
  Kokkos::deep_copy(exec, r.map, invalid_vertex);
  offset_t dup = 0;
  Kokkos::parallel_reduce("bitgraph::matrix_assign::map", policy(exec, 0, len), build_index_map<mem>{l.indices, r.map},
                          dup);
  BITGRAPH_CHECK_ARG(dup == 0, func, what, " lists ", dup, " of its ", len,
                     " indices more than once (GraphBLAS leaves repeated indices undefined)");
  r.list = l.indices;
  r.size = static_cast<vertex_t>(len);
  return r;
}

/// `m` (with a row_ptr) with its values as V: `m` itself when it has that type, else a converted copy that shares
/// the pattern.
template <class V, class ExecSpace, class TA>
csr_matrix<V, memory_space_t<ExecSpace>> values_as(const ExecSpace& exec,
                                                   const csr_matrix<TA, memory_space_t<ExecSpace>>& m) {
  using mem = memory_space_t<ExecSpace>;
  if constexpr (std::is_same_v<V, TA>) {
    return m;
  } else {
    csr_matrix<V, mem> out;
    out.n_rows = m.n_rows;
    out.n_cols = m.n_cols;
    out.nnz = m.nnz;
    out.row_ptr = m.row_ptr;
    out.col_idx = m.col_idx;
    out.values =
        allocate_view<typename csr_matrix<V, mem>::values_view>("bitgraph::matrix_assign::values", m.nnz, false);
    Kokkos::parallel_for("bitgraph::matrix_assign::convert",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, m.nnz),
                         convert_values<TA, V, mem>{m.values, out.values});
    return out;
  }
}

template <class Mask, class Accum, class V>
void check_matrix_op_types() {
  static_assert(std::is_same_v<Mask, no_mask> || is_matrix_mask_v<Mask>,
                "the mask of a matrix op must be no_mask or a matrix_mask (mask_of a csr_matrix or csr_graph)");
  static_assert(is_csr_accumulator_v<Accum, V>,
                "accum must be no_accumulator, accumulate_with<Monoid> or a binary operator on the value type");
}

/// The common body of both assigns: checks, index maps, the region (T built by `make_t` for the matrix form),
/// the row merge.
template <bool Scalar, class ExecSpace, class T, class Mask, class Accum, class MakeT>
void matrix_assign(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask,
                   const Accum& accum, const index_list<memory_space_t<ExecSpace>>& rows,
                   const index_list<memory_space_t<ExecSpace>>& cols, vertex_t a_rows, vertex_t a_cols, T s,
                   const MakeT& make_t) {
  using mem = memory_space_t<ExecSpace>;
  const char* func = "assign";
  check_csr_matrix(func, "C", c);
  check_matrix_mask(func, mask, c.n_rows, c.n_cols);
  if constexpr (!Scalar) {
    const offset_t ni = rows.all ? c.n_rows : rows.indices.extent(0);
    const offset_t nj = cols.all ? c.n_cols : cols.indices.extent(0);
    BITGRAPH_CHECK_ARG(a_rows == ni && a_cols == nj, func, "A is ", a_rows, " x ", a_cols, " but I x J is ", ni, " x ",
                       nj);
  }
  profiling_region region(Scalar ? "bitgraph::assign_matrix_scalar" : "bitgraph::assign_matrix");
  const auto ri = check_index_list(exec, func, "I", "n_rows(C)", rows, c.n_rows);
  const auto ci = check_index_list(exec, func, "J", "n_cols(C)", cols, c.n_cols);

  assign_region<T, mem> r;
  r.row_map = ri.map;
  r.col_map = ci.map;
  r.all_rows = ri.all;
  r.all_cols = ci.all;
  r.n_cols = c.n_cols;
  r.n_region_cols = ci.size;
  r.s = s;
  if constexpr (Scalar) {
    if (!ci.all) {
      // The region's columns in ascending order: flags, scan, compaction over C's columns.
      using cols_policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
      auto pos = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::matrix_assign::pos", offset_t(c.n_cols) + 1);
      Kokkos::parallel_for("bitgraph::matrix_assign::flag", cols_policy(exec, 0, c.n_cols),
                           flag_mapped<mem>{ci.map, pos});
      exclusive_scan(exec, pos, "bitgraph::matrix_assign::scan_cols");
      auto sorted = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::matrix_assign::cols", ci.size, false);
      Kokkos::parallel_for("bitgraph::matrix_assign::compact", cols_policy(exec, 0, c.n_cols),
                           compact_mapped<mem>{ci.map, pos, sorted});
      r.sorted_cols = sorted;
    }
  } else {
    const csr_matrix<T, mem> t = make_t(ri, ci);
    r.t_ptr = t.row_ptr;
    r.t_col = t.col_idx;
    r.t_val = t.values;
  }
  auto zeros = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::matrix_assign::zeros", offset_t(c.n_rows) + 1);
  const auto margs = to_csr_mask_args<mem>(mask, zeros);
  const auto c_old = with_row_ptr(exec, c);
  c = matrix_assign_impl<ExecSpace, Scalar, Accum, T>::run(exec, c_old, margs, r, accum);
}

template <class ExecSpace, class W, class Mask, class Accum, class M, class TA>
void matrix_reduce(const char* func, const ExecSpace& exec, W& w, const Mask& mask, const Accum& accum,
                   const csr_matrix<TA, memory_space_t<ExecSpace>>& a, bool transpose_a, op_algorithm algorithm) {
  using mem = memory_space_t<ExecSpace>;
  using V = typename M::value_type;
  static_assert(std::is_same_v<typename W::non_const_value_type, V>, "the output's value type must be the monoid's");
  static_assert(is_csr_accumulator_v<Accum, V>,
                "accum must be no_accumulator, accumulate_with<Monoid> or a binary operator on the value type");
  check_monoid<M>();
  choose_path<ExecSpace>(func, algorithm, path_offer{});
  check_csr_matrix(func, "A", a);
  const vertex_t n = transpose_a ? a.n_cols : a.n_rows;
  BITGRAPH_CHECK_ARG(w.extent(0) == n, func, "the output has ", w.extent(0), " entries but A", transpose_a ? "ᵀ" : "",
                     " has ", n, " rows");
  check_mask_length(func, mask, n);
  profiling_region region(transpose_a ? "bitgraph::reduce_columns_matrix" : "bitgraph::reduce_rows_matrix");
  const auto at = transpose_a ? transpose(exec, a) : with_row_ptr(exec, a);
  matrix_reduce_impl<ExecSpace, M, Accum, TA>::run(exec, Kokkos::View<V*, mem>(w), to_mask_args<mem>(mask), accum, at);
  exec.fence();
}

/// C<mask, replace> = accum(C, T) for a C-shaped T of C's value type (T's arrays may become C's): the merge of
/// `ewise_add` with an empty second operand, or C = T without a mask and an accumulator. Serves `transpose` and
/// `extract`.
template <class ExecSpace, class T, class Mask, class Accum>
void merge_matrix(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask,
                  const Accum& accum, const csr_matrix<T, memory_space_t<ExecSpace>>& t) {
  using mem = memory_space_t<ExecSpace>;
  constexpr bool accumulates = !std::is_same_v<Accum, no_accumulator>;
  if (!accumulates && std::is_same_v<Mask, no_mask>) {
    exec.fence();
    c = t;  // nothing to merge
    return;
  }
  auto zeros = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::merge_matrix::zeros", offset_t(c.n_rows) + 1);
  ewise_matrix_args<T, mem> args;
  args.mask = to_csr_mask_args<mem>(mask, zeros);
  args.a = t;
  args.b.n_rows = c.n_rows;
  args.b.n_cols = c.n_cols;
  args.b.row_ptr = zeros;
  args.c_old = with_row_ptr(exec, c);
  if (!accumulates && args.mask.replace) {
    // Every old entry is overwritten or dropped (as in ewise_matrix).
    args.c_old.row_ptr = zeros;
    args.c_old.nnz = 0;
  }
  c = ewise_matrix_impl<ExecSpace, false, Accum, first_op, T>::run(exec, args, accum, first_op{});
}

}  // namespace detail

template <class ExecSpace, class T, class Mask, class Accum, class TA>
void assign(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
            const csr_matrix<TA, memory_space_t<ExecSpace>>& a, const index_list<memory_space_t<ExecSpace>>& rows,
            const index_list<memory_space_t<ExecSpace>>& cols, const matrix_op_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  using mat = csr_matrix<T, mem>;
  detail::check_matrix_op_types<Mask, Accum, T>();
  detail::choose_path<ExecSpace>("assign", opts.algorithm, detail::path_offer{});
  detail::check_csr_matrix("assign", "A", a);
  const vertex_t a_rows = opts.transpose_a ? a.n_cols : a.n_rows;
  const vertex_t a_cols = opts.transpose_a ? a.n_rows : a.n_cols;
  // T: A (or Aᵀ) at C's coordinates, built after every check passed.
  auto make_t = [&](const detail::checked_indices<mem>& ri, const detail::checked_indices<mem>& ci) {
    using rows_policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
    const auto ao = opts.transpose_a ? transpose(exec, a) : detail::with_row_ptr(exec, a);
    mat t;
    t.n_rows = c.n_rows;
    t.n_cols = c.n_cols;
    t.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::matrix_assign::t_ptr", offset_t(c.n_rows) + 1);
    Kokkos::parallel_for("bitgraph::matrix_assign::scatter_count", rows_policy(exec, 0, c.n_rows),
                         detail::scatter_count<mem>{ri.map, ao.row_ptr, t.row_ptr, ri.all});
    t.nnz = detail::exclusive_scan(exec, t.row_ptr, "bitgraph::matrix_assign::scatter_scan");
    t.col_idx = allocate_view<typename mat::indices_view>("bitgraph::matrix_assign::t_col", t.nnz, false);
    t.values = allocate_view<typename mat::values_view>("bitgraph::matrix_assign::t_val", t.nnz, false);
    Kokkos::parallel_for("bitgraph::matrix_assign::scatter_fill", rows_policy(exec, 0, c.n_rows),
                         detail::scatter_fill<TA, T, mem>{ri.map, ci.list, ao.row_ptr, ao.col_idx, ao.values, t.row_ptr,
                                                          t.col_idx, t.values, ri.all, ci.all});
    // A list J need not ascend; rows of T must.
    if (!ci.all)
      Kokkos::parallel_for("bitgraph::matrix_assign::sort", rows_policy(exec, 0, c.n_rows),
                           detail::sort_matrix_rows<T, mem>{t.row_ptr, t.col_idx, t.values});
    return t;
  };
  detail::matrix_assign<false>(exec, c, mask, accum, rows, cols, a_rows, a_cols, T{}, make_t);
}

template <class ExecSpace, class T, class Mask, class Accum, class S>
requires std::is_arithmetic_v<S>
void assign(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
            S s, const index_list<memory_space_t<ExecSpace>>& rows, const index_list<memory_space_t<ExecSpace>>& cols) {
  using mem = memory_space_t<ExecSpace>;
  detail::check_matrix_op_types<Mask, Accum, T>();
  auto no_t = [](const detail::checked_indices<mem>&, const detail::checked_indices<mem>&) {
    return csr_matrix<T, mem>{};
  };
  detail::matrix_assign<true>(exec, c, mask, accum, rows, cols, 0, 0, static_cast<T>(s), no_t);
}

template <class ExecSpace, class W, class Mask, class Accum, class M, class TA>
requires detail::is_dense<W>::value void reduce_rows(const ExecSpace& exec, W& w, const Mask& mask, const Accum& accum,
                                                     const M&, const csr_matrix<TA, memory_space_t<ExecSpace>>& a,
                                                     const matrix_op_options& opts) {
  detail::matrix_reduce<ExecSpace, W, Mask, Accum, M>(opts.transpose_a ? "reduce_columns" : "reduce_rows", exec, w,
                                                      mask, accum, a, opts.transpose_a, opts.algorithm);
}

template <class ExecSpace, class W, class Mask, class Accum, class M, class TA>
requires detail::is_dense<W>::value void reduce_columns(const ExecSpace& exec, W& w, const Mask& mask,
                                                        const Accum& accum, const M&,
                                                        const csr_matrix<TA, memory_space_t<ExecSpace>>& a,
                                                        const matrix_op_options& opts) {
  detail::matrix_reduce<ExecSpace, W, Mask, Accum, M>(opts.transpose_a ? "reduce_rows" : "reduce_columns", exec, w,
                                                      mask, accum, a, !opts.transpose_a, opts.algorithm);
}

template <class ExecSpace, class T, class Mask, class Accum, class TA>
void transpose(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
               const csr_matrix<TA, memory_space_t<ExecSpace>>& a, const matrix_op_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  using mat = csr_matrix<T, mem>;
  const char* func = "transpose";
  detail::check_matrix_op_types<Mask, Accum, T>();
  detail::choose_path<ExecSpace>(func, opts.algorithm, detail::path_offer{});
  detail::check_csr_matrix(func, "A", a);
  detail::check_csr_matrix(func, "C", c);
  const vertex_t t_rows = opts.transpose_a ? a.n_rows : a.n_cols;
  const vertex_t t_cols = opts.transpose_a ? a.n_cols : a.n_rows;
  BITGRAPH_CHECK_ARG(c.n_rows == t_rows && c.n_cols == t_cols, func, "C is ", c.n_rows, " x ", c.n_cols, " but A",
                     opts.transpose_a ? "" : "ᵀ", " is ", t_rows, " x ", t_cols);
  detail::check_matrix_mask(func, mask, c.n_rows, c.n_cols);
  detail::profiling_region region("bitgraph::transpose_masked");

  mat t;
  if (opts.transpose_a) {
    // A itself, copied so that C never shares A's arrays (values_as copies the values when it converts them).
    const auto a0 = detail::with_row_ptr(exec, a);
    t = detail::values_as<T>(exec, a0);
    t.row_ptr = detail::copy_prefix<typename mat::offsets_view>(exec, a0.row_ptr, offset_t(a0.n_rows) + 1,
                                                                "bitgraph::transpose::row_ptr");
    t.col_idx =
        detail::copy_prefix<typename mat::indices_view>(exec, a0.col_idx, a0.nnz, "bitgraph::transpose::col_idx");
    if constexpr (std::is_same_v<T, TA>)
      t.values = detail::copy_prefix<typename mat::values_view>(exec, a0.values, a0.nnz, "bitgraph::transpose::values");
  } else {
    t = detail::values_as<T>(exec, transpose(exec, a));
  }
  detail::merge_matrix(exec, c, mask, accum, t);  // T = Aᵀ
}

}  // namespace bitgraph
