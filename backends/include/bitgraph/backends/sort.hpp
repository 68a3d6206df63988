// Registry of the sort implementations: the generic core, then each enabled backend's leaf (CUDA: CUB's
// radix sort). Faces include this, never a backend.
#pragma once

#include "bitgraph/core/detail/sort_generic.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/sort.hpp"
#endif
