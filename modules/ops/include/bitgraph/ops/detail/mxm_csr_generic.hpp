// The portable kernels of the valued CSR mxm (ops/mxm_csr.hpp): per-row hash Gustavson (workspace sizing,
// accumulation, extraction) and the GraphBLAS merge of the product into C under mask, accumulator and replace.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph::detail {

/// A matrix mask reduced to what kernels need; `masked` false means every position is allowed.
template <class Mem>
struct csr_mask_args {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  bool masked = false;
  bool complement = false;
  bool replace = false;

  /// Entries of mask row i (0 without a mask).
  KOKKOS_INLINE_FUNCTION offset_t row_length(vertex_t i) const {
    return masked ? row_ptr(i + 1) - row_ptr(i) : offset_t(0);
  }
  /// Whether the mask stores (i, j): binary search of its sorted row.
  KOKKOS_INLINE_FUNCTION bool stores(vertex_t i, vertex_t j) const {
    offset_t lo = row_ptr(i), hi = row_ptr(i + 1);
    while (lo < hi) {
      const offset_t mid = lo + (hi - lo) / 2;
      const vertex_t c = col_idx(mid);
      if (c == j) return true;
      if (c < j)
        lo = mid + 1;
      else
        hi = mid;
    }
    return false;
  }
  /// True when C(i, j) may be written.
  KOKKOS_INLINE_FUNCTION bool allows(vertex_t i, vertex_t j) const { return !masked || (stores(i, j) != complement); }
  /// True when row i accumulates only into the mask's columns, pre-inserted in its table: a plain mask whose
  /// row is no longer than the row's products (`flops`); otherwise products are inserted and filtered.
  KOKKOS_INLINE_FUNCTION bool lookup_only(vertex_t i, offset_t flops) const {
    return masked && !complement && row_length(i) <= flops;
  }
};

/// Smallest power of two >= x (x >= 1).
KOKKOS_INLINE_FUNCTION offset_t pow2_at_least(offset_t x) {
  offset_t c = 1;
  while (c < x) c <<= 1;
  return c;
}

/// Multiplications of row i of A·B: Σ over A(i, k) of the length of B's row k (saturating).
template <class Mem>
KOKKOS_INLINE_FUNCTION offset_t row_flops(const Kokkos::View<const offset_t*, Mem>& a_ptr,
                                          const Kokkos::View<const vertex_t*, Mem>& a_col,
                                          const Kokkos::View<const offset_t*, Mem>& b_ptr, vertex_t i) {
  offset_t f = 0;
  for (offset_t p = a_ptr(i); p < a_ptr(i + 1); ++p) {
    const vertex_t k = a_col(p);
    const offset_t len = b_ptr(k + 1) - b_ptr(k);
    f = (f > ~offset_t(0) - len) ? ~offset_t(0) : f + len;
  }
  return f;
}

/// Hash-table slots of row i: twice the (power of two above the) number of distinct columns it can hold,
/// which is at most min(flops, n_cols) when products are inserted, the mask row's length when they only
/// look up mask columns; 0 for a row without products. `caps(i)` gets it; the reduction sums it as a double
/// so that the face can refuse a total that overflows 64 bits.
template <class Mem>
struct mxm_csr_size {
  Kokkos::View<const offset_t*, Mem> a_ptr;
  Kokkos::View<const vertex_t*, Mem> a_col;
  Kokkos::View<const offset_t*, Mem> b_ptr;
  csr_mask_args<Mem> mask;
  vertex_t n_cols;
  Kokkos::View<offset_t*, Mem> caps;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i, double& total) const {
    const offset_t f = row_flops<Mem>(a_ptr, a_col, b_ptr, i);
    offset_t distinct = 0;
    if (f > 0) distinct = mask.lookup_only(i, f) ? mask.row_length(i) : (f < n_cols ? f : offset_t(n_cols));
    const offset_t cap = distinct == 0 ? 0 : 2 * pow2_at_least(distinct);
    caps(i) = cap;
    total += static_cast<double>(cap);
  }
};

/// Slot of column j in a table of `cap` (a power of two) slots: multiplicative hash, linear probing.
KOKKOS_INLINE_FUNCTION offset_t hash_slot(vertex_t j, offset_t cap) {
  return (offset_t(j) * offset_t(0x9E3779B1u)) & (cap - 1);
}

/// Row i of T = A ⊕.⊗ B restricted to the mask, accumulated in the row's hash table (one thread per row):
/// a new column takes its first product, a present one adds to it with the semiring's add; `count(i)` gets
/// the row's entries. Only columns that receive a product become entries (GraphBLAS structural semantics:
/// an entry exists when some A(i, k) and B(k, j) both exist, whatever its value).
template <class S, class TA, class TB, class Mem>
struct mxm_csr_accumulate {
  using V = typename S::value_type;
  S sr;
  Kokkos::View<const offset_t*, Mem> a_ptr;
  Kokkos::View<const vertex_t*, Mem> a_col;
  Kokkos::View<const TA*, Mem> a_val;
  Kokkos::View<const offset_t*, Mem> b_ptr;
  Kokkos::View<const vertex_t*, Mem> b_col;
  Kokkos::View<const TB*, Mem> b_val;
  csr_mask_args<Mem> mask;
  Kokkos::View<const offset_t*, Mem> ws;  // table offsets (scanned caps)
  Kokkos::View<vertex_t*, Mem> keys;
  Kokkos::View<V*, Mem> vals;
  Kokkos::View<std::uint8_t*, Mem> hit;
  Kokkos::View<offset_t*, Mem> count;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    const offset_t base = ws(i), cap = ws(i + 1) - base;
    if (cap == 0) {
      count(i) = 0;
      return;
    }
    for (offset_t s = 0; s < cap; ++s) {
      keys(base + s) = invalid_vertex;
      hit(base + s) = 0;
    }
    const bool lookup = mask.lookup_only(i, row_flops<Mem>(a_ptr, a_col, b_ptr, i));
    if (lookup) {
      for (offset_t p = mask.row_ptr(i); p < mask.row_ptr(i + 1); ++p) {
        const vertex_t j = mask.col_idx(p);
        offset_t s = hash_slot(j, cap);
        while (keys(base + s) != invalid_vertex) s = (s + 1) & (cap - 1);
        keys(base + s) = j;
      }
    }
    offset_t n = 0;
    for (offset_t p = a_ptr(i); p < a_ptr(i + 1); ++p) {
      const vertex_t k = a_col(p);
      const V a = static_cast<V>(a_val(p));
      for (offset_t q = b_ptr(k); q < b_ptr(k + 1); ++q) {
        const vertex_t j = b_col(q);
        if (!lookup && !mask.allows(i, j)) continue;
        offset_t s = hash_slot(j, cap);
        while (keys(base + s) != j && keys(base + s) != invalid_vertex) s = (s + 1) & (cap - 1);
        if (keys(base + s) == invalid_vertex) {
          if (lookup) continue;  // not a mask column
          keys(base + s) = j;
        }
        const V prod = sr.multiply(a, static_cast<V>(b_val(q)), i, k);
        if (hit(base + s)) {
          vals(base + s) = sr.add(vals(base + s), prod);
        } else {
          vals(base + s) = prod;
          hit(base + s) = 1;
          ++n;
        }
      }
    }
    count(i) = n;
  }
};

/// Copies row i's entries out of its table into T (at the scanned offsets) and sorts them by column.
template <class V, class Mem>
struct mxm_csr_extract {
  Kokkos::View<const offset_t*, Mem> ws;
  Kokkos::View<const vertex_t*, Mem> keys;
  Kokkos::View<const V*, Mem> vals;
  Kokkos::View<const std::uint8_t*, Mem> hit;
  Kokkos::View<const offset_t*, Mem> t_ptr;
  Kokkos::View<vertex_t*, Mem> t_col;
  Kokkos::View<V*, Mem> t_val;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    offset_t out = t_ptr(i);
    for (offset_t s = ws(i); s < ws(i + 1); ++s) {
      if (!hit(s)) continue;
      t_col(out) = keys(s);
      t_val(out) = vals(s);
      ++out;
    }
    heap_sort_pairs(t_col.data() + t_ptr(i), t_val.data() + t_ptr(i), out - t_ptr(i));
  }
};

/// accum(old, t) with a monoid's combine (`accumulate_with`) or any binary operator of operators.hpp.
template <class Accum, class V>
KOKKOS_INLINE_FUNCTION V accumulate_pair(const Accum& acc, V old, V t, vertex_t i) {
  if constexpr (is_accumulator<Accum>::value) {  // accumulate_with<M> (no_accumulator never gets here)
    return static_cast<V>(Accum::monoid::combine(old, t));
  } else {
    return elementwise::apply_binary(acc, old, t, i);
  }
}

/// The GraphBLAS rule at one position of C<M, replace> = accum(C, T), shared by the CSR mxm and the matrix
/// ewise ops: returns whether the output has an entry there and sets `z` to it. An allowed position takes T
/// (no accumulator) or accum(C, T) where both exist and the one present otherwise; an excluded one keeps C's
/// entry, or loses it under `replace`. `c` and `t` are read only when `has_c` / `has_t`.
template <class Accum, class V>
KOKKOS_INLINE_FUNCTION bool merge_entry(const Accum& acc, bool allowed, bool replace, bool has_c, V c, bool has_t, V t,
                                        vertex_t i, V& z) {
  if (!allowed) {
    if (has_c && !replace) z = c;
    return has_c && !replace;
  }
  if constexpr (std::is_same_v<Accum, no_accumulator>) {
    if (has_t) z = t;
    return has_t;
  } else {
    if (has_c && has_t)
      z = accumulate_pair(acc, c, t, i);
    else if (has_c || has_t)
      z = has_c ? c : t;
    return has_c || has_t;
  }
}

/// Mask row i as a row functor walks it in column order: `allowed(j)`, called with ascending j, moves past the
/// mask's columns below j and answers whether C(i, j) may be written (always without a mask). O(row lengths)
/// per row where `csr_mask_args::allows` searches; it holds the row's bounds and the mask's flags in registers.
struct mask_row_cursor {
  const vertex_t* col = nullptr;
  offset_t p = 0, end = 0;
  bool masked = false, complement = false;

  template <class Mem>
  KOKKOS_INLINE_FUNCTION mask_row_cursor(const csr_mask_args<Mem>& m, vertex_t i)
      : col(m.col_idx.data()), masked(m.masked), complement(m.complement) {
    if (masked) {
      p = m.row_ptr(i);
      end = m.row_ptr(i + 1);
    }
  }
  KOKKOS_INLINE_FUNCTION bool allowed(vertex_t j) {
    if (!masked) return true;
    while (p < end && col[p] < j) ++p;
    return (p < end && col[p] == j) != complement;
  }
};

/// Where the row functors' count and fill passes put the rows they merge: the count pass row i's length at
/// count(i), the fill pass its entries from out_ptr(i) on (the scanned counts). `counting` and `filling` give
/// each pass's views (the other pass's stay empty).
template <class V, class Mem>
struct csr_row_output {
  Kokkos::View<offset_t*, Mem> count;          // count pass
  Kokkos::View<const offset_t*, Mem> out_ptr;  // fill pass
  Kokkos::View<vertex_t*, Mem> out_col;
  Kokkos::View<V*, Mem> out_val;

  static csr_row_output counting(const Kokkos::View<offset_t*, Mem>& count) { return {count, {}, {}, {}}; }
  static csr_row_output filling(const csr_matrix<V, Mem>& z) { return {{}, z.row_ptr, z.col_idx, z.values}; }
};

/// The write-out of row i in a row functor's count (`Fill` false) or fill (true) pass: `put(j, z)` takes the
/// row's next entry (columns ascending), which the count pass only counts and the fill pass writes from
/// out_ptr(i) on; `finish` stores the count pass's total at count(i). `merge` is `merge_entry` at (i, j)
/// followed by `put` where the output keeps an entry. Holds the row's write position in registers.
template <bool Fill, class V>
struct row_writer {
  vertex_t* col = nullptr;
  V* val = nullptr;
  offset_t n = 0;  // entries put so far

  template <class Mem>
  KOKKOS_INLINE_FUNCTION row_writer(const csr_row_output<V, Mem>& out, vertex_t i) {
    if constexpr (Fill) {
      const offset_t o = out.out_ptr(i);
      col = out.out_col.data() + o;
      val = out.out_val.data() + o;
    }
  }
  KOKKOS_INLINE_FUNCTION void put(vertex_t j, V z) {
    if constexpr (Fill) {
      col[n] = j;
      val[n] = z;
    }
    ++n;
  }
  template <class Accum>
  KOKKOS_INLINE_FUNCTION void merge(const Accum& acc, bool allowed, bool replace, bool has_c, V c, bool has_t, V t,
                                    vertex_t i, vertex_t j) {
    V z{};
    if (merge_entry(acc, allowed, replace, has_c, c, has_t, t, i, z)) put(j, z);
  }
  KOKKOS_INLINE_FUNCTION offset_t count() const { return n; }
  template <class Mem>
  KOKKOS_INLINE_FUNCTION void finish(const csr_row_output<V, Mem>& out, vertex_t i) const {
    if constexpr (!Fill) out.count(i) = n;
  }
};

/// Row i of C<M, replace> = accum(C, T), walking C's row and T's row in column order. At an allowed position
/// the result is T's entry (no accumulator) or accum(C, T) where both exist and the one present otherwise;
/// an excluded position keeps C's entry, or loses it under `replace`. `Fill` false counts the row's entries
/// into `count(i)`; true writes them at `out_ptr(i)`.
template <bool Fill, class Accum, class V, class Mem>
struct mxm_csr_merge {
  Accum acc;
  csr_mask_args<Mem> mask;
  Kokkos::View<const offset_t*, Mem> c_ptr;
  Kokkos::View<const vertex_t*, Mem> c_col;
  Kokkos::View<const V*, Mem> c_val;
  Kokkos::View<const offset_t*, Mem> t_ptr;
  Kokkos::View<const vertex_t*, Mem> t_col;
  Kokkos::View<const V*, Mem> t_val;
  csr_row_output<V, Mem> out;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    offset_t p = c_ptr(i), q = t_ptr(i);
    const offset_t pe = c_ptr(i + 1), qe = t_ptr(i + 1);
    row_writer<Fill, V> w(out, i);
    while (p < pe || q < qe) {
      const vertex_t cj = p < pe ? c_col(p) : invalid_vertex;
      const vertex_t tj = q < qe ? t_col(q) : invalid_vertex;
      const vertex_t j = cj < tj ? cj : tj;
      const bool has_c = cj == j, has_t = tj == j;
      w.merge(acc, mask.allows(i, j), mask.replace, has_c, has_c ? c_val(p) : V{}, has_t, has_t ? t_val(q) : V{}, i, j);
      if (has_c) ++p;
      if (has_t) ++q;
    }
    w.finish(out, i);
  }
};

/// C<M, replace> = accum(C, T) for a computed T as a new matrix (count, scan, fill of `mxm_csr_merge`): the merge
/// of the CSR mxm and of the counting mxm on B2SR. `c_old` must have its row_ptr. `label` names the kernels.
template <class ExecSpace, class Accum, class V>
csr_matrix<V, memory_space_t<ExecSpace>> merge_into_csr(const ExecSpace& exec, const Accum& accum,
                                                        const csr_mask_args<memory_space_t<ExecSpace>>& margs,
                                                        const csr_matrix<V, memory_space_t<ExecSpace>>& c_old,
                                                        const csr_matrix<V, memory_space_t<ExecSpace>>& t,
                                                        const std::string& label) {
  using mem = memory_space_t<ExecSpace>;
  using mat = csr_matrix<V, mem>;
  using rows = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
  mat z;
  z.n_rows = c_old.n_rows;
  z.n_cols = c_old.n_cols;
  z.row_ptr = allocate_view<typename mat::offsets_view>(label + "::row_ptr", offset_t(z.n_rows) + 1);
  Kokkos::parallel_for(
      label + "::merge_count", rows(exec, 0, z.n_rows),
      mxm_csr_merge<false, Accum, V, mem>{accum, margs, c_old.row_ptr, c_old.col_idx, c_old.values, t.row_ptr,
                                          t.col_idx, t.values, csr_row_output<V, mem>::counting(z.row_ptr)});
  z.nnz = exclusive_scan(exec, z.row_ptr, (label + "::merge_scan").c_str());
  z.col_idx = allocate_view<typename mat::indices_view>(label + "::col_idx", z.nnz, false);
  z.values = allocate_view<typename mat::values_view>(label + "::values", z.nnz, false);
  Kokkos::parallel_for(
      label + "::merge_fill", rows(exec, 0, z.n_rows),
      mxm_csr_merge<true, Accum, V, mem>{accum, margs, c_old.row_ptr, c_old.col_idx, c_old.values, t.row_ptr, t.col_idx,
                                         t.values, csr_row_output<V, mem>::filling(z)});
  return z;
}

}  // namespace bitgraph::detail
