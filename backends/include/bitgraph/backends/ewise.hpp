// Registry of the element-wise implementations (ewise_add, ewise_mult): the generic core, then each enabled
// backend's leaf (none yet: the portable kernels serve every space). Faces include this, never a backend.
#pragma once

#include "bitgraph/ops/detail/ewise_generic.hpp"
