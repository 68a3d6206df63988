// Binary graph cache: keys, round trips, lookups, and rejection of every corrupted or forged file.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/graph_cache.hpp"

using namespace bitgraph;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

struct temp_dir {
  fs::path path;
  temp_dir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("bitgraph-io-cache-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// An independent one-shot XXH64 (seed 0), to forge checksums of deliberately invalid files.
std::uint64_t reference_xxh64(const std::string& s) {
  constexpr std::uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL, p3 = 1609587929392839161ULL,
                          p4 = 9650029242287828579ULL, p5 = 2870177450012600261ULL;
  auto rotl = [](std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); };
  auto rd64 = [&](std::size_t i) {
    std::uint64_t v = 0;
    for (int b = 7; b >= 0; --b) v = (v << 8) | static_cast<unsigned char>(s[i + std::size_t(b)]);
    return v;
  };
  auto round = [&](std::uint64_t acc, std::uint64_t in) { return rotl(acc + in * p2, 31) * p1; };
  const std::size_t n = s.size();
  std::size_t i = 0;
  std::uint64_t h;
  if (n >= 32) {
    std::uint64_t v[4] = {p1 + p2, p2, 0, 0 - p1};
    for (; i + 32 <= n; i += 32) {
      for (int k = 0; k < 4; ++k) v[k] = round(v[k], rd64(i + 8 * std::size_t(k)));
    }
    h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
    for (auto x : v) h = (h ^ round(0, x)) * p1 + p4;
  } else {
    h = p5;
  }
  h += n;
  for (; i + 8 <= n; i += 8) h = rotl(h ^ round(0, rd64(i)), 27) * p1 + p4;
  if (i + 4 <= n) {
    std::uint64_t v = 0;
    for (int b = 3; b >= 0; --b) v = (v << 8) | static_cast<unsigned char>(s[i + std::size_t(b)]);
    h = rotl(h ^ (v * p1), 23) * p2 + p3;
    i += 4;
  }
  for (; i < n; ++i) h = rotl(h ^ (static_cast<unsigned char>(s[i]) * p5), 11) * p1;
  h ^= h >> 33;
  h *= p2;
  h ^= h >> 29;
  h *= p3;
  h ^= h >> 32;
  return h;
}

// Replaces the trailing checksum so that only the structural validation can reject `bytes`.
std::string with_valid_checksum(std::string bytes) {
  const std::uint64_t sum = reference_xxh64(bytes.substr(0, bytes.size() - 8));
  std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
  return bytes;
}

host_csr sample_graph(bool weighted) {
  host_csr g;
  g.n = 5;
  g.kind = graph_kind::directed;
  g.has_weights = weighted;
  g.row_ptr = {0, 2, 2, 5, 6, 7};
  g.col_idx = {1, 4, 0, 2, 3, 0, 4};
  if (weighted) g.weights = {0.5, -1.0, 2.0, 1e300, 0.0, 3.25, -7.5};
  return g;
}

void check_same(const host_csr& a, const host_csr& b) {
  CHECK(a.n == b.n);
  CHECK(a.kind == b.kind);
  CHECK(a.has_duplicates == b.has_duplicates);
  CHECK(a.has_weights == b.has_weights);
  CHECK(a.row_ptr == b.row_ptr);
  CHECK(a.col_idx == b.col_idx);
  CHECK(a.weights == b.weights);
}

}  // namespace

TEST_CASE("graph cache: the checksum is XXH64", "[io]") {
  // Published XXH64 (seed 0) values, as computed by the reference libxxhash.
  CHECK(reference_xxh64("") == 0xef46db3751d8e999ULL);
  CHECK(reference_xxh64("abc") == 0x44bc2cf5ad770999ULL);
  std::string bytes;
  for (int i = 0; i < 100; ++i) bytes.push_back(char(i));
  CHECK(reference_xxh64(bytes) == 0x6ac1e58032166597ULL);
  const std::string file = io::graph_cache_bytes(io::cache_key{}, sample_graph(true));
  std::uint64_t stored = 0;
  std::memcpy(&stored, file.data() + file.size() - 8, 8);
  CHECK(stored == reference_xxh64(file.substr(0, file.size() - 8)));
}

TEST_CASE("graph cache: keys cover the source, the build and reader options and the extra text", "[io]") {
  temp_dir dir;
  const fs::path src = dir.path / "g.mtx";
  write_file(src, "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  const csr_build_options build;
  const io::cache_key key = io::make_cache_key(src.string(), build);
  CHECK(key.source == fs::canonical(src).string());
  CHECK(key.source_size == fs::file_size(src));
  CHECK(key.format_version == io::graph_cache_format_version);
  CHECK(key.reader.empty());
  // The same file through another spelling of its path has the same key.
  CHECK(io::make_cache_key((dir.path / "." / "g.mtx").string(), build) == key);

  std::vector<io::cache_key> variants;
  auto add = [&](io::cache_key k) {
    for (const auto& other : variants) CHECK_FALSE(other == k);
    for (const auto& other : variants) CHECK(other.hash() != k.hash());
    for (const auto& other : variants) CHECK(io::cache_file(dir.path, other) != io::cache_file(dir.path, k));
    variants.push_back(std::move(k));
  };
  add(key);
  for (int field = 0; field < 4; ++field) {
    csr_build_options b;
    if (field == 0) b.kind = graph_kind::undirected;
    if (field == 1) b.remove_self_loops = !b.remove_self_loops;
    if (field == 2) b.remove_duplicates = !b.remove_duplicates;
    if (field == 3) b.keep_weights = !b.keep_weights;
    add(io::make_cache_key(src.string(), b));
  }
  add(io::make_cache_key(src.string(), build, "seed=1"));
  add(io::make_cache_key(src.string(), build, io::mm_read_options{}));
  io::mm_read_options padded;
  padded.pad_rectangular = true;
  add(io::make_cache_key(src.string(), build, padded));
  add(io::make_cache_key(src.string(), build, io::edge_list_read_options{}));
  io::cache_key other_version = key;
  other_version.format_version += 1;
  add(other_version);
  // Length prefixes keep fields from bleeding into each other.
  io::cache_key a = key, b = key;
  a.reader = "x";
  a.extra = "y";
  b.reader = "x\nextra=1:y";
  b.extra = "";
  CHECK_FALSE(a == b);

  // Touching or rewriting the source changes the key.
  fs::last_write_time(src, fs::last_write_time(src) + std::chrono::seconds(5));
  const io::cache_key touched = io::make_cache_key(src.string(), build);
  CHECK(touched.source_mtime_ns != key.source_mtime_ns);
  add(touched);
  write_file(src, "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 2\n\n");
  fs::last_write_time(src, fs::last_write_time(src) + std::chrono::seconds(10));
  const io::cache_key rewritten = io::make_cache_key(src.string(), build);
  CHECK(rewritten.source_size == key.source_size + 1);
  add(rewritten);

  const fs::path file = io::cache_file(dir.path / "cache", key);
  CHECK(file.parent_path() == dir.path / "cache");
  CHECK_THAT(file.filename().string(), ContainsSubstring("g."));
  CHECK(file.extension() == ".bgcsr");

  CHECK_THROWS_AS(io::make_cache_key((dir.path / "missing.mtx").string(), build), bitgraph::error);
  CHECK_THROWS_AS(io::make_cache_key(dir.path.string(), build), bitgraph::error);
}

TEST_CASE("graph cache: graphs round trip through files and memory", "[io]") {
  temp_dir dir;
  io::cache_key key;
  key.source = "/data/g.mtx";
  key.extra = "round trip";
  std::vector<host_csr> graphs = {sample_graph(false), sample_graph(true)};
  host_csr undirected;
  undirected.n = 3;
  undirected.kind = graph_kind::undirected;
  undirected.row_ptr = {0, 1, 2, 2};
  undirected.col_idx = {1, 0};
  graphs.push_back(undirected);
  host_csr multi;
  multi.n = 2;
  multi.has_duplicates = true;
  multi.row_ptr = {0, 3, 3};
  multi.col_idx = {1, 1, 1};
  graphs.push_back(multi);
  host_csr empty;
  empty.row_ptr = {0};
  graphs.push_back(empty);
  host_csr isolated;
  isolated.n = 4;
  isolated.row_ptr = {0, 0, 0, 0, 0};
  graphs.push_back(isolated);

  for (std::size_t i = 0; i < graphs.size(); ++i) {
    INFO("graph " << i);
    const host_csr& g = graphs[i];
    const fs::path file = io::cache_file(dir.path / "nested" / "dir", key);
    io::write_graph_cache(file, key, g);
    const auto loaded = io::read_graph_cache(file, key);
    REQUIRE(loaded);
    check_same(*loaded, g);
    std::string stored_key;
    check_same(io::read_graph_cache_file(file, &stored_key), g);
    CHECK(stored_key == key.serialize());
    const std::string bytes = read_file(file);
    CHECK(bytes == io::graph_cache_bytes(key, g));
    check_same(io::parse_graph_cache(bytes), g);
    // Only the cache file remains: the temporary file was renamed.
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(file.parent_path())) {
      ++files;
      CHECK(entry.path() == file);
    }
    CHECK(files == 1);
  }
}

TEST_CASE("graph cache: lookups miss on absent files, other keys and other versions", "[io]") {
  temp_dir dir;
  io::cache_key key;
  key.source = "/data/g.mtx";
  const fs::path file = io::cache_file(dir.path, key);
  CHECK_FALSE(io::read_graph_cache(file, key));
  io::write_graph_cache(file, key, sample_graph(true));
  io::cache_key other = key;
  other.build.kind = graph_kind::undirected;
  CHECK_FALSE(io::read_graph_cache(file, other));
  CHECK(io::read_graph_cache(file, key));
  // Another format version is stale for a lookup but an error for a full load.
  std::string bytes = read_file(file);
  bytes[8] = char(bytes[8] + 1);
  write_file(file, with_valid_checksum(bytes));
  CHECK_FALSE(io::read_graph_cache(file, key));
  try {
    io::read_graph_cache_file(file);
    FAIL("no parse_error");
  } catch (const parse_error& e) {
    CHECK_THAT(e.problem(), ContainsSubstring("format version"));
    CHECK(e.source() == file.string());
  }
  // Rewriting replaces the stale file.
  io::write_graph_cache(file, key, sample_graph(false));
  check_same(*io::read_graph_cache(file, key), sample_graph(false));
  CHECK_THROWS_AS(io::read_graph_cache_file(dir.path / "missing.bgcsr"), bitgraph::error);
  CHECK_THROWS_AS(io::read_graph_cache(dir.path, key), parse_error);  // a directory is not a cache
}

TEST_CASE("graph cache: every truncation and every flipped bit is detected", "[io]") {
  io::cache_key key;
  key.source = "/data/g.mtx";
  const std::string good = io::graph_cache_bytes(key, sample_graph(true));
  for (std::size_t len = 0; len < good.size(); ++len) {
    INFO("truncated to " << len);
    CHECK_THROWS_AS(io::parse_graph_cache(good.substr(0, len)), parse_error);
  }
  CHECK_THROWS_AS(io::parse_graph_cache(good + '\0'), parse_error);
  for (std::size_t pos = 0; pos < good.size(); ++pos) {
    for (const int bit : {0, 7}) {
      INFO("byte " << pos << " bit " << bit);
      std::string bad = good;
      bad[pos] = char(bad[pos] ^ (1 << bit));
      CHECK_THROWS_AS(io::parse_graph_cache(bad), parse_error);
    }
  }
  temp_dir dir;
  const fs::path file = dir.path / "bad.bgcsr";
  write_file(file, good.substr(0, good.size() / 2));
  CHECK_THROWS_AS(io::read_graph_cache(file, key), parse_error);
  CHECK_THROWS_AS(io::read_graph_cache_file(file), parse_error);
  std::string flipped = good;
  flipped[good.size() - 20] ^= 1;
  write_file(file, flipped);
  CHECK_THROWS_AS(io::read_graph_cache(file, key), parse_error);
  write_file(file, "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n");
  CHECK_THROWS_AS(io::read_graph_cache(file, key), parse_error);
}

TEST_CASE("graph cache: structurally invalid files with valid checksums are rejected", "[io]") {
  io::cache_key key;
  const host_csr g = sample_graph(false);
  const std::string good = io::graph_cache_bytes(key, g);
  const std::size_t key_bytes = key.serialize().size();
  const std::size_t row_ptr_at = 48 + key_bytes;
  const std::size_t col_at = row_ptr_at + (g.n + 1) * 8;
  auto patch64 = [](std::string s, std::size_t at, std::uint64_t v) {
    std::memcpy(s.data() + at, &v, 8);
    return with_valid_checksum(std::move(s));
  };
  auto patch32 = [](std::string s, std::size_t at, std::uint32_t v) {
    std::memcpy(s.data() + at, &v, 4);
    return with_valid_checksum(std::move(s));
  };
  auto expect = [](const std::string& bytes, const std::string& problem) {
    try {
      io::parse_graph_cache(bytes);
      FAIL("accepted; expected: " << problem);
    } catch (const parse_error& e) {
      CHECK(e.line() == 0);
      CHECK_THAT(e.problem(), ContainsSubstring(problem));
    }
  };
  CHECK_NOTHROW(io::parse_graph_cache(with_valid_checksum(good)));
  expect(patch64(good, row_ptr_at, 1), "row_ptr[0] is 1");
  expect(patch64(good, row_ptr_at + 2 * 8, 1), "row_ptr decreases at row 1");
  expect(patch64(good, row_ptr_at + 5 * 8, 6), "row_ptr[n] is 6");
  expect(patch32(good, col_at, 5), "column 5 in row 0 is not below n = 5");
  expect(patch32(good, col_at, 4), "not strictly ascending (4 then 4)");
  expect(patch32(good, col_at + 2 * 4, 3), "not strictly ascending (3 then 2)");
  std::string flags = good;
  flags[40] = 2;
  expect(with_valid_checksum(flags), "invalid flag bytes");
  flags = good;
  flags[45] = 1;
  expect(with_valid_checksum(flags), "reserved header byte 45");
  flags = good;
  flags[12] ^= 0x7f;
  expect(with_valid_checksum(flags), "byte-order tag");
  flags = good;
  flags[0] = 'X';
  expect(with_valid_checksum(flags), "bad magic");
  // Declared sizes are checked against the length before anything is allocated.
  expect(patch64(good, 24, 4294967294ULL), "describes");
  expect(patch64(good, 24, 4294967295ULL), "exceeds the limit");
  expect(patch64(good, 32, std::uint64_t(1) << 62), "more than a");
  expect(patch64(good, 16, std::uint64_t(1) << 40), "key length");
  expect(patch64(good, 16, key_bytes + 8), "describes");
  // The has_weights flag changes the layout: the sizes no longer match.
  flags = good;
  flags[42] = 1;
  expect(with_valid_checksum(flags), "describes");
}

TEST_CASE("graph cache: invalid graphs are not written", "[io]") {
  temp_dir dir;
  io::cache_key key;
  const fs::path file = dir.path / "g.bgcsr";
  host_csr g = sample_graph(true);
  g.weights.pop_back();
  CHECK_THROWS_AS(io::write_graph_cache(file, key, g), invalid_argument_error);
  g = sample_graph(false);
  g.col_idx[1] = 0;  // row 0 becomes {1, 0}
  CHECK_THROWS_AS(io::write_graph_cache(file, key, g), invalid_argument_error);
  g = sample_graph(false);
  g.row_ptr.pop_back();
  CHECK_THROWS_AS(io::graph_cache_bytes(key, g), invalid_argument_error);
  CHECK(fs::is_empty(dir.path));
}

TEST_CASE("graph cache: an undirected flag over an asymmetric CSR is rejected (issue 18)", "[io][limits]") {
  io::cache_key key;
  host_csr g;
  g.n = 4;
  g.kind = graph_kind::undirected;
  g.row_ptr = {0, 2, 3, 5, 6};
  g.col_idx = {1, 2, 0, 0, 2, 3};  // (0,1) (0,2) (1,0) (2,0) (2,2) (3,3): symmetric, with self-loops
  const std::string good = io::graph_cache_bytes(key, g);
  CHECK_NOTHROW(io::parse_graph_cache(good));

  // The same bytes with (2, 0) changed to (2, 1): checksum fixed, so only the symmetry check can object.
  host_csr asym = g;
  asym.kind = graph_kind::directed;
  asym.col_idx = {1, 2, 0, 1, 2, 3};
  std::string forged = io::graph_cache_bytes(key, asym);
  forged[40] = 1;  // the undirected flag
  forged = with_valid_checksum(forged);
  try {
    io::parse_graph_cache(forged, "forged");
    FAIL("an asymmetric undirected cache was accepted");
  } catch (const parse_error& e) {
    CHECK_THAT(e.problem(), ContainsSubstring("flagged undirected but not symmetric"));
    CHECK_THAT(e.problem(), ContainsSubstring("no mirror"));
  }
  temp_dir dir;
  const fs::path file = dir.path / "asym.bgcsr";
  write_file(file, forged);
  CHECK_THROWS_AS(io::read_graph_cache(file, key), parse_error);
  CHECK_THROWS_AS(io::read_graph_cache_file(file), parse_error);
  // The writer refuses such a graph too.
  asym.kind = graph_kind::undirected;
  CHECK_THROWS_AS(io::write_graph_cache(dir.path / "w.bgcsr", key, asym), invalid_argument_error);
  CHECK_FALSE(fs::exists(dir.path / "w.bgcsr"));

  // Repeats must be mirrored as many times.
  host_csr rep;
  rep.n = 2;
  rep.kind = graph_kind::undirected;
  rep.has_duplicates = true;
  rep.row_ptr = {0, 2, 4};
  rep.col_idx = {1, 1, 0, 0};
  CHECK_NOTHROW(io::parse_graph_cache(io::graph_cache_bytes(key, rep)));
  rep.row_ptr = {0, 2, 3};
  rep.col_idx = {1, 1, 0};
  CHECK_THROWS_AS(io::graph_cache_bytes(key, rep), invalid_argument_error);
  // A missing mirror found at the end (the last row holds an unmatched entry).
  host_csr tail;
  tail.n = 3;
  tail.kind = graph_kind::undirected;
  tail.row_ptr = {0, 0, 0, 1};
  tail.col_idx = {0};
  CHECK_THROWS_WITH(io::graph_cache_bytes(key, tail), ContainsSubstring("entry (2, 0) has no mirror (0, 2)"));
}
