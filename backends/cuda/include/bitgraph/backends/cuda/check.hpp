// The one way CUDA runtime results are checked in the backend: a failure throws `bitgraph::error` naming
// the op, what was being done, and CUDA's own message.
#pragma once

#include <cuda_runtime.h>

#include "bitgraph/core/error.hpp"

namespace bitgraph::cuda {

/// Throws `error("bitgraph::<func>: <what>: <CUDA message>")` unless `e` is `cudaSuccess`.
inline void check(cudaError_t e, const char* func, const char* what) {
  if (e != cudaSuccess) throw error(detail::concat("bitgraph::", func, ": ", what, ": ", cudaGetErrorString(e)));
}

}  // namespace bitgraph::cuda

/// Checks a CUDA runtime call (or a launch, with `cudaGetLastError()`) made on behalf of op `func`.
#define BITGRAPH_CUDA_CHECK(func, what, call) ::bitgraph::cuda::check((call), (func), (what))
