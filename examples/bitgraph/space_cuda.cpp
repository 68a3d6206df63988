// Instantiates the bitgraph commands for Kokkos::Cuda (one translation unit per space compiles in parallel).
#include "bench.hpp"
#include "commands.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
namespace bitgraph::cli {
template int run_info<Kokkos::Cuda>(const Kokkos::Cuda&, const options&);
template int run_algorithms<Kokkos::Cuda>(const Kokkos::Cuda&, const options&);
template int run_bench<Kokkos::Cuda>(const Kokkos::Cuda&, const options&);
template int run_convert<Kokkos::Cuda>(const Kokkos::Cuda&, const options&);
}  // namespace bitgraph::cli
#endif
