// Bandwidth and slice-fill measures.
#include "bitgraph/reorder/metrics.hpp"

#include <algorithm>
#include <bit>

#include "internal.hpp"

namespace bitgraph::reorder {

namespace {

struct slice_tally {
  std::uint64_t entries = 0;  // distinct entries
  std::uint64_t slices = 0;
};

/// Counts both quantities in one pass; relies on rows being sorted, so that entries of a slice and
/// repeated entries are adjacent.
slice_tally tally_slices(const host_csr& a, int sigma) {
  const int shift = std::countr_zero(static_cast<unsigned>(sigma));
  slice_tally t;
  for (vertex_t r = 0; r < a.n; ++r) {
    for (offset_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const bool first = k == a.row_ptr[r];
      if (first || a.col_idx[k] != a.col_idx[k - 1]) ++t.entries;
      if (first || (a.col_idx[k] >> shift) != (a.col_idx[k - 1] >> shift)) ++t.slices;
    }
  }
  return t;
}

}  // namespace

std::uint64_t bandwidth(const host_csr& g) {
  detail::validate_csr(g, "reorder::bandwidth");
  std::uint64_t bw = 0;
  for (vertex_t r = 0; r < g.n; ++r) {
    if (g.row_ptr[r] == g.row_ptr[r + 1]) continue;
    // Sorted rows: the extreme columns bound the distance.
    const vertex_t lo = g.col_idx[g.row_ptr[r]], hi = g.col_idx[g.row_ptr[r + 1] - 1];
    bw = std::max<std::uint64_t>(bw, lo < r ? r - lo : lo - r);
    bw = std::max<std::uint64_t>(bw, hi < r ? r - hi : hi - r);
  }
  return bw;
}

std::uint64_t slice_count(const host_csr& a, int sigma) {
  detail::validate_csr(a, "reorder::slice_count");
  detail::validate_sigma(sigma, "reorder::slice_count");
  return tally_slices(a, sigma).slices;
}

double slice_compression(const host_csr& a, int sigma) {
  detail::validate_csr(a, "reorder::slice_compression");
  detail::validate_sigma(sigma, "reorder::slice_compression");
  const slice_tally t = tally_slices(a, sigma);
  if (t.slices == 0) return 0.0;
  return static_cast<double>(t.entries) / (static_cast<double>(t.slices) * sigma);
}

}  // namespace bitgraph::reorder
