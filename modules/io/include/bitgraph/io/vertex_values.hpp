// Per-vertex results (BFS levels, distances, ranks, component labels) written as Matrix Market dense vectors,
// CSV/TSV tables or a little-endian binary file.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bitgraph::io {

/// One named column of per-vertex values: integers (levels, vertex ids; -1 where there is none) or reals
/// (distances, ranks; +inf where a vertex is unreached). Exactly one of the two vectors is used.
struct vertex_column {
  std::string name;                    ///< the CSV/TSV header ("level", "parent", "distance", ...)
  bool real = false;                   ///< the values are `reals`, else `integers`
  std::vector<std::int64_t> integers;  ///< values when !real
  std::vector<double> reals;           ///< values when real

  std::size_t size() const noexcept { return real ? reals.size() : integers.size(); }
};

/// How per-vertex values are written, chosen by the file's extension.
enum class vertex_values_format : std::uint8_t {
  matrix_market,  ///< `.mtx`: "%%MatrixMarket matrix array integer|real general", n x columns, column-major
  csv,            ///< `.csv`: header "vertex,<name>[,<name>...]", one row per vertex
  tsv,            ///< `.tsv`: the same with tabs
  binary,         ///< `.bin`: `vertex_values_magic`, then the layout `write_vertex_values` documents
};

/// The format an output path's extension names (`.mtx`, `.csv`, `.tsv`, `.bin`, any case), or nullopt.
std::optional<vertex_values_format> vertex_values_format_of(std::string_view path);

/// The extension of a format, with its dot: ".mtx", ".csv", ".tsv", ".bin".
std::string_view extension(vertex_values_format format);

/// First 8 bytes of a `.bin` vertex-values file.
inline constexpr char vertex_values_magic[8] = {'B', 'G', 'V', 'A', 'L', 'U', 'E', 'S'};
/// Version of the `.bin` layout.
inline constexpr std::uint32_t vertex_values_version = 1;

/// Writes `columns` (all of the same length n, at least one) in `format`. Rows are vertices 0..n-1.
/// The binary layout, all little-endian: 8 bytes magic "BGVALUES", u32 version (1), u32 element type (1 = int64,
/// 2 = float64; float64 when any column is real), u64 n, u64 number of columns k, then for each column a u32
/// name length and the name's bytes, then the k columns one after another, n values each. Matrix Market files
/// are `integer` when every column is, else `real` (integers written exactly, unreached as `inf`). Throws
/// `invalid_argument_error` for no columns or columns of different lengths, `bitgraph::error` naming the target
/// when a write fails (a full disk: every write and the close are checked).
void write_vertex_values(const std::string& path, vertex_values_format format,
                         const std::vector<vertex_column>& columns);
/// Same as the file overload, writing to a stream.
void write_vertex_values(std::ostream& out, vertex_values_format format, const std::vector<vertex_column>& columns);

}  // namespace bitgraph::io
