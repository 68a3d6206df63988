// A CSR graph in plain host vectors: the exchange format of host-only code (binary cache, reorderings,
// reference implementations) that must not depend on Kokkos.
#pragma once

#include <cstdint>
#include <vector>

#include "bitgraph/core/types.hpp"

namespace bitgraph {

/// CSR in std::vectors with the same invariants as `csr_graph`: `row_ptr` has n + 1 non-decreasing
/// entries starting at 0 and ending at nnz, columns ascending within a row, `weights` empty or nnz long.
struct host_csr {
  vertex_t n = 0;                          ///< number of vertices
  graph_kind kind = graph_kind::directed;  ///< undirected graphs store both directions
  bool has_duplicates = false;             ///< repeated (u, v) entries may occur
  bool has_weights = false;                ///< `weights` holds one weight per entry
  std::vector<offset_t> row_ptr;           ///< n + 1 offsets
  std::vector<vertex_t> col_idx;           ///< nnz columns
  std::vector<double> weights;             ///< nnz weights, or empty

  /// Number of stored entries.
  offset_t nnz() const noexcept { return col_idx.size(); }
};

}  // namespace bitgraph
