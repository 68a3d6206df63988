// Registry of the BVSS traversal implementations: the generic core, then each enabled backend's leaf (CUDA:
// Blest's persistent tensor-core kernel). Faces include this, never a backend.
#pragma once

#include "bitgraph/ops/detail/bvss_bfs_generic.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/bvss_bfs.hpp"
#endif
