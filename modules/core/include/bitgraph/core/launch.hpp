// Launch-shape helpers shared by the portable kernels: how many threads a team gets and how wide its
// vector lanes are on each kind of execution space.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/core/execution.hpp"

namespace bitgraph::detail {

/// Team threads and vector lanes for a kernel whose inner (vector) loop has `lanes` natural lanes.
/// On CUDA a team is ~256 threads of `min(lanes, 32)`-wide vector groups; host spaces run vector loops
/// serially, so a team is one thread there.
struct team_shape {
  int team_size = 1;
  int vector_length = 1;
};

template <class ExecSpace>
team_shape shape_for(int lanes, int threads_per_team = 256) {
  team_shape s;
  if constexpr (is_cuda_space_v<ExecSpace>) {
    int v = 1;
    while (v < lanes && v < 32) v *= 2;
    s.vector_length = v;
    s.team_size = threads_per_team / v > 0 ? threads_per_team / v : 1;
  } else {
    (void)lanes;
    (void)threads_per_team;
  }
  return s;
}

}  // namespace bitgraph::detail
