// Plain-text edge-list reader and writers.
#include "bitgraph/io/edge_list_text.hpp"

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

constexpr const char* usage = "expected 'u v' or 'u v w'";

std::uint64_t parse_id(const line_reader& in, const char*& p, const char* e, const char* what) {
  return detail::parse_u64_field(in, p, e, what, usage);
}

edge_list read_edges(detail::byte_source& src, const std::string& name, const edge_list_read_options& opts) {
  const std::uint64_t limit = std::min(opts.max_vertices, max_vertices - 1);
  const char* limit_reason =
      limit < max_vertices - 1 ? "allowed by edge_list_read_options::max_vertices" : "BitGraph supports (32-bit ids)";
  if (opts.num_vertices && *opts.num_vertices > limit) {
    throw size_error(fmt::format("{}: {} vertices were requested, more than the {} vertices {}", name,
                                 *opts.num_vertices, limit, limit_reason));
  }
  line_reader in(src, name);
  edge_list out;
  out.name = name;
  out.storage = opts.storage;
  const auto left = in.bytes_left();
  // A typical line ("123 4567\n") has 8 or more bytes; shorter lines just make the vectors grow.
  const std::uint64_t reserve = left ? *left / 8 + 1 : 4096;
  out.src.reserve(reserve);
  out.dst.reserve(reserve);
  const std::uint64_t base = opts.one_based ? 1 : 0;
  int columns = 0;                // 2 or 3 once the first edge is read
  std::uint64_t first_line = 0;   // line of the first edge
  std::uint64_t needed = 0;       // largest 0-based id + 1
  std::uint64_t needed_line = 0;  // line of the id that set `needed`
  std::string_view line;
  auto check_id = [&](std::uint64_t id, const char* what) -> vertex_t {
    if (id < base) in.fail(fmt::format("{} 0 in a 1-based edge list", what));
    const std::uint64_t v = id - base;
    if (opts.num_vertices) {
      if (v >= *opts.num_vertices) {
        in.fail(fmt::format("{} {} is out of the range {}..{} of the {} vertices given", what, id, base,
                            *opts.num_vertices + base - 1, *opts.num_vertices));
      }
    } else if (v >= limit) {
      throw size_error(fmt::format("{}:{}: {} {} needs {} vertices, more than the {} vertices {}", name,
                                   in.line_number(), what, id, v + 1, limit, limit_reason));
    }
    if (v + 1 > needed) {
      needed = v + 1;
      needed_line = in.line_number();
    }
    return vertex_t(v);
  };
  while (in.next(line)) {
    const char* e = line.data() + line.size();
    const char* p = detail::skip_space(line.data(), e);
    if (p == e || *p == '#' || *p == '%') continue;
    const std::uint64_t u = parse_id(in, p, e, "source vertex id");
    const std::uint64_t v = parse_id(in, p, e, "target vertex id");
    double w = 1.0;
    int c = 2;
    if (detail::skip_space(p, e) != e) {
      const char* start = p;
      const auto s = detail::parse_f64(p, e, w);
      if (s != number_status::ok)
        in.fail(fmt::format("invalid weight {} ({})", quote(detail::token_at(start, e)), usage));
      if (opts.read_weights && !opts.allow_non_finite && !std::isfinite(w)) {
        in.fail(
            fmt::format("weight {} is {}: NaN and infinite edge weights are rejected (set "
                        "edge_list_read_options::allow_non_finite to keep them)",
                        quote(detail::token_at(start, e)), std::isnan(w) ? "NaN" : "infinite"));
      }
      c = 3;
      p = detail::skip_space(p, e);
      if (p != e) in.fail(fmt::format("unexpected {} after the weight ({})", quote(detail::token_at(p, e)), usage));
    }
    if (columns == 0) {
      columns = c;
      first_line = in.line_number();
      if (c == 3 && opts.read_weights) out.weights.reserve(reserve);
    } else if (c != columns) {
      in.fail(fmt::format("this edge {} but the first edge (line {}) {}: either every edge has a weight or none has",
                          c == 3 ? "has a weight" : "has no weight", first_line, c == 3 ? "has none" : "has one"));
    }
    out.src.push_back(check_id(u, "source vertex id"));
    out.dst.push_back(check_id(v, "target vertex id"));
    if (c == 3 && opts.read_weights) out.weights.push_back(w);
  }
  if (!opts.num_vertices) {
    const std::uint64_t bound = vertex_bound(out.src.size(), opts.max_vertices_per_entry);
    if (needed > bound) {
      throw size_error(fmt::format(
          "{}:{}: the ids need {} vertices for {} edges, more than the {} allowed by "
          "edge_list_read_options::max_vertices_per_entry = {} (at most max(2^20, {} x edges) vertices; "
          "raise it, or 0 to lift the bound, or give num_vertices, to read such sparse ids)",
          name, needed_line, needed, out.src.size(), bound, opts.max_vertices_per_entry, opts.max_vertices_per_entry));
    }
  }
  out.num_vertices = opts.num_vertices ? *opts.num_vertices : needed;
  return out;
}

void check_edges(const edge_list& el) {
  BITGRAPH_CHECK_ARG(el.src.size() == el.dst.size(), "io::write_edge_list", "src has ", el.src.size(),
                     " entries but dst has ", el.dst.size());
  BITGRAPH_CHECK_ARG(el.weights.empty() || el.weights.size() == el.src.size(), "io::write_edge_list", "weights has ",
                     el.weights.size(), " entries but there are ", el.src.size(), " edges");
  for (std::size_t k = 0; k < el.src.size(); ++k) {
    BITGRAPH_CHECK_ARG(el.src[k] < el.num_vertices && el.dst[k] < el.num_vertices, "io::write_edge_list", "entry ", k,
                       " (", el.src[k], ", ", el.dst[k], ") has an id >= num_vertices = ", el.num_vertices);
  }
}

void put_header(detail::text_sink& out, std::uint64_t n, std::uint64_t m, const edge_list_write_options& opts) {
  if (!opts.header) return;
  out.put(fmt::format("# BitGraph edge list: {} vertices, {} edges, {}-based ids\n", n, m, opts.one_based ? 1 : 0));
}

void put_edge(detail::text_sink& out, std::uint64_t u, std::uint64_t v, const double* w, std::uint64_t base) {
  out.put_u64(u + base);
  out.put(' ');
  out.put_u64(v + base);
  if (w != nullptr) {
    out.put(' ');
    out.put_f64(*w);
  }
  out.put('\n');
}

void write_edges(detail::text_sink& out, const edge_list& el, const edge_list_write_options& opts) {
  const bool values = opts.write_weights && el.weighted();
  const std::uint64_t base = opts.one_based ? 1 : 0;
  put_header(out, el.num_vertices, el.size(), opts);
  for (std::size_t k = 0; k < el.src.size(); ++k)
    put_edge(out, el.src[k], el.dst[k], values ? &el.weights[k] : nullptr, base);
  out.close();
}

void write_csr(detail::text_sink& out, const host_csr& g, const edge_list_write_options& opts) {
  const bool values = opts.write_weights && g.has_weights;
  const std::uint64_t base = opts.one_based ? 1 : 0;
  put_header(out, g.n, g.nnz(), opts);
  for (vertex_t u = 0; u < g.n; ++u) {
    for (offset_t p = g.row_ptr[u]; p < g.row_ptr[u + 1]; ++p) {
      put_edge(out, u, g.col_idx[p], values ? &g.weights[p] : nullptr, base);
    }
  }
  out.close();
}

void check_csr(const host_csr& g) {
  const std::string problem = detail::host_csr_problem(g);
  BITGRAPH_CHECK_ARG(problem.empty(), "io::write_edge_list", problem);
}

const char* storage_name(edge_storage s) {
  switch (s) {
    case edge_storage::general:
      return "general";
    case edge_storage::symmetric:
      return "symmetric";
    case edge_storage::skew_symmetric:
      return "skew-symmetric";
  }
  return "?";
}

}  // namespace

std::string to_string(const edge_list_read_options& opts) {
  return fmt::format(
      "edges;base={};num_vertices={};storage={};weights={};max_vertices={};vertices_per_entry={};non_finite={}",
      opts.one_based ? 1 : 0, opts.num_vertices ? std::to_string(*opts.num_vertices) : std::string("auto"),
      storage_name(opts.storage), opts.read_weights ? "read" : "skip", opts.max_vertices, opts.max_vertices_per_entry,
      opts.allow_non_finite ? "keep" : "reject");
}

edge_list read_edge_list(const std::string& path, const edge_list_read_options& opts) {
  const auto src = detail::open_input(path);  // gzip-compressed files are inflated
  return read_edges(*src, path, opts);
}

edge_list read_edge_list(std::istream& in, const std::string& source_name, const edge_list_read_options& opts) {
  detail::stream_source src(in, source_name);
  return read_edges(src, source_name, opts);
}

void write_edge_list(const std::string& path, const edge_list& edges, const edge_list_write_options& opts) {
  check_edges(edges);
  detail::text_sink out(path, "write_edge_list");
  write_edges(out, edges, opts);
}

void write_edge_list(std::ostream& os, const edge_list& edges, const edge_list_write_options& opts) {
  check_edges(edges);
  detail::text_sink out(os, "write_edge_list");
  write_edges(out, edges, opts);
}

void write_edge_list(const std::string& path, const host_csr& g, const edge_list_write_options& opts) {
  check_csr(g);
  detail::text_sink out(path, "write_edge_list");
  write_csr(out, g, opts);
}

void write_edge_list(std::ostream& os, const host_csr& g, const edge_list_write_options& opts) {
  check_csr(g);
  detail::text_sink out(os, "write_edge_list");
  write_csr(out, g, opts);
}

}  // namespace bitgraph::io
