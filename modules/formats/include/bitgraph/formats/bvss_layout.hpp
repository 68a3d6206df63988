// The BVSS layout (binarised virtual slice sets, Blest §3.1): the pull structure of the tensor-core BFS.
// Slice set s gathers, for the σ = 8 columns [8s, 8s+8), every row with an entry there as a (row, 8-bit
// mask) slice; slices are cut into virtual slice sets (VSS) of at most τ = 128 and laid out per VSS in the
// column-major slice-to-thread order of Fig. 2(c). Built by formats/bvss.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/types.hpp"

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
  vertex_t n = 0;                                        ///< rows = columns
  offset_t nnz = 0;                                      ///< entries (bits set)
  vertex_t n_slice_sets = 0;                             ///< ceil(n / 8)
  offset_t n_vss = 0;                                    ///< virtual slice sets
  offset_t n_slices = 0;                                 ///< non-empty (unpadded) slices
  Kokkos::View<offset_t*, MemorySpace> real_ptrs;        ///< n_slice_sets + 1: VSS range of each slice set
  Kokkos::View<vertex_t*, MemorySpace> virtual_to_real;  ///< n_vss: slice set of each VSS
  Kokkos::View<vertex_t*, MemorySpace> row_ids;          ///< n_vss * 128
  Kokkos::View<std::uint32_t*, MemorySpace> masks;       ///< n_vss * 32 (4 masks per word)
};

/// Footprint and compression of a BVSS, as Blest's Table 4 reports them.
struct bvss_report {
  vertex_t slice_sets = 0;  ///< real slice sets (n / 8)
  offset_t virtual_slice_sets = 0;
  offset_t slices = 0;  ///< padded slices (128 per VSS)
  offset_t unpadded_slices = 0;
  offset_t connectivity_bits = 0;  ///< bits set (the graph's entries)
  double compression_ratio = 0;    ///< entries / (unpadded slices · σ): fraction of mask bits set
  std::uint64_t bvss_bytes = 0;    ///< real_ptrs + virtual_to_real + row_ids + masks
  double update_divergence = 0;    ///< Blest §3.2.1 (computed on the host by `update_divergence`)
};

}  // namespace bitgraph
