// BitGraph quickstart: read a Matrix Market file (or generate a 64 x 64 grid), build the bit graph, run
// BFS and PageRank on Kokkos' default execution space and print a few numbers from the host.
//   quickstart [graph.mtx]
#include <Kokkos_Core.hpp>

#include <cstdio>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/pagerank.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/io/matrix_market.hpp"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using namespace bitgraph;
  Kokkos::DefaultExecutionSpace exec;

  // An edge list on the host: symmetric files are mirrored by the CSR builder; the grid is undirected.
  csr_build_options build;
  if (argc < 2) build.kind = graph_kind::undirected;
  const edge_list edges = argc > 1 ? io::read_matrix_market(argv[1]) : gen::grid_2d(64);
  const auto g = make_bit_graph(exec, build_csr(exec, edges, build));  // CSR, then B2SR bit tiles

  const auto levels = bfs(exec, g, 0);
  const auto pr = pagerank(exec, g);
  const auto level = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, levels.levels);
  const auto rank = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, pr.rank);

  double sum = 0;
  vertex_t top = 0;
  for (vertex_t v = 0; v < g.n(); ++v) {
    sum += rank(v);
    if (rank(v) > rank(top)) top = v;
  }
  std::printf("graph: %lld vertices, %lld stored entries\n", (long long)g.n(), (long long)g.csr.nnz);
  std::printf("bfs from 0: reached %lld of %lld, depth %d, level of the last vertex %d\n", (long long)levels.reached,
              (long long)g.n(), levels.depth, (int)level(g.n() - 1));
  std::printf("pagerank: %d iterations, rank sum %.6f, top vertex %lld (rank %.6f)\n", pr.iterations, sum,
              (long long)top, rank(top));
  return 0;
}
