// The portable CSR building blocks: the per-thread segment sort, the row sort (primary template of its
// dispatch; the CUDA leaf sorts with CUB's segmented sort), and the kernels of the COO -> CSR builder and
// of the transformations (transpose, symmetrise, self-loop and duplicate removal, degrees) as functors.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// Sorts `keys[lo, hi)` ascending with `vals` permuted alike (vals may be empty). Heap sort: in place,
/// O(len log len) worst case, usable by one device thread.
template <class Keys, class Vals>
KOKKOS_INLINE_FUNCTION void sort_segment(const Keys& keys, const Vals& vals, offset_t lo, offset_t hi) {
  const offset_t len = hi - lo;
  const bool with_vals = vals.extent(0) > 0;
  if (len < 2) return;
  if (len <= 24) {  // insertion sort is fastest on the short rows that dominate sparse graphs
    for (offset_t i = lo + 1; i < hi; ++i) {
      const auto k = keys(i);
      const auto v = with_vals ? vals(i) : typename Vals::non_const_value_type{};
      offset_t j = i;
      while (j > lo && keys(j - 1) > k) {
        keys(j) = keys(j - 1);
        if (with_vals) vals(j) = vals(j - 1);
        --j;
      }
      keys(j) = k;
      if (with_vals) vals(j) = v;
    }
    return;
  }
  auto swap = [&](offset_t a, offset_t b) {
    const auto tk = keys(lo + a);
    keys(lo + a) = keys(lo + b);
    keys(lo + b) = tk;
    if (with_vals) {
      const auto tv = vals(lo + a);
      vals(lo + a) = vals(lo + b);
      vals(lo + b) = tv;
    }
  };
  auto sift_down = [&](offset_t root, offset_t end) {
    while (2 * root + 1 < end) {
      offset_t child = 2 * root + 1;
      if (child + 1 < end && keys(lo + child) < keys(lo + child + 1)) ++child;
      if (keys(lo + root) >= keys(lo + child)) return;
      swap(root, child);
      root = child;
    }
  };
  for (offset_t start = len / 2; start-- > 0;) sift_down(start, len);
  for (offset_t end = len - 1; end > 0; --end) {
    swap(0, end);
    sift_down(0, end);
  }
}

/// Sorts one row segment of a CSR (values alike when present).
template <class Mem>
struct sort_row_functor {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<vertex_t*, Mem> cols;
  Kokkos::View<double*, Mem> vals;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t u) const {
    sort_segment(cols, vals, row_ptr(u), row_ptr(u + 1));
  }
};

/// Sorts every row segment of a CSR in place (values alike when present): each row to one thread
/// (insertion sort for short rows, heap sort otherwise).
template <class ExecSpace>
struct sort_rows_generic {
  using mem = memory_space_t<ExecSpace>;
  static path_offer offer() { return path_offer{}; }
  static void run(op_algorithm, const ExecSpace& exec, vertex_t n, Kokkos::View<offset_t*, mem> row_ptr,
                  Kokkos::View<vertex_t*, mem> cols, Kokkos::View<double*, mem> vals) {
    Kokkos::parallel_for("bitgraph::csr::sort_rows",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, n),
                         sort_row_functor<mem>{row_ptr, cols, vals});
  }
};

/// Dispatch point of the row sort; backends specialise it for hub rows (CUDA: CUB's segmented sort).
template <class ExecSpace>
struct sort_rows_impl : sort_rows_generic<ExecSpace> {};

// ------------------------------------------------------------------------------------ COO -> CSR

/// Pass 1: entries per row (mirrored entries too), counting ids >= n instead of using them.
template <class Mem>
struct coo_count {
  Kokkos::View<const vertex_t*, Mem> src, dst;
  Kokkos::View<offset_t*, Mem> counts;
  vertex_t n;
  bool drop_loops, mirror;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t e, offset_t& nbad) const {
    const vertex_t u = src(e), v = dst(e);
    if (u >= n || v >= n) {
      ++nbad;
      return;
    }
    if (drop_loops && u == v) return;
    atomic_fetch_add_offset(&counts(u), 1);
    if (mirror && u != v) atomic_fetch_add_offset(&counts(v), 1);
  }
};

/// Pass 2: scatter into the rows (order within a row arbitrary; rows are sorted next).
template <class Mem>
struct coo_scatter {
  Kokkos::View<const vertex_t*, Mem> src, dst;
  Kokkos::View<const double*, Mem> w;
  Kokkos::View<offset_t*, Mem> cursor;
  Kokkos::View<vertex_t*, Mem> cols;
  Kokkos::View<double*, Mem> vals;
  bool weighted, drop_loops, mirror, negate_mirror;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t e) const {
    const vertex_t u = src(e), v = dst(e);
    if (drop_loops && u == v) return;
    const double x = weighted ? w(e) : 0.0;
    const offset_t p = atomic_fetch_add_offset(&cursor(u), 1);
    cols(p) = v;
    if (weighted) vals(p) = x;
    if (mirror && u != v) {
      const offset_t q = atomic_fetch_add_offset(&cursor(v), 1);
      cols(q) = u;
      if (weighted) vals(q) = negate_mirror ? -x : x;
    }
  }
};

/// Distinct columns of a sorted row.
template <class Mem>
struct count_unique {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> cols;
  Kokkos::View<offset_t*, Mem> uniq;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t u) const {
    offset_t c = 0;
    for (offset_t p = row_ptr(u); p < row_ptr(u + 1); ++p) c += (p == row_ptr(u) || cols(p) != cols(p - 1));
    uniq(u) = c;
  }
};

/// Copies the distinct columns of a sorted row, keeping the minimum weight of repeated ones.
template <class Mem>
struct compact_unique {
  Kokkos::View<const offset_t*, Mem> row_ptr, uniq;
  Kokkos::View<const vertex_t*, Mem> cols;
  Kokkos::View<const double*, Mem> vals;
  Kokkos::View<vertex_t*, Mem> ucols;
  Kokkos::View<double*, Mem> uvals;
  bool weighted;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t u) const {
    offset_t q = uniq(u);
    for (offset_t p = row_ptr(u); p < row_ptr(u + 1); ++p) {
      if (p == row_ptr(u) || cols(p) != cols(p - 1)) {
        ucols(q) = cols(p);
        if (weighted) uvals(q) = vals(p);
        ++q;
      } else if (weighted && vals(p) < uvals(q - 1)) {
        uvals(q - 1) = vals(p);
      }
    }
  }
};

/// The row id of every entry (a CSR expanded back to COO sources).
template <class Mem>
struct expand_rows {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<vertex_t*, Mem> src;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t u) const {
    for (offset_t p = row_ptr(u); p < row_ptr(u + 1); ++p) src(p) = static_cast<vertex_t>(u);
  }
};

/// Row lengths.
template <class Mem>
struct row_lengths {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<offset_t*, Mem> d;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t u) const { d(u) = row_ptr(u + 1) - row_ptr(u); }
};

/// Column counts (atomic; `d` is zero on entry).
template <class Mem>
struct column_counts {
  Kokkos::View<const vertex_t*, Mem> cols;
  Kokkos::View<offset_t*, Mem> d;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const { atomic_fetch_add_offset(&d(cols(p)), 1); }
};

}  // namespace bitgraph::detail
