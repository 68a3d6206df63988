// libFuzzer target: the Matrix Market reader must accept or reject (parse_error / size_error) any input,
// and whatever it accepts must be a consistent edge list that survives a write/read round trip.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "fuzz_require.hpp"

namespace {

using bitgraph::fuzz::require;

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void check(const bitgraph::edge_list& el, const bitgraph::io::mm_header& h, const bitgraph::io::mm_read_options& opts) {
  using namespace bitgraph;
  require(el.src.size() == el.dst.size());
  require(el.weights.empty() || el.weights.size() == el.src.size());
  require(el.num_vertices <= std::min(opts.max_vertices, max_vertices - 1));
  require(el.size() == h.entries);
  for (std::size_t k = 0; k < el.size(); ++k) require(el.src[k] < el.num_vertices && el.dst[k] < el.num_vertices);

  // Round trip: the writer's output reads back as the same entries (moved to the lower triangle, and
  // negated when moved, for symmetric and skew-symmetric storage).
  std::ostringstream out;
  io::write_matrix_market(out, el);
  std::istringstream in(out.str());
  io::mm_read_options again;
  again.allow_duplicates = opts.allow_duplicates;
  const edge_list back = io::read_matrix_market(in, "round trip", again);
  require(back.num_vertices == el.num_vertices);
  require(back.storage == el.storage);
  require(back.size() == el.size());
  // Unweighted skew-symmetric lists (values skipped on reading) are written with values +-1.
  const bool skew = el.storage == edge_storage::skew_symmetric;
  const bool weighted = el.weighted() || (skew && !el.src.empty());
  require(back.weighted() == weighted);
  for (std::size_t k = 0; k < el.size(); ++k) {
    vertex_t u = el.src[k], v = el.dst[k];
    double w = el.weighted() ? el.weights[k] : 1.0;
    if (el.storage != edge_storage::general && u < v) {
      std::swap(u, v);
      if (skew) w = -w;
    }
    require(back.src[k] == u && back.dst[k] == v);
    if (weighted) require(same(back.weights[k], w));
  }
}

void run(const std::string& text, const bitgraph::io::mm_read_options& opts) {
  std::istringstream in(text);
  bitgraph::io::mm_header h;
  try {
    const auto el = bitgraph::io::read_matrix_market(in, "fuzz", opts, &h);
    check(el, h, opts);
  } catch (const bitgraph::parse_error&) {
  } catch (const bitgraph::size_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  run(text, {});
  bitgraph::io::mm_read_options lenient;
  lenient.allow_missing_banner = true;
  lenient.pad_rectangular = true;
  lenient.allow_duplicates = true;
  lenient.read_values = (size % 2) == 0;
  lenient.max_vertices = 1u << 20;
  run(text, lenient);
  return 0;
}
