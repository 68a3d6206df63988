// DIMACS shortest-path reader and the detection of a graph file's format.
#include "bitgraph/io/dimacs.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "bitgraph/core/error.hpp"
#include "io_detail.hpp"

namespace bitgraph::io {

namespace {

using detail::line_reader;
using detail::number_status;
using detail::quote;

std::uint64_t parse_count(const line_reader& in, const char*& p, const char* e, const char* what, const char* usage) {
  return detail::parse_u64_field(in, p, e, what, usage);
}

constexpr const char* p_usage = "expected 'p sp n m'";
constexpr const char* a_usage = "expected 'a u v w'";

edge_list read_gr(detail::byte_source& src, const std::string& name, const dimacs_read_options& opts) {
  const std::uint64_t limit = std::min(opts.max_vertices, max_vertices - 1);
  line_reader in(src, name);
  edge_list out;
  out.name = name;
  out.storage = edge_storage::general;
  std::uint64_t n = 0, m = 0, p_line = 0;
  std::string_view line;
  while (in.next(line)) {
    const char* e = line.data() + line.size();
    const char* p = detail::skip_space(line.data(), e);
    if (p == e || *p == 'c') continue;  // blank lines and comments
    const char kind = *p;
    const char* after = p + 1;
    if (after != e && !detail::is_space(*after))
      in.fail(fmt::format("unknown line {} (DIMACS lines start with c, p or a)", quote(detail::token_at(p, e))));
    p = after;
    if (kind == 'p') {
      if (p_line) in.fail(fmt::format("a second problem line (the first is line {})", p_line));
      p = detail::skip_space(p, e);
      const char* word = p;
      p = detail::token_end(p, e);
      if (std::string_view(word, std::size_t(p - word)) != "sp")
        in.fail(fmt::format("problem {} is not a shortest-path problem ({})", quote(std::string_view(word, p - word)),
                            p_usage));
      n = parse_count(in, p, e, "vertex count", p_usage);
      m = parse_count(in, p, e, "arc count", p_usage);
      if (detail::skip_space(p, e) != e)
        in.fail(fmt::format("unexpected {} after the arc count ({})", quote(detail::token_at(p, e)), p_usage));
      if (n > limit)
        throw size_error(fmt::format("{}:{}: {} vertices declared, more than the {} vertices {}", name,
                                     in.line_number(), n, limit,
                                     limit < max_vertices - 1 ? "allowed by dimacs_read_options::max_vertices"
                                                              : "BitGraph supports (32-bit ids)"));
      const std::uint64_t bound = vertex_bound(m, opts.max_vertices_per_entry);
      if (n > bound)
        throw size_error(
            fmt::format("{}:{}: {} vertices declared for {} arcs, more than the {} allowed by "
                        "dimacs_read_options::max_vertices_per_entry = {} (at most max(2^20, {} x arcs) vertices)",
                        name, in.line_number(), n, m, bound, opts.max_vertices_per_entry, opts.max_vertices_per_entry));
      p_line = in.line_number();
      // The declared count is only a claim: reserve no more than the file's bytes can hold (an arc line has at
      // least 8 bytes), so that a one-line file declaring 2^60 arcs allocates nothing.
      const auto left = in.bytes_left();
      const std::uint64_t reserve = std::min<std::uint64_t>(m, left ? *left / 8 + 1 : 4096);
      out.src.reserve(reserve);
      out.dst.reserve(reserve);
      if (opts.read_weights) out.weights.reserve(reserve);
    } else if (kind == 'a') {
      if (!p_line) in.fail("an arc before the problem line 'p sp n m'");
      const char* start = p = detail::skip_space(p, e);
      const std::uint64_t u = parse_count(in, p, e, "source vertex id", a_usage);
      if (u == 0 || u > n)
        in.fail(fmt::format("source vertex id {} is out of the range 1..{} of the problem line",
                            quote(detail::token_at(start, e)), n));
      start = p = detail::skip_space(p, e);
      const std::uint64_t v = parse_count(in, p, e, "target vertex id", a_usage);
      if (v == 0 || v > n)
        in.fail(fmt::format("target vertex id {} is out of the range 1..{} of the problem line",
                            quote(detail::token_at(start, e)), n));
      start = p = detail::skip_space(p, e);
      double w = 0;
      const auto s = detail::parse_f64(p, e, w);
      if (s == number_status::missing) in.fail(fmt::format("the arc has no weight ({})", a_usage));
      if (s != number_status::ok)
        in.fail(fmt::format("invalid weight {} ({})", quote(detail::token_at(start, e)), a_usage));
      if (!opts.allow_non_finite && !std::isfinite(w))
        in.fail(
            fmt::format("weight {} is {}: NaN and infinite edge weights are rejected (set "
                        "dimacs_read_options::allow_non_finite to keep them)",
                        quote(detail::token_at(start, e)), std::isnan(w) ? "NaN" : "infinite"));
      if (detail::skip_space(p, e) != e)
        in.fail(fmt::format("unexpected {} after the weight ({})", quote(detail::token_at(p, e)), a_usage));
      if (out.src.size() == m) in.fail(fmt::format("more arcs than the {} of the problem line (line {})", m, p_line));
      out.src.push_back(vertex_t(u - 1));
      out.dst.push_back(vertex_t(v - 1));
      if (opts.read_weights) out.weights.push_back(w);
    } else {
      in.fail(fmt::format("unknown line type '{}' (DIMACS lines start with c, p or a)", kind));
    }
  }
  if (!p_line) throw parse_error(name, 0, "no problem line 'p sp n m' (not a DIMACS shortest-path file)");
  if (out.src.size() != m)
    throw parse_error(
        name, p_line,
        fmt::format("the problem line declares {} arcs but the file has {} (truncated?)", m, out.src.size()));
  out.num_vertices = n;
  return out;
}

}  // namespace

std::string to_string(const dimacs_read_options& opts) {
  return fmt::format("dimacs;weights={};max_vertices={};vertices_per_entry={};non_finite={}",
                     opts.read_weights ? "read" : "skip", opts.max_vertices, opts.max_vertices_per_entry,
                     opts.allow_non_finite ? "keep" : "reject");
}

edge_list read_dimacs(const std::string& path, const dimacs_read_options& opts) {
  const auto src = detail::open_input(path);
  return read_gr(*src, path, opts);
}

edge_list read_dimacs(std::istream& in, const std::string& source_name, const dimacs_read_options& opts) {
  detail::stream_source src(in, source_name);
  return read_gr(src, source_name, opts);
}

const char* to_string(input_format format) {
  switch (format) {
    case input_format::matrix_market:
      return "matrix-market";
    case input_format::edge_list:
      return "edge-list";
    case input_format::dimacs:
      return "dimacs";
    case input_format::graph_cache:
      return "graph-cache";
  }
  return "edge-list";
}

bool gzip_input_supported() noexcept { return detail::have_gzip(); }

input_format detect_input_format(const std::string& path) {
  {
    const auto src = detail::open_input(path);
    std::string head(64, '\0');
    std::size_t got = 0;
    while (got < head.size()) {
      const std::size_t k = src->read(head.data() + got, head.size() - got);
      if (k == 0) break;
      got += k;
    }
    head.resize(got);
    if (head.size() >= 3 && head.compare(0, 3, "\xEF\xBB\xBF") == 0) head.erase(0, 3);  // a UTF-8 byte-order mark
    if (detail::lower(head.substr(0, 14)) == "%%matrixmarket") return input_format::matrix_market;
    if (head.compare(0, 5, "BGCSR") == 0) return input_format::graph_cache;
  }
  std::string name = detail::lower(path);
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0) name.resize(name.size() - 3);
  auto ends = [&](std::string_view ext) {
    return name.size() >= ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0;
  };
  if (ends(".mtx")) return input_format::matrix_market;
  if (ends(".gr")) return input_format::dimacs;
  if (ends(".bgcsr")) return input_format::graph_cache;
  return input_format::edge_list;
}

}  // namespace bitgraph::io
