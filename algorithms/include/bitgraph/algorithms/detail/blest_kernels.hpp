// The portable kernels of the Blest BFS (algorithms/blest.hpp) as named functors.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// "bitgraph::blest::relabel", one thread per row u: each edge (u, v) becomes (p(u), p(v)) in COO form.
template <class Mem>
struct blest_relabel_functor {
  Kokkos::View<const vertex_t*, Mem> perm;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<vertex_t*, Mem> src;
  Kokkos::View<vertex_t*, Mem> dst;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    for (offset_t p = row_ptr(u); p < row_ptr(u + 1); ++p) {
      src(p) = perm(u);
      dst(p) = perm(col(p));
    }
  }
};

/// "bitgraph::blest::unpermute": levels in the caller's ids from the levels in BVSS ids.
template <class Mem>
struct blest_unpermute_functor {
  Kokkos::View<level_t*, Mem> levels;
  Kokkos::View<const level_t*, Mem> lv;
  Kokkos::View<const vertex_t*, Mem> perm;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const { levels(v) = lv(perm(v)); }
};

}  // namespace bitgraph::detail
