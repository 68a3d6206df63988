// libFuzzer target: the DIMACS shortest-path reader must accept or reject (parse_error / size_error) any input, and
// whatever it accepts must be a consistent directed edge list that reads back the same from its own DIMACS text.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/dimacs.hpp"
#include "fuzz_require.hpp"

namespace {

using bitgraph::fuzz::require;

void run(const std::string& text, const bitgraph::io::dimacs_read_options& opts) {
  using namespace bitgraph;
  std::istringstream in(text);
  edge_list el;
  try {
    el = io::read_dimacs(in, "fuzz", opts);
  } catch (const parse_error&) {
    return;
  } catch (const size_error&) {
    return;
  }
  require(el.src.size() == el.dst.size());
  require(el.storage == edge_storage::general);
  require(el.num_vertices <= std::min(opts.max_vertices, max_vertices - 1));
  require(opts.read_weights ? el.weights.size() == el.src.size() : el.weights.empty());
  for (std::size_t k = 0; k < el.size(); ++k) require(el.src[k] < el.num_vertices && el.dst[k] < el.num_vertices);
  bool finite = true;
  for (double w : el.weights) finite = finite && std::isfinite(w);
  require(finite || opts.allow_non_finite);
  if (!finite) return;  // "inf" / "nan" need not read back as numbers

  // Round trip: the arcs written back as DIMACS text (shortest round-trip form of each weight) read back the same.
  std::string out = fmt::format("p sp {} {}\n", el.num_vertices, el.size());
  for (std::size_t k = 0; k < el.size(); ++k)
    out += fmt::format("a {} {} {}\n", std::uint64_t(el.src[k]) + 1, std::uint64_t(el.dst[k]) + 1,
                       el.weights.empty() ? 1.0 : el.weights[k]);
  std::istringstream back_in(out);
  io::dimacs_read_options again = opts;
  again.max_vertices_per_entry = 0;  // the bound was checked against the first reading's arcs
  const edge_list back = io::read_dimacs(back_in, "round trip", again);
  require(back.num_vertices == el.num_vertices && back.src == el.src && back.dst == el.dst);
  require(back.weights == el.weights);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  run(text, {});
  bitgraph::io::dimacs_read_options other;
  other.read_weights = (size % 2) != 0;
  other.allow_non_finite = (size % 3) == 0;
  other.max_vertices_per_entry = size % 5;
  run(text, other);
  bitgraph::io::dimacs_read_options capped;
  capped.max_vertices = 1000;
  run(text, capped);
  return 0;
}
