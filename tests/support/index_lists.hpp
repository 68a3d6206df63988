// Index lists of the matrix assign and extract tests on the device.
#pragma once

#include <Kokkos_Core.hpp>

#include <vector>

#include "bitgraph/ops/matrix_assign.hpp"
#include "support/spaces.hpp"

namespace bitgraph::test {

/// `all_indices{}` when `all`, else the view of `v` on Exec's memory space.
template <class Exec>
index_list<memory_space_t<Exec>> device_indices(const std::vector<vertex_t>& v, bool all) {
  if (all) return all_indices{};
  return Kokkos::View<const vertex_t*, memory_space_t<Exec>>(to_view<memory_space_t<Exec>>(v, "test::indices"));
}

}  // namespace bitgraph::test
