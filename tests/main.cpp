// Catch2 entry point for BitGraph's tests: Kokkos lives exactly as long as the test session.
#include <Kokkos_Core.hpp>
#include <catch2/catch_session.hpp>

#include <cstdlib>

int main(int argc, char* argv[]) {
  // Unit tests want unpinned OpenMP threads; setting it also keeps Kokkos from printing its
  // OMP_PROC_BIND advice into the test listing that ctest parses.
  setenv("OMP_PROC_BIND", "false", 0);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return Catch::Session().run(argc, argv);
}
