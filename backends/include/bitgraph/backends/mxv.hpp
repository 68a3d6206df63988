// Registry of the mxv / vxm implementations: the generic core, then each enabled backend's leaf. A face
// includes this header, never a backend; a new backend adds its line here.
#pragma once

#include "bitgraph/ops/detail/mxv_generic.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/mxv.hpp"
#endif
