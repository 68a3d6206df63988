// Instantiates the bitgraph commands for Kokkos::Serial (one translation unit per space compiles in parallel).
#include "bench.hpp"
#include "commands.hpp"

#if defined(KOKKOS_ENABLE_SERIAL)
namespace bitgraph::cli {
template int run_info<Kokkos::Serial>(const Kokkos::Serial&, const options&);
template int run_algorithms<Kokkos::Serial>(const Kokkos::Serial&, const options&);
template int run_bench<Kokkos::Serial>(const Kokkos::Serial&, const options&);
template int run_convert<Kokkos::Serial>(const Kokkos::Serial&, const options&);
}  // namespace bitgraph::cli
#endif
