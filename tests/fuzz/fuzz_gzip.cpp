// libFuzzer target: a graph file of any bytes, read through the path the command line takes (format from the content,
// gzip inflated): every reader must accept it or throw parse_error / size_error / bitgraph::error, never crash or
// hang, and a gzip file must read as the same graph as its inflated bytes would. Inputs are written to a file because
// gzip is only detected on files; most seeds are gzip members (one, several, truncated), so mutations hit inflation.
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/dimacs.hpp"
#include "bitgraph/io/edge_list_text.hpp"
#include "bitgraph/io/graph_cache.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "fuzz_require.hpp"

namespace {

using bitgraph::fuzz::require;

// What a file reads as (ok false where it is refused).
struct reading {
  bool ok = false;
  bitgraph::edge_list el;
  bitgraph::host_csr csr;
};

reading read_file(const std::string& path) {
  using namespace bitgraph;
  reading r;
  try {
    switch (io::detect_input_format(path)) {
      case io::input_format::matrix_market:
        r.el = io::read_matrix_market(path);
        break;
      case io::input_format::edge_list:
        r.el = io::read_edge_list(path);
        break;
      case io::input_format::dimacs:
        r.el = io::read_dimacs(path);
        break;
      case io::input_format::graph_cache:
        r.csr = io::read_graph_cache_file(path);
        break;
    }
    r.ok = true;
  } catch (const error&) {  // parse_error and size_error derive from it; any other type escapes: a finding
  }
  return r;
}

const std::string& scratch() {
  static const std::string prefix = [] {
    const char* tmp = std::getenv("TMPDIR");
    return std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/bitgraph-fuzz-gzip-" +
           std::to_string(::getpid());
  }();
  return prefix;
}

void write(const std::string& path, const char* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
  require(static_cast<bool>(out));
}

bool same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (!(a[k] == b[k] || (std::isnan(a[k]) && std::isnan(b[k])))) return false;
  return true;
}

bool same(const reading& a, const reading& b) {
  return a.ok == b.ok && a.el.num_vertices == b.el.num_vertices && a.el.storage == b.el.storage &&
         a.el.src == b.el.src && a.el.dst == b.el.dst && same(a.el.weights, b.el.weights) && a.csr.n == b.csr.n &&
         a.csr.row_ptr == b.csr.row_ptr && a.csr.col_idx == b.csr.col_idx && same(a.csr.weights, b.csr.weights);
}

// The file inflated by zlib's own gz reader (the oracle); false where zlib reports an error.
bool gunzip(const std::string& path, std::string& out) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  char buf[1 << 14];
  int got = 0;
  while ((got = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(got));
  int code = Z_OK;
  gzerror(f, &code);
  gzclose(f);
  return got == 0 && code == Z_OK;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The extension picks the reader where the content does not (no banner, no cache magic): one name per size class.
  static const char* const names[] = {".el", ".gr", ".mtx", ".txt"};
  const std::string path = scratch() + names[size % 4];
  write(path, reinterpret_cast<const char*>(data), size);
  const reading r = read_file(path);
  // Accepted gzip data must be data zlib's reader accepts too, and read as its inflated bytes do (same name, so the
  // same reader by extension).
  if (r.ok && size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
    std::string plain;
    require(gunzip(path, plain));
    write(path, plain.data(), plain.size());
    require(same(r, read_file(path)));
  }
  std::remove(path.c_str());
  return 0;
}
