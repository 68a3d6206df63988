// The portable kernels of `connected_components` (algorithms/components.hpp: Afforest and FastSV) as named
// functors.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/execution.hpp"
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

// ---- Afforest (Sutton, Ben-Nun, Barak 2018; GAP's cc.cc) over the CSR -----------------------------------
//
// comp holds parent pointers with comp(x) <= x at all times (a hook puts the larger root under a smaller
// id, path halving moves a pointer to an ancestor), so every tree's root is its smallest vertex. Links race
// freely: a root changes only through a compare-exchange, a non-root never becomes a root again (so the
// halving stores, made only on non-roots, cannot undo a hook), and the loads and stores of comp in
// `cc_find` and `cc_link` are volatile, so a pointer another thread moved is seen (on CUDA a plain load
// may be served from a stale L1 line).

/// The root of x's tree, halving the path on the way (every vertex passed points to its grandparent).
template <class Mem>
KOKKOS_INLINE_FUNCTION vertex_t cc_find(const Kokkos::View<vertex_t*, Mem>& comp, vertex_t x) {
  vertex_t p = Kokkos::volatile_load(&comp(x));
  while (p != x) {
    const vertex_t gp = Kokkos::volatile_load(&comp(p));
    if (gp == p) return p;
    *static_cast<volatile vertex_t*>(&comp(x)) = gp;
    x = gp;
    p = Kokkos::volatile_load(&comp(x));
  }
  return x;
}

/// Joins the trees of u and v: finds both roots and hooks the larger under the smaller by one
/// compare-exchange; when another thread hooked that root first, goes on from where it now points.
template <class Mem>
KOKKOS_INLINE_FUNCTION void cc_link(const Kokkos::View<vertex_t*, Mem>& comp, const vertex_t u, const vertex_t v) {
  vertex_t r1 = cc_find(comp, u);
  vertex_t r2 = cc_find(comp, v);
  while (r1 != r2) {
    const vertex_t high = r1 > r2 ? r1 : r2;
    const vertex_t low = r1 > r2 ? r2 : r1;
    const vertex_t prev = Kokkos::atomic_compare_exchange(&comp(high), high, low);
    if (prev == high) return;
    r1 = cc_find(comp, prev);
    r2 = cc_find(comp, low);
  }
}

/// "bitgraph::cc::afforest_init": every vertex is its own root.
template <class Mem>
struct cc_afforest_init_functor {
  Kokkos::View<vertex_t*, Mem> comp;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const { comp(v) = v; }
};

/// "bitgraph::cc::afforest_link_sample": neighbour round r links every vertex to its r-th neighbour in row
/// order (rows shorter than r + 1 skip the round). One thread per vertex, constant work.
template <class Mem>
struct cc_link_sample_functor {
  Kokkos::View<vertex_t*, Mem> comp;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  offset_t r;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    const offset_t pos = row_ptr(u) + r;
    if (pos < row_ptr(u + 1)) cc_link(comp, u, col(pos));
  }
};

/// "bitgraph::cc::afforest_compress": pointer jumping until comp(v) is a root. Run while no link is in
/// flight, so roots stay roots and every vertex ends pointing at its root; each step writes, which
/// shortens the paths of the vertices below v too (deep trees flatten in a few jumps each).
template <class Mem>
struct cc_compress_functor {
  Kokkos::View<vertex_t*, Mem> comp;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    vertex_t p = comp(v);
    while (true) {
      const vertex_t pp = comp(p);
      if (pp == p) return;
      comp(v) = pp;
      p = pp;
    }
  }
};

/// "bitgraph::cc::afforest_sample": the label of a pseudo-random vertex (splitmix64 of the sample index,
/// fixed seed: runs repeat exactly) per sample slot.
template <class Mem>
struct cc_sample_functor {
  Kokkos::View<const vertex_t*, Mem> comp;
  Kokkos::View<vertex_t*, Mem> sample;
  vertex_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    std::uint64_t z = std::uint64_t(i) * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    sample(i) = comp(vertex_t(z % n));
  }
};

/// Rows longer than this go to the team kernel (`cc_link_heavy_functor`) in the final link phase.
inline constexpr offset_t cc_heavy_row = 32;

/// "bitgraph::cc::afforest_link_rest": the final link phase, one thread per vertex. A vertex in the
/// sampled giant component `giant` is skipped; any other links its out-neighbours from position `skip`
/// on and, for a directed graph (`in_row_ptr` not empty), all its in-neighbours. An edge whose one end is
/// in the giant component is thereby linked from the other end, and one with both ends in it needs no
/// link. Rows longer than `cc_heavy_row` are queued for the team kernel instead (out-rows in `heavy`,
/// in-rows in `heavy_in`, counts in `heavy_count(0)` and `(1)`).
template <class Mem>
struct cc_link_rest_functor {
  Kokkos::View<vertex_t*, Mem> comp;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<const offset_t*, Mem> in_row_ptr;
  Kokkos::View<const vertex_t*, Mem> in_col;
  Kokkos::View<vertex_t*, Mem> heavy;
  Kokkos::View<vertex_t*, Mem> heavy_in;
  Kokkos::View<offset_t*, Mem> heavy_count;
  offset_t skip;
  vertex_t giant;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    if (comp(u) == giant) return;
    const offset_t b = row_ptr(u) + skip, e = row_ptr(u + 1);
    if (b < e) {
      if (e - b > cc_heavy_row)
        heavy(atomic_fetch_add_offset(&heavy_count(0), 1)) = u;
      else
        for (offset_t p = b; p < e; ++p) cc_link(comp, u, col(p));
    }
    if (in_row_ptr.extent(0) == 0) return;
    const offset_t ib = in_row_ptr(u), ie = in_row_ptr(u + 1);
    if (ie - ib > cc_heavy_row)
      heavy_in(atomic_fetch_add_offset(&heavy_count(1), 1)) = u;
    else
      for (offset_t p = ib; p < ie; ++p) cc_link(comp, u, in_col(p));
  }
};

/// "bitgraph::cc::afforest_link_heavy": the queued long rows of `cc_link_rest_functor`, a team thread
/// per row and its vector lanes over the row (strided over the queue: the league is fixed before the
/// queue's length is known). `which` 0 takes the out-rows from position `skip`, 1 the in-rows whole.
template <class ExecSpace>
struct cc_link_heavy_functor {
  using mem = memory_space_t<ExecSpace>;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<vertex_t*, mem> comp;
  Kokkos::View<const offset_t*, mem> row_ptr;
  Kokkos::View<const vertex_t*, mem> col;
  Kokkos::View<const vertex_t*, mem> queue;
  Kokkos::View<const offset_t*, mem> heavy_count;
  int which;
  offset_t skip;

  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const offset_t count = heavy_count(which);
    const offset_t stride = offset_t(m.league_size()) * offset_t(m.team_size());
    for (offset_t q = offset_t(m.league_rank()) * m.team_size() + m.team_rank(); q < count; q += stride) {
      const vertex_t u = queue(q);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, row_ptr(u) + skip, row_ptr(u + 1)),
                           [&](const offset_t p) { cc_link(comp, u, col(p)); });
    }
  }
};

}  // namespace bitgraph::detail
