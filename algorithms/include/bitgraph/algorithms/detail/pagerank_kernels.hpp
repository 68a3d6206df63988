// The portable kernels of `pagerank` (algorithms/pagerank.hpp) as named functors.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/core/detail/kokkos_compat.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// "bitgraph::pagerank::init": r = 1/n, w = d r / outdeg (0 for sinks); sums the sinks' rank.
template <class Mem>
struct pagerank_init_functor {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<double*, Mem> r;
  Kokkos::View<double*, Mem> w;
  double d, r0;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, double& sink) const {
    const offset_t deg = row_ptr(v + 1) - row_ptr(v);
    r(v) = r0;
    w(v) = deg == 0 ? 0.0 : d * r0 / double(deg);
    if (deg == 0) sink += r0;
  }
};

/// The two sums of an iteration: the L1 change and the sinks' new rank.
struct pagerank_sums {
  double change = 0, sink = 0;
};

/// "bitgraph::pagerank::update", fused after the product y = A^T w: r' = teleport + y, the L1 change, the next
/// scaled input w = d r' / outdeg (0 for sinks) and the sinks' rank, in one pass over the vertices.
template <class Mem>
struct pagerank_update_functor {
  using value_type = pagerank_sums;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const double*, Mem> y;
  Kokkos::View<double*, Mem> r;
  Kokkos::View<double*, Mem> w;
  double d, teleport;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, value_type& acc) const {
    const offset_t deg = row_ptr(v + 1) - row_ptr(v);
    const double rn = teleport + y(v);
    acc.change += detail::fabs(rn - r(v));
    r(v) = rn;
    w(v) = deg == 0 ? 0.0 : d * rn / double(deg);
    if (deg == 0) acc.sink += rn;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& acc) const { acc = value_type{}; }
  KOKKOS_INLINE_FUNCTION void join(BITGRAPH_JOIN_VOLATILE value_type& acc,
                                   const BITGRAPH_JOIN_VOLATILE value_type& o) const {
    acc.change = acc.change + o.change;  // C++20 deprecates compound assignment to volatile
    acc.sink = acc.sink + o.sink;
  }
};

}  // namespace bitgraph::detail
