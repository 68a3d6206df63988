// Writers of per-vertex results: Matrix Market dense vectors, CSV/TSV tables, the little-endian binary layout.
#include "bitgraph/io/vertex_values.hpp"

#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "bitgraph/core/error.hpp"
#include "io_detail.hpp"

namespace bitgraph::io {

namespace {

constexpr const char* func = "write_vertex_values";

bool any_real(const std::vector<vertex_column>& columns) {
  for (const auto& c : columns)
    if (c.real) return true;
  return false;
}

void check_columns(const std::vector<vertex_column>& columns) {
  BITGRAPH_CHECK_ARG(!columns.empty(), func, "no columns to write");
  for (const auto& c : columns) {
    BITGRAPH_CHECK_ARG(c.size() == columns.front().size(), func, "column '", c.name, "' has ", c.size(),
                       " values, column '", columns.front().name, "' has ", columns.front().size());
    BITGRAPH_CHECK_ARG(c.real ? c.integers.empty() : c.reals.empty(), func, "column '", c.name,
                       "' holds both integers and reals");
  }
}

void put_value(detail::text_sink& out, const vertex_column& c, std::size_t v) {
  if (c.real) {
    out.put_f64(c.reals[v]);
  } else if (c.integers[v] < 0) {
    out.put('-');
    out.put_u64(std::uint64_t(0) - static_cast<std::uint64_t>(c.integers[v]));
  } else {
    out.put_u64(static_cast<std::uint64_t>(c.integers[v]));
  }
}

// Little-endian whatever the host's order, so that the files read the same everywhere.
void put_le(detail::text_sink& out, std::uint64_t x, int bytes) {
  char b[8];
  for (int i = 0; i < bytes; ++i) b[i] = static_cast<char>((x >> (8 * i)) & 0xff);
  out.put(std::string_view(b, std::size_t(bytes)));
}

void write_all(detail::text_sink& out, vertex_values_format format, const std::vector<vertex_column>& columns) {
  check_columns(columns);
  const std::size_t n = columns.front().size();
  const bool real = any_real(columns);
  switch (format) {
    case vertex_values_format::matrix_market: {
      out.put(real ? "%%MatrixMarket matrix array real general\n" : "%%MatrixMarket matrix array integer general\n");
      out.put("% bitgraph per-vertex results; columns:");
      for (const auto& c : columns) {
        out.put(' ');
        out.put(c.name);
      }
      out.put("\n");
      out.put_u64(n);
      out.put(' ');
      out.put_u64(columns.size());
      out.put('\n');
      for (const auto& c : columns)
        for (std::size_t v = 0; v < n; ++v) {
          if (real && !c.real)
            out.put_f64(static_cast<double>(c.integers[v]));
          else
            put_value(out, c, v);
          out.put('\n');
        }
      break;
    }
    case vertex_values_format::csv:
    case vertex_values_format::tsv: {
      const char sep = format == vertex_values_format::csv ? ',' : '\t';
      out.put("vertex");
      for (const auto& c : columns) {
        out.put(sep);
        out.put(c.name);
      }
      out.put('\n');
      for (std::size_t v = 0; v < n; ++v) {
        out.put_u64(v);
        for (const auto& c : columns) {
          out.put(sep);
          put_value(out, c, v);
        }
        out.put('\n');
      }
      break;
    }
    case vertex_values_format::binary: {
      out.put(std::string_view(vertex_values_magic, sizeof vertex_values_magic));
      put_le(out, vertex_values_version, 4);
      put_le(out, real ? 2 : 1, 4);
      put_le(out, n, 8);
      put_le(out, columns.size(), 8);
      for (const auto& c : columns) {
        put_le(out, c.name.size(), 4);
        out.put(c.name);
      }
      for (const auto& c : columns)
        for (std::size_t v = 0; v < n; ++v) {
          if (real)
            put_le(out, std::bit_cast<std::uint64_t>(c.real ? c.reals[v] : static_cast<double>(c.integers[v])), 8);
          else
            put_le(out, static_cast<std::uint64_t>(c.integers[v]), 8);
        }
      break;
    }
  }
  out.close();
}

}  // namespace

std::optional<vertex_values_format> vertex_values_format_of(std::string_view path) {
  const auto dot = path.rfind('.');
  const auto slash = path.find_last_of('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return std::nullopt;
  const auto ext = detail::lower(path.substr(dot));
  if (ext == ".mtx") return vertex_values_format::matrix_market;
  if (ext == ".csv") return vertex_values_format::csv;
  if (ext == ".tsv") return vertex_values_format::tsv;
  if (ext == ".bin") return vertex_values_format::binary;
  return std::nullopt;
}

std::string_view extension(vertex_values_format format) {
  switch (format) {
    case vertex_values_format::matrix_market:
      return ".mtx";
    case vertex_values_format::csv:
      return ".csv";
    case vertex_values_format::tsv:
      return ".tsv";
    case vertex_values_format::binary:
      return ".bin";
  }
  return ".csv";
}

void write_vertex_values(const std::string& path, vertex_values_format format,
                         const std::vector<vertex_column>& columns) {
  check_columns(columns);
  detail::text_sink out(path, func);
  write_all(out, format, columns);
}

void write_vertex_values(std::ostream& os, vertex_values_format format, const std::vector<vertex_column>& columns) {
  detail::text_sink out(os, func);
  write_all(out, format, columns);
}

}  // namespace bitgraph::io
