// libFuzzer target: parsing a graph spec (`--graph` on the command line) must return a spec or throw
// invalid_argument_error for any text, and every spec it returns must print and parse back equal to itself, with its
// parameter in the documented range.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "bitgraph/core/error.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/generators/graph_spec.hpp"
#include "fuzz_require.hpp"

using bitgraph::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bitgraph;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gen::graph_spec spec;
  try {
    spec = gen::parse_graph_spec(text);
  } catch (const invalid_argument_error&) {
    return 0;
  }
  switch (spec.source) {
    case gen::graph_source::kronecker:
    case gen::graph_source::uniform_random:
    case gen::graph_source::random_geometric:
      require(spec.parameter >= 1 && spec.parameter <= 31);
      break;
    case gen::graph_source::grid_2d:
      require(spec.parameter >= 1 && spec.parameter <= gen::max_grid_2d_k);
      break;
    case gen::graph_source::grid_3d:
      require(spec.parameter >= 1 && spec.parameter <= gen::max_grid_3d_k);
      break;
    case gen::graph_source::mycielski:
      require(spec.parameter >= gen::min_mycielski_k && spec.parameter <= gen::max_mycielski_k);
      break;
    case gen::graph_source::file:
      require(spec.parameter == 0 && !spec.path.empty());
      break;
  }
  require(gen::parse_graph_spec(gen::to_string(spec)) == spec);
  return 0;
}
