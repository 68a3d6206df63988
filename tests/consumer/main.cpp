// Consumer of BitGraph: builds a graph, converts it to B2SR, runs BFS and checks the answer.
#include <Kokkos_Core.hpp>

#include <cstdio>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/core/version_info.hpp"
#include "bitgraph/generators/generators.hpp"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using namespace bitgraph;
  Kokkos::DefaultHostExecutionSpace exec;
  bitgraph::csr_build_options o;
  o.kind = graph_kind::undirected;
  auto g = make_bit_graph(exec, build_csr(exec, gen::grid_2d(16), o), {8});
  auto r = bfs(exec, g, 0);
  std::printf("bitgraph %s: grid 16x16 BFS depth %d, reached %llu\n", std::string(library_version()).c_str(), r.depth,
              static_cast<unsigned long long>(r.reached));
  return (r.depth == 30 && r.reached == 256) ? 0 : 1;
}
