// The portable SpMSpV (Yang, Wang, Owens 2015), primary template of the spmspv dispatch: gather the rows
// of A that x selects (load-balanced "interval gather"), then merge them by no-sort (scatter into a dense
// bitmap and values), radix sort or merge sort plus a segmented reduction. Its CUDA path is the backend's
// radix sort (CUB), reached through `radix_sort_pairs`.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/sort.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/options.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph::detail {

/// Counts input entries that are out of range or not strictly increasing.
template <class Mem>
struct spmspv_check_input {
  Kokkos::View<const vertex_t*, Mem> xi;
  vertex_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p, offset_t& nbad) const {
    if (xi(p) >= n || (p > 0 && xi(p - 1) >= xi(p))) ++nbad;
  }
};

/// Exclusive scan of the lengths of the rows x selects (the gather's output offsets).
template <class Mem>
struct spmspv_row_lengths {
  Kokkos::View<const vertex_t*, Mem> xi;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<offset_t*, Mem> scan;
  offset_t nx;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p, offset_t& acc, const bool final) const {
    const offset_t len = p < nx ? row_ptr(xi(p) + 1) - row_ptr(xi(p)) : 0;
    if (final) scan(p) = acc;
    acc += len;
  }
};

/// Gathered products: `keys[q]` = output index (invalid_vertex when the mask removed it), `vals[q]` =
/// A(i, j) ⊗ x(i). Every output slot finds its source entry by binary search over the scan.
template <class Mem, class S>
struct spmspv_gather_functor {
  using T = typename S::value_type;
  Kokkos::View<const offset_t*, Mem> scan;
  Kokkos::View<const vertex_t*, Mem> xi;
  Kokkos::View<const T*, Mem> xv;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<const double*, Mem> w;
  Kokkos::View<std::uint32_t*, Mem> keys;
  Kokkos::View<T*, Mem> vals;
  mask_args<Mem> mask;
  offset_t nx;
  bool x_has_values, weighted, with_values;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    offset_t lo = 0, hi = nx;  // last p with scan(p) <= q
    while (hi - lo > 1) {
      const offset_t mid = (lo + hi) / 2;
      if (scan(mid) <= q)
        lo = mid;
      else
        hi = mid;
    }
    const vertex_t i = xi(lo);
    const offset_t pos = row_ptr(i) + (q - scan(lo));
    const vertex_t j = col(pos);
    keys(q) = mask.allows(j) ? j : invalid_vertex;
    if (with_values) {
      const T aij = weighted ? static_cast<T>(w(pos)) : S::one();
      const T xval = x_has_values ? xv(lo) : S::one();
      vals(q) = S::multiply(aij, xval, j, i);
    }
  }
};

/// Segment heads of sorted keys (masked-out keys, invalid_vertex, sort last and start no segment).
template <class Mem>
struct spmspv_heads {
  Kokkos::View<const std::uint32_t*, Mem> keys;
  Kokkos::View<offset_t*, Mem> seg;
  offset_t m;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q, offset_t& acc, const bool final) const {
    const bool head = q < m && keys(q) != invalid_vertex && (q == 0 || keys(q) != keys(q - 1));
    if (final) seg(q) = acc;
    acc += head ? 1 : 0;
  }
};

/// Segmented reduction of the sorted pairs into the output.
template <class Mem, class S>
struct spmspv_segment_reduce {
  using T = typename S::value_type;
  Kokkos::View<const std::uint32_t*, Mem> keys;
  Kokkos::View<const T*, Mem> vals;
  Kokkos::View<const offset_t*, Mem> seg;
  Kokkos::View<vertex_t*, Mem> yi;
  Kokkos::View<T*, Mem> yv;
  bool with_values;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    const std::uint32_t key = keys(q);
    if (key == invalid_vertex) return;
    const bool head = q == 0 || key != keys(q - 1);
    const offset_t s = seg(q) - (head ? 0 : 1);
    if (head) yi(s) = key;
    if (with_values) S::atomic_add(&yv(s), vals(q));
  }
};

/// No-sort merge: one thread per input entry scatters its row into a bitmap (and dense values); rows are
/// short on average and each write is an atomic anyway.
template <class Mem, class S>
struct spmspv_scatter {
  using T = typename S::value_type;
  Kokkos::View<const vertex_t*, Mem> xi;
  Kokkos::View<const T*, Mem> xv;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<const double*, Mem> w;
  Kokkos::View<std::uint32_t*, Mem> touched;
  Kokkos::View<T*, Mem> dense;
  mask_args<Mem> mask;
  bool x_has_values, weighted, with_values;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const {
    const vertex_t i = xi(p);
    const T xval = x_has_values ? xv(p) : S::one();
    for (offset_t pos = row_ptr(i); pos < row_ptr(i + 1); ++pos) {
      const vertex_t j = col(pos);
      if (!mask.allows(j)) continue;
      bitmap_set_atomic(touched, j);
      if (with_values) {
        const T aij = weighted ? static_cast<T>(w(pos)) : S::one();
        S::atomic_add(&dense(j), S::multiply(aij, xval, j, i));
      }
    }
  }
};

template <class Mem, class T>
struct spmspv_compact_values {
  Kokkos::View<const vertex_t*, Mem> yi;
  Kokkos::View<const T*, Mem> dense;
  Kokkos::View<T*, Mem> yv;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const { yv(q) = dense(yi(q)); }
};

/// The portable SpMSpV. `path` is passed on to the radix sort (its CUDA path is CUB's).
template <class ExecSpace, class S>
struct spmspv_generic {
  using mem = memory_space_t<ExecSpace>;
  using T = typename S::value_type;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;

  /// The paths for a merge: the radix sort's own (CUB on CUDA) for `radix_sort`, the portable code else.
  static path_offer offer(spmspv_merge merge) {
    path_offer o;
    if (merge == spmspv_merge::radix_sort)
      o = radix_sort_impl<ExecSpace, T>::offer();
    else
      o.refuse(op_algorithm::cuda_warp,
               "the CUDA path is the CUB radix sort; this merge is portable only (use 'generic')");
    return o.refuse(op_algorithm::cuda_mma, "there is no tensor-core SpMSpV (use generic or cuda-warp)");
  }

  /// Input indices must be sorted and in range: one pass, cheap next to the gather. Fences.
  static offset_t count_bad_input(const ExecSpace& exec, const sparse_vector<T, mem>& x, vertex_t n) {
    offset_t bad = 0;
    Kokkos::parallel_reduce("bitgraph::spmspv::check_input", policy(exec, 0, x.nnz),
                            spmspv_check_input<mem>{x.indices, n}, bad);
    return bad;
  }

  static void run(op_algorithm path, const ExecSpace& exec, sparse_vector<T, mem>& y, const mask_args<mem>& mask,
                  const csr_graph<mem>& a, const sparse_vector<T, mem>& x, bool structure_only, spmspv_merge merge) {
    const bool with_values = !structure_only;
    if (merge == spmspv_merge::no_sort) {
      no_sort(exec, y, mask, a, x, with_values);
      return;
    }
    Kokkos::View<std::uint32_t*, mem> keys;
    Kokkos::View<T*, mem> vals;
    const offset_t m = gather(exec, a, x, mask, with_values, keys, vals);
    // Keys are < n or invalid_vertex (all ones): sort the full 32 bits only when masking produced
    // invalid keys, else just the bits n needs.
    const int bits = mask.masked ? 32 : key_bits(a.n > 0 ? a.n - 1 : 0);
    if (merge == spmspv_merge::radix_sort)
      radix_sort_pairs<ExecSpace, T>(exec, keys, vals, m, bits, with_values, path);
    else
      merge_sort_pairs<ExecSpace, T>(exec, keys, vals, m, with_values);
    reduce_sorted(exec, a.n, m, keys, vals, with_values, y);
  }

  static offset_t gather(const ExecSpace& exec, const csr_graph<mem>& a, const sparse_vector<T, mem>& x,
                         const mask_args<mem>& mask, bool with_values, Kokkos::View<std::uint32_t*, mem>& keys,
                         Kokkos::View<T*, mem>& vals) {
    const offset_t nx = x.nnz;
    auto scan = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::spmspv::scan", nx + 1, false);
    offset_t total = 0;
    Kokkos::parallel_scan("bitgraph::spmspv::lengths", policy(exec, 0, nx + 1),
                          spmspv_row_lengths<mem>{x.indices, a.row_ptr, scan, nx}, total);
    keys = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::spmspv::keys", total, false);
    if (with_values) vals = allocate_view<Kokkos::View<T*, mem>>("bitgraph::spmspv::vals", total, false);
    Kokkos::parallel_for(
        "bitgraph::spmspv::gather", policy(exec, 0, total),
        spmspv_gather_functor<mem, S>{scan, x.indices, x.values, a.row_ptr, a.col_idx, a.weights, keys, vals, mask, nx,
                                      x.values.extent(0) > 0, a.has_weights, with_values});
    return total;
  }

  static void reduce_sorted(const ExecSpace& exec, vertex_t n, offset_t m, Kokkos::View<std::uint32_t*, mem> keys,
                            Kokkos::View<T*, mem> vals, bool with_values, sparse_vector<T, mem>& y) {
    auto seg = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::spmspv::segments", m + 1, false);
    offset_t nseg = 0;
    Kokkos::parallel_scan("bitgraph::spmspv::heads", policy(exec, 0, m + 1), spmspv_heads<mem>{keys, seg, m}, nseg);
    y.n = n;
    y.nnz = nseg;
    y.indices = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sparse::indices", nseg, false);
    y.values = Kokkos::View<T*, mem>();
    if (with_values) {
      y.values = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", nseg, false);
      Kokkos::deep_copy(exec, y.values, S::identity());
    }
    Kokkos::parallel_for("bitgraph::spmspv::reduce", policy(exec, 0, m),
                         spmspv_segment_reduce<mem, S>{keys, vals, seg, y.indices, y.values, with_values});
  }

  /// Scatter every product into a dense bitmap (and dense values), then compact.
  static void no_sort(const ExecSpace& exec, sparse_vector<T, mem>& y, const mask_args<mem>& mask,
                      const csr_graph<mem>& a, const sparse_vector<T, mem>& x, bool with_values) {
    const vertex_t n = a.n;
    auto touched = make_bitmap(exec, n);
    Kokkos::View<T*, mem> dense;
    if (with_values) {
      dense = allocate_view<Kokkos::View<T*, mem>>("bitgraph::spmspv::dense", n, false);
      Kokkos::deep_copy(exec, dense, S::identity());
    }
    Kokkos::parallel_for("bitgraph::spmspv::scatter", policy(exec, 0, x.nnz),
                         spmspv_scatter<mem, S>{x.indices, x.values, a.row_ptr, a.col_idx, a.weights, touched.words,
                                                dense, mask, x.values.extent(0) > 0, a.has_weights, with_values});
    auto pattern = to_sparse(exec, touched);
    y.n = n;
    y.nnz = pattern.nnz;
    y.indices = pattern.indices;
    y.values = Kokkos::View<T*, mem>();
    if (with_values) {
      auto yv = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", pattern.nnz, false);
      Kokkos::parallel_for("bitgraph::spmspv::compact_values", policy(exec, 0, pattern.nnz),
                           spmspv_compact_values<mem, T>{y.indices, dense, yv});
      y.values = yv;
    }
  }
};

/// Dispatch point; a backend may specialise it (today the CUDA path is the CUB sort inside the generic
/// code).
template <class ExecSpace, class S>
struct spmspv_impl : spmspv_generic<ExecSpace, S> {};

}  // namespace bitgraph::detail
