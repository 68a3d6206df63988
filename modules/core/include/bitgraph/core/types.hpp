// Fundamental index and value types shared by every BitGraph module.
#pragma once

#include <cstdint>
#include <limits>

namespace bitgraph {

/// Vertex identifier. 32 bits: graphs have fewer than 2^32 - 1 vertices (`max_vertices`).
using vertex_t = std::uint32_t;

/// Edge offset / count. 64 bits so that a graph may hold more than 2^31 stored entries.
using offset_t = std::uint64_t;

/// BFS level (hop count from the source); `unreached_level` marks vertices not reached.
using level_t = std::int32_t;

/// Marks "no vertex" (an unreached BFS parent, an empty slot).
inline constexpr vertex_t invalid_vertex = std::numeric_limits<vertex_t>::max();

/// Largest number of vertices a graph may have: every id must differ from `invalid_vertex`.
inline constexpr std::uint64_t max_vertices = std::numeric_limits<vertex_t>::max();

/// Level of a vertex that a traversal did not reach.
inline constexpr level_t unreached_level = -1;

/// Compact BFS level (8 bits, for the k x n levels of a multi-source traversal): levels 0 .. `max_level8`, and
/// `unreached_level8` for a vertex not reached.
using level8_t = std::uint8_t;
inline constexpr level8_t unreached_level8 = 255;
inline constexpr level_t max_level8 = 254;

/// Whether a graph's adjacency is directed or undirected. Always explicit, never guessed: an undirected
/// graph stores both (u, v) and (v, u).
enum class graph_kind : std::uint8_t { directed, undirected };

}  // namespace bitgraph
