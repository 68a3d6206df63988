// Registry of the assign / apply implementations: the generic core, then each enabled backend's leaf
// (none yet). Faces include this, never a backend.
#pragma once

#include "bitgraph/ops/detail/assign_generic.hpp"
