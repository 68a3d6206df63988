// Instantiates the bitgraph commands for Kokkos::OpenMP (one translation unit per space compiles in parallel).
#include "bench.hpp"
#include "commands.hpp"

#if defined(KOKKOS_ENABLE_OPENMP)
namespace bitgraph::cli {
template int run_info<Kokkos::OpenMP>(const Kokkos::OpenMP&, const options&);
template int run_algorithms<Kokkos::OpenMP>(const Kokkos::OpenMP&, const options&);
template int run_bench<Kokkos::OpenMP>(const Kokkos::OpenMP&, const options&);
template int run_convert<Kokkos::OpenMP>(const Kokkos::OpenMP&, const options&);
}  // namespace bitgraph::cli
#endif
