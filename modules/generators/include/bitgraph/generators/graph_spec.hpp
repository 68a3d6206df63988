// Textual graph specs ("kron:20", "grid2d:2048", "file:g.mtx:undirected"): parsing, printing, and
// generating the synthetic ones.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/edge_list.hpp"
#include "bitgraph/generators/generators.hpp"

namespace bitgraph::gen {

/// Where a graph comes from: one of the generators, or a file.
enum class graph_source : std::uint8_t {
  kronecker,         ///< `kron:SCALE`, GAP's `-g SCALE`
  uniform_random,    ///< `urand:SCALE`, GAP's `-u SCALE`
  grid_2d,           ///< `grid2d:K`
  grid_3d,           ///< `grid3d:K`
  random_geometric,  ///< `rgg:SCALE`
  mycielski,         ///< `mycielski:K`
  file,              ///< `file:PATH`, read by the io module
};

/// How a `file:` spec's file is to be read, from its extension.
enum class file_format : std::uint8_t {
  matrix_market,  ///< `.mtx` (any case): `bitgraph::io::read_matrix_market`
  edge_list,      ///< anything else: `bitgraph::io::read_edge_list`
};

/// A relabelling applied to a graph after it is built (`order=NAME`): the graph then is the reordered one,
/// with its vertices in the new ids.
enum class vertex_ordering : std::uint8_t {
  none,     ///< as generated or read
  degree,   ///< descending row length, ties by id (computed on the execution space)
  rcm,      ///< reverse Cuthill-McKee (bandwidth-reducing, for meshes; computed on the host)
  random,   ///< a random permutation from the spec's seed (destroys locality: a worst case)
  cluster,  ///< hub clusters: each vertex after its top-ranked neighbour (computed on the execution space)
};

/// Name of an ordering as written in specs: "none", "degree", "rcm", "random", "cluster".
std::string_view ordering_name(vertex_ordering order);

/// A parsed graph spec `NAME:PARAM[:option...]`. Options: `seed=N` (0..2^32-1, default `gap_seed`),
/// `degree=N` (kron and urand only, default 16), `weighted`, `directed`, `undirected`, `loops`,
/// `order=degree|cluster|rcm|random|none` (applied by `io::load_graph`).
struct graph_spec {
  graph_source source = graph_source::kronecker;  ///< generator or file
  std::uint64_t parameter = 0;                    ///< scale (kron, urand, rgg) or K; 0 for files
  std::string path;                               ///< file path (file only)
  file_format format = file_format::edge_list;    ///< how to read `path` (file only)
  std::uint32_t seed = gap_seed;                  ///< base seed of the RNGs (and of inserted weights)
  std::uint32_t degree = gap_degree;              ///< edges per vertex (kron and urand only)
  bool weighted = false;                          ///< attach GAP weights 1..255 (generators; files lacking weights)
  std::optional<graph_kind> kind;                 ///< explicit `directed` / `undirected`, else the source's default
  bool keep_self_loops = false;                   ///< `loops`: keep (u, u) entries (GAP drops them)
  vertex_ordering order = vertex_ordering::none;  ///< `order=NAME`: relabel the built graph

  /// The CSR build options the spec implies for an edge list with the given storage. Generators default
  /// to undirected (GAP builds generated graphs undirected); files default to directed for general
  /// storage and undirected for (skew-)symmetric storage. Self-loops are removed unless `loops`,
  /// duplicates always; generators keep weights only when `weighted`, files always keep theirs.
  csr_build_options build_options(edge_storage storage = edge_storage::general) const;

  /// Field-wise equality (round-trip checks).
  friend bool operator==(const graph_spec&, const graph_spec&) = default;
};

/// The spec's generator name as written in specs: "kron", "urand", "grid2d", "grid3d", "rgg",
/// "mycielski", "file".
std::string_view source_name(graph_source source);

/// Parses `NAME:PARAM[:option...]`. For `file:PATH[:option...]` the options are the trailing
/// `:`-separated segments that are options; everything before them is the path (so a path may contain
/// ':' unless its last segment reads as an option). Throws `invalid_argument_error` naming the bad part:
/// unknown generator or option, missing or non-numeric parameter, parameter out of range (kron, urand,
/// rgg: scale 1..31; grid2d: K^2 < 2^32 - 1; grid3d: K^3 < 2^32 - 1; mycielski: 2..31), repeated or
/// conflicting options, an option that does not apply (degree on other generators).
graph_spec parse_graph_spec(std::string_view text);

/// Canonical text of a spec: options in a fixed order, defaults omitted;
/// `parse_graph_spec(to_string(s)) == s` for every spec `parse_graph_spec` returns.
std::string to_string(const graph_spec& spec);

/// Generates the spec's graph (with GAP weights when `weighted`), named `to_string(spec)`. `threads` as
/// in `generator_threads`. Throws `invalid_argument_error` for `file:` specs (loading is the io
/// module's), `size_error` / `allocation_error` when the graph does not fit in memory.
edge_list generate(const graph_spec& spec, unsigned threads = 0);

}  // namespace bitgraph::gen
