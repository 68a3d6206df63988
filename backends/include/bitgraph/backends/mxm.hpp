// Registry of the BMM implementations (bmm_sum, bmm_sum_masked, Boolean mxm): the generic core, then each
// enabled backend's leaf. Faces include this, never a backend; a new backend adds its line here.
#pragma once

#include "bitgraph/ops/detail/mxm_generic.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/mxm.hpp"
#endif
