// Input files for the readers: plain, or gzip-compressed (detected by the magic bytes) and inflated through zlib.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "bitgraph/core/error.hpp"
#include "io_detail.hpp"

#ifdef BITGRAPH_IO_HAVE_ZLIB
#include <zlib.h>
#endif

namespace bitgraph::io::detail {

namespace {

/// The bytes already read to look for the magic, then the rest of the file.
class prefixed_source final : public byte_source {
 public:
  prefixed_source(std::unique_ptr<byte_source> inner, std::string prefix)
      : inner_(std::move(inner)), prefix_(std::move(prefix)) {}
  std::size_t read(char* dst, std::size_t max) override {
    if (at_ < prefix_.size()) {
      const std::size_t k = std::min(max, prefix_.size() - at_);
      std::memcpy(dst, prefix_.data() + at_, k);
      at_ += k;
      return k;
    }
    return inner_->read(dst, max);
  }
  std::optional<std::uint64_t> size_hint() const override { return inner_->size_hint(); }

 private:
  std::unique_ptr<byte_source> inner_;
  std::string prefix_;
  std::size_t at_ = 0;
};

#ifdef BITGRAPH_IO_HAVE_ZLIB
/// Inflates gzip data (one member or several concatenated, as `cat a.gz b.gz` makes) from a byte source.
class gzip_source final : public byte_source {
 public:
  gzip_source(std::unique_ptr<byte_source> inner, std::string name) : inner_(std::move(inner)), name_(std::move(name)) {
    std::memset(&z_, 0, sizeof z_);
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK)  // 16: gzip wrapper, not zlib's
      throw error(fmt::format("bitgraph::io: cannot start zlib for '{}'", name_));
    in_.resize(std::size_t(1) << 18);
  }
  ~gzip_source() override { inflateEnd(&z_); }
  gzip_source(const gzip_source&) = delete;
  gzip_source& operator=(const gzip_source&) = delete;

  std::size_t read(char* dst, std::size_t max) override {
    if (done_ || max == 0) return 0;
    z_.next_out = reinterpret_cast<Bytef*>(dst);
    z_.avail_out = static_cast<uInt>(std::min<std::size_t>(max, std::size_t(1) << 30));
    const uInt want = z_.avail_out;
    while (z_.avail_out == want) {
      if (z_.avail_in == 0) {
        const std::size_t got = inner_->read(in_.data(), in_.size());
        if (got == 0) {
          if (member_open_) fail("the gzip data is truncated (the file ends inside a compressed stream)");
          done_ = true;
          break;
        }
        z_.next_in = reinterpret_cast<Bytef*>(in_.data());
        z_.avail_in = static_cast<uInt>(got);
      }
      member_open_ = true;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        member_open_ = false;
        if (inflateReset(&z_) != Z_OK) fail("cannot restart zlib for the next gzip member");
      } else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
        fail(fmt::format("corrupt gzip data ({})", z_.msg ? z_.msg : "invalid data"));
      } else if (rc == Z_MEM_ERROR) {
        throw allocation_error(fmt::format("bitgraph::io: out of memory inflating '{}'", name_));
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        fail(fmt::format("zlib error {}", rc));
      }
    }
    return want - z_.avail_out;
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const { throw parse_error(name_, 0, problem); }

  std::unique_ptr<byte_source> inner_;
  std::string name_;
  std::vector<char> in_;
  z_stream z_;
  bool member_open_ = false;
  bool done_ = false;
};
#endif

}  // namespace

bool have_gzip() noexcept {
#ifdef BITGRAPH_IO_HAVE_ZLIB
  return true;
#else
  return false;
#endif
}

std::unique_ptr<byte_source> open_input(const std::string& path) {
  auto file = std::make_unique<file_source>(path);
  std::string magic(2, '\0');
  std::size_t got = 0;
  while (got < magic.size()) {
    const std::size_t k = file->read(magic.data() + got, magic.size() - got);
    if (k == 0) break;
    got += k;
  }
  magic.resize(got);
  if (magic != "\x1f\x8b") return std::make_unique<prefixed_source>(std::move(file), std::move(magic));
#ifdef BITGRAPH_IO_HAVE_ZLIB
  return std::make_unique<gzip_source>(std::make_unique<prefixed_source>(std::move(file), std::move(magic)), path);
#else
  throw error(fmt::format(
      "bitgraph::io: '{}' is gzip-compressed, but this BitGraph was built without zlib (install zlib1g-dev and "
      "reconfigure with -DBITGRAPH_WITH_ZLIB=ON, or gunzip the file)",
      path));
#endif
}

}  // namespace bitgraph::io::detail
