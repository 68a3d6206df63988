// DIMACS shortest-path graphs (.gr, 9th DIMACS Implementation Challenge): "p sp n m", then m "a u v w" arcs.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/edge_list.hpp"
#include "bitgraph/io/read_limits.hpp"

namespace bitgraph::io {

/// Options of the DIMACS reader.
struct dimacs_read_options {
  /// Store the arcs' weights; when false they are still parsed and checked.
  bool read_weights = true;
  /// Largest accepted number of vertices; a larger `p` line throws `size_error`.
  std::uint64_t max_vertices = bitgraph::max_vertices - 1;
  /// Bound on the vertices the `p` line may declare relative to its arcs: at most
  /// `vertex_bound(m, max_vertices_per_entry)` = max(2^20, max_vertices_per_entry x m), else `size_error` at the
  /// `p` line, before anything is allocated. 0 lifts the bound.
  std::uint64_t max_vertices_per_entry = default_vertices_per_entry;
  /// Accept NaN and infinite weights (by default `parse_error` at their line).
  bool allow_non_finite = false;
};

/// A canonical text form of the options ("dimacs;..."), used in cache keys and reports.
std::string to_string(const dimacs_read_options& opts);

/// Reads a DIMACS shortest-path file: comment lines start with `c`, one problem line `p sp n m` comes before
/// any arc, then exactly m arc lines `a u v w` with 1-based ids in 1..n (arc u -> v of weight w, an integer or
/// a real number). The result is a general (directed) weighted edge list of n vertices, 0-based, in file order.
/// Throws `parse_error` naming the file and 1-based line for malformed input (an arc before the `p` line, a
/// second `p` line, a `p` line that is not `p sp n m`, an unknown line type, missing or extra fields, id 0 or
/// above n, NaN or infinite weights unless `allow_non_finite`, a count of arcs other than m), `size_error` for n
/// above `max_vertices` or beyond `max_vertices_per_entry`, and `bitgraph::error` when the file cannot be read or
/// is not a regular file. Gzip-compressed files are read like the others.
edge_list read_dimacs(const std::string& path, const dimacs_read_options& opts = {});
/// Same as the file overload, reading from a stream; `source_name` names it in messages.
edge_list read_dimacs(std::istream& in, const std::string& source_name, const dimacs_read_options& opts = {});

/// How a graph file is to be read.
enum class input_format : std::uint8_t {
  matrix_market,  ///< `read_matrix_market`
  edge_list,      ///< `read_edge_list` (GAP `.el` / `.wel`: 0-based "u v [w]")
  dimacs,         ///< `read_dimacs` (`.gr`)
  graph_cache,    ///< `read_graph_cache_file` (`.bgcsr`, as `bitgraph convert` and the cache write it)
};

/// Name of a format: "matrix-market", "edge-list", "dimacs", "graph-cache".
const char* to_string(input_format format);

/// The format of the file at `path`, from its content first: a `%%MatrixMarket` banner (any case) or the graph
/// cache's magic, looked for in the first bytes (after inflating gzip data); then from its extension, a trailing
/// `.gz` set aside: `.mtx` Matrix Market, `.gr` DIMACS, `.bgcsr` the graph cache, anything else an edge list.
/// Throws like the readers when the file cannot be opened or its gzip data is corrupt.
input_format detect_input_format(const std::string& path);

/// True when this build reads gzip-compressed files (zlib was found when it was configured).
bool gzip_input_supported() noexcept;

}  // namespace bitgraph::io
