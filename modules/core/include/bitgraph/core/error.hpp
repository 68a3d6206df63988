// Exception types thrown by BitGraph and the argument-checking macros that raise them.
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

namespace bitgraph {

/// Base of every exception BitGraph throws; `what()` names the function or input and the problem.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An argument is invalid: out-of-range ids, mismatched sizes, incompatible options.
class invalid_argument_error : public error {
 public:
  using error::error;
};

/// A size does not fit the index types (more than 2^32 - 2 vertices, offsets overflowing 64 bits) or
/// an input declares more memory than can be allocated.
class size_error : public error {
 public:
  using error::error;
};

/// A memory allocation failed; the message names the buffer and the bytes requested.
class allocation_error : public error {
 public:
  using error::error;
};

/// The requested feature, execution space or kernel path is not available in this build.
class unsupported_error : public error {
 public:
  using error::error;
};

/// Input text or binary data is malformed. Carries the source name and the 1-based line (0 when the
/// problem is not tied to a line, e.g. a binary file).
class parse_error : public error {
 public:
  parse_error(std::string source, std::uint64_t line, std::string problem)
      : error(format(source, line, problem)), source_(std::move(source)), line_(line), problem_(std::move(problem)) {}

  /// File name (or "<stream>") the error was found in.
  const std::string& source() const noexcept { return source_; }
  /// 1-based line number of the offending line, 0 if not applicable.
  std::uint64_t line() const noexcept { return line_; }
  /// The problem without the location prefix.
  const std::string& problem() const noexcept { return problem_; }

 private:
  static std::string format(const std::string& source, std::uint64_t line, const std::string& problem) {
    std::ostringstream os;
    os << source;
    if (line > 0) os << ":" << line;
    os << ": " << problem;
    return os.str();
  }
  std::string source_;
  std::uint64_t line_;
  std::string problem_;
};

namespace detail {
/// Streams all arguments into one string; used only on error paths.
template <class... Args>
std::string concat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}
}  // namespace detail

}  // namespace bitgraph

/// Throws `exc("bitgraph::" func ": " message...)` when `cond` is false.
#define BITGRAPH_REQUIRE(cond, exc, func, ...)                                                 \
  do {                                                                                         \
    if (!(cond)) throw exc(::bitgraph::detail::concat("bitgraph::", func, ": ", __VA_ARGS__)); \
  } while (0)

/// Argument check: throws `invalid_argument_error` naming the function when `cond` is false.
#define BITGRAPH_CHECK_ARG(cond, func, ...) \
  BITGRAPH_REQUIRE(cond, ::bitgraph::invalid_argument_error, func, __VA_ARGS__)
