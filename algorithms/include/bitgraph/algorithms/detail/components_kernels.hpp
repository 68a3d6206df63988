// The portable kernels of `connected_components` (algorithms/components.hpp, FastSV) as named functors.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// "bitgraph::cc::init": every vertex is its own parent, grandparent and min-neighbour grandparent.
template <class Mem>
struct cc_init_functor {
  Kokkos::View<vertex_t*, Mem> f;
  Kokkos::View<vertex_t*, Mem> gp;
  Kokkos::View<vertex_t*, Mem> mngp;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    f(v) = v;
    gp(v) = v;
    mngp(v) = v;
  }
};

/// "bitgraph::cc::hook": stochastic hooking, aggressive hooking and shortcutting, by atomic minima.
template <class Mem>
struct cc_hook_functor {
  Kokkos::View<vertex_t*, Mem> f;
  Kokkos::View<const vertex_t*, Mem> mngp;
  Kokkos::View<const vertex_t*, Mem> gp;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    Kokkos::atomic_fetch_min(&f(f(v)), mngp(v));  // stochastic hooking
    Kokkos::atomic_fetch_min(&f(v), mngp(v));     // aggressive hooking
    Kokkos::atomic_fetch_min(&f(v), gp(v));       // shortcutting
  }
};

/// "bitgraph::cc::grandparents": gp = f(f); counts the grandparents that changed.
template <class Mem>
struct cc_grandparents_functor {
  Kokkos::View<const vertex_t*, Mem> f;
  Kokkos::View<vertex_t*, Mem> gp;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, offset_t& acc) const {
    const vertex_t ggp = f(f(v));
    if (ggp != gp(v)) {
      gp(v) = ggp;
      ++acc;
    }
  }
};

/// "bitgraph::cc::flatten": one pointer-jumping pass, f = f(f); counts the pointers that moved.
template <class Mem>
struct cc_flatten_functor {
  Kokkos::View<vertex_t*, Mem> f;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, offset_t& acc) const {
    const vertex_t p = f(v), pp = f(p);
    if (p != pp) {
      f(v) = pp;
      ++acc;
    }
  }
};

/// "bitgraph::cc::count": counts the roots (f(v) = v), one per component.
template <class Mem>
struct cc_count_functor {
  Kokkos::View<const vertex_t*, Mem> f;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, vertex_t& acc) const { acc += f(v) == v ? 1 : 0; }
};

}  // namespace bitgraph::detail
