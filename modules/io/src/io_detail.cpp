// Chunked byte sources, line splitting, numeric token parsing, buffered text output and host CSR checks.
#include "io_detail.hpp"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#if __has_include(<fcntl.h>) && __has_include(<sys/stat.h>) && __has_include(<unistd.h>)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define BITGRAPH_IO_HAVE_POSIX_OPEN 1
#endif

#include <fmt/format.h>

namespace bitgraph::io::detail {

namespace {

// Large enough that read calls cost nothing next to parsing, small enough to stay in L2/L3.
constexpr std::size_t chunk_bytes = std::size_t(1) << 20;
// The buffer starts small and doubles up to `chunk_bytes` (further only for long lines): small inputs
// then cost no megabyte allocation.
constexpr std::size_t initial_buffer_bytes = std::size_t(1) << 16;

std::string errno_text(int err) { return std::generic_category().message(err); }

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// byte sources

namespace {

// What a path that is not a regular file is, for the message.
const char* file_type_name(std::filesystem::file_type t) {
  switch (t) {
    case std::filesystem::file_type::directory:
      return "a directory";
    case std::filesystem::file_type::fifo:
      return "a FIFO (named pipe)";
    case std::filesystem::file_type::socket:
      return "a socket";
    case std::filesystem::file_type::character:
      return "a character device";
    case std::filesystem::file_type::block:
      return "a block device";
    default:
      return "not a regular file";
  }
}

[[noreturn]] void not_regular(const std::string& path, std::filesystem::file_type t) {
  throw error(fmt::format(
      "bitgraph::io: cannot read '{}': it is {}; only regular files are read by path (read pipes and devices "
      "through the std::istream overload)",
      path, file_type_name(t)));
}

}  // namespace

file_source::file_source(const std::string& path) : path_(path) {
  // The type is checked before the file is opened: opening a FIFO for reading blocks until a writer comes,
  // and a device may never end.
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) not_regular(path, st.type());
#ifdef BITGRAPH_IO_HAVE_POSIX_OPEN
  // Non-blocking open and fstat of the opened file: a FIFO swapped in after the check above still cannot
  // block the open, and is refused by its descriptor's type.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw error(fmt::format("bitgraph::io: cannot open '{}': {}", path, errno_text(errno)));
  struct ::stat fst {};
  if (::fstat(fd, &fst) != 0) {
    const int err = errno;
    ::close(fd);
    throw error(fmt::format("bitgraph::io: cannot stat '{}': {}", path, errno_text(err)));
  }
  if (!S_ISREG(fst.st_mode)) {
    ::close(fd);
    not_regular(path, S_ISDIR(fst.st_mode)    ? std::filesystem::file_type::directory
                      : S_ISFIFO(fst.st_mode) ? std::filesystem::file_type::fifo
                      : S_ISSOCK(fst.st_mode) ? std::filesystem::file_type::socket
                      : S_ISCHR(fst.st_mode)  ? std::filesystem::file_type::character
                      : S_ISBLK(fst.st_mode)  ? std::filesystem::file_type::block
                                              : std::filesystem::file_type::unknown);
  }
  // Regular files ignore O_NONBLOCK; clear it anyway so that reads behave as documented everywhere.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  file_ = ::fdopen(fd, "rb");
  if (file_ == nullptr) {
    const int err = errno;
    ::close(fd);
    throw error(fmt::format("bitgraph::io: cannot open '{}': {}", path, errno_text(err)));
  }
  size_ = std::uint64_t(fst.st_size);
#else
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    throw error(fmt::format("bitgraph::io: cannot open '{}': {}", path, errno_text(errno)));
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) size_ = size;
#endif
}

file_source::~file_source() {
  if (file_ != nullptr) std::fclose(file_);
}

std::size_t file_source::read(char* dst, std::size_t max) {
  const std::size_t got = std::fread(dst, 1, max, file_);
  if (got < max && std::ferror(file_)) {
    throw error(fmt::format("bitgraph::io: cannot read '{}': {}", path_, errno_text(errno)));
  }
  return got;
}

std::size_t stream_source::read(char* dst, std::size_t max) {
  if (!in_.good()) {
    if (in_.bad()) throw error(fmt::format("bitgraph::io: cannot read '{}': the stream failed", name_));
    return 0;
  }
  in_.read(dst, static_cast<std::streamsize>(max));
  if (in_.bad()) throw error(fmt::format("bitgraph::io: cannot read '{}': the stream failed", name_));
  return static_cast<std::size_t>(in_.gcount());
}

// ---------------------------------------------------------------------------------------------------------
// line_reader

line_reader::line_reader(byte_source& src, std::string source_name)
    : src_(src), source_(std::move(source_name)), total_(src.size_hint()) {
  std::size_t initial = initial_buffer_bytes;
  if (total_ && *total_ < initial) initial = std::size_t(*total_) + 1;  // + 1 sees the end in one read
  buf_.resize(initial);
}

bool line_reader::fill() {
  if (begin_ > 0) {
    const std::size_t keep = end_ - begin_;
    if (keep > 0) std::memmove(buf_.data(), buf_.data() + begin_, keep);
    scanned_ -= begin_;
    if (nul_ != SIZE_MAX) nul_ -= begin_;
    end_ = keep;
    begin_ = 0;
  }
  // Grow when less than half the buffer is free: up to the chunk size for throughput, beyond it only
  // while a single line fills the buffer.
  if (buf_.size() - end_ < buf_.size() / 2 || end_ == buf_.size()) {
    if (buf_.size() < chunk_bytes || end_ > buf_.size() / 2) buf_.resize(std::max<std::size_t>(buf_.size() * 2, 64));
  }
  const std::size_t got = src_.read(buf_.data() + end_, buf_.size() - end_);
  if (got == 0) {
    eof_ = true;
    return false;
  }
  if (nul_ == SIZE_MAX) {
    const void* z = std::memchr(buf_.data() + end_, '\0', got);
    if (z != nullptr) nul_ = std::size_t(static_cast<const char*>(z) - buf_.data());
  }
  end_ += got;
  return true;
}

bool line_reader::next(std::string_view& line) {
  for (;;) {
    const char* base = buf_.data();
    const void* nl = std::memchr(base + scanned_, '\n', end_ - scanned_);
    std::size_t stop;    // end of the line's content
    std::size_t resume;  // where the next line starts
    if (nl != nullptr) {
      stop = std::size_t(static_cast<const char*>(nl) - base);
      resume = stop + 1;
    } else {
      scanned_ = end_;
      if (end_ - begin_ > max_line_bytes) {
        fail_at(line_no_ + 1, fmt::format("line is longer than {} MiB (binary data?)", max_line_bytes >> 20));
      }
      if (!eof_) {
        fill();
        continue;
      }
      if (begin_ == end_) return false;
      stop = resume = end_;  // last line without a terminator
    }
    ++line_no_;
    if (stop - begin_ > max_line_bytes) {
      fail(fmt::format("line is longer than {} MiB (binary data?)", max_line_bytes >> 20));
    }
    if (nul_ < resume) fail("line contains a NUL byte (binary data is not text)");
    std::size_t first = begin_;
    if (first_) {
      first_ = false;
      if (stop - first >= 3 && std::memcmp(base + first, "\xEF\xBB\xBF", 3) == 0) first += 3;
    }
    std::size_t last = stop;
    if (last > first && base[last - 1] == '\r') --last;
    line = std::string_view(base + first, last - first);
    consumed_ += resume - begin_;
    begin_ = scanned_ = resume;
    return true;
  }
}

std::optional<std::uint64_t> line_reader::bytes_left() const {
  if (!total_) return std::nullopt;
  return *total_ > consumed_ ? *total_ - consumed_ : 0;
}

void line_reader::fail(const std::string& problem) const { throw parse_error(source_, line_no_, problem); }

std::uint64_t parse_u64_field(const line_reader& in, const char*& p, const char* e, const char* what,
                              const char* usage) {
  const char* start = p;
  std::uint64_t x = 0;
  switch (parse_u64(p, e, x)) {
    case number_status::ok:
      return x;
    case number_status::missing:
      in.fail(fmt::format("the line has no {} ({})", what, usage));
    case number_status::negative:
      in.fail(fmt::format("negative {} {}", what, quote(token_at(start, e))));
    case number_status::overflow:
      in.fail(fmt::format("{} {} is too large", what, quote(token_at(start, e))));
    case number_status::invalid:
      break;
  }
  in.fail(fmt::format("invalid {} {} ({})", what, quote(token_at(start, e)), usage));
}

void line_reader::fail_at(std::uint64_t line, const std::string& problem) const {
  throw parse_error(source_, line, problem);
}

// ---------------------------------------------------------------------------------------------------------
// tokens

std::vector<std::string_view> split_tokens(std::string_view line) {
  std::vector<std::string_view> out;
  const char* p = line.data();
  const char* e = p + line.size();
  for (;;) {
    p = skip_space(p, e);
    if (p == e) break;
    const char* t = token_end(p, e);
    out.emplace_back(p, std::size_t(t - p));
    p = t;
  }
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  }
  return out;
}

std::string quote(std::string_view token) {
  constexpr std::size_t max_shown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < token.size() && i < max_shown; ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(char(c));
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  if (token.size() > max_shown) out += "...";
  out.push_back('\'');
  return out;
}

namespace {

inline bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// Digits of an unsigned magnitude; `p` is at the first character after any sign.
number_status parse_magnitude(const char*& p, const char* e, std::uint64_t& out) noexcept {
  if (p == e || !is_digit(*p)) return number_status::invalid;
  std::uint64_t v = 0;
  bool overflow = false;
  for (; p != e && is_digit(*p); ++p) {
    const auto d = std::uint64_t(*p - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = true;
    v = v * 10 + d;
  }
  if (p != e && !is_space(*p)) return number_status::invalid;
  if (overflow) return number_status::overflow;
  out = v;
  return number_status::ok;
}

}  // namespace

number_status parse_u64(const char*& p, const char* e, std::uint64_t& out) noexcept {
  const char* q = skip_space(p, e);
  if (q == e) return number_status::missing;
  if (*q == '-') {
    const char* r = q + 1;
    std::uint64_t ignored = 0;
    const auto s = parse_magnitude(r, e, ignored);
    return s == number_status::invalid ? s : number_status::negative;
  }
  if (*q == '+') ++q;
  const auto s = parse_magnitude(q, e, out);
  if (s == number_status::ok) p = q;
  return s;
}

number_status parse_i64(const char*& p, const char* e, std::int64_t& out) noexcept {
  const char* q = skip_space(p, e);
  if (q == e) return number_status::missing;
  bool neg = false;
  if (*q == '-' || *q == '+') {
    neg = *q == '-';
    ++q;
  }
  std::uint64_t mag = 0;
  const auto s = parse_magnitude(q, e, mag);
  if (s != number_status::ok) return s;
  if (neg) {
    if (mag > std::uint64_t(INT64_MAX) + 1) return number_status::overflow;
    out = mag == std::uint64_t(INT64_MAX) + 1 ? INT64_MIN : -static_cast<std::int64_t>(mag);
  } else {
    if (mag > std::uint64_t(INT64_MAX)) return number_status::overflow;
    out = static_cast<std::int64_t>(mag);
  }
  p = q;
  return number_status::ok;
}

number_status parse_f64(const char*& p, const char* e, double& out) noexcept {
  const char* q = skip_space(p, e);
  if (q == e) return number_status::missing;
  const char* t = token_end(q, e);
  const char* start = q;
  // from_chars rejects the '+' sign that strtod/scanf (and so other Matrix Market readers) accept.
  if (*start == '+') {
    ++start;
    if (start == t || *start == '-' || *start == '+') return number_status::invalid;
  }
  const auto r = std::from_chars(start, t, out, std::chars_format::general);
  if (r.ec == std::errc::invalid_argument || r.ptr != t) return number_status::invalid;
  if (r.ec == std::errc::result_out_of_range) {
    // The token is a well-formed number whose magnitude lies outside the double range; strtod gives
    // the conventional +-HUGE_VAL or (sub)zero result.
    const std::string copy(start, t);
    out = std::strtod(copy.c_str(), nullptr);
  }
  p = t;
  return number_status::ok;
}

// ---------------------------------------------------------------------------------------------------------
// text_sink

text_sink::text_sink(const std::string& path, const char* func) : target_(path), func_(func) {
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) {
    throw error(fmt::format("bitgraph::io::{}: cannot create '{}': {}", func_, path, errno_text(errno)));
  }
  buf_.reserve(flush_bytes + 64);
}

text_sink::text_sink(std::ostream& out, const char* func) : out_(&out), target_("<stream>"), func_(func) {
  buf_.reserve(flush_bytes + 64);
}

text_sink::~text_sink() {
  if (file_ != nullptr) std::fclose(file_);
}

void text_sink::put_u64(std::uint64_t v) {
  char tmp[24];
  const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
  put(std::string_view(tmp, std::size_t(r.ptr - tmp)));
}

void text_sink::put_f64(double v) {
  char tmp[40];
  const auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
  put(std::string_view(tmp, std::size_t(r.ptr - tmp)));
}

void text_sink::flush() {
  if (buf_.empty()) return;
  if (file_ != nullptr) {
    if (std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size()) {
      throw error(fmt::format("bitgraph::io::{}: cannot write '{}': {}", func_, target_, errno_text(errno)));
    }
  } else if (out_ != nullptr) {
    out_->write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    if (!*out_) throw error(fmt::format("bitgraph::io::{}: cannot write to the output stream", func_));
  }
  buf_.clear();
}

void text_sink::close() {
  flush();
  if (file_ != nullptr) {
    std::FILE* f = file_;
    file_ = nullptr;
    if (std::fclose(f) != 0) {
      throw error(fmt::format("bitgraph::io::{}: cannot write '{}': {}", func_, target_, errno_text(errno)));
    }
  } else if (out_ != nullptr) {
    out_->flush();
    if (!*out_) throw error(fmt::format("bitgraph::io::{}: cannot write to the output stream", func_));
  }
}

// ---------------------------------------------------------------------------------------------------------
// host CSR invariants

std::string host_csr_problem(const host_csr& g) {
  if (g.n > max_vertices - 1) return fmt::format("n = {} exceeds the limit of {} vertices", g.n, max_vertices - 1);
  if (g.row_ptr.size() != std::size_t(g.n) + 1) {
    return fmt::format("row_ptr has {} entries, expected n + 1 = {}", g.row_ptr.size(), std::uint64_t(g.n) + 1);
  }
  if (g.row_ptr.front() != 0) return fmt::format("row_ptr[0] is {}, expected 0", g.row_ptr.front());
  if (g.row_ptr.back() != g.col_idx.size()) {
    return fmt::format("row_ptr[n] is {} but there are {} columns", g.row_ptr.back(), g.col_idx.size());
  }
  if (g.has_weights ? g.weights.size() != g.col_idx.size() : !g.weights.empty()) {
    return fmt::format("{} weights for {} entries with has_weights = {}", g.weights.size(), g.col_idx.size(),
                       g.has_weights);
  }
  for (std::uint64_t u = 0; u < g.n; ++u) {
    const offset_t lo = g.row_ptr[u], hi = g.row_ptr[u + 1];
    if (lo > hi) return fmt::format("row_ptr decreases at row {} ({} > {})", u, lo, hi);
    if (hi > g.col_idx.size()) return fmt::format("row_ptr[{}] = {} exceeds nnz = {}", u + 1, hi, g.col_idx.size());
    for (offset_t p = lo; p < hi; ++p) {
      const vertex_t v = g.col_idx[p];
      if (v >= g.n) return fmt::format("column {} in row {} is not below n = {}", v, u, g.n);
      if (p > lo) {
        const vertex_t prev = g.col_idx[p - 1];
        if (prev > v || (prev == v && !g.has_duplicates)) {
          return fmt::format("columns of row {} are not {} ({} then {})", u,
                             g.has_duplicates ? "sorted" : "strictly ascending", prev, v);
        }
      }
    }
  }
  return {};
}

std::string undirected_asymmetry(const host_csr& g) {
  if (g.kind != graph_kind::undirected) return {};
  // Visiting the rows in ascending order appends u to the transpose's row v in ascending order: the graph is
  // symmetric exactly when that transpose row, consumed through cursor[v], equals row v itself.
  std::vector<offset_t> cursor(g.row_ptr.begin(), g.row_ptr.end() - 1);
  for (std::uint64_t u = 0; u < g.n; ++u) {
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) {
      const vertex_t v = g.col_idx[p];
      offset_t& c = cursor[v];
      if (c < g.row_ptr[v + 1] && g.col_idx[c] == u) {
        ++c;
        continue;
      }
      if (c < g.row_ptr[v + 1] && g.col_idx[c] < u) {
        // Row v holds (v, w) with w < u, whose mirror (w, v) would have been met already.
        return fmt::format("entry ({}, {}) has no mirror ({}, {})", v, g.col_idx[c], g.col_idx[c], v);
      }
      return fmt::format("entry ({}, {}) has no mirror ({}, {})", u, v, v, u);
    }
  }
  for (std::uint64_t v = 0; v < g.n; ++v) {
    const offset_t c = cursor[v];
    if (c < g.row_ptr[v + 1])
      return fmt::format("entry ({}, {}) has no mirror ({}, {})", v, g.col_idx[c], g.col_idx[c], v);
  }
  return {};
}

}  // namespace bitgraph::io::detail
