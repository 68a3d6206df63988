// The portable kernels of the matrix assign, reduce and transpose ops (ops/matrix_assign.hpp): index maps of
// the assigned rows and columns (with range and duplicate checks), A scattered to C's coordinates, one thread per
// row of C merging the assigned region into C under mask, accumulator and replace (count, scan, fill), and one
// thread per row reducing a valued CSR matrix into a dense vector.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/detail/mxm_csr_generic.hpp"
#include "bitgraph/ops/operators.hpp"

namespace bitgraph::detail {

// ------------------------------------------------------------------------------------ index lists

/// map(idx(k)) = k for every k; counts the indices listed more than once (the later claims find the slot
/// taken). `map` holds invalid_vertex on entry.
template <class Mem>
struct build_index_map {
  Kokkos::View<const vertex_t*, Mem> idx;
  Kokkos::View<vertex_t*, Mem> map;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k, offset_t& dup) const {
    const vertex_t old = Kokkos::atomic_compare_exchange(&map(idx(k)), invalid_vertex, static_cast<vertex_t>(k));
    if (old != invalid_vertex) ++dup;
  }
};

/// flags(j) = 1 where map(j) is set: the first step of listing the assigned columns in ascending order.
template <class Mem>
struct flag_mapped {
  Kokkos::View<const vertex_t*, Mem> map;
  Kokkos::View<offset_t*, Mem> flags;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t j) const { flags(j) = map(j) != invalid_vertex ? 1 : 0; }
};

/// sorted(pos(j)) = j for every mapped j (pos is the exclusive scan of `flag_mapped`).
template <class Mem>
struct compact_mapped {
  Kokkos::View<const vertex_t*, Mem> map;
  Kokkos::View<const offset_t*, Mem> pos;
  Kokkos::View<vertex_t*, Mem> sorted;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t j) const {
    if (map(j) != invalid_vertex) sorted(pos(j)) = j;
  }
};

// ------------------------------------------------------------------------------------ A in C's coordinates

/// Row lengths of T, the n_rows(C) x n_cols(C) matrix holding A(a, b) at (I[a], J[b]): A's row row_map(i), or
/// nothing for a row outside I. `row_map` empty means I = all (the identity).
template <class Mem>
struct scatter_count {
  Kokkos::View<const vertex_t*, Mem> row_map;
  Kokkos::View<const offset_t*, Mem> a_ptr;
  Kokkos::View<offset_t*, Mem> count;
  bool all_rows;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    const vertex_t a = all_rows ? i : row_map(i);
    count(i) = a == invalid_vertex ? 0 : a_ptr(a + 1) - a_ptr(a);
  }
};

/// Row i of T: A's row row_map(i) with column b renamed J[b] (or b for J = all) and values converted to V; the
/// row is sorted afterwards when J is a list (it need not ascend).
template <class TA, class V, class Mem>
struct scatter_fill {
  Kokkos::View<const vertex_t*, Mem> row_map;
  Kokkos::View<const vertex_t*, Mem> cols;  // J
  Kokkos::View<const offset_t*, Mem> a_ptr;
  Kokkos::View<const vertex_t*, Mem> a_col;
  Kokkos::View<const TA*, Mem> a_val;
  Kokkos::View<const offset_t*, Mem> t_ptr;
  Kokkos::View<vertex_t*, Mem> t_col;
  Kokkos::View<V*, Mem> t_val;
  bool all_rows, all_cols;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    const vertex_t a = all_rows ? i : row_map(i);
    if (a == invalid_vertex) return;
    offset_t q = t_ptr(i);
    for (offset_t p = a_ptr(a); p < a_ptr(a + 1); ++p, ++q) {
      t_col(q) = all_cols ? a_col(p) : cols(a_col(p));
      t_val(q) = static_cast<V>(a_val(p));
    }
  }
};

/// Converts a matrix's values to another type (the pattern is shared).
template <class TA, class V, class Mem>
struct convert_values {
  Kokkos::View<const TA*, Mem> in;
  Kokkos::View<V*, Mem> out;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const { out(p) = static_cast<V>(in(p)); }
};

// ------------------------------------------------------------------------------------ the assign merge

/// The assigned region and its new values, as the row kernel sees them. Rows: `all_rows`, or row_map(i) !=
/// invalid_vertex. Columns: `all_cols`, or col_map(j) != invalid_vertex. Values (matrix form): T's rows, whose
/// entries lie in the region; (scalar form) `s` at every region column, listed ascending in `sorted_cols` (or
/// 0 .. n_cols - 1 for all).
template <class V, class Mem>
struct assign_region {
  Kokkos::View<const vertex_t*, Mem> row_map, col_map, sorted_cols;
  vertex_t n_cols = 0;         // of C
  vertex_t n_region_cols = 0;  // |J|
  bool all_rows = false, all_cols = false;
  Kokkos::View<const offset_t*, Mem> t_ptr;  // matrix form
  Kokkos::View<const vertex_t*, Mem> t_col;
  Kokkos::View<const V*, Mem> t_val;
  V s{};  // scalar form
};

/// Row i of C<M, replace>(I, J) = accum(C(I, J), A) (GrB_Matrix_assign, `Scalar` false) or = accum(C(I, J), s)
/// (GrB_Matrix_assign_Scalar, `Scalar` true). Per position j, walking C's row, the region's row and the mask's
/// row in column order: Z is C outside the region; inside it, A's entry (no accumulator: its absence deletes
/// C's) or accum(C, A) where both exist and the one present otherwise (merge_entry). Then the mask: allowed
/// positions take Z, excluded ones keep C's entry, or lose it under `replace` (merge_entry again, with Z in the
/// role of T). `Fill` false counts the row's entries into `count(i)`; true writes them at `out_ptr(i)`.
template <bool Fill, bool Scalar, class Accum, class V, class Mem>
struct matrix_assign_rows {
  Accum acc;
  csr_mask_args<Mem> mask;
  assign_region<V, Mem> r;
  Kokkos::View<const offset_t*, Mem> c_ptr;
  Kokkos::View<const vertex_t*, Mem> c_col;
  Kokkos::View<const V*, Mem> c_val;
  csr_row_output<V, Mem> out;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    const bool row_in = r.all_rows || r.row_map(i) != invalid_vertex;
    offset_t pc = c_ptr(i);
    const offset_t ce = c_ptr(i + 1);
    // The region's entries of row i: T's row, or the region's columns (scalar form); none outside I.
    offset_t q = 0, qe = 0;
    if (row_in) {
      if constexpr (Scalar) {
        qe = r.n_region_cols;
      } else {
        q = r.t_ptr(i);
        qe = r.t_ptr(i + 1);
      }
    }
    mask_row_cursor m(mask, i);
    row_writer<Fill, V> w(out, i);
    while (pc < ce || q < qe) {
      const vertex_t cj = pc < ce ? c_col(pc) : invalid_vertex;
      vertex_t tj = invalid_vertex;
      if (q < qe) {
        if constexpr (Scalar)
          tj = r.all_cols ? static_cast<vertex_t>(q) : r.sorted_cols(q);
        else
          tj = r.t_col(q);
      }
      const vertex_t j = cj < tj ? cj : tj;
      const bool has_c = cj == j, has_t = tj == j;
      const V c = has_c ? c_val(pc) : V{};
      V t{};
      if (has_t) {
        if constexpr (Scalar)
          t = r.s;
        else
          t = r.t_val(q);
      }
      const bool allowed = m.allowed(j);
      // Z at (i, j): inside the region the assign rule, outside it C's entry as it is.
      const bool in_region = row_in && (r.all_cols || r.col_map(j) != invalid_vertex);
      V z{};
      bool has_z;
      if (in_region)
        has_z = merge_entry(acc, true, false, has_c, c, has_t, t, i, z);
      else {
        has_z = has_c;
        z = c;
      }
      w.merge(no_accumulator{}, allowed, mask.replace, has_c, c, has_z, z, i, j);
      if (has_c) ++pc;
      if (has_t) ++q;
    }
    w.finish(out, i);
  }
};

/// The dispatch point of the matrix assign (a backend may specialise it for its space): returns the new C, built
/// by a count pass, an exclusive scan and a fill pass over C's rows. `c_old` has a row_ptr. Fences `exec` (the
/// scan's total is read back).
template <class ExecSpace, bool Scalar, class Accum, class V>
struct matrix_assign_impl {
  using mem = memory_space_t<ExecSpace>;
  using mat = csr_matrix<V, mem>;
  static mat run(const ExecSpace& exec, const mat& c, const csr_mask_args<mem>& mask,
                 const assign_region<V, mem>& region, const Accum& acc) {
    using rows = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
    mat z;
    z.n_rows = c.n_rows;
    z.n_cols = c.n_cols;
    z.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::matrix_assign::row_ptr", offset_t(z.n_rows) + 1);
    Kokkos::parallel_for(
        "bitgraph::matrix_assign::count", rows(exec, 0, z.n_rows),
        matrix_assign_rows<false, Scalar, Accum, V, mem>{acc, mask, region, c.row_ptr, c.col_idx, c.values,
                                                         csr_row_output<V, mem>::counting(z.row_ptr)});
    z.nnz = exclusive_scan(exec, z.row_ptr, "bitgraph::matrix_assign::scan");
    z.col_idx = allocate_view<typename mat::indices_view>("bitgraph::matrix_assign::col_idx", z.nnz, false);
    z.values = allocate_view<typename mat::values_view>("bitgraph::matrix_assign::values", z.nnz, false);
    Kokkos::parallel_for("bitgraph::matrix_assign::fill", rows(exec, 0, z.n_rows),
                         matrix_assign_rows<true, Scalar, Accum, V, mem>{acc, mask, region, c.row_ptr, c.col_idx,
                                                                         c.values, csr_row_output<V, mem>::filling(z)});
    exec.fence();
    return z;
  }
};

// ------------------------------------------------------------------------------------ reduce to a vector

/// The dense-vector GraphBLAS merge of reduce.hpp (`merge_value`: `absent`, the monoid's identity, marks a
/// missing entry) with any accumulator of the matrix ops: accumulate_with<Monoid> or a binary operator.
template <class Accum, class T>
KOKKOS_INLINE_FUNCTION T merge_dense(const Accum& acc, T old, T t, bool allowed, bool replace, T absent, vertex_t i) {
  if (!allowed) return replace ? absent : old;
  if constexpr (std::is_same_v<Accum, no_accumulator>) {
    return t;
  } else {
    if (t == absent) return old;
    if (old == absent) return t;
    return accumulate_pair(acc, old, t, i);
  }
}

/// w(i) = accum(w(i), ⊕_j A(i, j)) under the vector mask: one thread per row, A's values converted to the
/// monoid's type and combined in column order; an empty row yields the identity (no entry).
template <class M, class Accum, class TA, class Mem>
struct matrix_reduce_rows {
  using T = typename M::value_type;
  Accum acc;
  mask_args<Mem> mask;
  Kokkos::View<T*, Mem> w;
  Kokkos::View<const offset_t*, Mem> a_ptr;
  Kokkos::View<const TA*, Mem> a_val;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    const bool allowed = mask.allows(i);
    T t = M::identity();
    if (allowed)
      for (offset_t p = a_ptr(i); p < a_ptr(i + 1); ++p) t = static_cast<T>(M::combine(t, static_cast<T>(a_val(p))));
    w(i) = merge_dense(acc, w(i), t, allowed, mask.replace, static_cast<T>(M::identity()), i);
  }
};

/// The dispatch point of the matrix row reduction (asynchronous; `a` has a row_ptr).
template <class ExecSpace, class M, class Accum, class TA>
struct matrix_reduce_impl {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const Kokkos::View<typename M::value_type*, mem>& w,
                  const mask_args<mem>& mask, const Accum& acc, const csr_matrix<TA, mem>& a) {
    Kokkos::parallel_for("bitgraph::matrix_reduce::rows",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>(exec, 0, a.n_rows),
                         matrix_reduce_rows<M, Accum, TA, mem>{acc, mask, w, a.row_ptr, a.values});
  }
};

}  // namespace bitgraph::detail
