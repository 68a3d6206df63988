// Synthetic graph generators (GAP-compatible Kronecker and uniform random, grids, random geometric,
// Mycielski): host-only, deterministic by seed and independent of the thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "bitgraph/formats/edge_list.hpp"

namespace bitgraph::gen {

/// GAP Benchmark Suite's `kRandSeed`: the default seed of every generator here, with which
/// `kronecker` and `uniform_random` reproduce GAP's `-g` and `-u` graphs.
inline constexpr std::uint32_t gap_seed = 27491095;

/// GAP's default degree (`-k`): edges generated per vertex before symmetrising and de-duplicating.
inline constexpr std::uint32_t gap_degree = 16;

/// GAP's generation block: every block of this many edges (or weights) reseeds its own RNG with
/// `seed + block index`, which is what makes the output independent of the thread count.
inline constexpr std::uint64_t gap_block_size = std::uint64_t{1} << 18;

/// Largest scale of `kronecker`, `uniform_random` and `random_geometric`: 2^31 vertices, since ids are
/// 32-bit and must differ from `invalid_vertex`.
inline constexpr unsigned max_scale = 31;

/// Largest k of `grid_2d`: k^2 < 2^32 - 1.
inline constexpr std::uint64_t max_grid_2d_k = 65535;

/// Largest k of `grid_3d`: k^3 < 2^32 - 1.
inline constexpr std::uint64_t max_grid_3d_k = 1625;

/// Smallest k of `mycielski` (M_2 = K_2).
inline constexpr unsigned min_mycielski_k = 2;

/// Largest k of `mycielski`: M_31 has 3 * 2^29 - 1 vertices.
inline constexpr unsigned max_mycielski_k = 31;

/// Which of GAP's two R-MAT samplers `kronecker` reproduces.
enum class kronecker_variant : std::uint8_t {
  gap,               ///< current GAP: one `uint32_t` draw per level compared with integer thresholds
  gap_legacy_float,  ///< older GAP: `uniform_real_distribution<float>` draws, float thresholds
};

/// Number of threads a generator uses: `requested` when non-zero, otherwise the environment variable
/// `BITGRAPH_GEN_THREADS` when set (a positive integer, else `invalid_argument_error`), otherwise
/// `std::thread::hardware_concurrency()` (at least 1).
unsigned generator_threads(unsigned requested = 0);

/// GAP's Kronecker (R-MAT, Graph500 parameters A = 0.57, B = C = 0.19) graph: 2^scale vertices and
/// 2^scale * edge_factor directed entries (`edge_storage::general`) in GAP's order, vertex ids permuted
/// as GAP does. Entries include self-loops and repeats: build undirected without self-loops to get GAP's
/// graph. `scale` in 1..31, `edge_factor` >= 1. Throws `invalid_argument_error`, `size_error`,
/// `allocation_error`.
edge_list kronecker(unsigned scale, std::uint32_t edge_factor = gap_degree, std::uint32_t seed = gap_seed,
                    unsigned threads = 0, kronecker_variant variant = kronecker_variant::gap);

/// GAP's uniform random (Erdős–Rényi-like) graph: 2^scale vertices and 2^scale * edge_factor directed
/// entries with both endpoints drawn uniformly (GAP's `UniDist`), `edge_storage::general`. `scale` in
/// 1..31, `edge_factor` >= 1. Throws like `kronecker`.
edge_list uniform_random(unsigned scale, std::uint32_t edge_factor = gap_degree, std::uint32_t seed = gap_seed,
                         unsigned threads = 0);

/// Replaces `edges.weights` with GAP's SSSP weights: entry e gets an integer in 1..255 drawn from the
/// RNG of its block (`gap_block_size` entries, seeded `seed + block index`), as GAP's `InsertWeights`.
/// Applied to `kronecker` / `uniform_random` output with the same seed it reproduces GAP's weights.
void insert_gap_weights(edge_list& edges, std::uint32_t seed = gap_seed, unsigned threads = 0);

/// k x k 4-neighbour grid: vertex (i, j) is i * k + j; each of the 2k(k - 1) undirected edges is stored
/// once as (smaller id, larger id) with `edge_storage::symmetric`. `k` >= 1 with k^2 < 2^32 - 1.
edge_list grid_2d(std::uint64_t k, unsigned threads = 0);

/// k x k x k 6-neighbour grid: vertex (i, j, l) is (i * k + j) * k + l; the 3k^2(k - 1) undirected edges
/// are stored once with `edge_storage::symmetric`. `k` >= 1 with k^3 < 2^32 - 1.
edge_list grid_3d(std::uint64_t k, unsigned threads = 0);

/// Connection radius of `random_geometric`: 0.55 * sqrt(ln n / n) with n = 2^scale, as the DIMACS10 /
/// SuiteSparse rgg_n_2_K_s0 graphs.
double random_geometric_radius(unsigned scale);

/// A random geometric graph with the coordinates of its vertices.
struct geometric_graph {
  edge_list edges;        ///< each undirected edge once as (smaller id, larger id), symmetric storage
  std::vector<double> x;  ///< x coordinate of vertex i, in [0, 1)
  std::vector<double> y;  ///< y coordinate of vertex i, in [0, 1)
  double radius = 0;      ///< vertices closer than this (Euclidean) are adjacent
};

/// Random geometric graph: 2^scale points uniform in the unit square (SplitMix64 stream from `seed`),
/// an edge between every two points at distance < `random_geometric_radius(scale)`. Vertex ids follow
/// the row-major order of a grid of square cells of side >= radius (within a cell, generation order), so
/// nearby points have nearby ids. `scale` in 1..31.
geometric_graph random_geometric_graph(unsigned scale, std::uint32_t seed = gap_seed, unsigned threads = 0);

/// `random_geometric_graph(scale, seed, threads).edges`.
edge_list random_geometric(unsigned scale, std::uint32_t seed = gap_seed, unsigned threads = 0);

/// Vertices of the Mycielski graph M_k: 3 * 2^(k - 2) - 1. `k` in 2..31.
std::uint64_t mycielski_vertices(unsigned k);

/// Undirected edges of M_k: 1 for k = 2, then m -> 3m + n.
std::uint64_t mycielski_edges(unsigned k);

/// Mycielski graph M_k as SuiteSparse's mycielskianK: M_2 = K_2; M_(k+1) keeps M_k's n vertices and
/// edges, adds a shadow n + i of every vertex i adjacent to the neighbours of i, and a hub 2n adjacent
/// to every shadow. Triangle-free with chromatic number k. Each undirected edge once, symmetric storage.
/// `k` in 2..31.
edge_list mycielski(unsigned k);

}  // namespace bitgraph::gen
