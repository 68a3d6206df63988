// Plain-text edge lists ("u v [w]" per line) read into and written from edge lists and host CSR graphs.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/edge_list.hpp"
#include "bitgraph/formats/host_csr.hpp"
#include "bitgraph/io/read_limits.hpp"

namespace bitgraph::io {

/// Options of the edge-list reader.
struct edge_list_read_options {
  /// Ids start at 1 (so 0 is an error) instead of 0.
  bool one_based = false;
  /// Number of vertices; ids must be below it. Without it n is the largest id + 1 (0 for no edges).
  std::optional<std::uint64_t> num_vertices;
  /// Storage of the result: `symmetric` when each line stands for an undirected edge.
  edge_storage storage = edge_storage::general;
  /// Store the third column as weights; when false it is still parsed and checked.
  bool read_weights = true;
  /// Largest accepted number of vertices; a larger `num_vertices` or id throws `size_error`.
  std::uint64_t max_vertices = bitgraph::max_vertices - 1;
  /// Without `num_vertices`, bound on the vertex count the ids imply relative to the number of edges:
  /// at most `vertex_bound(edges, max_vertices_per_entry)` = max(2^20, max_vertices_per_entry x edges), else
  /// `size_error` naming the line of the largest id (one line "4000000000 0" would otherwise make a 32 GiB
  /// CSR). 0 lifts the bound. An explicit `num_vertices` is the caller's choice and is bounded by
  /// `max_vertices` only.
  std::uint64_t max_vertices_per_entry = default_vertices_per_entry;
  /// Accept NaN and infinite weights. By default a weight that is NaN or infinite (including magnitudes
  /// beyond the double range, such as 1e999) throws `parse_error` at its line when weights are read.
  bool allow_non_finite = false;
};

/// A canonical text form of the options ("edges;base=0;..."), used in cache keys and reports.
std::string to_string(const edge_list_read_options& opts);

/// Reads an edge list: one "u v" or "u v w" line per edge, fields separated by spaces or tabs, lines
/// starting with '#' or '%' (after optional whitespace) and blank lines ignored, LF or CRLF endings.
/// Either every edge line has a weight or none has. Entries are kept in file order, repeats included.
/// Throws `parse_error` naming the file and 1-based line for malformed input (missing or extra fields,
/// non-numeric or negative ids, id 0 when 1-based, ids not below `num_vertices`, mixed weighted and
/// unweighted lines, binary data, NaN or infinite weights unless `allow_non_finite`), `size_error` for ids
/// or counts above `max_vertices` or beyond `max_vertices_per_entry`, and
/// `bitgraph::error` when the file cannot be read or is not a regular file (a FIFO, socket or device is
/// refused before it is opened, so the call never blocks: read such inputs through the stream overload).
edge_list read_edge_list(const std::string& path, const edge_list_read_options& opts = {});
/// Same as the file overload, reading from a stream; `source_name` names it in messages.
edge_list read_edge_list(std::istream& in, const std::string& source_name, const edge_list_read_options& opts = {});

/// Options of the edge-list writers.
struct edge_list_write_options {
  bool one_based = false;     ///< write ids + 1
  bool write_weights = true;  ///< write the weight column when the graph has weights
  bool header = true;         ///< start with a '#' comment giving the vertex and edge counts
};

/// Writes one line per entry of `edges`, in order (the storage is not recorded: pass it back through
/// `edge_list_read_options::storage`). Throws `invalid_argument_error` on inconsistent sizes or ids
/// >= num_vertices, `bitgraph::error` if the file cannot be written.
void write_edge_list(const std::string& path, const edge_list& edges, const edge_list_write_options& opts = {});
/// Same as the file overload, writing to a stream.
void write_edge_list(std::ostream& out, const edge_list& edges, const edge_list_write_options& opts = {});

/// Writes one line per stored entry of `g` (both directions of an undirected edge), rows in order.
/// Throws `invalid_argument_error` if `g` breaks the CSR invariants.
void write_edge_list(const std::string& path, const host_csr& g, const edge_list_write_options& opts = {});
/// Same as the file overload, writing to a stream.
void write_edge_list(std::ostream& out, const host_csr& g, const edge_list_write_options& opts = {});

}  // namespace bitgraph::io
