// The portable kernels of `pagerank` (algorithms/pagerank.hpp) as named functors.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// "bitgraph::pagerank::scale": old = r, w = d * r / outdeg (0 for sinks); sums the sinks' rank.
template <class Mem>
struct pagerank_scale_functor {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<double*, Mem> old;
  Kokkos::View<const double*, Mem> r;
  Kokkos::View<double*, Mem> w;
  double d;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, double& acc) const {
    const offset_t deg = row_ptr(v + 1) - row_ptr(v);
    old(v) = r(v);
    if (deg == 0) {
      w(v) = 0.0;
      acc += r(v);
    } else {
      w(v) = d * r(v) / double(deg);
    }
  }
};

/// "bitgraph::pagerank::change": the L1 distance between the new and the old ranks.
template <class Mem>
struct pagerank_change_functor {
  Kokkos::View<const double*, Mem> r;
  Kokkos::View<const double*, Mem> old;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, double& acc) const {
    acc += Kokkos::Experimental::fabs(r(v) - old(v));
  }
};

}  // namespace bitgraph::detail
