// Comparison helpers shared by the checks: pattern equality, an independent B2SR decoder, and the
// self-test's fault planting.
#pragma once

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "bitgraph/formats/b2sr.hpp"
#include "oracle.hpp"

namespace bitgraph::oracle {

/// Self-test faults. In a self-test run every comparison first corrupts one element of BitGraph's
/// result (a host copy) through this object, so the comparison must then report a difference; a
/// comparison that cannot fail would show up as a missed fault. Off in normal runs.
class planter {
 public:
  planter(bool on, std::uint64_t seed) : on_(on), rng_(mix(seed, 0x91a7)) {}
  bool on() const { return on_; }
  /// A uniform index in [0, n), n > 0.
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

 private:
  bool on_;
  std::mt19937_64 rng_;
};

/// Compares two patterns row by row; reports the first differing rows.
inline void compare_patterns(const host_pattern& got, const host_pattern& want, diffs& d) {
  if (got.n != want.n) {
    d.add("n: BitGraph ", got.n, ", GraphBLAS ", want.n);
    return;
  }
  auto show = [](const host_pattern& p, vertex_t i) {
    std::string s = "{";
    for (offset_t k = p.ptr[i]; k < p.ptr[i + 1] && k < p.ptr[i] + 8; ++k) s += cat(k == p.ptr[i] ? "" : ",", p.idx[k]);
    if (p.degree(i) > 8) s += cat(",... (", p.degree(i), ")");
    return s + "}";
  };
  for (vertex_t i = 0; i < got.n; ++i) {
    const bool same = got.degree(i) == want.degree(i) && std::equal(got.idx.begin() + std::ptrdiff_t(got.ptr[i]),
                                                                    got.idx.begin() + std::ptrdiff_t(got.ptr[i + 1]),
                                                                    want.idx.begin() + std::ptrdiff_t(want.ptr[i]));
    if (!same) d.add("row ", i, ": BitGraph ", show(got, i), ", GraphBLAS ", show(want, i));
  }
}

/// Host pattern of a CSR graph (BitGraph's own arrays, read as they are).
inline host_pattern pattern_of(const csr_graph<mem_space>& g) {
  auto rp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, g.row_ptr);
  auto ci = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, g.col_idx);
  host_pattern p;
  p.n = g.n;
  p.ptr.assign(rp.data(), rp.data() + rp.extent(0));
  if (p.ptr.empty()) p.ptr.assign(1, 0);
  p.idx.assign(ci.data(), ci.data() + ci.extent(0));
  return p;
}

/// Decodes a B2SR matrix from its documented layout (tile rows, tile columns, T words of T bits per
/// tile in little-endian words of tile_word_bytes(T) bytes, row- or column-major), without BitGraph's
/// own accessors. Bits that would lie at or beyond n are reported in `d`.
inline host_pattern decode_b2sr(const b2sr_matrix<mem_space>& b, diffs& d) {
  auto ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, b.tile_row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, b.tile_col_idx);
  auto bits = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, b.tile_bits);
  const int t = b.tile_dim;
  const int wb = t <= 8 ? 1 : t / 8;
  const std::uint64_t ntr = (std::uint64_t(b.n) + t - 1) / t;
  std::vector<std::vector<vertex_t>> rows(b.n);
  if (b.n_tile_rows != ntr) d.add("n_tile_rows ", b.n_tile_rows, ", expected ceil(n / T) = ", ntr);
  for (std::uint64_t tr = 0; tr < std::min<std::uint64_t>(ntr, b.n_tile_rows); ++tr) {
    for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) {
      for (int w = 0; w < t; ++w) {
        std::uint64_t word = 0;
        for (int byte = 0; byte < wb; ++byte)
          word |= std::uint64_t(bits(std::size_t(k) * t * wb + std::size_t(w) * wb + byte)) << (8 * byte);
        for (int bit = 0; bit < t; ++bit) {
          if (!((word >> bit) & 1u)) continue;
          const int r = b.order == bit_order::row_major ? w : bit;
          const int c = b.order == bit_order::row_major ? bit : w;
          const std::uint64_t i = tr * t + r, j = std::uint64_t(col(k)) * t + c;
          if (i >= b.n || j >= b.n) {
            d.add("tile ", k, " holds bit (", i, ", ", j, ") beyond n = ", b.n);
            continue;
          }
          rows[i].push_back(static_cast<vertex_t>(j));
        }
      }
    }
  }
  host_pattern p;
  p.n = b.n;
  p.ptr.assign(std::size_t(b.n) + 1, 0);
  for (vertex_t i = 0; i < b.n; ++i) {
    std::sort(rows[i].begin(), rows[i].end());
    const auto dup = std::adjacent_find(rows[i].begin(), rows[i].end());
    if (dup != rows[i].end()) d.add("row ", i, ": column ", *dup, " stored in two tiles");
    p.ptr[i + 1] = p.ptr[i] + rows[i].size();
    p.idx.insert(p.idx.end(), rows[i].begin(), rows[i].end());
  }
  return p;
}

/// Self-test: removes one entry from a pattern, or adds (0, 0) to an empty one.
inline bool plant_in_pattern(planter& p, host_pattern& h) {
  if (!p.on() || h.n == 0) return false;
  if (h.idx.empty()) {
    h.idx.push_back(0);
    for (vertex_t i = 0; i < h.n; ++i) h.ptr[i + 1] = 1;
    return true;
  }
  const std::size_t k = p.pick(h.idx.size());
  h.idx.erase(h.idx.begin() + std::ptrdiff_t(k));
  for (vertex_t i = 0; i < h.n; ++i)
    if (h.ptr[i + 1] > k) --h.ptr[i + 1];
  return true;
}

}  // namespace bitgraph::oracle
