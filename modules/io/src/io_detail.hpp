// Private to the io module: chunked byte sources, a line reader and token parsers shared by the
// text readers, the buffered text sink of the writers, and host CSR invariant checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/host_csr.hpp"

namespace bitgraph::io::detail {

/// Where a reader's bytes come from.
class byte_source {
 public:
  virtual ~byte_source() = default;
  /// Reads up to `max` bytes into `dst`; returns 0 only at the end of the input. Throws `bitgraph::error`
  /// when the underlying read fails.
  virtual std::size_t read(char* dst, std::size_t max) = 0;
  /// Total bytes the input holds, when known (regular files); used only to cap reservations.
  virtual std::optional<std::uint64_t> size_hint() const { return std::nullopt; }
};

/// A regular file opened for binary reading; throws `bitgraph::error` naming `path` when it cannot be
/// opened or is not a regular file (a directory, FIFO, socket or device). The type is checked before and
/// after a non-blocking open, so a FIFO never blocks the reader.
class file_source final : public byte_source {
 public:
  explicit file_source(const std::string& path);
  ~file_source() override;
  file_source(const file_source&) = delete;
  file_source& operator=(const file_source&) = delete;
  std::size_t read(char* dst, std::size_t max) override;
  std::optional<std::uint64_t> size_hint() const override { return size_; }

 private:
  std::FILE* file_ = nullptr;
  std::string path_;
  std::optional<std::uint64_t> size_;
};

/// Bytes of an already open stream.
class stream_source final : public byte_source {
 public:
  stream_source(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}
  std::size_t read(char* dst, std::size_t max) override;

 private:
  std::istream& in_;
  std::string name_;
};

/// Opens `path` for a reader: a `file_source` (regular files only, as there), decompressed on the fly when its
/// first bytes are the gzip magic, whatever its name. Truncated or corrupt gzip data throws `parse_error`
/// naming the file; a gzip file in a build without zlib throws `bitgraph::error` saying so.
std::unique_ptr<byte_source> open_input(const std::string& path);

/// True when this build reads gzip-compressed files (zlib was found).
bool have_gzip() noexcept;

/// Longest line the readers accept. Data lines are short; the limit keeps a file without newlines from
/// growing the buffer to the size of the file.
inline constexpr std::size_t max_line_bytes = std::size_t(16) << 20;

/// Splits a byte source into lines, reading it in large chunks. Lines end at '\n'; a '\r' before it is
/// dropped (CRLF files). A UTF-8 byte-order mark at the very start is skipped. Any NUL byte makes the
/// line holding it fail, since text formats never contain one.
class line_reader {
 public:
  line_reader(byte_source& src, std::string source_name);

  /// Stores the next line (without terminator) in `line`; false at the end of the input. The view stays
  /// valid until the next call.
  bool next(std::string_view& line);
  /// 1-based number of the line last returned (0 before the first).
  std::uint64_t line_number() const noexcept { return line_no_; }
  /// Bytes not yet returned as lines, when the source size is known: an upper bound for what is left.
  std::optional<std::uint64_t> bytes_left() const;
  const std::string& source() const noexcept { return source_; }

  /// Throws `parse_error` at the line last returned.
  [[noreturn]] void fail(const std::string& problem) const;
  /// Throws `parse_error` at `line`.
  [[noreturn]] void fail_at(std::uint64_t line, const std::string& problem) const;

 private:
  bool fill();

  byte_source& src_;
  std::string source_;
  std::vector<char> buf_;
  std::size_t begin_ = 0;       // first byte not yet returned
  std::size_t end_ = 0;         // one past the last valid byte
  std::size_t scanned_ = 0;     // bytes in [begin_, scanned_) are known to hold no '\n'
  std::size_t nul_ = SIZE_MAX;  // index of the first NUL byte in the buffer, if any
  bool eof_ = false;
  bool first_ = true;
  std::uint64_t line_no_ = 0;
  std::uint64_t consumed_ = 0;  // bytes returned so far, terminators included
  std::optional<std::uint64_t> total_;
};

inline bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

inline const char* skip_space(const char* p, const char* e) noexcept {
  while (p != e && is_space(*p)) ++p;
  return p;
}

inline const char* token_end(const char* p, const char* e) noexcept {
  while (p != e && !is_space(*p)) ++p;
  return p;
}

/// True when the line holds only whitespace.
inline bool is_blank(std::string_view line) noexcept {
  return skip_space(line.data(), line.data() + line.size()) == line.data() + line.size();
}

/// Splits a line into whitespace-separated tokens (header lines only: data lines are parsed in place).
std::vector<std::string_view> split_tokens(std::string_view line);

/// ASCII lower-case copy.
std::string lower(std::string_view s);

/// A token for an error message: quoted, non-printable bytes escaped, long tokens shortened.
std::string quote(std::string_view token);

/// Outcome of parsing one numeric token.
enum class number_status { ok, missing, negative, invalid, overflow };

/// Parses a non-negative decimal integer token starting at `p` (after whitespace) and ending at
/// whitespace or `e`; an optional leading '+' is accepted. On success `p` points past the token.
number_status parse_u64(const char*& p, const char* e, std::uint64_t& out) noexcept;
/// Same for a signed integer.
number_status parse_i64(const char*& p, const char* e, std::int64_t& out) noexcept;
/// Same for a floating-point token (decimal or scientific, inf, infinity, nan); magnitudes beyond the
/// double range become +-inf and tiny ones 0, as strtod does.
number_status parse_f64(const char*& p, const char* e, double& out) noexcept;

/// A non-negative integer field of a data line (an id or a count) by `parse_u64`; anything else fails the
/// line naming `what` and, for a missing or malformed token, the line's expected form `usage`.
std::uint64_t parse_u64_field(const line_reader& in, const char*& p, const char* e, const char* what,
                              const char* usage);

/// The token starting at `p` (after whitespace), for error messages.
inline std::string_view token_at(const char* p, const char* e) noexcept {
  p = skip_space(p, e);
  return {p, std::size_t(token_end(p, e) - p)};
}

/// Buffered output to a file or a stream; throws `bitgraph::error` naming the target when a write fails.
class text_sink {
 public:
  /// Opens `path` for writing (truncating it).
  text_sink(const std::string& path, const char* func);
  text_sink(std::ostream& out, const char* func);
  ~text_sink();
  text_sink(const text_sink&) = delete;
  text_sink& operator=(const text_sink&) = delete;

  void put(std::string_view s) {
    if (buf_.size() + s.size() > flush_bytes) flush();
    buf_.append(s);
  }
  void put(char c) {
    if (buf_.size() + 1 > flush_bytes) flush();
    buf_.push_back(c);
  }
  void put_u64(std::uint64_t v);
  /// Shortest decimal text that reads back to exactly `v`.
  void put_f64(double v);
  /// Writes what is buffered and closes a file target, reporting any error.
  void close();

 private:
  static constexpr std::size_t flush_bytes = std::size_t(1) << 20;
  void flush();

  std::FILE* file_ = nullptr;
  std::ostream* out_ = nullptr;
  std::string target_;
  const char* func_;
  std::string buf_;
};

/// XXH64 (Yann Collet's xxHash, 64-bit variant, seed 0), streaming: the checksum of graph cache files.
/// Fast enough that verifying a multi-GB cache costs far less than reading it.
class xxh64 {
 public:
  void update(const void* data, std::size_t len) {
    if (len == 0) return;  // data may be null (an empty vector's data())
    auto p = static_cast<const unsigned char*>(data);
    total_ += len;
    if (fill_ + len < 32) {
      std::memcpy(buf_ + fill_, p, len);
      fill_ += len;
      return;
    }
    if (fill_ > 0) {
      const std::size_t take = 32 - fill_;
      std::memcpy(buf_ + fill_, p, take);
      stripe(buf_);
      p += take;
      len -= take;
      fill_ = 0;
    }
    while (len >= 32) {
      stripe(p);
      p += 32;
      len -= 32;
    }
    std::memcpy(buf_, p, len);
    fill_ = len;
  }

  std::uint64_t digest() const {
    std::uint64_t h;
    if (total_ >= 32) {
      h = rotl(v_[0], 1) + rotl(v_[1], 7) + rotl(v_[2], 12) + rotl(v_[3], 18);
      for (const std::uint64_t v : v_) h = (h ^ round(0, v)) * p1 + p4;
    } else {
      h = p5;  // seed 0
    }
    h += total_;
    const unsigned char* p = buf_;
    std::size_t len = fill_;
    for (; len >= 8; p += 8, len -= 8) h = rotl(h ^ round(0, load64(p)), 27) * p1 + p4;
    if (len >= 4) {
      h = rotl(h ^ (std::uint64_t(load32(p)) * p1), 23) * p2 + p3;
      p += 4;
      len -= 4;
    }
    for (; len > 0; ++p, --len) h = rotl(h ^ (*p * p5), 11) * p1;
    h ^= h >> 33;
    h *= p2;
    h ^= h >> 29;
    h *= p3;
    h ^= h >> 32;
    return h;
  }

 private:
  static constexpr std::uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL,
                                 p3 = 1609587929392839161ULL, p4 = 9650029242287828579ULL, p5 = 2870177450012600261ULL;
  static std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
  static std::uint64_t round(std::uint64_t acc, std::uint64_t in) { return rotl(acc + in * p2, 31) * p1; }
  // Little-endian loads: the checksum is defined on the bytes, whatever the host order.
  static std::uint64_t load64(const unsigned char* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
  }
  static std::uint32_t load32(const unsigned char* p) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
    return v;
  }
  void stripe(const unsigned char* p) {
    for (int i = 0; i < 4; ++i) v_[i] = round(v_[i], load64(p + 8 * i));
  }

  std::uint64_t v_[4] = {p1 + p2, p2, 0, 0 - p1};
  unsigned char buf_[32] = {};
  std::size_t fill_ = 0;
  std::uint64_t total_ = 0;
};

/// The first violated invariant of `g` (sizes, offsets, column range, column order), or an empty string.
/// Columns must ascend within each row, strictly unless `g.has_duplicates`.
std::string host_csr_problem(const host_csr& g);

/// For a `g` without `host_csr_problem`s flagged undirected: the first entry whose mirror is missing, or an
/// empty string when every (u, v) is matched by a (v, u) (as many times, when repeats are kept). Only the
/// structure is compared: skew-symmetric sources mirror an entry with the negated value. O(nnz + n).
std::string undirected_asymmetry(const host_csr& g);

/// True when `a` and `b` are the same weight (NaN equals NaN: weights are data, not arithmetic).
inline bool same_weight(double a, double b) noexcept { return a == b || (a != a && b != b); }

}  // namespace bitgraph::io::detail
