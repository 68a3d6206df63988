// Registry of the reduction implementations (reduce, reduce_rows, reduce_columns, degrees): the generic
// core, then each enabled backend's leaf (none yet). Faces include this, never a backend.
#pragma once

#include "bitgraph/ops/detail/reduce_generic.hpp"
