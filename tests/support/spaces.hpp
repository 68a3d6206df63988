// The execution spaces every templated test is instantiated for, and host-copy helpers for checks.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/core/execution.hpp"

#include <string>
#include <vector>

// Test names carry the space (e.g. "csr round trip - Kokkos::Cuda"); ctest selects host and gpu runs by
// that suffix (tests/CMakeLists.txt).
//
// The cuda flavour instantiates the tests for Kokkos::Cuda only, to keep its build time down; the host
// flavour covers Serial and OpenMP with the same portable code, and `bitgraph run --space serial` covers
// Serial in the cuda flavour.
// BITGRAPH_TEST_SERIAL_ONLY (CMake option of the same name) keeps Serial alone: the sanitizer build,
// where a second host space doubles compile and run time and shows ASan and UBSan nothing new.
#if defined(BITGRAPH_TEST_SERIAL_ONLY)
#define BITGRAPH_TEST_SPACES Kokkos::Serial
#elif defined(KOKKOS_ENABLE_CUDA)
#define BITGRAPH_TEST_SPACES Kokkos::Cuda
#elif defined(KOKKOS_ENABLE_OPENMP)
#define BITGRAPH_TEST_SPACES Kokkos::Serial, Kokkos::OpenMP
#else
#define BITGRAPH_TEST_SPACES Kokkos::Serial
#endif

namespace bitgraph::test {

/// The kernel paths a test should force on `Exec`: the portable one everywhere, plus the CUDA ones on
/// Cuda (tests skip combinations a path does not support).
template <class Exec>
std::vector<op_algorithm> kernel_paths() {
  if constexpr (is_cuda_space_v<Exec>)
    return {op_algorithm::automatic, op_algorithm::generic, op_algorithm::cuda_warp};
  else
    return {op_algorithm::automatic};
}

/// Copies a 1-D view (any memory space) into a std::vector.
template <class View>
std::vector<typename View::non_const_value_type> to_vector(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, v);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

/// Copies a std::vector into a new view in `MemorySpace`.
template <class MemorySpace, class T>
Kokkos::View<T*, MemorySpace> to_view(const std::vector<T>& v, const char* label = "test") {
  Kokkos::View<T*, MemorySpace> out(std::string(label), v.size());
  Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(v.data(), v.size());
  Kokkos::deep_copy(out, h);
  return out;
}

}  // namespace bitgraph::test
