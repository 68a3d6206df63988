// The portable kernels of apply and select on valued CSR matrices (ops/matrix_apply.hpp): one thread per row
// walks the rows of A, C and the mask together in column order, computing T = f(A) (or A's selected entries)
// and merging it into C under mask, accumulator and replace in the same pass (count, scan, fill), so T is never
// stored.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <utility>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/mxm_csr_generic.hpp"
#include "bitgraph/ops/operators.hpp"

namespace bitgraph::detail {

namespace elementwise {

/// Whether `F` has the matrix entry form `apply(i, j, x)` (GraphBLAS index-unary operators).
template <class F, class T, class = void>
struct has_entry_apply : std::false_type {};
template <class F, class T>
struct has_entry_apply<F, T,
                       std::void_t<decltype(std::declval<const F&>().apply(
                           std::declval<vertex_t>(), std::declval<vertex_t>(), std::declval<T>()))>> : std::true_type {
};

/// True when `F` maps a matrix entry of type T in one of the forms `apply` on matrices accepts.
template <class F, class T>
inline constexpr bool is_matrix_unary_v =
    has_entry_apply<F, T>::value || has_unary_apply<F, T>::value || has_positional_apply<F, T>::value;

/// True when `P` judges a matrix entry of type T: `apply(i, j, x)` or the vector predicate form `apply(i, x)`.
template <class P, class T>
inline constexpr bool is_matrix_predicate_v = has_entry_apply<P, T>::value || is_predicate<P, T>::value;

/// f(A(i, j)) converted to V, in whichever form `F` provides: `apply(i, j, x)` first, then `apply(x)`, then
/// `apply(i, x)` (the row as the position, as `bind_second` of a positional operator sees it).
template <class V, class F, class TA>
KOKKOS_FORCEINLINE_FUNCTION V apply_entry(const F& f, vertex_t i, vertex_t j, TA x) {
  if constexpr (has_entry_apply<F, TA>::value) {
    return static_cast<V>(f.apply(i, j, x));
  } else if constexpr (has_unary_apply<F, TA>::value) {
    return static_cast<V>(f.apply(x));
  } else {
    return static_cast<V>(f.apply(i, x));
  }
}

/// Whether A(i, j) = x is kept: `apply(i, j, x)`, or `apply(i, x)` with the row.
template <class P, class TA>
KOKKOS_FORCEINLINE_FUNCTION bool select_entry(const P& p, vertex_t i, vertex_t j, TA x) {
  if constexpr (has_entry_apply<P, TA>::value) {
    return static_cast<bool>(p.apply(i, j, x));
  } else {
    return static_cast<bool>(p.apply(i, x));
  }
}

}  // namespace elementwise

/// Row i of C<M, replace> = accum(C, T) with T = f(A) (`Select` false: every stored entry of A mapped and
/// converted to V) or T = A's entries for which the predicate holds (`Select` true: values converted to V).
/// Columns ascend in all three rows, so the mask is walked with a cursor instead of searched: O(row lengths
/// of A, C and M). `f` is only called at positions the mask allows (elsewhere T is not read). `Fill` false
/// counts the row's entries into `count(i)`; true writes them at `out_ptr(i)`.
template <bool Fill, bool Select, class Accum, class F, class TA, class V, class Mem>
struct matrix_apply_rows {
  Accum acc;
  F f;
  csr_mask_args<Mem> mask;
  Kokkos::View<const offset_t*, Mem> a_ptr;
  Kokkos::View<const vertex_t*, Mem> a_col;
  Kokkos::View<const TA*, Mem> a_val;
  Kokkos::View<const offset_t*, Mem> c_ptr;  // all zero when C's old entries cannot survive
  Kokkos::View<const vertex_t*, Mem> c_col;
  Kokkos::View<const V*, Mem> c_val;
  csr_row_output<V, Mem> out;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    offset_t pa = a_ptr(i), pc = c_ptr(i);
    const offset_t ae = a_ptr(i + 1), ce = c_ptr(i + 1);
    mask_row_cursor m(mask, i);
    row_writer<Fill, V> w(out, i);
    while (pa < ae || pc < ce) {
      const vertex_t aj = pa < ae ? a_col(pa) : invalid_vertex;
      const vertex_t cj = pc < ce ? c_col(pc) : invalid_vertex;
      const vertex_t j = aj < cj ? aj : cj;
      const bool has_a = aj == j, has_c = cj == j;
      const bool allowed = m.allowed(j);
      bool has_t = has_a;
      V t{};
      if (allowed && has_a) {
        if constexpr (Select) {
          has_t = elementwise::select_entry(f, i, j, a_val(pa));
          if (has_t) t = static_cast<V>(a_val(pa));
        } else {
          t = elementwise::apply_entry<V>(f, i, j, a_val(pa));
        }
      }
      w.merge(acc, allowed, mask.replace, has_c, has_c ? c_val(pc) : V{}, has_t, t, i, j);
      if (has_a) ++pa;
      if (has_c) ++pc;
    }
    w.finish(out, i);
  }
};

/// The operands of one call, with every row_ptr present (zeros stand in for missing ones). `a` is already
/// transposed when the descriptor asks for Aᵀ.
template <class TA, class V, class Mem>
struct matrix_apply_args {
  csr_matrix<TA, Mem> a;
  csr_matrix<V, Mem> c_old;
  csr_mask_args<Mem> mask;
};

/// The dispatch point of matrix apply (`Select` false) and select (true) (a backend may specialise it for its
/// space): returns the new C, built by a count pass, an exclusive scan and a fill pass. Fences `exec` (the scan's
/// total is read back).
template <class ExecSpace, bool Select, class Accum, class F, class TA, class V>
struct matrix_apply_impl {
  using mem = memory_space_t<ExecSpace>;
  using mat = csr_matrix<V, mem>;
  static mat run(const ExecSpace& exec, const matrix_apply_args<TA, V, mem>& x, const Accum& acc, const F& f) {
    using rows = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
    const auto& a = x.a;
    const auto& c = x.c_old;
    mat z;
    z.n_rows = c.n_rows;
    z.n_cols = c.n_cols;
    if (!Select && !x.mask.masked && c.nnz == 0) {
      // Every entry of A maps to one of C and nothing else survives: C takes A's row offsets, and only the
      // fill pass runs.
      z.nnz = a.nnz;
      z.row_ptr = copy_prefix<typename mat::offsets_view>(exec, a.row_ptr, offset_t(z.n_rows) + 1,
                                                          "bitgraph::matrix_apply::row_ptr");
    } else {
      z.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::matrix_apply::row_ptr", offset_t(z.n_rows) + 1);
      Kokkos::parallel_for("bitgraph::matrix_apply::count", rows(exec, 0, z.n_rows),
                           matrix_apply_rows<false, Select, Accum, F, TA, V, mem>{
                               acc, f, x.mask, a.row_ptr, a.col_idx, a.values, c.row_ptr, c.col_idx, c.values,
                               csr_row_output<V, mem>::counting(z.row_ptr)});
      z.nnz = exclusive_scan(exec, z.row_ptr, "bitgraph::matrix_apply::scan");
    }
    z.col_idx = allocate_view<typename mat::indices_view>("bitgraph::matrix_apply::col_idx", z.nnz, false);
    z.values = allocate_view<typename mat::values_view>("bitgraph::matrix_apply::values", z.nnz, false);
    Kokkos::parallel_for(
        "bitgraph::matrix_apply::fill", rows(exec, 0, z.n_rows),
        matrix_apply_rows<true, Select, Accum, F, TA, V, mem>{acc, f, x.mask, a.row_ptr, a.col_idx, a.values, c.row_ptr,
                                                              c.col_idx, c.values, csr_row_output<V, mem>::filling(z)});
    exec.fence();
    return z;
  }
};

}  // namespace bitgraph::detail
