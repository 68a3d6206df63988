// Binary graph cache: host CSR graphs stored with the key of the conversion that produced them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "bitgraph/formats/edge_list.hpp"
#include "bitgraph/formats/host_csr.hpp"
#include "bitgraph/io/edge_list_text.hpp"
#include "bitgraph/io/matrix_market.hpp"

namespace bitgraph::io {

/// Version of the cache file layout and of the key's text form; files of another version are stale.
inline constexpr std::uint32_t graph_cache_format_version = 1;

/// Everything a cached graph depends on. Two keys are equal when their `serialize()` forms are.
struct cache_key {
  std::string source;                ///< canonical path of the source file
  std::uint64_t source_size = 0;     ///< its size in bytes
  std::int64_t source_mtime_ns = 0;  ///< its modification time in nanoseconds since the file clock's epoch
  csr_build_options build;           ///< how the CSR was built from the edge list
  std::string reader;                ///< the reader and its options (`to_string` of them), or empty
  std::string extra;                 ///< anything else the caller wants the cache to depend on
  std::uint32_t format_version = graph_cache_format_version;  ///< cache layout version

  /// Canonical, unambiguous text form (length-prefixed strings); stored in each cache file.
  std::string serialize() const;
  /// 64-bit hash of `serialize()`, used in cache file names.
  std::uint64_t hash() const;
};

/// Keys compare by their serialised form.
bool operator==(const cache_key& a, const cache_key& b);

/// Key for `source_path` (stat()ed now: canonical path, size, mtime) built with `build`; the reader is left
/// unspecified, so use an overload below when reader options matter. Throws `bitgraph::error` if the file
/// does not exist.
cache_key make_cache_key(const std::string& source_path, const csr_build_options& build, std::string extra = "");
/// Key of a graph read by `read_matrix_market` with `reader` and built with `build`.
cache_key make_cache_key(const std::string& source_path, const csr_build_options& build, const mm_read_options& reader,
                         std::string extra = "");
/// Key of a graph read by `read_edge_list` with `reader` and built with `build`.
cache_key make_cache_key(const std::string& source_path, const csr_build_options& build,
                         const edge_list_read_options& reader, std::string extra = "");

/// Where the cache of `key` lives in `dir`: "<source stem>.<16 hex digits of key.hash()>.bgcsr".
std::filesystem::path cache_file(const std::filesystem::path& dir, const cache_key& key);

/// Stores `g` under `key` in `file` (parent directories are created). Writes a temporary file in the same
/// directory and renames it, so readers never see a partial cache. Throws `invalid_argument_error` if `g`
/// breaks the CSR invariants or is flagged undirected but not symmetric, `bitgraph::error` if writing fails.
void write_graph_cache(const std::filesystem::path& file, const cache_key& key, const host_csr& g);

/// The graph cached in `file` if it exists and was stored under `key` by this format version; nullopt
/// when the file is missing, the key differs, or the file has another format version or byte order.
/// Throws `parse_error` when the file is not a valid cache (bad magic, sizes, checksum or CSR, or an
/// undirected flag over an asymmetric structure).
std::optional<host_csr> read_graph_cache(const std::filesystem::path& file, const cache_key& key);

/// Loads a cache file whatever its key and validates it completely: magic, version, byte order, sizes
/// against the file length (before allocating), checksum, then the CSR invariants (monotone offsets,
/// columns below n and ascending per row) and, for a graph flagged undirected, that every entry (u, v) has
/// its mirror (v, u) (structure only: skew-symmetric sources mirror with negated values). Stores the serialised key in
/// `*stored_key` when not null. Throws `parse_error` on any problem, `bitgraph::error` if the file cannot be read.
host_csr read_graph_cache_file(const std::filesystem::path& file, std::string* stored_key = nullptr);

/// Same validation as `read_graph_cache_file`, on the bytes of a cache file held in memory.
host_csr parse_graph_cache(std::string_view bytes, const std::string& source_name = "<memory>",
                           std::string* stored_key = nullptr);

/// The bytes `write_graph_cache` would write. Throws `invalid_argument_error` like it.
std::string graph_cache_bytes(const cache_key& key, const host_csr& g);

}  // namespace bitgraph::io
