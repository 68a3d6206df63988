// Matrix Market (.mtx) reading into an edge list and writing of edge lists and host CSR graphs.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/edge_list.hpp"
#include "bitgraph/formats/host_csr.hpp"
#include "bitgraph/io/read_limits.hpp"

namespace bitgraph::io {

/// Layout of the data lines: `coordinate` lists "row col [value]" per entry, `array` lists every value
/// of a dense matrix in column-major order.
enum class mm_format : std::uint8_t { coordinate, array };

/// The value type of the banner. `complex` is recognised only to be rejected with a clear message.
enum class mm_field : std::uint8_t { pattern, integer, real, complex };

/// The symmetry of the banner: which entries the file stores and which are implied.
enum class mm_symmetry : std::uint8_t { general, symmetric, skew_symmetric, hermitian };

/// What the header of a Matrix Market file declares, for callers that report or check it.
struct mm_header {
  bool has_banner = true;                       ///< false only for LAGraph-style header-less files
  mm_format format = mm_format::coordinate;     ///< coordinate or array
  mm_field field = mm_field::real;              ///< pattern, integer or real
  mm_symmetry symmetry = mm_symmetry::general;  ///< as written in the banner
  std::string graphblas_type;                   ///< the "%%GraphBLAS type <T>" line's type, or empty
  std::uint64_t rows = 0;                       ///< declared number of rows
  std::uint64_t cols = 0;                       ///< declared number of columns
  std::uint64_t entries = 0;    ///< stored entries: declared on the size line (coordinate) or implied (array)
  std::uint64_t size_line = 0;  ///< 1-based line of the size line
};

/// Options of the Matrix Market reader. The defaults accept exactly what the Matrix Market format
/// allows for a graph: a banner, a square matrix, no repeated entries.
struct mm_read_options {
  /// Accept files without the "%%MatrixMarket" banner, as LAGraph does: a first data line of three
  /// numbers means "coordinate real general", of two numbers "array real general".
  bool allow_missing_banner = false;
  /// Read an R x C matrix with R != C as a graph of max(R, C) vertices instead of rejecting it.
  bool pad_rectangular = false;
  /// Keep repeated (row, col) entries (the CSR builder merges or keeps them) instead of rejecting the
  /// file. In symmetric storage (i, j) and (j, i) are the same entry.
  bool allow_duplicates = false;
  /// Store the values of integer and real files as edge weights. Values are parsed and checked either
  /// way; `false` saves 8 bytes per entry when only the structure is needed.
  bool read_values = true;
  /// Largest accepted number of rows or columns; larger files throw `size_error`. Lowering it guards
  /// callers against files that declare billions of vertices (whose CSR would need n + 1 offsets).
  std::uint64_t max_vertices = bitgraph::max_vertices - 1;
  /// Bound on the vertices a coordinate file may declare relative to its declared entries: at most
  /// `vertex_bound(entries, max_vertices_per_entry)` = max(2^20, max_vertices_per_entry x entries), else
  /// `size_error` at the size line, before anything is read or allocated (a header declaring 4,294,967,294
  /// vertices over one entry would make a 32 GiB CSR). 0 lifts the bound; `max_vertices` applies either way.
  /// Array files list every value, so their size is bounded by the file already.
  std::uint64_t max_vertices_per_entry = default_vertices_per_entry;
  /// Accept NaN and infinite values (LAGraph's reader keeps them, e.g. in matrix_fp32.mtx). By default a
  /// value read as an edge weight that is NaN or infinite (including magnitudes beyond the double range,
  /// such as 1e999) throws `parse_error` at its line: no graph algorithm has a meaning for such a weight.
  bool allow_non_finite = false;
};

/// A canonical text form of the options ("mm;banner=required;..."), used in cache keys and reports.
std::string to_string(const mm_read_options& opts);

/// Reads a Matrix Market file as a graph: row i, column j (1-based) is the edge i-1 -> j-1 and every
/// stored entry is an edge, explicit zeros included. Symmetric and Hermitian files give
/// `edge_storage::symmetric`, skew-symmetric files `edge_storage::skew_symmetric`; entries are kept as
/// stored and the CSR builder adds the mirrored ones. Pattern files give an unweighted list.
/// The header is stored in `*header` when it is not null.
/// Throws `parse_error` (naming the file and the 1-based line) for any malformed or unsupported input,
/// `size_error` when the matrix has more rows or columns than `opts.max_vertices` or than its entries
/// allow (`opts.max_vertices_per_entry`), and
/// `bitgraph::error` when the file cannot be read or is not a regular file (a FIFO, socket or device is
/// refused before it is opened, so the call never blocks: read such inputs through the stream overload).
edge_list read_matrix_market(const std::string& path, const mm_read_options& opts = {}, mm_header* header = nullptr);

/// Same as the file overload, reading from a stream; `source_name` names it in messages.
edge_list read_matrix_market(std::istream& in, const std::string& source_name, const mm_read_options& opts = {},
                             mm_header* header = nullptr);

/// Reads and checks only the banner, the "%%GraphBLAS type" line and the size line.
mm_header read_matrix_market_header(const std::string& path, const mm_read_options& opts = {});

/// Options of the Matrix Market writers.
struct mm_write_options {
  /// Write undirected `host_csr` graphs as "symmetric" with the lower triangle (row >= column) only.
  /// Edge lists always keep their own storage.
  bool symmetric = true;
  /// Write weights ("real" field) when the graph has them; otherwise, or when false, "pattern".
  bool values = true;
  /// Extra comment text; each of its lines becomes a "%" line after the banner.
  std::string comment;
};

/// Writes `g` as a coordinate Matrix Market file: "pattern" or "real" (shortest round-trip decimal
/// values), "general" for directed graphs, "symmetric" (lower triangle) for undirected ones.
/// Throws `invalid_argument_error` if `g` breaks the CSR invariants or is undirected but not
/// symmetric, and `bitgraph::error` if the file cannot be written.
void write_matrix_market(const std::string& path, const host_csr& g, const mm_write_options& opts = {});
/// Same as the file overload, writing to a stream.
void write_matrix_market(std::ostream& out, const host_csr& g, const mm_write_options& opts = {});

/// Writes an edge list as an n x n coordinate file keeping its storage: general entries as given,
/// symmetric and skew-symmetric entries moved to the lower triangle (a skew entry's value negated
/// when moved). Unweighted skew-symmetric lists are written as "real" with values +-1.
/// Throws `invalid_argument_error` on inconsistent sizes or ids >= num_vertices.
void write_matrix_market(const std::string& path, const edge_list& edges, const mm_write_options& opts = {});
/// Same as the file overload, writing to a stream.
void write_matrix_market(std::ostream& out, const edge_list& edges, const mm_write_options& opts = {});

}  // namespace bitgraph::io
