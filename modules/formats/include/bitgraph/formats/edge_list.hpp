// Host-side coordinate (COO) edge list: what readers and generators produce before a CSR is built.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bitgraph/core/types.hpp"

namespace bitgraph {

/// How the entries of an `edge_list` are to be read.
enum class edge_storage : std::uint8_t {
  general,         ///< every entry (u, v) is one directed edge u -> v
  symmetric,       ///< every off-diagonal entry (u, v, w) also stands for (v, u, w)
  skew_symmetric,  ///< every off-diagonal entry (u, v, w) also stands for (v, u, -w)
};

/// A graph as a list of edges in host memory, 0-based. Entries may come in any order and may repeat;
/// builders sort and de-duplicate. `weights` is either empty (unweighted: every edge has weight 1) or
/// holds one weight per entry.
struct edge_list {
  std::uint64_t num_vertices = 0;                ///< n; every id is < n (checked by builders)
  std::vector<vertex_t> src;                     ///< source of each entry
  std::vector<vertex_t> dst;                     ///< destination of each entry
  std::vector<double> weights;                   ///< per-entry weight, or empty
  edge_storage storage = edge_storage::general;  ///< whether entries stand for their mirror too
  std::string name;                              ///< where it came from (file name or generator spec), for reports

  /// Number of stored entries.
  std::uint64_t size() const noexcept { return src.size(); }
  /// True when a weight is stored per entry.
  bool weighted() const noexcept { return !weights.empty(); }
};

/// How a CSR is built from an edge list (`build_csr`) and, through the same fields, part of the key of
/// the binary graph cache.
struct csr_build_options {
  /// `directed` keeps each entry as given (mirrored only if the edge list says so); `undirected`
  /// symmetrises: every (u, v) also yields (v, u). Unset (the default): the edge list decides, see
  /// `resolved_kind` — symmetric and skew-symmetric storage give an undirected graph, general a directed one.
  std::optional<graph_kind> kind;
  bool remove_self_loops = false;  ///< drop (u, u) entries
  bool remove_duplicates = true;   ///< merge repeated (u, v); weights keep the minimum
  bool keep_weights = true;        ///< carry the edge list's weights into the CSR
};

/// The kind `build_csr(edges, opts)` gives its graph: `opts.kind` if set, else undirected exactly when the
/// entries stand for their mirrors (a Matrix Market `symmetric`, `skew-symmetric` or `hermitian` file).
inline graph_kind resolved_kind(const edge_list& edges, const csr_build_options& opts) noexcept {
  if (opts.kind) return *opts.kind;
  return edges.storage == edge_storage::general ? graph_kind::directed : graph_kind::undirected;
}

}  // namespace bitgraph
