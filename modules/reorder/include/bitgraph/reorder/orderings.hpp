// Classic vertex orderings on host CSR graphs: random, by descending degree, and Reverse Cuthill-McKee
// (the bandwidth-reducing order Blest applies to non-social graphs).
#pragma once

#include <cstdint>

#include "bitgraph/formats/host_csr.hpp"
#include "bitgraph/reorder/permutation.hpp"

namespace bitgraph::reorder {

/// A uniformly random permutation of n vertices (Fisher-Yates over a 64-bit Mersenne twister with an
/// unbiased bounded draw), identical for a given (n, seed) on every platform. O(n).
permutation random_order(vertex_t n, std::uint64_t seed);

/// Vertices by descending number of stored entries in their row (out-degree), ties kept in id order.
/// O(n + m). Throws `invalid_argument_error` if `g` is inconsistent.
permutation degree_order(const host_csr& g);

/// Reverse Cuthill-McKee on the undirected pattern of `g` (`g` itself if undirected, the union of `g`
/// and its transpose if directed; self-loops and repeated entries ignored). Each connected component
/// is numbered from a pseudo-peripheral vertex (George-Liu: repeated BFS from the unvisited vertex of
/// minimum degree, moving to a minimum-degree vertex of the last level while the eccentricity grows);
/// neighbours are visited by increasing degree (ties by id) and the whole Cuthill-McKee order is
/// reversed at the end. Components appear one after another, so the result is block diagonal.
/// O(m log d) time (d the largest degree) plus a few BFS sweeps per component, O(n + m) memory.
/// Throws `invalid_argument_error` if `g` is inconsistent.
permutation rcm(const host_csr& g);

}  // namespace bitgraph::reorder
