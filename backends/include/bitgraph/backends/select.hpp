// Registry of the select implementations: the generic core, then each enabled backend's leaf (none yet).
// Faces include this, never a backend.
#pragma once

#include "bitgraph/ops/detail/select_generic.hpp"
