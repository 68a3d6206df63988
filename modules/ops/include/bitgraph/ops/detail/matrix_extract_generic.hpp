// The portable kernels of the matrix extract (ops/matrix_extract.hpp): T = A(I, J), the |I| x |J| matrix holding
// A(I[a], J[b]) at (a, b), built by a count pass, a scan and a fill pass over T's rows; a list J (which may repeat
// columns) is inverted first into per-column buckets of its positions, and T's rows are sorted when J is a list.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr_matrix.hpp"

namespace bitgraph::detail {

/// count(J[b]) += 1 for every position b of J: the bucket sizes of A's columns.
template <class Mem>
struct extract_bucket_count {
  Kokkos::View<const vertex_t*, Mem> cols;  // J
  Kokkos::View<offset_t*, Mem> count;       // n_cols(A) + 1, zero on entry
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t b) const { Kokkos::atomic_add(&count(cols(b)), offset_t(1)); }
};

/// positions(next(J[b])++) = b: every position of J in its column's bucket (in any order: T's rows are sorted).
template <class Mem>
struct extract_bucket_fill {
  Kokkos::View<const vertex_t*, Mem> cols;  // J
  Kokkos::View<offset_t*, Mem> next;        // the buckets' starts on entry
  Kokkos::View<vertex_t*, Mem> positions;   // |J|
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t b) const {
    positions(Kokkos::atomic_fetch_add(&next(cols(b)), offset_t(1))) = static_cast<vertex_t>(b);
  }
};

/// The rows of T = A(I, J) as the kernels see them: row a of T is A's row I[a] (a itself for I = all); an entry
/// (r, j) of A lands at every position of j in J (bucket [start(j), start(j + 1)) of `positions`), or at j itself
/// for J = all.
template <class Mem>
struct extract_rows {
  Kokkos::View<const vertex_t*, Mem> rows;       // I (unused when all_rows)
  Kokkos::View<const offset_t*, Mem> start;      // n_cols(A) + 1 bucket offsets (unused when all_cols)
  Kokkos::View<const vertex_t*, Mem> positions;  // |J| (unused when all_cols)
  Kokkos::View<const offset_t*, Mem> a_ptr;
  Kokkos::View<const vertex_t*, Mem> a_col;
  bool all_rows = false, all_cols = false;
  KOKKOS_INLINE_FUNCTION vertex_t source(const vertex_t a) const { return all_rows ? a : rows(a); }
};

/// count(a) = the entries of row a of T.
template <class Mem>
struct extract_count {
  extract_rows<Mem> t;
  Kokkos::View<offset_t*, Mem> count;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t a) const {
    const vertex_t r = t.source(a);
    offset_t c = 0;
    if (t.all_cols) {
      c = t.a_ptr(r + 1) - t.a_ptr(r);
    } else {
      for (offset_t p = t.a_ptr(r); p < t.a_ptr(r + 1); ++p) c += t.start(t.a_col(p) + 1) - t.start(t.a_col(p));
    }
    count(a) = c;
  }
};

/// Row a of T: A's row I[a], each entry copied to every position of its column in J, values converted to V.
template <class TA, class V, class Mem>
struct extract_fill {
  extract_rows<Mem> t;
  Kokkos::View<const TA*, Mem> a_val;
  Kokkos::View<const offset_t*, Mem> t_ptr;
  Kokkos::View<vertex_t*, Mem> t_col;
  Kokkos::View<V*, Mem> t_val;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t a) const {
    const vertex_t r = t.source(a);
    offset_t q = t_ptr(a);
    for (offset_t p = t.a_ptr(r); p < t.a_ptr(r + 1); ++p) {
      const V x = static_cast<V>(a_val(p));
      const vertex_t j = t.a_col(p);
      if (t.all_cols) {
        t_col(q) = j;
        t_val(q++) = x;
      } else {
        for (offset_t k = t.start(j); k < t.start(j + 1); ++k) {
          t_col(q) = t.positions(k);
          t_val(q++) = x;
        }
      }
    }
  }
};

/// The dispatch point of the matrix extract (a backend may specialise it for its space): T = A(I, J) with V
/// values, for indices the face has checked (I < n_rows(A), J < n_cols(A)); `rows` / `cols` empty views mean all.
/// Fences `exec` (the scan's total is read back).
template <class ExecSpace, class TA, class V>
struct matrix_extract_impl {
  using mem = memory_space_t<ExecSpace>;
  using mat = csr_matrix<V, mem>;
  static mat run(const ExecSpace& exec, const csr_matrix<TA, mem>& a, Kokkos::View<const vertex_t*, mem> rows,
                 bool all_rows, Kokkos::View<const vertex_t*, mem> cols, bool all_cols) {
    using row_policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
    using list_policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
    extract_rows<mem> t{rows, {}, {}, a.row_ptr, a.col_idx, all_rows, all_cols};
    if (!all_cols) {
      // J inverted: per column of A, the positions of J that name it.
      auto start =
          allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::extract::bucket_start", offset_t(a.n_cols) + 1);
      Kokkos::parallel_for("bitgraph::extract::bucket_count", list_policy(exec, 0, cols.extent(0)),
                           extract_bucket_count<mem>{cols, start});
      exclusive_scan(exec, start, "bitgraph::extract::bucket_scan");
      auto next = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::extract::bucket_next", a.n_cols, false);
      Kokkos::deep_copy(exec, next, Kokkos::subview(start, Kokkos::make_pair(offset_t(0), offset_t(a.n_cols))));
      auto positions =
          allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::extract::positions", cols.extent(0), false);
      Kokkos::parallel_for("bitgraph::extract::bucket_fill", list_policy(exec, 0, cols.extent(0)),
                           extract_bucket_fill<mem>{cols, next, positions});
      t.start = start;
      t.positions = positions;
    }
    const vertex_t n_rows = all_rows ? a.n_rows : static_cast<vertex_t>(rows.extent(0));
    mat out;
    out.n_rows = n_rows;
    out.n_cols = all_cols ? a.n_cols : static_cast<vertex_t>(cols.extent(0));
    out.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::extract::row_ptr", offset_t(n_rows) + 1);
    Kokkos::parallel_for("bitgraph::extract::count", row_policy(exec, 0, n_rows), extract_count<mem>{t, out.row_ptr});
    out.nnz = exclusive_scan(exec, out.row_ptr, "bitgraph::extract::scan");
    out.col_idx = allocate_view<typename mat::indices_view>("bitgraph::extract::col_idx", out.nnz, false);
    out.values = allocate_view<typename mat::values_view>("bitgraph::extract::values", out.nnz, false);
    Kokkos::parallel_for("bitgraph::extract::fill", row_policy(exec, 0, n_rows),
                         extract_fill<TA, V, mem>{t, a.values, out.row_ptr, out.col_idx, out.values});
    // A list J need not ascend; rows of T must.
    if (!all_cols)
      Kokkos::parallel_for("bitgraph::extract::sort", row_policy(exec, 0, n_rows),
                           sort_matrix_rows<V, mem>{out.row_ptr, out.col_idx, out.values});
    exec.fence();
    return out;
  }
};

}  // namespace bitgraph::detail
