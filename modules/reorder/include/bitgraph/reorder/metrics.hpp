// Quality measures of a vertex order: matrix bandwidth (what RCM minimises) and the fill of Blest's
// sigma-bit slices (what Jaccard-with-windows maximises).
#pragma once

#include <cstdint>

#include "bitgraph/formats/host_csr.hpp"

namespace bitgraph::reorder {

/// Largest |u - v| over the stored entries (u, v); 0 for a graph without edges. O(m). Throws
/// `invalid_argument_error` if `g` is inconsistent.
std::uint64_t bandwidth(const host_csr& g);

/// Number of non-empty slices of the matrix `a` for slice width `sigma`: the distinct pairs
/// (row u, column interval [sigma * s, sigma * s + sigma)) holding at least one entry. `a` is the matrix
/// Blest pulls from (for a directed graph, the adjacency of its transpose; for an undirected graph, the
/// graph itself). O(m). Throws `invalid_argument_error` if `a` is inconsistent or `sigma` is not one of
/// 4, 8, 16, 32.
std::uint64_t slice_count(const host_csr& a, int sigma);

/// Blest's effective compression ratio m / (slice_count * sigma): the fraction of set bits in the
/// sigma-bit slices, between 1 / sigma (every entry alone in its slice) and 1 (every slice full).
/// Repeated entries count once; 0 for a matrix without entries. Throws like `slice_count`.
double slice_compression(const host_csr& a, int sigma);

}  // namespace bitgraph::reorder
