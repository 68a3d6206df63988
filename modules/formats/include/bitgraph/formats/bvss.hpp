// BVSS (binarised virtual slice sets, Blest §3.1) construction and metrics: the builder from a pull CSR,
// the footprint report and the update divergence that chooses Blest's eager or lazy updates. The layout
// itself is described in formats/bvss_layout.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/sort.hpp"
#include "bitgraph/formats/bvss_layout.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/detail/bvss_kernels.hpp"

namespace bitgraph {

/// Builds the BVSS of the pull matrix `pull` (row u lists the columns u pulls from: for BFS the graph's
/// in-edge CSR) on `exec`, with O(nnz) parallel work and no per-slice-set loop, so hub columns cost no
/// more than other columns: (1) every row cuts its sorted columns into slices (one per 8-column
/// interval), (2) a stable radix sort by slice set groups them with rows still ascending, (3) a scan of
/// the slice counts gives the VSS ranges, (4) every slice is written to its lane and byte of the
/// Fig. 2(c) layout. Throws `size_error` if the slice count does not fit the index types.
template <class ExecSpace>
bvss_matrix<memory_space_t<ExecSpace>> to_bvss(const ExecSpace& exec,
                                               const csr_graph<memory_space_t<ExecSpace>>& pull) {
  using mem = memory_space_t<ExecSpace>;
  bvss_matrix<mem> b;
  b.n = pull.n;
  const vertex_t n = pull.n;
  const vertex_t nss = static_cast<vertex_t>(ceil_div<std::uint64_t>(n, bvss_sigma));
  b.n_slice_sets = nss;
  // (1) Slices per row, then every slice as (slice set, row << 8 | mask), rows in order.
  auto seg = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::bvss::row_slices", offset_t(n) + 1);
  Kokkos::parallel_for("bitgraph::bvss::count_row_slices", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                       detail::bvss_count_row_slices<mem>{pull.row_ptr, pull.col_idx, seg});
  offset_t n_slices = detail::exclusive_scan(exec, seg, "bitgraph::bvss::scan_row_slices");
  auto key = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss::slice_set_of", n_slices, false);
  auto val = allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::bvss::row_and_mask", n_slices, false);
  Kokkos::parallel_for("bitgraph::bvss::cut_slices", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                       detail::bvss_cut_slices<mem>{pull.row_ptr, pull.col_idx, seg, key, val});
  // (2) Group by slice set; the sort is stable, so rows stay ascending within a set.
  detail::radix_sort_pairs<ExecSpace, std::uint64_t>(exec, key, val, n_slices, detail::key_bits(nss > 0 ? nss - 1 : 0),
                                                     true);
  // (3) Slices and VSSs per slice set.
  auto count = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::bvss::slices", offset_t(nss) + 1);
  Kokkos::parallel_for("bitgraph::bvss::count",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, n_slices),
                       detail::bvss_count_slices<mem>{key, count});
  auto first = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::bvss::first_slice", offset_t(nss) + 1, false);
  auto real_ptrs = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::bvss::real_ptrs", offset_t(nss) + 1);
  offset_t n_vss = 0;
  using offsets_policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
  Kokkos::parallel_scan("bitgraph::bvss::scan", offsets_policy(exec, 0, offset_t(nss) + 1),
                        detail::bvss_scan_vss<mem>{count, real_ptrs}, n_vss);
  offset_t check = 0;
  Kokkos::parallel_scan("bitgraph::bvss::first", offsets_policy(exec, 0, offset_t(nss) + 1),
                        detail::bvss_scan_first<mem>{count, first}, check);
  b.n_vss = n_vss;
  b.n_slices = n_slices;
  b.real_ptrs = real_ptrs;
  b.virtual_to_real = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bvss::virtual_to_real", n_vss, false);
  b.row_ids = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bvss::row_ids", n_vss * bvss_tau);
  b.masks = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss::masks", n_vss * 32);
  Kokkos::parallel_for("bitgraph::bvss::virtual_to_real", Kokkos::RangePolicy<ExecSpace>(exec, 0, nss),
                       detail::bvss_virtual_to_real<mem>{real_ptrs, b.virtual_to_real});
  // (4) Slice k of set s goes to VSS real_ptrs(s) + k / 128, lane k % 32, byte k / 32 % 4.
  offset_t bits = 0;
  Kokkos::parallel_reduce("bitgraph::bvss::fill", offsets_policy(exec, 0, n_slices),
                          detail::bvss_fill<mem>{key, val, first, real_ptrs, b.row_ids, b.masks}, bits);
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
double update_divergence(const ExecSpace& exec, const bvss_matrix<memory_space_t<ExecSpace>>& b) {
  double sum = 0;
  Kokkos::parallel_reduce("bitgraph::bvss::update_divergence",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, b.n_vss),
                          detail::bvss_divergence<memory_space_t<ExecSpace>>{b.row_ids, b.masks}, sum);
  return b.n_vss ? sum / double(b.n_vss) : 0.0;
}

}  // namespace bitgraph
