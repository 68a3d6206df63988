// Registry of the SpMSpV implementations: the generic core, then each enabled backend's leaf (none of its
// own: on CUDA its fast path is the radix sort's CUB leaf, registered in backends/sort.hpp). Faces include
// this, never a backend.
#pragma once

#include "bitgraph/ops/detail/spmspv_generic.hpp"
