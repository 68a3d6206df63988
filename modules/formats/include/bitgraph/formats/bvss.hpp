// BVSS (binarised virtual slice sets, Blest §3.1): the pull structure of the tensor-core BFS. Slice set
// s gathers, for the σ = 8 columns [8s, 8s+8), every row with an entry there as a (row, 8-bit mask)
// slice; slices are cut into virtual slice sets (VSS) of at most τ = 128 and laid out per VSS in the
// column-major slice-to-thread order of Fig. 2(c).
#pragma once

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/sort.hpp"
#include "bitgraph/formats/csr.hpp"

namespace bitgraph {

/// Columns per slice set (σ). Blest's m8n8k128 layout packs two 8-bit masks per 16-bit fragment, so
/// σ = 8 is the layout this library implements.
inline constexpr int bvss_sigma = 8;
/// Slices each lane of a warp owns per VSS: 32 / σ.
inline constexpr int bvss_slices_per_thread = 32 / bvss_sigma;
/// Slices per VSS (τ = 32 · slicesPerThread).
inline constexpr int bvss_tau = 32 * bvss_slices_per_thread;

/// A graph in BVSS form for pulls: slice (u, mask) of slice set s says that row u pulls from the columns
/// 8s + j whose bit j of `mask` is set. For BFS the pulling rows are the vertices and the columns their
/// in-neighbours (the pull matrix is the in-edge CSR), so slice set s lists the out-neighbours of
/// vertices 8s..8s+7.
///
/// Layout of VSS v (Blest's `realPtrs`, `virtualToReal`, `rowIds`, `masks`): the k-th slice of the VSS
/// (by ascending row) is owned by lane k % 32 as its slice number k / 32; `row_ids[4 * (32 v + lane) + c]`
/// holds the row of slice c of `lane` (one 128-bit load per lane) and byte c of `masks[32 v + lane]` its
/// mask. Padding slices (in the last VSS of a slice set) have mask 0 and row 0.
template <class MemorySpace>
struct bvss_matrix {
  using memory_space = MemorySpace;
  vertex_t n = 0;                 ///< rows = columns
  offset_t nnz = 0;               ///< entries (bits set)
  vertex_t n_slice_sets = 0;      ///< ceil(n / 8)
  offset_t n_vss = 0;             ///< virtual slice sets
  offset_t n_slices = 0;          ///< non-empty (unpadded) slices
  Kokkos::View<offset_t*, MemorySpace> real_ptrs;        ///< n_slice_sets + 1: VSS range of each slice set
  Kokkos::View<vertex_t*, MemorySpace> virtual_to_real;  ///< n_vss: slice set of each VSS
  Kokkos::View<vertex_t*, MemorySpace> row_ids;          ///< n_vss * 128
  Kokkos::View<std::uint32_t*, MemorySpace> masks;       ///< n_vss * 32 (4 masks per word)
};

/// Footprint and compression of a BVSS, as Blest's Table 4 reports them.
struct bvss_report {
  vertex_t slice_sets = 0;         ///< real slice sets (n / 8)
  offset_t virtual_slice_sets = 0;
  offset_t slices = 0;             ///< padded slices (128 per VSS)
  offset_t unpadded_slices = 0;
  offset_t connectivity_bits = 0;  ///< bits set (the graph's entries)
  double compression_ratio = 0;    ///< entries / (unpadded slices · σ): fraction of mask bits set
  std::uint64_t bvss_bytes = 0;    ///< real_ptrs + virtual_to_real + row_ids + masks
  double update_divergence = 0;    ///< Blest §3.2.1 (computed on the host by `update_divergence`)
};

/// Builds the BVSS of the pull matrix `pull` (row u lists the columns u pulls from: for BFS the graph's
/// in-edge CSR) on `exec`, with O(nnz) parallel work and no per-slice-set loop, so hub columns cost no
/// more than other columns: (1) every row cuts its sorted columns into slices (one per 8-column
/// interval), (2) a stable radix sort by slice set groups them with rows still ascending, (3) a scan of
/// the slice counts gives the VSS ranges, (4) every slice is written to its lane and byte of the
/// Fig. 2(c) layout. Throws `size_error` if the slice count does not fit the index types.
template <class ExecSpace>
BITGRAPH_TU_LOCAL bvss_matrix<memory_space_t<ExecSpace>> to_bvss(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& pull) {
  using mem = memory_space_t<ExecSpace>;
  bvss_matrix<mem> b;
  b.n = pull.n;
  const vertex_t n = pull.n;
  const vertex_t nss = static_cast<vertex_t>(ceil_div<std::uint64_t>(n, bvss_sigma));
  b.n_slice_sets = nss;
  auto row_ptr = pull.row_ptr;
  auto col_idx = pull.col_idx;
  // (1) Slices per row, then every slice as (slice set, row << 8 | mask), rows in order.
  auto seg = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::bvss::row_slices", offset_t(n) + 1);
  Kokkos::parallel_for(
      "bitgraph::bvss::count_row_slices", Kokkos::RangePolicy<ExecSpace>(exec, 0, n), KOKKOS_LAMBDA(const vertex_t u) {
        offset_t c = 0;
        vertex_t last = invalid_vertex;
        for (offset_t p = row_ptr(u); p < row_ptr(u + 1); ++p) {
          const vertex_t s = col_idx(p) / bvss_sigma;
          c += s != last;
          last = s;
        }
        seg(u) = c;
      });
  offset_t n_slices = detail::exclusive_scan(exec, seg, "bitgraph::bvss::scan_row_slices");
  auto key = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss::slice_set_of", n_slices, false);
  auto val = allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::bvss::row_and_mask", n_slices, false);
  Kokkos::parallel_for(
      "bitgraph::bvss::cut_slices", Kokkos::RangePolicy<ExecSpace>(exec, 0, n), KOKKOS_LAMBDA(const vertex_t u) {
        offset_t q = seg(u);
        std::uint32_t mask = 0;
        vertex_t last = invalid_vertex;
        for (offset_t p = row_ptr(u); p < row_ptr(u + 1); ++p) {
          const vertex_t j = col_idx(p), s = j / bvss_sigma;
          if (s != last && last != invalid_vertex) {
            key(q) = last;
            val(q) = (std::uint64_t(u) << 8) | mask;
            ++q;
            mask = 0;
          }
          last = s;
          mask |= 1u << (j % bvss_sigma);  // duplicates collapse into one bit
        }
        if (last != invalid_vertex) {
          key(q) = last;
          val(q) = (std::uint64_t(u) << 8) | mask;
        }
      });
  // (2) Group by slice set; the sort is stable, so rows stay ascending within a set.
  detail::radix_sort_pairs<ExecSpace, std::uint64_t>(exec, key, val, n_slices, detail::key_bits(nss > 0 ? nss - 1 : 0), true);
  // (3) Slices and VSSs per slice set.
  auto count = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::bvss::slices", offset_t(nss) + 1);
  Kokkos::parallel_for(
      "bitgraph::bvss::count", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, n_slices),
      KOKKOS_LAMBDA(const offset_t p) { atomic_fetch_add_offset(&count(key(p)), 1); });
  auto first = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::bvss::first_slice", offset_t(nss) + 1, false);
  auto real_ptrs = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::bvss::real_ptrs", offset_t(nss) + 1);
  offset_t n_vss = 0;
  Kokkos::parallel_scan(
      "bitgraph::bvss::scan", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, offset_t(nss) + 1),
      KOKKOS_LAMBDA(const offset_t s, offset_t& acc, const bool final) {
        const offset_t v = ceil_div<offset_t>(count(s), bvss_tau);
        if (final) real_ptrs(s) = acc;
        acc += v;
      },
      n_vss);
  offset_t check = 0;
  Kokkos::parallel_scan(
      "bitgraph::bvss::first", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, offset_t(nss) + 1),
      KOKKOS_LAMBDA(const offset_t s, offset_t& acc, const bool final) {
        const offset_t c = count(s);
        if (final) first(s) = acc;
        acc += c;
      },
      check);
  b.n_vss = n_vss;
  b.n_slices = n_slices;
  b.real_ptrs = real_ptrs;
  b.virtual_to_real = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bvss::virtual_to_real", n_vss, false);
  b.row_ids = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bvss::row_ids", n_vss * bvss_tau);
  b.masks = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss::masks", n_vss * 32);
  auto v2r = b.virtual_to_real;
  auto rows = b.row_ids;
  auto masks = b.masks;
  Kokkos::parallel_for(
      "bitgraph::bvss::virtual_to_real", Kokkos::RangePolicy<ExecSpace>(exec, 0, nss), KOKKOS_LAMBDA(const vertex_t s) {
        for (offset_t v = real_ptrs(s); v < real_ptrs(s + 1); ++v) v2r(v) = s;
      });
  // (4) Slice k of set s goes to VSS real_ptrs(s) + k / 128, lane k % 32, byte k / 32 % 4.
  offset_t bits = 0;
  Kokkos::parallel_reduce(
      "bitgraph::bvss::fill", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, n_slices),
      KOKKOS_LAMBDA(const offset_t p, offset_t& nbits) {
        const vertex_t s = key(p);
        const offset_t k = p - first(s);
        const offset_t v = real_ptrs(s) + k / bvss_tau;
        const int kk = static_cast<int>(k % bvss_tau);
        const int lane = kk % 32, c = kk / 32;
        const std::uint32_t mask = static_cast<std::uint32_t>(val(p) & 0xffu);
        rows(4 * (32 * v + lane) + c) = static_cast<vertex_t>(val(p) >> 8);
        Kokkos::atomic_fetch_or(&masks(32 * v + lane), mask << (8 * c));  // 4 slices share a word
        nbits += popcount(mask);
      },
      bits);
  b.nnz = bits;
  exec.fence();
  return b;
}

/// Footprint and compression of `b` (update divergence left 0; see `update_divergence`).
template <class MemorySpace>
bvss_report report(const bvss_matrix<MemorySpace>& b) {
  bvss_report r;
  r.slice_sets = b.n_slice_sets;
  r.virtual_slice_sets = b.n_vss;
  r.slices = b.n_vss * bvss_tau;
  r.unpadded_slices = b.n_slices;
  r.connectivity_bits = b.nnz;
  r.compression_ratio = b.n_slices ? double(b.nnz) / (double(b.n_slices) * bvss_sigma) : 0.0;
  r.bvss_bytes = b.real_ptrs.extent(0) * sizeof(offset_t) + b.virtual_to_real.extent(0) * sizeof(vertex_t) +
                 b.row_ids.extent(0) * sizeof(vertex_t) + b.masks.extent(0) * sizeof(std::uint32_t);
  return r;
}

/// Blest's update divergence (§3.2.1): for every VSS, the standard deviation of the row ids of each
/// non-empty column of its 32 x 4 slice-to-thread matrix (padding excluded), averaged over the non-empty
/// columns, then over the VSSs. High values mean scattered level / frontier updates (the lazy scheme
/// pays off); Blest switches to lazy updates above 25,000.
template <class ExecSpace>
BITGRAPH_TU_LOCAL double update_divergence(const ExecSpace& exec, const bvss_matrix<memory_space_t<ExecSpace>>& b) {
  auto rows = b.row_ids;
  auto masks = b.masks;
  double sum = 0;
  Kokkos::parallel_reduce(
      "bitgraph::bvss::update_divergence", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, b.n_vss),
      KOKKOS_LAMBDA(const offset_t v, double& acc) {
        double col_sum = 0;
        int cols = 0;
        for (int c = 0; c < bvss_slices_per_thread; ++c) {
          double s1 = 0, s2 = 0;
          int k = 0;
          for (int lane = 0; lane < 32; ++lane) {
            if (((masks(32 * v + lane) >> (8 * c)) & 0xffu) == 0) continue;
            const double u = rows(4 * (32 * v + lane) + c);
            s1 += u;
            s2 += u * u;
            ++k;
          }
          if (k == 0) continue;
          const double mean = s1 / k;
          const double var = s2 / k - mean * mean;
          col_sum += var > 0 ? Kokkos::Experimental::sqrt(var) : 0.0;
          ++cols;
        }
        if (cols) acc += col_sum / cols;
      },
      sum);
  return b.n_vss ? sum / double(b.n_vss) : 0.0;
}

}  // namespace bitgraph
