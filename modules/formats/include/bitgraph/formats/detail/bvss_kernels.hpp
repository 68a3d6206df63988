// Kernels of the BVSS builder and its update-divergence metric (formats/bvss.hpp), as named functors.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/detail/kokkos_compat.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/bvss_layout.hpp"

namespace bitgraph::detail {

/// Slices of row u: one per distinct 8-column interval of its sorted columns.
template <class Mem>
struct bvss_count_row_slices {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  Kokkos::View<offset_t*, Mem> seg;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    offset_t c = 0;
    vertex_t last = invalid_vertex;
    for (offset_t p = row_ptr(u); p < row_ptr(u + 1); ++p) {
      const vertex_t s = col_idx(p) / bvss_sigma;
      c += s != last;
      last = s;
    }
    seg(u) = c;
  }
};

/// Every slice of row u as (slice set, row << 8 | mask), rows in order.
template <class Mem>
struct bvss_cut_slices {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  Kokkos::View<const offset_t*, Mem> seg;
  Kokkos::View<std::uint32_t*, Mem> key;
  Kokkos::View<std::uint64_t*, Mem> val;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
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
  }
};

template <class Mem>
struct bvss_count_slices {
  Kokkos::View<const std::uint32_t*, Mem> key;
  Kokkos::View<offset_t*, Mem> count;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const { atomic_fetch_add_offset(&count(key(p)), 1); }
};

/// Exclusive scan of the VSSs per slice set (ceil(slices / τ)) into real_ptrs.
template <class Mem>
struct bvss_scan_vss {
  Kokkos::View<const offset_t*, Mem> count;
  Kokkos::View<offset_t*, Mem> real_ptrs;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t s, offset_t& acc, const bool final) const {
    const offset_t v = ceil_div<offset_t>(count(s), bvss_tau);
    if (final) real_ptrs(s) = acc;
    acc += v;
  }
};

/// Exclusive scan of the slices per slice set into first.
template <class Mem>
struct bvss_scan_first {
  Kokkos::View<const offset_t*, Mem> count;
  Kokkos::View<offset_t*, Mem> first;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t s, offset_t& acc, const bool final) const {
    const offset_t c = count(s);
    if (final) first(s) = acc;
    acc += c;
  }
};

template <class Mem>
struct bvss_virtual_to_real {
  Kokkos::View<const offset_t*, Mem> real_ptrs;
  Kokkos::View<vertex_t*, Mem> v2r;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t s) const {
    for (offset_t v = real_ptrs(s); v < real_ptrs(s + 1); ++v) v2r(v) = s;
  }
};

/// Slice k of set s goes to VSS real_ptrs(s) + k / 128, lane k % 32, byte k / 32 % 4; counts the bits.
template <class Mem>
struct bvss_fill {
  Kokkos::View<const std::uint32_t*, Mem> key;
  Kokkos::View<const std::uint64_t*, Mem> val;
  Kokkos::View<const offset_t*, Mem> first, real_ptrs;
  Kokkos::View<vertex_t*, Mem> rows;
  Kokkos::View<std::uint32_t*, Mem> masks;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p, offset_t& nbits) const {
    const vertex_t s = key(p);
    const offset_t k = p - first(s);
    const offset_t v = real_ptrs(s) + k / bvss_tau;
    const int kk = static_cast<int>(k % bvss_tau);
    const int lane = kk % 32, c = kk / 32;
    const std::uint32_t mask = static_cast<std::uint32_t>(val(p) & 0xffu);
    rows(4 * (32 * v + lane) + c) = static_cast<vertex_t>(val(p) >> 8);
    Kokkos::atomic_fetch_or(&masks(32 * v + lane), mask << (8 * c));  // 4 slices share a word
    nbits += popcount(mask);
  }
};

/// One VSS's update divergence: the mean over its non-empty slice columns of the row ids' standard
/// deviation (padding excluded).
template <class Mem>
struct bvss_divergence {
  Kokkos::View<const vertex_t*, Mem> rows;
  Kokkos::View<const std::uint32_t*, Mem> masks;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t v, double& acc) const {
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
      col_sum += var > 0 ? detail::sqrt(var) : 0.0;
      ++cols;
    }
    if (cols) acc += col_sum / cols;
  }
};

}  // namespace bitgraph::detail
