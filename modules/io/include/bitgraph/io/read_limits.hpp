// Bounds the text readers put on what a file may declare: vertices relative to its entries.
#pragma once

#include <cstdint>

namespace bitgraph::io {

/// A file may always declare up to this many vertices, whatever its number of entries.
inline constexpr std::uint64_t sparse_vertex_floor = std::uint64_t(1) << 20;

/// Default of the readers' `max_vertices_per_entry`: ids may be this sparse before a file is refused.
inline constexpr std::uint64_t default_vertices_per_entry = 64;

/// Largest vertex count a file of `entries` entries may declare: max(`sparse_vertex_floor`,
/// `per_entry` x `entries`), saturating; `per_entry` = 0 lifts the bound (UINT64_MAX). The CSR built from
/// a graph needs n + 1 offsets, so without the bound a 77-byte file declaring 4,294,967,294 vertices and
/// one entry would cost 32 GiB.
constexpr std::uint64_t vertex_bound(std::uint64_t entries, std::uint64_t per_entry) noexcept {
  if (per_entry == 0) return UINT64_MAX;
  const std::uint64_t scaled = entries > UINT64_MAX / per_entry ? UINT64_MAX : entries * per_entry;
  return scaled > sparse_vertex_floor ? scaled : sparse_vertex_floor;
}

}  // namespace bitgraph::io
