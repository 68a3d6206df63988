// Valued, possibly rectangular CSR matrices (the operands of the GraphBLAS-style CSR mxm) and their
// conversions from and to csr_graph, host vectors, and their transpose.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr.hpp"

namespace bitgraph {

/// An n_rows × n_cols sparse matrix with values of type T in CSR form. Row i holds its entries in
/// `col_idx[row_ptr[i] .. row_ptr[i+1])` with `values` parallel to it; columns are strictly ascending within a
/// row (no duplicates). `row_ptr` has n_rows + 1 entries (a default-constructed matrix has none and counts as
/// empty of its declared shape). Unlike `csr_graph` it may be rectangular and carries any value type.
template <class T, class MemorySpace>
struct csr_matrix {
  using value_type = T;
  using memory_space = MemorySpace;
  using offsets_view = Kokkos::View<offset_t*, MemorySpace>;
  using indices_view = Kokkos::View<vertex_t*, MemorySpace>;
  using values_view = Kokkos::View<T*, MemorySpace>;

  vertex_t n_rows = 0;   ///< number of rows
  vertex_t n_cols = 0;   ///< number of columns
  offset_t nnz = 0;      ///< number of stored entries
  offsets_view row_ptr;  ///< n_rows + 1 offsets (or empty when nnz = 0)
  indices_view col_idx;  ///< nnz column indices, strictly ascending within each row
  values_view values;    ///< nnz values
};

namespace detail {

/// Throws `invalid_argument_error` naming `what` when the arrays of `m` do not fit its shape and nnz
/// (O(1): the contents are trusted).
template <class T, class Mem>
void check_csr_matrix(const char* func, const char* what, const csr_matrix<T, Mem>& m) {
  if (m.row_ptr.extent(0) == 0) {
    BITGRAPH_CHECK_ARG(m.nnz == 0, func, what, " has no row_ptr but ", m.nnz, " entries");
    return;
  }
  BITGRAPH_CHECK_ARG(m.row_ptr.extent(0) == offset_t(m.n_rows) + 1, func, what, " has ", m.n_rows,
                     " rows but its row_ptr has ", m.row_ptr.extent(0), " entries");
  BITGRAPH_CHECK_ARG(m.col_idx.extent(0) >= m.nnz, func, what, " has ", m.nnz, " entries but col_idx holds ",
                     m.col_idx.extent(0));
  BITGRAPH_CHECK_ARG(m.values.extent(0) >= m.nnz, func, what, " has ", m.nnz, " entries but values holds ",
                     m.values.extent(0));
}

/// Copies `src` into a new view of `count` elements (the first `count` of `src`).
template <class View, class ExecSpace, class Src>
View copy_prefix(const ExecSpace& exec, const Src& src, offset_t count, const std::string& label) {
  auto out = allocate_view<View>(label, count, false);
  if (count > 0) Kokkos::deep_copy(exec, out, Kokkos::subview(src, Kokkos::make_pair(offset_t(0), count)));
  return out;
}

/// Converts weights (or 1 for an unweighted graph) to T.
template <class T, class Mem>
struct weights_to_values {
  Kokkos::View<const double*, Mem> w;
  Kokkos::View<T*, Mem> v;
  bool weighted;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const { v(p) = weighted ? static_cast<T>(w(p)) : T(1); }
};

/// Converts values to double weights.
template <class T, class Mem>
struct values_to_weights {
  Kokkos::View<const T*, Mem> v;
  Kokkos::View<double*, Mem> w;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const { w(p) = static_cast<double>(v(p)); }
};

/// Counts the entries of every column (the row lengths of the transpose), shifted by one slot.
template <class Mem>
struct count_columns {
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<offset_t*, Mem> counts;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const { atomic_fetch_add_offset(&counts(col(p)), 1); }
};

/// Scatters row i's entries to the rows of the transpose given by their columns (order fixed later).
template <class T, class Mem>
struct scatter_transpose {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<const T*, Mem> val;
  Kokkos::View<offset_t*, Mem> cursor;
  Kokkos::View<vertex_t*, Mem> out_col;
  Kokkos::View<T*, Mem> out_val;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    for (offset_t p = row_ptr(i); p < row_ptr(i + 1); ++p) {
      const offset_t q = atomic_fetch_add_offset(&cursor(col(p)), 1);
      out_col(q) = i;
      out_val(q) = val(p);
    }
  }
};

/// Moves the root of the heap keys[root, end) down to its place, carrying vals along.
template <class K, class V>
KOKKOS_INLINE_FUNCTION void heap_sift(K* keys, V* vals, offset_t root, offset_t end) {
  while (2 * root + 1 < end) {
    offset_t child = 2 * root + 1;
    if (child + 1 < end && keys[child] < keys[child + 1]) ++child;
    if (!(keys[root] < keys[child])) return;
    const K tk = keys[root];
    keys[root] = keys[child];
    keys[child] = tk;
    const V tv = vals[root];
    vals[root] = vals[child];
    vals[child] = tv;
    root = child;
  }
}

/// Heap sort of keys[0, n) carrying vals along: in place, no recursion and no extra memory, so one device
/// thread can sort its row; O(n log n).
template <class K, class V>
KOKKOS_INLINE_FUNCTION void heap_sort_pairs(K* keys, V* vals, offset_t n) {
  if (n < 2) return;
  for (offset_t s = n / 2; s-- > 0;) heap_sift(keys, vals, s, n);
  for (offset_t end = n - 1; end > 0; --end) {
    const K tk = keys[0];
    keys[0] = keys[end];
    keys[end] = tk;
    const V tv = vals[0];
    vals[0] = vals[end];
    vals[end] = tv;
    heap_sift(keys, vals, 0, end);
  }
}

/// Sorts every row of a CSR by column, values alongside.
template <class T, class Mem>
struct sort_matrix_rows {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<vertex_t*, Mem> col;
  Kokkos::View<T*, Mem> val;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    const offset_t b = row_ptr(i);
    heap_sort_pairs(col.data() + b, val.data() + b, row_ptr(i + 1) - b);
  }
};

}  // namespace detail

/// An empty n_rows × n_cols matrix (row_ptr all zero). Throws `allocation_error` if memory runs out.
template <class T, class ExecSpace>
csr_matrix<T, memory_space_t<ExecSpace>> empty_csr_matrix(const ExecSpace&, vertex_t n_rows, vertex_t n_cols) {
  using mat = csr_matrix<T, memory_space_t<ExecSpace>>;
  mat m;
  m.n_rows = n_rows;
  m.n_cols = n_cols;
  m.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::csr_matrix::row_ptr", offset_t(n_rows) + 1);
  return m;
}

/// A matrix from host arrays (row_ptr of n_rows + 1 offsets, columns and values), checked on the host:
/// offsets non-decreasing from 0 to nnz, columns < n_cols and strictly ascending within each row. Throws
/// `invalid_argument_error` naming the first violation. Asynchronous on `exec` (the copies are enqueued).
template <class T, class ExecSpace>
csr_matrix<T, memory_space_t<ExecSpace>> make_csr_matrix(const ExecSpace& exec, vertex_t n_rows, vertex_t n_cols,
                                                         const std::vector<offset_t>& row_ptr,
                                                         const std::vector<vertex_t>& col_idx,
                                                         const std::vector<T>& values) {
  using mat = csr_matrix<T, memory_space_t<ExecSpace>>;
  const char* func = "make_csr_matrix";
  BITGRAPH_CHECK_ARG(row_ptr.size() == std::size_t(n_rows) + 1, func, "row_ptr has ", row_ptr.size(), " entries for ",
                     n_rows, " rows");
  BITGRAPH_CHECK_ARG(col_idx.size() == values.size(), func, "col_idx has ", col_idx.size(), " entries but values has ",
                     values.size());
  BITGRAPH_CHECK_ARG(row_ptr.front() == 0 && row_ptr.back() == col_idx.size(), func, "row_ptr runs from ",
                     row_ptr.front(), " to ", row_ptr.back(), ", not from 0 to ", col_idx.size());
  for (vertex_t i = 0; i < n_rows; ++i) {
    BITGRAPH_CHECK_ARG(row_ptr[i] <= row_ptr[i + 1], func, "row_ptr decreases at row ", i);
    for (offset_t p = row_ptr[i]; p < row_ptr[i + 1]; ++p) {
      BITGRAPH_CHECK_ARG(col_idx[p] < n_cols, func, "column ", col_idx[p], " of row ", i, " is >= n_cols = ", n_cols);
      BITGRAPH_CHECK_ARG(p == row_ptr[i] || col_idx[p - 1] < col_idx[p], func, "columns of row ", i,
                         " are not strictly ascending");
    }
  }
  mat m;
  m.n_rows = n_rows;
  m.n_cols = n_cols;
  m.nnz = col_idx.size();
  m.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::csr_matrix::row_ptr", row_ptr.size(), false);
  m.col_idx = allocate_view<typename mat::indices_view>("bitgraph::csr_matrix::col_idx", m.nnz, false);
  m.values = allocate_view<typename mat::values_view>("bitgraph::csr_matrix::values", m.nnz, false);
  using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  Kokkos::deep_copy(exec, m.row_ptr,
                    Kokkos::View<const offset_t*, Kokkos::HostSpace, unmanaged>(row_ptr.data(), row_ptr.size()));
  Kokkos::deep_copy(exec, m.col_idx,
                    Kokkos::View<const vertex_t*, Kokkos::HostSpace, unmanaged>(col_idx.data(), m.nnz));
  Kokkos::deep_copy(exec, m.values, Kokkos::View<const T*, Kokkos::HostSpace, unmanaged>(values.data(), m.nnz));
  exec.fence();  // the host vectors may go away when we return
  return m;
}

/// The graph's adjacency as an n × n matrix of T: its weights converted to T, or 1 for an unweighted graph.
/// The arrays are copied. Throws `invalid_argument_error` for a graph built with duplicates (a matrix holds
/// each position once). Asynchronous on `exec`.
template <class T, class ExecSpace>
csr_matrix<T, memory_space_t<ExecSpace>> to_csr_matrix(const ExecSpace& exec,
                                                       const csr_graph<memory_space_t<ExecSpace>>& g) {
  using mem = memory_space_t<ExecSpace>;
  using mat = csr_matrix<T, mem>;
  BITGRAPH_CHECK_ARG(!g.has_duplicates, "to_csr_matrix", "the graph holds duplicate entries");
  mat m;
  m.n_rows = m.n_cols = g.n;
  m.nnz = g.nnz;
  m.row_ptr = detail::copy_prefix<typename mat::offsets_view>(exec, g.row_ptr, offset_t(g.n) + 1,
                                                              "bitgraph::csr_matrix::row_ptr");
  m.col_idx = detail::copy_prefix<typename mat::indices_view>(exec, g.col_idx, g.nnz, "bitgraph::csr_matrix::col_idx");
  m.values = allocate_view<typename mat::values_view>("bitgraph::csr_matrix::values", g.nnz, false);
  Kokkos::parallel_for(
      "bitgraph::to_csr_matrix::values", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.nnz),
      detail::weights_to_values<T, mem>{g.weights, m.values, g.has_weights && g.weights.extent(0) > 0});
  return m;
}

/// A square matrix as a weighted, directed csr_graph (values converted to double weights). Throws
/// `invalid_argument_error` for a rectangular matrix. Fences `exec` (the longest row is read back).
template <class ExecSpace, class T>
csr_graph<memory_space_t<ExecSpace>> to_csr_graph(const ExecSpace& exec,
                                                  const csr_matrix<T, memory_space_t<ExecSpace>>& m) {
  using mem = memory_space_t<ExecSpace>;
  using graph = csr_graph<mem>;
  detail::check_csr_matrix("to_csr_graph", "the matrix", m);
  BITGRAPH_CHECK_ARG(m.n_rows == m.n_cols, "to_csr_graph", "the matrix is ", m.n_rows, " x ", m.n_cols, ", not square");
  graph g;
  g.n = m.n_rows;
  g.nnz = m.nnz;
  g.has_weights = true;
  if (m.row_ptr.extent(0) == 0) {
    g.row_ptr = allocate_view<typename graph::offsets_view>("bitgraph::csr::row_ptr", offset_t(g.n) + 1);
  } else {
    g.row_ptr =
        detail::copy_prefix<typename graph::offsets_view>(exec, m.row_ptr, offset_t(g.n) + 1, "bitgraph::csr::row_ptr");
  }
  g.col_idx = detail::copy_prefix<typename graph::indices_view>(exec, m.col_idx, m.nnz, "bitgraph::csr::col_idx");
  g.weights = allocate_view<typename graph::weights_view>("bitgraph::csr::weights", m.nnz, false);
  Kokkos::parallel_for("bitgraph::to_csr_graph::weights",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, m.nnz),
                       detail::values_to_weights<T, mem>{m.values, g.weights});
  g.longest_row = detail::longest_span(exec, g.row_ptr, g.n, "bitgraph::csr::longest_row");
  return g;
}

/// Aᵀ as a new n_cols × n_rows matrix: column counts (atomics), a scan, an atomic scatter, then every row
/// sorted by a per-row heap sort. O(nnz + Σ row log row). Fences `exec` (the scan's total is read back).
template <class ExecSpace, class T>
csr_matrix<T, memory_space_t<ExecSpace>> transpose(const ExecSpace& exec,
                                                   const csr_matrix<T, memory_space_t<ExecSpace>>& a) {
  using mem = memory_space_t<ExecSpace>;
  using mat = csr_matrix<T, mem>;
  detail::check_csr_matrix("transpose", "the matrix", a);
  mat t;
  t.n_rows = a.n_cols;
  t.n_cols = a.n_rows;
  t.nnz = a.nnz;
  t.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::transpose::row_ptr", offset_t(t.n_rows) + 1);
  t.col_idx = allocate_view<typename mat::indices_view>("bitgraph::transpose::col_idx", a.nnz, false);
  t.values = allocate_view<typename mat::values_view>("bitgraph::transpose::values", a.nnz, false);
  if (a.nnz == 0) return t;
  using entries = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
  using rows = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
  Kokkos::parallel_for("bitgraph::transpose::count", entries(exec, 0, a.nnz),
                       detail::count_columns<mem>{a.col_idx, t.row_ptr});
  detail::exclusive_scan(exec, t.row_ptr, "bitgraph::transpose::scan");
  auto cursor =
      detail::copy_prefix<typename mat::offsets_view>(exec, t.row_ptr, t.n_rows, "bitgraph::transpose::cursor");
  Kokkos::parallel_for("bitgraph::transpose::scatter", rows(exec, 0, a.n_rows),
                       detail::scatter_transpose<T, mem>{a.row_ptr, a.col_idx, a.values, cursor, t.col_idx, t.values});
  Kokkos::parallel_for("bitgraph::transpose::sort", rows(exec, 0, t.n_rows),
                       detail::sort_matrix_rows<T, mem>{t.row_ptr, t.col_idx, t.values});
  exec.fence();
  return t;
}

}  // namespace bitgraph
