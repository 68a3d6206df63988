// Bits per tile of a generated graph's B2SR under each ordering: locality decides whether one bit per edge
// pays (a tile costs its index and T words whatever it holds), so this is the number to read before and
// after a reordering. Host only; counts tiles exactly from the (permuted) CSR.
//
// usage: bitgraph_tile_density SPEC [SPEC ...]   (generator specs, e.g. kron:18 grid2d:512)
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "bitgraph/formats/csr.hpp"
#include "bitgraph/generators/graph_spec.hpp"
#include "bitgraph/reorder/reorder.hpp"

namespace {

/// Non-empty T×T tiles of `g`.
std::uint64_t count_tiles(const bitgraph::host_csr& g, int t) {
  std::uint64_t tiles = 0;
  std::vector<bitgraph::vertex_t> cols;
  for (std::uint64_t r0 = 0; r0 < g.n; r0 += t) {
    cols.clear();
    const std::uint64_t r1 = std::min<std::uint64_t>(g.n, r0 + t);
    for (auto k = g.row_ptr[r0]; k < g.row_ptr[r1]; ++k) cols.push_back(g.col_idx[k] / t);
    std::sort(cols.begin(), cols.end());
    tiles += std::unique(cols.begin(), cols.end()) - cols.begin();
  }
  return tiles;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace bitgraph;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SPEC [SPEC ...]   (generator specs, e.g. kron:18)\n", argv[0]);
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    Kokkos::DefaultHostExecutionSpace exec;
    std::printf("%-14s %-8s %9s %10s %10s %10s %10s\n", "graph", "order", "seconds", "bits/t4", "bits/t8", "bits/t16",
                "bits/t32");
    for (int a = 1; a < argc; ++a) {
      csr_build_options o;  // as the CLI builds generated graphs: symmetric, no self-loops
      o.kind = graph_kind::undirected;
      o.remove_self_loops = true;
      const auto g = to_host_csr(build_csr(exec, gen::generate(gen::parse_graph_spec(argv[a])), o));
      for (auto m : {reorder::reorder_method::none, reorder::reorder_method::random, reorder::reorder_method::degree,
                     reorder::reorder_method::rcm}) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto p = reorder::compute(g, m);
        const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const auto h = reorder::permute(g, p);
        std::printf("%-14s %-8s %9.3f", argv[a], std::string(reorder::to_string(m)).c_str(), sec);
        for (int t : {4, 8, 16, 32})
          std::printf(" %10.2f", double(h.nnz()) / double(std::max<std::uint64_t>(1, count_tiles(h, t))));
        std::printf("\n");
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
