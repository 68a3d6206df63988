// The kernel path an algorithm forwards to a step that has only the portable kernel.
#pragma once

#include "bitgraph/core/execution.hpp"

namespace bitgraph::detail {

/// The `op_algorithm` to pass to a step that has no CUDA kernel of its own (the B2SR push products, the
/// CSR matrix-vector products) when the algorithm was asked for `path`: only `generic` is forced on such a
/// step; `automatic` and the CUDA paths, which apply to the algorithm's other steps (pulls, SpMSpV, BMM),
/// become `automatic` there, since forcing a path a step does not offer throws `unsupported_error`.
constexpr op_algorithm portable_step_path(op_algorithm path) noexcept {
  return path == op_algorithm::generic ? op_algorithm::generic : op_algorithm::automatic;
}

}  // namespace bitgraph::detail
