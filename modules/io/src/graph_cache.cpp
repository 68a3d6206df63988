// Binary graph cache: key construction, file layout, checksummed writing and fully validating loading.
//
// Layout (host byte order, detected by the byte-order tag):
//   0  magic "BGCSR\r\n\x1a" (text-mode newline translation or truncation at ^Z breaks it)
//   8  u32 format version          12  u32 byte-order tag 0x01020304
//  16  u64 key bytes K             24  u64 n            32  u64 nnz
//  40  u8 kind, u8 has_duplicates, u8 has_weights, 5 zero bytes
//  48  key (K bytes), row_ptr ((n + 1) x u64), col_idx (nnz x u32), weights (nnz x f64, if has_weights)
// end  u64 XXH64 (seed 0) of every preceding byte
#include "bitgraph/io/graph_cache.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <system_error>

#if __has_include(<unistd.h>)
#include <unistd.h>
#define BITGRAPH_IO_HAVE_FSYNC 1
#endif

#include <fmt/format.h>

#include "bitgraph/core/error.hpp"
#include "io_detail.hpp"

namespace bitgraph::io {

namespace {

constexpr char magic[8] = {'B', 'G', 'C', 'S', 'R', '\r', '\n', '\x1a'};
constexpr std::uint32_t byte_order_tag = 0x01020304;
constexpr std::uint64_t header_bytes = 48;
constexpr std::uint64_t checksum_bytes = 8;
// Keys are a few hundred bytes; the bound keeps a corrupt length from allocating much.
constexpr std::uint64_t max_key_bytes = std::uint64_t(1) << 20;

void put32(unsigned char* p, std::uint32_t v) { std::memcpy(p, &v, 4); }
void put64(unsigned char* p, std::uint64_t v) { std::memcpy(p, &v, 8); }
std::uint32_t get32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
std::uint64_t get64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

void check_graph(const host_csr& g, const char* func) {
  const std::string problem = detail::host_csr_problem(g);
  BITGRAPH_CHECK_ARG(problem.empty(), func, problem);
  const std::string asymmetry = detail::undirected_asymmetry(g);
  BITGRAPH_CHECK_ARG(asymmetry.empty(), func, "the graph is flagged undirected but is not symmetric: ", asymmetry);
}

// Streams the file's bytes to `sink(const void*, size_t)`, checksum last.
template <class Sink>
void emit(const cache_key& key, const host_csr& g, Sink&& sink) {
  detail::xxh64 h;
  auto put = [&](const void* p, std::size_t n) {
    if (n == 0) return;
    h.update(p, n);
    sink(p, n);
  };
  const std::string k = key.serialize();
  unsigned char hdr[header_bytes] = {};
  std::memcpy(hdr, magic, 8);
  put32(hdr + 8, graph_cache_format_version);
  put32(hdr + 12, byte_order_tag);
  put64(hdr + 16, k.size());
  put64(hdr + 24, g.n);
  put64(hdr + 32, g.nnz());
  hdr[40] = g.kind == graph_kind::undirected ? 1 : 0;
  hdr[41] = g.has_duplicates ? 1 : 0;
  hdr[42] = g.has_weights ? 1 : 0;
  put(hdr, sizeof hdr);
  put(k.data(), k.size());
  put(g.row_ptr.data(), g.row_ptr.size() * sizeof(offset_t));
  put(g.col_idx.data(), g.col_idx.size() * sizeof(vertex_t));
  if (g.has_weights) put(g.weights.data(), g.weights.size() * sizeof(double));
  const std::uint64_t sum = h.digest();
  sink(&sum, sizeof sum);
}

// Sequential input of a cache: a file or memory.
class cache_input {
 public:
  virtual ~cache_input() = default;
  virtual std::uint64_t size() const = 0;
  virtual void read(void* dst, std::size_t n) = 0;
};

class memory_input final : public cache_input {
 public:
  explicit memory_input(std::string_view bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  void read(void* dst, std::size_t n) override {
    if (n == 0) return;
    std::memcpy(dst, bytes_.data() + pos_, n);  // callers stay within size(): the layout was checked
    pos_ += n;
  }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

class file_input final : public cache_input {
 public:
  file_input(std::FILE* f, std::string path, std::uint64_t size) : f_(f), path_(std::move(path)), size_(size) {}
  ~file_input() override { std::fclose(f_); }
  file_input(const file_input&) = delete;
  file_input& operator=(const file_input&) = delete;
  std::uint64_t size() const override { return size_; }
  void read(void* dst, std::size_t n) override {
    if (n == 0) return;
    if (std::fread(dst, 1, n, f_) != n) {
      // The length was checked against the header, so a short read means the file changed or failed.
      if (std::ferror(f_)) throw error(fmt::format("bitgraph::io: cannot read '{}'", path_));
      throw parse_error(path_, 0, "the file became shorter while it was read");
    }
  }

 private:
  std::FILE* f_;
  std::string path_;
  std::uint64_t size_;
};

// Opens `file`; nullptr when it does not exist.
std::unique_ptr<file_input> open_input(const std::filesystem::path& file) {
  std::error_code ec;
  const auto st = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::exists(st)) return nullptr;
  if (!std::filesystem::is_regular_file(st)) {
    throw parse_error(file.string(), 0, "not a regular file, so not a BitGraph graph cache");
  }
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (f == nullptr) {
    throw error(
        fmt::format("bitgraph::io: cannot open '{}': {}", file.string(), std::generic_category().message(errno)));
  }
  // The size of the opened file, not of the path: a writer may rename a new cache over it meanwhile.
  long size = -1;
  if (std::fseek(f, 0, SEEK_END) == 0) size = std::ftell(f);
  if (size < 0 || std::fseek(f, 0, SEEK_SET) != 0) {
    std::fclose(f);
    throw error(fmt::format("bitgraph::io: cannot determine the size of '{}'", file.string()));
  }
  return std::make_unique<file_input>(f, file.string(), std::uint64_t(size));
}

template <class T>
void read_array(cache_input& in, detail::xxh64& h, std::vector<T>& v, std::uint64_t count) {
  v.resize(count);
  in.read(v.data(), count * sizeof(T));
  h.update(v.data(), count * sizeof(T));
}

[[noreturn]] void corrupt(const std::string& source, const std::string& problem) {
  throw parse_error(source, 0, problem);
}

// Loads a cache. With `expected` (a lookup) a foreign version or byte order, or another key, give nullopt;
// without it (full validation) they are errors.
std::optional<host_csr> load(cache_input& in, const std::string& source, const std::string* expected,
                             std::string* stored_key) {
  auto fail = [&](const std::string& problem) { corrupt(source, problem); };
  const std::uint64_t size = in.size();
  if (size < header_bytes + checksum_bytes) {
    fail(fmt::format("truncated: {} bytes, but a graph cache has at least {}", size, header_bytes + checksum_bytes));
  }
  unsigned char hdr[header_bytes];
  in.read(hdr, sizeof hdr);
  detail::xxh64 h;
  h.update(hdr, sizeof hdr);
  if (std::memcmp(hdr, magic, 8) != 0) fail("not a BitGraph graph cache (bad magic bytes)");
  const std::uint32_t version = get32(hdr + 8);
  const std::uint32_t order = get32(hdr + 12);
  if (order != byte_order_tag) {
    if (expected != nullptr) return std::nullopt;
    fail(fmt::format("byte-order tag {:#010x} (written on a host of another byte order, or corrupt)", order));
  }
  if (version != graph_cache_format_version) {
    if (expected != nullptr) return std::nullopt;
    fail(fmt::format("format version {}, but this build reads version {}", version, graph_cache_format_version));
  }
  const std::uint64_t key_bytes = get64(hdr + 16);
  const std::uint64_t n = get64(hdr + 24);
  const std::uint64_t nnz = get64(hdr + 32);
  if (hdr[40] > 1 || hdr[41] > 1 || hdr[42] > 1) {
    fail(fmt::format("invalid flag bytes {} {} {} (each must be 0 or 1)", hdr[40], hdr[41], hdr[42]));
  }
  for (int i = 43; i < 48; ++i) {
    if (hdr[i] != 0) fail(fmt::format("reserved header byte {} is {}, expected 0", i, hdr[i]));
  }
  const bool weighted = hdr[42] == 1;
  if (key_bytes > max_key_bytes) fail(fmt::format("key length {} exceeds {}", key_bytes, max_key_bytes));
  if (n > max_vertices - 1) fail(fmt::format("n = {} exceeds the limit of {} vertices", n, max_vertices - 1));
  // Every size is bounded by the file length before it is multiplied, so nothing overflows and nothing
  // is allocated on the header's word alone.
  const std::uint64_t per_entry = sizeof(vertex_t) + (weighted ? sizeof(double) : 0);
  if (nnz > size / per_entry) {
    fail(fmt::format("the header declares {} entries, more than a {}-byte file can hold", nnz, size));
  }
  const std::uint64_t expected_size =
      header_bytes + key_bytes + (n + 1) * sizeof(offset_t) + nnz * per_entry + checksum_bytes;
  if (expected_size != size) {
    fail(fmt::format("the file has {} bytes but its header (n = {}, nnz = {}, key {} bytes{}) describes {}", size, n,
                     nnz, key_bytes, weighted ? ", weighted" : "", expected_size));
  }
  std::string key(key_bytes, '\0');
  in.read(key.data(), key.size());
  h.update(key.data(), key.size());
  if (expected != nullptr && key != *expected) return std::nullopt;

  host_csr g;
  g.n = vertex_t(n);
  g.kind = hdr[40] == 1 ? graph_kind::undirected : graph_kind::directed;
  g.has_duplicates = hdr[41] == 1;
  g.has_weights = weighted;
  read_array(in, h, g.row_ptr, n + 1);
  read_array(in, h, g.col_idx, nnz);
  if (weighted) read_array(in, h, g.weights, nnz);
  unsigned char sum_bytes[checksum_bytes];
  in.read(sum_bytes, sizeof sum_bytes);
  const std::uint64_t stored = get64(sum_bytes);
  const std::uint64_t computed = h.digest();
  if (stored != computed) {
    fail(fmt::format("checksum mismatch (stored {:016x}, computed {:016x}): the file is corrupt", stored, computed));
  }
  const std::string problem = detail::host_csr_problem(g);
  if (!problem.empty()) fail("invalid CSR: " + problem);
  // BFS, components and triangle counting trust the flag: an asymmetric "undirected" CSR gives wrong answers.
  const std::string asymmetry = detail::undirected_asymmetry(g);
  if (!asymmetry.empty()) fail("invalid CSR: flagged undirected but not symmetric: " + asymmetry);
  if (stored_key != nullptr) *stored_key = std::move(key);
  return g;
}

void append_field(std::string& out, std::string_view name, std::string_view value) {
  out += name;
  out += '=';
  out += std::to_string(value.size());
  out += ':';
  out += value;
  out += '\n';
}

}  // namespace

std::string cache_key::serialize() const {
  std::string out = "bitgraph-graph-cache-key\n";
  out += fmt::format("format_version={}\n", format_version);
  append_field(out, "source", source);
  out += fmt::format("source_size={}\nsource_mtime_ns={}\n", source_size, source_mtime_ns);
  out += fmt::format("kind={}\nremove_self_loops={}\nremove_duplicates={}\nkeep_weights={}\n",
                     !build.kind ? "from-input" : (*build.kind == graph_kind::undirected ? "undirected" : "directed"),
                     int(build.remove_self_loops), int(build.remove_duplicates), int(build.keep_weights));
  append_field(out, "reader", reader);
  append_field(out, "extra", extra);
  return out;
}

std::uint64_t cache_key::hash() const {
  const std::string s = serialize();
  detail::xxh64 h;
  h.update(s.data(), s.size());
  return h.digest();
}

bool operator==(const cache_key& a, const cache_key& b) { return a.serialize() == b.serialize(); }

cache_key make_cache_key(const std::string& source_path, const csr_build_options& build, std::string extra) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path canon = fs::canonical(source_path, ec);
  if (ec) throw error(fmt::format("bitgraph::io::make_cache_key: cannot resolve '{}': {}", source_path, ec.message()));
  if (!fs::is_regular_file(canon, ec)) {
    throw error(fmt::format("bitgraph::io::make_cache_key: '{}' is not a regular file", source_path));
  }
  cache_key key;
  key.source = canon.string();
  key.source_size = fs::file_size(canon, ec);
  if (ec) throw error(fmt::format("bitgraph::io::make_cache_key: cannot stat '{}': {}", source_path, ec.message()));
  const auto mtime = fs::last_write_time(canon, ec);
  if (ec) throw error(fmt::format("bitgraph::io::make_cache_key: cannot stat '{}': {}", source_path, ec.message()));
  key.source_mtime_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
  key.build = build;
  key.extra = std::move(extra);
  return key;
}

cache_key make_cache_key(const std::string& source_path, const csr_build_options& build, const mm_read_options& reader,
                         std::string extra) {
  cache_key key = make_cache_key(source_path, build, std::move(extra));
  key.reader = to_string(reader);
  return key;
}

cache_key make_cache_key(const std::string& source_path, const csr_build_options& build,
                         const edge_list_read_options& reader, std::string extra) {
  cache_key key = make_cache_key(source_path, build, std::move(extra));
  key.reader = to_string(reader);
  return key;
}

std::filesystem::path cache_file(const std::filesystem::path& dir, const cache_key& key) {
  // The stem only helps people browsing the directory; the hash (and the key inside) identify the cache.
  std::string stem = std::filesystem::path(key.source).stem().string();
  for (char& c : stem) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) c = '_';
  }
  if (stem.size() > 64) stem.resize(64);
  if (stem.empty()) stem = "graph";
  return dir / fmt::format("{}.{:016x}.bgcsr", stem, key.hash());
}

std::string graph_cache_bytes(const cache_key& key, const host_csr& g) {
  check_graph(g, "io::graph_cache_bytes");
  std::string out;
  emit(key, g, [&](const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); });
  return out;
}

void write_graph_cache(const std::filesystem::path& file, const cache_key& key, const host_csr& g) {
  namespace fs = std::filesystem;
  check_graph(g, "io::write_graph_cache");
  std::error_code ec;
  if (file.has_parent_path()) {
    fs::create_directories(file.parent_path(), ec);
    if (ec) {
      throw error(fmt::format("bitgraph::io::write_graph_cache: cannot create '{}': {}", file.parent_path().string(),
                              ec.message()));
    }
  }
  // A unique temporary name in the same directory: concurrent writers never share a file, and the
  // rename is atomic because it stays on one file system.
  std::random_device rd;
  const fs::path tmp = file.string() + fmt::format(".tmp-{:08x}{:08x}", rd(), rd());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    throw error(fmt::format("bitgraph::io::write_graph_cache: cannot create '{}': {}", tmp.string(),
                            std::generic_category().message(errno)));
  }
  int err = 0;  // first failure's errno
  auto check = [&](bool good) {
    if (!good && err == 0) err = errno != 0 ? errno : EIO;
  };
  emit(key, g, [&](const void* p, std::size_t n) {
    if (err == 0) check(std::fwrite(p, 1, n, f) == n);
  });
  if (err == 0) check(std::fflush(f) == 0);
#ifdef BITGRAPH_IO_HAVE_FSYNC
  // Without it a crash after the rename could leave a named but empty file (caught by the checksum, but
  // then the cache would need rebuilding).
  if (err == 0) check(::fsync(::fileno(f)) == 0);
#endif
  check(std::fclose(f) == 0);
  if (err != 0) {
    fs::remove(tmp, ec);
    throw error(fmt::format("bitgraph::io::write_graph_cache: cannot write '{}': {}", tmp.string(),
                            std::generic_category().message(err)));
  }
  fs::rename(tmp, file, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw error(fmt::format("bitgraph::io::write_graph_cache: cannot rename '{}' to '{}': {}", tmp.string(),
                            file.string(), ec.message()));
  }
}

std::optional<host_csr> read_graph_cache(const std::filesystem::path& file, const cache_key& key) {
  auto in = open_input(file);
  if (!in) return std::nullopt;
  const std::string expected = key.serialize();
  return load(*in, file.string(), &expected, nullptr);
}

host_csr read_graph_cache_file(const std::filesystem::path& file, std::string* stored_key) {
  auto in = open_input(file);
  if (!in) throw error(fmt::format("bitgraph::io::read_graph_cache_file: '{}' does not exist", file.string()));
  return *load(*in, file.string(), nullptr, stored_key);
}

host_csr parse_graph_cache(std::string_view bytes, const std::string& source_name, std::string* stored_key) {
  memory_input in(bytes);
  return *load(in, source_name, nullptr, stored_key);
}

}  // namespace bitgraph::io
