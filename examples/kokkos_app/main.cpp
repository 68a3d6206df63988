// Using BitGraph from a Kokkos application (docs/kokkos-app.md): the application owns Kokkos (its own
// ScopeGuard) and the execution-space instance; BitGraph adopts the application's CSR Views without
// copying what it can share, runs BFS on that instance and hands back Views in the same memory space.
#include <Kokkos_Core.hpp>

#include <cstdio>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/formats/adopt.hpp"

namespace {

using exec_space = Kokkos::DefaultExecutionSpace;
using mem = exec_space::memory_space;

// The application's graph: an undirected ring of n vertices as a CSR of int offsets and ids, filled on
// the device. Row u lists its two neighbours in ascending order.
void fill_ring(const exec_space& exec, int n, Kokkos::View<int*, mem> row_map, Kokkos::View<int*, mem> entries) {
  Kokkos::parallel_for(
      "app::fill_ring", Kokkos::RangePolicy<exec_space>(exec, 0, n), KOKKOS_LAMBDA(const int u) {
        const int a = (u + n - 1) % n, b = (u + 1) % n;
        row_map(u + 1) = 2 * (u + 1);
        entries(2 * u) = a < b ? a : b;
        entries(2 * u + 1) = a < b ? b : a;
      });
}

int run(const exec_space& exec) {
  const int n = 1000;
  Kokkos::View<int*, mem> row_map("app::row_map", n + 1), entries("app::entries", 2 * n);
  fill_ring(exec, n, row_map, entries);

  // Adopt: checked on the device (offsets, ids < n, sorted rows, symmetry); int arrays are converted once,
  // BitGraph's own types (offset_t offsets, vertex_t ids) would be shared.
  auto g = bitgraph::make_csr_graph(exec, n, Kokkos::View<const int*, mem>(row_map),
                                    Kokkos::View<const int*, mem>(entries), bitgraph::graph_kind::undirected);
  auto bg = bitgraph::make_bit_graph(exec, g);
  auto result = bitgraph::bfs(exec, bg, 0);

  // The levels are a View in `mem`: reduce them on the device, then copy one value to the host.
  const auto levels = result.levels;
  int deepest = 0;
  Kokkos::parallel_reduce(
      "app::deepest", Kokkos::RangePolicy<exec_space>(exec, 0, n),
      KOKKOS_LAMBDA(const int v, int& m) { m = levels(v) > m ? int(levels(v)) : m; }, Kokkos::Max<int>(deepest));
  auto host_levels = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), levels);
  std::printf("ring of %d: depth %d, deepest level %d, level of vertex %d: %d\n", n, result.depth, deepest, n / 2,
              int(host_levels(n / 2)));
  return result.depth == n / 2 && deepest == n / 2 && host_levels(n / 2) == n / 2 ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);  // the application's, not BitGraph's
  // Its own instance: with the CUDA backend a stream of its own; on the host the default instance.
#if defined(KOKKOS_ENABLE_CUDA)
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int rc = run(Kokkos::Cuda(stream));
  cudaStreamDestroy(stream);
#else
  int rc = run(exec_space());
#endif
  return rc;
}
