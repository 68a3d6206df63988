// Registry of the CSR builder's row sort: the generic core, then each enabled backend's leaf (CUDA: CUB's
// segmented sort). formats/csr.hpp includes this, never a backend.
#pragma once

#include "bitgraph/formats/detail/csr_generic.hpp"

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/csr.hpp"
#endif
