// Counts the warp work imbalance of the B2SR pull BMV on a generated graph's structure: the warp kernel
// (backends/cuda/.../bmv_warp.hpp) gives one warp 32 rows, i.e. 32/T tile rows whose lanes walk every
// tile of their tile row, so a warp runs as long as its longest tile row. Host only; no GPU needed.
//
// usage: bitgraph_bmv_imbalance SPEC T [SPEC T ...]   (SPEC a generator spec such as kron:22, T in 4..32)
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/generators/graph_spec.hpp"

int main(int argc, char** argv) {
  using namespace bitgraph;
  if (argc < 3 || argc % 2 == 0) {
    std::fprintf(stderr, "usage: %s SPEC T [SPEC T ...]   (generator specs, e.g. kron:22 4)\n", argv[0]);
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    Kokkos::DefaultHostExecutionSpace exec;
    std::printf("%-16s %3s %14s %14s %12s %12s %10s\n", "graph", "T", "entries", "tiles", "longest row", "warp steps",
                "lane eff.");
    for (int a = 1; a + 1 < argc; a += 2) {
      const int t = std::atoi(argv[a + 1]);
      if (t != 4 && t != 8 && t != 16 && t != 32)
        throw invalid_argument_error(std::string("T must be 4, 8, 16 or 32, not ") + argv[a + 1]);
      csr_build_options o;  // as the CLI builds generated graphs: symmetric, no self-loops
      o.kind = graph_kind::undirected;
      o.remove_self_loops = true;
      const auto g = build_csr(exec, gen::generate(gen::parse_graph_spec(argv[a])), o);
      b2sr_options bo;
      bo.tile_dim = t;
      const auto b = to_b2sr(exec, g, bo);
      const auto ptr = b.tile_row_ptr;  // host memory already
      const std::size_t ntr = ptr.extent(0) - 1;
      const std::size_t per_warp = 32 / t;
      // Warp steps: Σ over warps of the longest tile row in the warp. Even: the same tiles over 32 lanes
      // (each tile occupies t lanes, one per row).
      double steps = 0, tiles = 0, longest = 0;
      for (std::size_t w = 0; w * per_warp < ntr; ++w) {
        double m = 0;
        for (std::size_t r = w * per_warp; r < std::min(ntr, (w + 1) * per_warp); ++r) {
          const double len = double(ptr(r + 1) - ptr(r));
          m = std::max(m, len);
          tiles += len;
        }
        steps += m;
        longest = std::max(longest, m);
      }
      const double even = tiles * t / 32.0;
      std::printf("%-16s %3d %14llu %14.0f %12.0f %12.4g %10.3f\n", argv[a], t, static_cast<unsigned long long>(g.nnz),
                  tiles, longest, steps, steps > 0 ? even / steps : 1.0);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bitgraph_bmv_imbalance: %s\n", e.what());
    return 1;
  }
  return 0;
}
