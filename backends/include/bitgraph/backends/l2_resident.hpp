// Registry of the cache-residency hint: the generic core (nothing), then each enabled backend's leaf (CUDA: an
// L2 persisting window on the stream). Faces include this, never a backend.
#pragma once

#include "bitgraph/core/detail/l2_resident_generic.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/l2_resident.hpp"
#endif
