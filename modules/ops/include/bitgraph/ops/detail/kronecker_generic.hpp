// The portable kernels of the Kronecker product (ops/kronecker.hpp): T = kron(A, B), row i1 * rb + i2 of T holding
// op(A(i1, j1), B(i2, j2)) at column j1 * cb + j2, built by a count pass, a scan and a fill pass over T's rows. A's
// row walked in order with B's row inside it gives ascending columns, so T needs no sort.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/operators.hpp"

namespace bitgraph::detail {

/// The operands as the kernels see them (B's row count and column count split T's indices).
template <class V, class Mem>
struct kronecker_operands {
  Kokkos::View<const offset_t*, Mem> a_ptr, b_ptr;
  Kokkos::View<const vertex_t*, Mem> a_col, b_col;
  Kokkos::View<const V*, Mem> a_val, b_val;
  vertex_t b_rows = 1, b_cols = 1;
};

/// count(r) = the entries of row r of T: those of A's row r / rb times those of B's row r % rb.
template <class V, class Mem>
struct kronecker_count {
  kronecker_operands<V, Mem> k;
  Kokkos::View<offset_t*, Mem> count;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t r) const {
    const vertex_t i1 = r / k.b_rows, i2 = r % k.b_rows;
    count(r) = (k.a_ptr(i1 + 1) - k.a_ptr(i1)) * (k.b_ptr(i2 + 1) - k.b_ptr(i2));
  }
};

/// Row r of T. A multiply operator (`apply(a, b, i, j)`) gets T's row and column, as in `ewise_add`.
template <class Op, class V, class Mem>
struct kronecker_fill {
  kronecker_operands<V, Mem> k;
  Op op;
  Kokkos::View<const offset_t*, Mem> t_ptr;
  Kokkos::View<vertex_t*, Mem> t_col;
  Kokkos::View<V*, Mem> t_val;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t r) const {
    const vertex_t i1 = r / k.b_rows, i2 = r % k.b_rows;
    offset_t q = t_ptr(r);
    for (offset_t pa = k.a_ptr(i1); pa < k.a_ptr(i1 + 1); ++pa) {
      const vertex_t base = k.a_col(pa) * k.b_cols;  // < n_cols(T), checked by the face
      const V x = k.a_val(pa);
      for (offset_t pb = k.b_ptr(i2); pb < k.b_ptr(i2 + 1); ++pb) {
        const vertex_t j = base + k.b_col(pb);
        t_col(q) = j;
        t_val(q++) = elementwise::apply_binary_at(op, x, k.b_val(pb), r, j);
      }
    }
  }
};

/// The dispatch point of the Kronecker product (a backend may specialise it for its space): T = kron(A, B) for
/// operands with row pointers whose product's shape and entries the face has checked to fit. Fences `exec` (the
/// scan's total is read back).
template <class ExecSpace, class Op, class V>
struct kronecker_impl {
  using mem = memory_space_t<ExecSpace>;
  using mat = csr_matrix<V, mem>;
  static mat run(const ExecSpace& exec, const mat& a, const mat& b, const Op& op) {
    using row_policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
    mat out;
    out.n_rows = a.n_rows * b.n_rows;
    out.n_cols = a.n_cols * b.n_cols;
    out.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::kronecker::row_ptr", offset_t(out.n_rows) + 1);
    if (out.n_rows == 0) return out;
    const kronecker_operands<V, mem> k{a.row_ptr, b.row_ptr, a.col_idx, b.col_idx,
                                       a.values,  b.values,  b.n_rows,  b.n_cols};
    Kokkos::parallel_for("bitgraph::kronecker::count", row_policy(exec, 0, out.n_rows),
                         kronecker_count<V, mem>{k, out.row_ptr});
    out.nnz = exclusive_scan(exec, out.row_ptr, "bitgraph::kronecker::scan");
    out.col_idx = allocate_view<typename mat::indices_view>("bitgraph::kronecker::col_idx", out.nnz, false);
    out.values = allocate_view<typename mat::values_view>("bitgraph::kronecker::values", out.nnz, false);
    Kokkos::parallel_for("bitgraph::kronecker::fill", row_policy(exec, 0, out.n_rows),
                         kronecker_fill<Op, V, mem>{k, op, out.row_ptr, out.col_idx, out.values});
    exec.fence();
    return out;
  }
};

}  // namespace bitgraph::detail
