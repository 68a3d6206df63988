// The portable kernels of `sssp` (algorithms/sssp.hpp) as named functors.
#pragma once

#include <Kokkos_Core.hpp>

#include <cfloat>
#include <cstdint>

#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/vectors.hpp"

namespace bitgraph::detail {

/// "bitgraph::sssp::check_weights": counts the edge weights SSSP cannot take: negative, NaN or infinite
/// (every comparison with NaN is false, so NaN fails the range test).
template <class Mem>
struct sssp_check_weights_functor {
  Kokkos::View<const double*, Mem> weights;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p, offset_t& bad) const {
    const double w = weights(p);
    bad += (w >= 0.0 && w <= DBL_MAX) ? 0 : 1;
  }
};

/// "bitgraph::sssp::count_non_finite": on the error path, how many of the bad weights are NaN or infinite
/// (the rest are negative), for the message.
template <class Mem>
struct sssp_count_non_finite_functor {
  Kokkos::View<const double*, Mem> weights;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p, offset_t& bad) const {
    const double w = weights(p);
    bad += (w >= -DBL_MAX && w <= DBL_MAX) ? 0 : 1;
  }
};

/// "bitgraph::sssp::relax": keeps every SpMSpV candidate distance that improves, marking its vertex.
template <class Mem>
struct sssp_relax_functor {
  Kokkos::View<const vertex_t*, Mem> indices;
  Kokkos::View<const double*, Mem> values;
  Kokkos::View<double*, Mem> dist;
  Kokkos::View<std::uint32_t*, Mem> improved;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    const vertex_t v = indices(q);
    if (values(q) < dist(v)) {
      dist(v) = values(q);  // indices are unique: no race
      bitmap_set_atomic(improved, v);
    }
  }
};

/// "bitgraph::sssp::frontier_values": the next frontier carries its vertices' distances.
template <class Mem>
struct sssp_frontier_values_functor {
  Kokkos::View<double*, Mem> values;
  Kokkos::View<const vertex_t*, Mem> indices;
  Kokkos::View<const double*, Mem> dist;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const { values(q) = dist(indices(q)); }
};

/// "bitgraph::sssp::relax_bits": keeps the improvements of the unit-weight product `t` in `dist` and as the
/// next input `x` (infinity elsewhere); counts them.
template <class Mem>
struct sssp_relax_bits_functor {
  Kokkos::View<const double*, Mem> t;
  Kokkos::View<double*, Mem> dist;
  Kokkos::View<double*, Mem> x;
  double inf;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, offset_t& acc) const {
    if (t(v) < dist(v)) {
      dist(v) = t(v);
      x(v) = t(v);
      ++acc;
    } else {
      x(v) = inf;
    }
  }
};

/// "bitgraph::sssp::levels_to_dist": unit-weight distances from BFS levels (infinity where unreached).
template <class Mem>
struct sssp_levels_to_dist_functor {
  Kokkos::View<const level_t*, Mem> levels;
  Kokkos::View<double*, Mem> dist;
  double inf;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    dist(v) = levels(v) == unreached_level ? inf : double(levels(v));
  }
};

}  // namespace bitgraph::detail
