// Registry of the queue advance implementations: the generic core, then each enabled backend's leaf (CUDA: one
// persistent cooperative kernel for a batch of levels). Faces include this, never a backend.
#pragma once

#include "bitgraph/ops/detail/advance_generic.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/advance.hpp"
#endif
