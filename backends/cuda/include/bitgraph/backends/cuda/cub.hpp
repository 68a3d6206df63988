// CUB's two-phase calling convention in one place: ask the algorithm for its temporary storage, allocate
// it (a checked Kokkos allocation, freed on return), run it on the execution space's stream.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>

#include "bitgraph/backends/cuda/check.hpp"
#include "bitgraph/core/execution.hpp"

namespace bitgraph::cuda {

/// `call(void* temp, std::size_t& bytes)` forwards to one CUB device algorithm (with the stream of the
/// execution space the caller uses); it is called once to size the storage and once to run.
template <class Call>
void cub_two_phase(const char* func, const char* what, Call&& call) {
  // CUB reports (and clears) an error an earlier launch left pending as its own: name it for what it is.
  if (const cudaError_t pending = cudaPeekAtLastError(); pending != cudaSuccess) {
    (void)cudaGetLastError();
    throw error(detail::concat("bitgraph::", func, ": ", what,
                               ": a CUDA error left pending by an earlier call: ", cudaGetErrorString(pending)));
  }
  std::size_t bytes = 0;
  BITGRAPH_CUDA_CHECK(func, what, call(nullptr, bytes));
  auto temp = allocate_view<Kokkos::View<char*, Kokkos::CudaSpace>>("bitgraph::cub::temp_storage", bytes + 1, false);
  BITGRAPH_CUDA_CHECK(func, what, call(static_cast<void*>(temp.data()), bytes));
}

}  // namespace bitgraph::cuda
