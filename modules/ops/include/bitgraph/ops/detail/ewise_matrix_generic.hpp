// The portable kernels of the matrix element-wise ops (ops/ewise_matrix.hpp): one thread per row walks the
// rows of A, B, C and the mask together in column order, computing T = A ⊕ B (or A ⊗ B) and merging it into C
// under mask, accumulator and replace in the same pass (count, scan, fill), so T is never stored.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/mxm_csr_generic.hpp"
#include "bitgraph/ops/operators.hpp"

namespace bitgraph::detail {

/// Row i of C<M, replace> = accum(C, A op B): union of the patterns (`Mult` false: op where both are stored,
/// the single value elsewhere) or intersection (`Mult` true). Columns ascend in all four rows, so the mask
/// is walked with a cursor instead of searched: O(row lengths of A, B, C and M). `Fill` false counts the
/// row's entries into `count(i)`; true writes them at `out_ptr(i)`. A positional op sees (i, j).
template <bool Fill, bool Mult, class Accum, class Op, class V, class Mem>
struct ewise_matrix_rows {
  Accum acc;
  Op op;
  csr_mask_args<Mem> mask;
  Kokkos::View<const offset_t*, Mem> a_ptr;
  Kokkos::View<const vertex_t*, Mem> a_col;
  Kokkos::View<const V*, Mem> a_val;
  Kokkos::View<const offset_t*, Mem> b_ptr;
  Kokkos::View<const vertex_t*, Mem> b_col;
  Kokkos::View<const V*, Mem> b_val;
  Kokkos::View<const offset_t*, Mem> c_ptr;  // all zero when C's old entries cannot survive
  Kokkos::View<const vertex_t*, Mem> c_col;
  Kokkos::View<const V*, Mem> c_val;
  csr_row_output<V, Mem> out;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    offset_t pa = a_ptr(i), pb = b_ptr(i), pc = c_ptr(i);
    const offset_t ae = a_ptr(i + 1), be = b_ptr(i + 1), ce = c_ptr(i + 1);
    mask_row_cursor m(mask, i);
    row_writer<Fill, V> w(out, i);
    while (pa < ae || pb < be || pc < ce) {
      const vertex_t aj = pa < ae ? a_col(pa) : invalid_vertex;
      const vertex_t bj = pb < be ? b_col(pb) : invalid_vertex;
      const vertex_t cj = pc < ce ? c_col(pc) : invalid_vertex;
      vertex_t j = aj < bj ? aj : bj;
      j = cj < j ? cj : j;
      const bool has_a = aj == j, has_b = bj == j, has_c = cj == j;
      const bool allowed = m.allowed(j);
      const bool has_t = Mult ? (has_a && has_b) : (has_a || has_b);
      V t{};
      if (allowed && has_t) {
        if (has_a && has_b)
          t = elementwise::apply_binary_at(op, a_val(pa), b_val(pb), i, j);
        else
          t = has_a ? a_val(pa) : b_val(pb);
      }
      w.merge(acc, allowed, mask.replace, has_c, has_c ? c_val(pc) : V{}, has_t, t, i, j);
      if (has_a) ++pa;
      if (has_b) ++pb;
      if (has_c) ++pc;
    }
    w.finish(out, i);
  }
};

/// The operands of one call, with every row_ptr present (zeros stand in for missing ones).
template <class V, class Mem>
struct ewise_matrix_args {
  csr_matrix<V, Mem> a, b, c_old;
  csr_mask_args<Mem> mask;
};

/// The dispatch point of the matrix ewise ops (a backend may specialise it for its space): returns the new C,
/// built by a count pass, an exclusive scan and a fill pass. Fences `exec` (the scan's total is read back).
template <class ExecSpace, bool Mult, class Accum, class Op, class V>
struct ewise_matrix_impl {
  using mem = memory_space_t<ExecSpace>;
  using mat = csr_matrix<V, mem>;
  static mat run(const ExecSpace& exec, const ewise_matrix_args<V, mem>& x, const Accum& acc, const Op& op) {
    using rows = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
    const auto& a = x.a;
    const auto& b = x.b;
    const auto& c = x.c_old;
    mat z;
    z.n_rows = c.n_rows;
    z.n_cols = c.n_cols;
    z.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::ewise_matrix::row_ptr", offset_t(z.n_rows) + 1);
    Kokkos::parallel_for("bitgraph::ewise_matrix::count", rows(exec, 0, z.n_rows),
                         ewise_matrix_rows<false, Mult, Accum, Op, V, mem>{
                             acc, op, x.mask, a.row_ptr, a.col_idx, a.values, b.row_ptr, b.col_idx, b.values, c.row_ptr,
                             c.col_idx, c.values, csr_row_output<V, mem>::counting(z.row_ptr)});
    z.nnz = exclusive_scan(exec, z.row_ptr, "bitgraph::ewise_matrix::scan");
    z.col_idx = allocate_view<typename mat::indices_view>("bitgraph::ewise_matrix::col_idx", z.nnz, false);
    z.values = allocate_view<typename mat::values_view>("bitgraph::ewise_matrix::values", z.nnz, false);
    Kokkos::parallel_for("bitgraph::ewise_matrix::fill", rows(exec, 0, z.n_rows),
                         ewise_matrix_rows<true, Mult, Accum, Op, V, mem>{
                             acc, op, x.mask, a.row_ptr, a.col_idx, a.values, b.row_ptr, b.col_idx, b.values, c.row_ptr,
                             c.col_idx, c.values, csr_row_output<V, mem>::filling(z)});
    exec.fence();
    return z;
  }
};

}  // namespace bitgraph::detail
