// libFuzzer target: the edge-list reader must accept or reject (parse_error / size_error) any input, and
// whatever it accepts must be consistent and survive a write/read round trip.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/edge_list_text.hpp"
#include "fuzz_require.hpp"

namespace {

using bitgraph::fuzz::require;

void run(const std::string& text, const bitgraph::io::edge_list_read_options& opts) {
  using namespace bitgraph;
  std::istringstream in(text);
  edge_list el;
  try {
    el = io::read_edge_list(in, "fuzz", opts);
  } catch (const parse_error&) {
    return;
  } catch (const size_error&) {
    return;
  }
  require(el.src.size() == el.dst.size());
  require(el.weights.empty() || el.weights.size() == el.src.size());
  require(el.num_vertices <= std::min(opts.max_vertices, max_vertices - 1));
  for (std::size_t k = 0; k < el.size(); ++k) require(el.src[k] < el.num_vertices && el.dst[k] < el.num_vertices);
  if (opts.num_vertices) require(el.num_vertices == *opts.num_vertices);

  std::ostringstream out;
  io::edge_list_write_options w;
  w.one_based = opts.one_based;
  io::write_edge_list(out, el, w);
  std::istringstream back_in(out.str());
  io::edge_list_read_options again = opts;
  again.num_vertices = el.num_vertices;
  const edge_list back = io::read_edge_list(back_in, "round trip", again);
  require(back.src == el.src && back.dst == el.dst && back.num_vertices == el.num_vertices);
  require(back.weights.size() == el.weights.size());
  for (std::size_t k = 0; k < el.weights.size(); ++k) {
    require(back.weights[k] == el.weights[k] || (std::isnan(back.weights[k]) && std::isnan(el.weights[k])));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  run(text, {});
  bitgraph::io::edge_list_read_options other;
  other.one_based = true;
  other.num_vertices = size % 64;
  other.read_weights = (size % 3) != 0;
  run(text, other);
  bitgraph::io::edge_list_read_options capped;
  capped.max_vertices = 1000;
  run(text, capped);
  return 0;
}
