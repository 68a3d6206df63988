// Sparse matrix × sparse vector (Yang, Wang, Owens 2015): gather the rows of A selected by x, then a
// k-way merge by no-sort (scatter into a dense bitmap), radix sort or merge sort, and a segmented
// reduction with any (⊕, ⊗) — the column-based (push) product of GraphBLAST.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/core/sort.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// How SpMSpV merges the gathered rows.
enum class spmspv_merge : std::uint8_t {
  automatic,   ///< no-sort for structure-only or small outputs relative to n, radix sort otherwise
  no_sort,     ///< scatter into a dense bitmap (+ dense values), then compact: O(n / 32 + gathered)
  radix_sort,  ///< LSD radix sort of (index, value) pairs, then a segmented reduction
  merge_sort,  ///< merge sort of the pairs, then a segmented reduction
};

/// "auto", "no-sort", "radix", "merge".
inline std::string_view to_string(spmspv_merge m) {
  switch (m) {
    case spmspv_merge::automatic: return "auto";
    case spmspv_merge::no_sort: return "no-sort";
    case spmspv_merge::radix_sort: return "radix";
    case spmspv_merge::merge_sort: return "merge";
  }
  return "?";
}

/// Options of `spmspv`.
struct spmspv_options {
  op_algorithm algorithm = op_algorithm::automatic;  ///< generic, or cuda_warp for the CUB-based sort
  spmspv_merge merge = spmspv_merge::automatic;
  /// Structure only (Yang et al. §5.5): ignore values, produce the output pattern only; the sort becomes
  /// key-only. The semiring must then be Boolean (its values are 0/1 anyway).
  bool structure_only = false;
};

namespace detail {

/// Gathered products of SpMSpV: `keys[q]` = output index (invalid_vertex when the mask removed it),
/// `vals[q]` = A(i, j) ⊗ x(i).
template <class ExecSpace, class S>
BITGRAPH_TU_LOCAL offset_t spmspv_gather(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a,
                       const sparse_vector<typename S::value_type, memory_space_t<ExecSpace>>& x,
                       Kokkos::View<const std::uint32_t*, memory_space_t<ExecSpace>> mbits, bool masked, bool complement,
                       bool with_values, Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>>& keys,
                       Kokkos::View<typename S::value_type*, memory_space_t<ExecSpace>>& vals) {
  using mem = memory_space_t<ExecSpace>;
  using T = typename S::value_type;
  const offset_t nx = x.nnz;
  auto xi = x.indices;
  auto xv = x.values;
  const bool x_has_values = xv.extent(0) > 0;
  auto row_ptr = a.row_ptr;
  auto col = a.col_idx;
  auto w = a.weights;
  const bool weighted = a.has_weights;
  auto scan = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::spmspv::scan", nx + 1, false);
  offset_t total = 0;
  Kokkos::parallel_scan(
      "bitgraph::spmspv::lengths", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nx + 1),
      KOKKOS_LAMBDA(const offset_t p, offset_t& acc, const bool final) {
        const offset_t len = p < nx ? row_ptr(xi(p) + 1) - row_ptr(xi(p)) : 0;
        if (final) scan(p) = acc;
        acc += len;
      },
      total);
  keys = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::spmspv::keys", total, false);
  if (with_values) vals = allocate_view<Kokkos::View<T*, mem>>("bitgraph::spmspv::vals", total, false);
  auto k = keys;
  auto v = vals;
  // Load-balanced gather ("interval gather"): every output slot finds its source entry by binary search.
  Kokkos::parallel_for(
      "bitgraph::spmspv::gather", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, total),
      KOKKOS_LAMBDA(const offset_t q) {
        offset_t lo = 0, hi = nx;  // last p with scan(p) <= q
        while (hi - lo > 1) {
          const offset_t mid = (lo + hi) / 2;
          if (scan(mid) <= q) lo = mid;
          else hi = mid;
        }
        const vertex_t i = xi(lo);
        const offset_t pos = row_ptr(i) + (q - scan(lo));
        const vertex_t j = col(pos);
        const bool allowed = !masked || (bitmap_test(mbits, j) != complement);
        k(q) = allowed ? j : invalid_vertex;
        if (with_values) {
          const T aij = weighted ? static_cast<T>(w(pos)) : S::one();
          const T xval = x_has_values ? xv(lo) : S::one();
          v(q) = S::multiply(aij, xval, j, i);
        }
      });
  return total;
}

/// Segmented reduction of sorted (key, value) pairs into the output sparse vector (keys equal to
/// invalid_vertex, the masked-out entries, sort last and are dropped).
template <class ExecSpace, class S>
BITGRAPH_TU_LOCAL void spmspv_reduce_sorted(const ExecSpace& exec, vertex_t n, offset_t m, Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>> keys,
                          Kokkos::View<typename S::value_type*, memory_space_t<ExecSpace>> vals, bool with_values,
                          sparse_vector<typename S::value_type, memory_space_t<ExecSpace>>& y) {
  using mem = memory_space_t<ExecSpace>;
  using T = typename S::value_type;
  auto seg = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::spmspv::segments", m + 1, false);
  offset_t nseg = 0;
  Kokkos::parallel_scan(
      "bitgraph::spmspv::heads", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, m + 1),
      KOKKOS_LAMBDA(const offset_t q, offset_t& acc, const bool final) {
        const bool head = q < m && keys(q) != invalid_vertex && (q == 0 || keys(q) != keys(q - 1));
        if (final) seg(q) = acc;
        acc += head ? 1 : 0;
      },
      nseg);
  y.n = n;
  y.nnz = nseg;
  y.indices = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sparse::indices", nseg, false);
  y.values = Kokkos::View<T*, mem>();
  auto yi = y.indices;
  Kokkos::View<T*, mem> yv;
  if (with_values) {
    yv = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", nseg, false);
    Kokkos::deep_copy(exec, yv, S::identity());
    y.values = yv;
  }
  Kokkos::parallel_for(
      "bitgraph::spmspv::reduce", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, m),
      KOKKOS_LAMBDA(const offset_t q) {
        const std::uint32_t key = keys(q);
        if (key == invalid_vertex) return;
        const offset_t s = seg(q) - ((q == 0 || keys(q) != keys(q - 1)) ? 0 : 1);
        if (q == 0 || keys(q) != keys(q - 1)) yi(s) = key;
        if (with_values) S::atomic_add(&yv(s), vals(q));
      });
}

/// Portable SpMSpV.
template <class ExecSpace, class S, BITGRAPH_TU_LOCAL_PARAM>
struct spmspv_generic {
  using mem = memory_space_t<ExecSpace>;
  using T = typename S::value_type;

  static void run(const ExecSpace& exec, sparse_vector<T, mem>& y, Kokkos::View<const std::uint32_t*, mem> mbits,
                  bool masked, bool complement, const csr_graph<mem>& a, const sparse_vector<T, mem>& x,
                  const spmspv_options& opts, spmspv_merge merge) {
    const bool with_values = !opts.structure_only;
    const vertex_t n = a.n;
    if (merge == spmspv_merge::no_sort) {
      no_sort(exec, y, mbits, masked, complement, a, x, with_values);
      return;
    }
    Kokkos::View<std::uint32_t*, mem> keys;
    Kokkos::View<T*, mem> vals;
    const offset_t m = spmspv_gather<ExecSpace, S>(exec, a, x, mbits, masked, complement, with_values, keys, vals);
    // Keys are < n or invalid_vertex (all ones): sort the full 32 bits only when masking produced
    // invalid keys, else just the bits n needs.
    const int bits = masked ? 32 : key_bits(n > 0 ? n - 1 : 0);
    // The backend's radix sort (CUB on CUDA) unless the portable path was asked for.
    if (merge == spmspv_merge::radix_sort)
      radix_sort_pairs<ExecSpace, T>(exec, keys, vals, m, bits, with_values, opts.algorithm == op_algorithm::generic);
    else merge_sort_pairs<ExecSpace, T>(exec, keys, vals, m, with_values);
    spmspv_reduce_sorted<ExecSpace, S>(exec, n, m, keys, vals, with_values, y);
  }

  /// Scatter every product into a dense bitmap (and dense values), then compact.
  static void no_sort(const ExecSpace& exec, sparse_vector<T, mem>& y, Kokkos::View<const std::uint32_t*, mem> mbits,
                      bool masked, bool complement, const csr_graph<mem>& a, const sparse_vector<T, mem>& x,
                      bool with_values) {
    const vertex_t n = a.n;
    auto touched = make_bitmap(exec, n);
    Kokkos::View<T*, mem> dense;
    if (with_values) {
      dense = allocate_view<Kokkos::View<T*, mem>>("bitgraph::spmspv::dense", n, false);
      Kokkos::deep_copy(exec, dense, S::identity());
    }
    auto tw = touched.words;
    auto xi = x.indices;
    auto xv = x.values;
    const bool x_has_values = xv.extent(0) > 0;
    auto row_ptr = a.row_ptr;
    auto col = a.col_idx;
    auto w = a.weights;
    const bool weighted = a.has_weights;
    const offset_t nx = x.nnz;
    // One thread per input entry: rows are short on average and each write is an atomic anyway.
    Kokkos::parallel_for(
        "bitgraph::spmspv::scatter", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nx),
        KOKKOS_LAMBDA(const offset_t p) {
          const vertex_t i = xi(p);
          const T xval = x_has_values ? xv(p) : S::one();
          for (offset_t pos = row_ptr(i); pos < row_ptr(i + 1); ++pos) {
            const vertex_t j = col(pos);
            if (masked && (bitmap_test(mbits, j) == complement)) continue;
            bitmap_set_atomic(tw, j);
            if (with_values) {
              const T aij = weighted ? static_cast<T>(w(pos)) : S::one();
              S::atomic_add(&dense(j), S::multiply(aij, xval, j, i));
            }
          }
        });
    auto pattern = to_sparse(exec, touched);
    y.n = n;
    y.nnz = pattern.nnz;
    y.indices = pattern.indices;
    y.values = Kokkos::View<T*, mem>();
    if (with_values) {
      auto yv = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", pattern.nnz, false);
      auto yi = y.indices;
      Kokkos::parallel_for(
          "bitgraph::spmspv::compact_values", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, pattern.nnz),
          KOKKOS_LAMBDA(const offset_t q) { yv(q) = dense(yi(q)); });
      y.values = yv;
    }
  }
};

/// Dispatch point; backends may specialise it (the CUDA path is the CUB radix sort behind
/// `radix_sort_pairs`).
template <class ExecSpace, class S>
struct spmspv_impl {
  static void run(const ExecSpace& exec, sparse_vector<typename S::value_type, memory_space_t<ExecSpace>>& y,
                  Kokkos::View<const std::uint32_t*, memory_space_t<ExecSpace>> mbits, bool masked, bool complement,
                  const csr_graph<memory_space_t<ExecSpace>>& a,
                  const sparse_vector<typename S::value_type, memory_space_t<ExecSpace>>& x, const spmspv_options& opts,
                  spmspv_merge merge) {
    if (opts.algorithm == op_algorithm::cuda_mma) {
      throw unsupported_error("bitgraph::spmspv: there is no tensor-core SpMSpV (use generic or cuda-warp)");
    }
    spmspv_generic<ExecSpace, S>::run(exec, y, mbits, masked, complement, a, x, opts, merge);
  }
};

}  // namespace detail

/// y<mask> = x ⊕.⊗ A over semiring S: y(j) = ⊕_i x(i) ⊗ A(i, j), computed by gathering the rows of A
/// that x selects (push / column-based form). A's values are its edge weights (1 when unweighted); a
/// structure-only x counts as all ones. The output is a new sparse vector (sorted indices); positions the
/// mask excludes are left out (the output replaces y: there is no accumulator). Throws
/// `invalid_argument_error` on size mismatches, unsorted/out-of-range x, or structure-only mode with a
/// non-Boolean semiring.
template <class ExecSpace, class S, class Mask = no_mask>
BITGRAPH_TU_LOCAL void spmspv(const ExecSpace& exec, sparse_vector<typename S::value_type, memory_space_t<ExecSpace>>& y, const Mask& mask,
            const S&, const sparse_vector<typename S::value_type, memory_space_t<ExecSpace>>& x,
            const csr_graph<memory_space_t<ExecSpace>>& a, const spmspv_options& opts = {}) {
  using mem = memory_space_t<ExecSpace>;
  detail::check_algorithm<ExecSpace>(opts.algorithm, "spmspv");
  BITGRAPH_CHECK_ARG(x.n == a.n, "spmspv", "input vector has dimension ", x.n, " but the matrix has ", a.n, " rows");
  BITGRAPH_CHECK_ARG(x.nnz <= x.indices.extent(0), "spmspv", "input vector claims ", x.nnz, " entries but holds ",
                     x.indices.extent(0));
  BITGRAPH_CHECK_ARG(x.values.extent(0) == 0 || x.values.extent(0) >= x.nnz, "spmspv",
                     "input vector has fewer values than entries");
  if (opts.structure_only && !is_boolean_semiring_v<S>) {
    throw invalid_argument_error("bitgraph::spmspv: structure-only mode needs a Boolean (LOR) semiring");
  }
  Kokkos::View<const std::uint32_t*, mem> mbits;
  bool masked = false, complement = false;
  if constexpr (detail::is_vector_mask_v<Mask>) {
    BITGRAPH_CHECK_ARG(mask.bits.n == a.n, "spmspv", "mask has ", mask.bits.n, " bits but the output has ", a.n);
    mbits = mask.bits.words;
    masked = true;
    complement = mask.complement;
  }
  // Input indices must be sorted and in range: one pass, cheap next to the gather.
  {
    auto xi = x.indices;
    const vertex_t n = a.n;
    offset_t bad = 0;
    Kokkos::parallel_reduce(
        "bitgraph::spmspv::check_input", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, x.nnz),
        KOKKOS_LAMBDA(const offset_t p, offset_t& nbad) {
          if (xi(p) >= n || (p > 0 && xi(p - 1) >= xi(p))) ++nbad;
        },
        bad);
    BITGRAPH_CHECK_ARG(bad == 0, "spmspv", "input vector indices must be strictly increasing and < n (", bad,
                       " violations)");
  }
  spmspv_merge merge = opts.merge;
  if (merge == spmspv_merge::automatic) {
    // No-sort touches O(n / 32) words for the bitmap; sorting pays when the gathered work is small. A
    // forced CUDA path means the CUB radix sort.
    if (opts.algorithm == op_algorithm::cuda_warp) merge = spmspv_merge::radix_sort;
    else merge = (opts.structure_only || x.nnz * 64 > a.n) ? spmspv_merge::no_sort : spmspv_merge::radix_sort;
  }
  if (opts.algorithm == op_algorithm::cuda_warp && merge != spmspv_merge::radix_sort) {
    throw unsupported_error(std::string("bitgraph::spmspv: the CUDA path is the CUB radix sort; merge '") +
                            std::string(to_string(merge)) + "' is portable only (use 'generic')");
  }
  detail::spmspv_impl<ExecSpace, S>::run(exec, y, mbits, masked, complement, a, x, opts, merge);
}

}  // namespace bitgraph

