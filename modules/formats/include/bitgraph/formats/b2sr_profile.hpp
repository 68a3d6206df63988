// B2SR storage reports and the tile-size sampling profile (Bit-GraphBLAS Alg. 1) with an automatic
// tile-size choice.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"

namespace bitgraph {

/// Storage of a B2SR matrix against the CSR it replaces. Byte counts follow the paper's convention
/// (32-bit row pointers and indices, fp32 values; 64-bit pointers once a count exceeds 2^32 - 1) so that
/// ratios compare with Bit-GraphBLAS §VI-B; `b2sr_bytes_stored` is what this library actually allocates
/// (64-bit tile-row pointers).
struct b2sr_storage_report {
  int tile_dim = 0;                     ///< T
  vertex_t n = 0;                       ///< rows
  offset_t nnz = 0;                     ///< set bits (pattern entries)
  offset_t n_tiles = 0;                 ///< non-empty tiles
  std::uint64_t b2sr_bytes = 0;         ///< tile_row_ptr + tile_col_idx + bit tiles (paper convention)
  std::uint64_t b2sr_bytes_stored = 0;  ///< the same with the 64-bit tile-row pointers actually stored
  std::uint64_t csr_fp32_bytes = 0;     ///< CSR with fp32 values: row_ptr + col_idx + values
  std::uint64_t csr_pattern_bytes = 0;  ///< pattern-only CSR: row_ptr + col_idx
  double compression_ratio = 0;         ///< b2sr_bytes / csr_fp32_bytes (the paper's; lower is better)
  double ratio_vs_pattern_csr = 0;      ///< b2sr_bytes / csr_pattern_bytes
  double avg_bits_per_tile = 0;         ///< nnz / n_tiles
  double tile_fill = 0;                 ///< avg_bits_per_tile / T^2
};

namespace detail {
inline std::uint64_t index_bytes(std::uint64_t count_bound) { return count_bound > 0xffffffffull ? 8 : 4; }

inline b2sr_storage_report make_storage_report(int t, vertex_t n, offset_t nnz, offset_t n_tiles) {
  b2sr_storage_report r;
  r.tile_dim = t;
  r.n = n;
  r.nnz = nnz;
  r.n_tiles = n_tiles;
  const std::uint64_t ntr = (std::uint64_t(n) + t - 1) / t;
  const std::uint64_t bits = n_tiles * std::uint64_t(t) * tile_word_bytes(t);
  r.b2sr_bytes = (ntr + 1) * index_bytes(n_tiles) + n_tiles * 4 + bits;
  r.b2sr_bytes_stored = (ntr + 1) * 8 + n_tiles * 4 + bits;
  r.csr_pattern_bytes = (std::uint64_t(n) + 1) * index_bytes(nnz) + nnz * 4;
  r.csr_fp32_bytes = r.csr_pattern_bytes + nnz * 4;
  r.compression_ratio = r.csr_fp32_bytes ? double(r.b2sr_bytes) / double(r.csr_fp32_bytes) : 0.0;
  r.ratio_vs_pattern_csr = r.csr_pattern_bytes ? double(r.b2sr_bytes) / double(r.csr_pattern_bytes) : 0.0;
  r.avg_bits_per_tile = n_tiles ? double(nnz) / double(n_tiles) : 0.0;
  r.tile_fill = r.avg_bits_per_tile / (double(t) * t);
  return r;
}
}  // namespace detail

/// Storage report of an existing B2SR matrix.
template <class MemorySpace>
b2sr_storage_report storage_report(const b2sr_matrix<MemorySpace>& b) {
  return detail::make_storage_report(b.tile_dim, b.n, b.nnz, b.n_tiles);
}

/// Exact storage report for tile dimension `tile_dim` without building the bits: counts the non-empty
/// tiles of every tile row on `exec` (the first pass of `to_b2sr`). `g` must be duplicate-free.
template <class ExecSpace>
b2sr_storage_report exact_storage_report(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                         int tile_dim) {
  BITGRAPH_CHECK_ARG(valid_tile_dim(tile_dim), "exact_storage_report", "tile dimension ", tile_dim,
                     " is not one of 4, 8, 16, 32, 64");
  BITGRAPH_CHECK_ARG(!g.has_duplicates, "exact_storage_report", "the graph must be duplicate-free");
  const offset_t tiles = detail::dispatch_tile_dim(tile_dim, [&](auto td) -> offset_t {
    constexpr int T = decltype(td)::value;
    return detail::count_tiles<ExecSpace, T>(exec, g);
  });
  return detail::make_storage_report(tile_dim, g.n, g.nnz, tiles);
}

/// What the sampling profile estimates for one tile size.
struct tile_size_estimate {
  int tile_dim = 0;                ///< T
  double entries_per_bit_row = 0;  ///< Alg. 1's EstCompressionRate: avg entries per non-empty T-bit row segment
  double estimated_tiles = 0;      ///< non-empty tiles extrapolated from the sampled tile rows
  b2sr_storage_report estimated;   ///< storage report built from `estimated_tiles`
};

/// Result of `profile_tile_sizes`: one estimate per tile size and the automatic choice.
struct tile_size_profile {
  std::vector<tile_size_estimate> estimates;  ///< for T = 4, 8, 16, 32, 64
  int chosen_tile_dim = 8;                    ///< the T with the least estimated B2SR storage
  std::uint64_t sampled_rows = 0;             ///< rows sampled per tile size (Alg. 1)
};

/// Options of the sampling profile.
struct profile_options {
  std::uint64_t sample_rows = 4096;                 ///< N of Alg. 1 (rows sampled); also bounds the tile rows sampled
  std::uint64_t seed = 1;                           ///< sampling is deterministic for a seed
  std::vector<int> tile_dims = {4, 8, 16, 32, 64};  ///< candidates
};

namespace detail {

/// Alg. 1 for one sampled row: entries over distinct column segments of width t, summed over the
/// non-empty rows (and those counted).
template <class Mem>
struct bit_row_segments {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  Kokkos::View<const vertex_t*, Mem> rows;
  vertex_t t;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, double& acc, std::uint64_t& cnt) const {
    const vertex_t u = rows(i);
    const offset_t b = row_ptr(u), e = row_ptr(u + 1);
    if (b == e) return;
    offset_t segments = 0;
    vertex_t last = invalid_vertex;
    for (offset_t p = b; p < e; ++p) {
      const vertex_t s = col_idx(p) / t;
      segments += (s != last);
      last = s;
    }
    acc += double(e - b) / double(segments);
    ++cnt;
  }
};

/// Random sample of k distinct values in [0, n), sorted (all of them if k >= n).
inline std::vector<vertex_t> sample_ids(vertex_t n, std::uint64_t k, std::uint64_t seed) {
  std::vector<vertex_t> out;
  if (k >= n) {
    out.resize(n);
    for (vertex_t i = 0; i < n; ++i) out[i] = i;
    return out;
  }
  std::mt19937_64 rng(seed);
  std::vector<bool> taken(n, false);
  // Floyd's algorithm: k draws, no rejection loop.
  for (std::uint64_t j = n - k; j < n; ++j) {
    std::uniform_int_distribution<std::uint64_t> d(0, j);
    std::uint64_t t = d(rng);
    if (taken[t]) t = j;
    taken[t] = true;
  }
  for (vertex_t i = 0; i < n; ++i)
    if (taken[i]) out.push_back(i);
  return out;
}

}  // namespace detail

/// The sampling profile (Bit-GraphBLAS Alg. 1) run on `exec`. For each candidate T it computes Alg. 1's
/// average number of entries per non-empty T-bit row segment over `sample_rows` random rows and, to
/// estimate storage (which Alg. 1's per-row figure cannot see: tiles also hold empty rows), counts the
/// exact non-empty tiles of `sample_rows / T` random tile rows and extrapolates. The chosen tile size
/// minimises the estimated B2SR bytes. `g` must be duplicate-free.
template <class ExecSpace>
tile_size_profile profile_tile_sizes(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                     const profile_options& opts = {}) {
  using mem = memory_space_t<ExecSpace>;
  BITGRAPH_CHECK_ARG(!g.has_duplicates, "profile_tile_sizes", "the graph must be duplicate-free");
  BITGRAPH_CHECK_ARG(opts.sample_rows > 0, "profile_tile_sizes", "sample_rows must be positive");
  tile_size_profile prof;
  const vertex_t n = g.n;
  auto rows_h = detail::sample_ids(n, opts.sample_rows, opts.seed);
  prof.sampled_rows = rows_h.size();
  Kokkos::View<vertex_t*, mem> rows =
      allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::profile::rows", rows_h.size(), false);
  Kokkos::deep_copy(exec, rows,
                    Kokkos::View<const vertex_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        rows_h.data(), rows_h.size()));
  double best_bytes = -1;
  for (int t : opts.tile_dims) {
    BITGRAPH_CHECK_ARG(valid_tile_dim(t), "profile_tile_sizes", "tile dimension ", t,
                       " is not one of 4, 8, 16, 32, 64");
    tile_size_estimate est;
    est.tile_dim = t;
    // Alg. 1: per sampled row, entries / distinct column segments of width t.
    double ratio_sum = 0;
    std::uint64_t nonempty = 0;
    Kokkos::parallel_reduce("bitgraph::profile::alg1", Kokkos::RangePolicy<ExecSpace>(exec, 0, rows.extent(0)),
                            detail::bit_row_segments<mem>{g.row_ptr, g.col_idx, rows, static_cast<vertex_t>(t)},
                            ratio_sum, nonempty);
    est.entries_per_bit_row = nonempty ? ratio_sum / double(nonempty) : 0.0;

    const vertex_t ntr = static_cast<vertex_t>(ceil_div<std::uint64_t>(n, t));
    const std::uint64_t k = std::max<std::uint64_t>(1, opts.sample_rows / t);
    auto trs_h = detail::sample_ids(ntr, k, opts.seed + t);
    Kokkos::View<vertex_t*, mem> trs =
        allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::profile::tile_rows", trs_h.size(), false);
    Kokkos::deep_copy(exec, trs,
                      Kokkos::View<const vertex_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                          trs_h.data(), trs_h.size()));
    const offset_t sampled_tiles = detail::dispatch_tile_dim(
        t, [&](auto td) -> offset_t { return detail::count_tiles_of<ExecSpace, decltype(td)::value>(exec, g, trs); });
    est.estimated_tiles = trs_h.empty() ? 0.0 : double(sampled_tiles) * double(ntr) / double(trs_h.size());
    est.estimated = detail::make_storage_report(t, n, g.nnz, static_cast<offset_t>(est.estimated_tiles + 0.5));
    if (best_bytes < 0 || double(est.estimated.b2sr_bytes) < best_bytes) {
      best_bytes = double(est.estimated.b2sr_bytes);
      prof.chosen_tile_dim = t;
    }
    prof.estimates.push_back(est);
  }
  return prof;
}

}  // namespace bitgraph
