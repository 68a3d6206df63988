// The vertex-queue advance over CSR, many traversal levels per call without a read-back between them: the
// portable kernel (`advance_vertices_functor`, one launch per level) and the dispatch point
// `advance_levels_impl`, whose CUDA leaf runs all the levels in one persistent kernel. BFS
// (algorithms/bfs.hpp) advances this way while no frontier vertex is a hub.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// A frontier whose out-degrees are all at most this takes a thread per vertex (no degree scan, and levels can
/// be batched); wider frontiers a thread per edge.
inline constexpr offset_t advance_narrow_degree = 64;

/// Slots of the statistics ring of batched levels: slot k holds the frontier of level k (mod the slots) as
/// [length, out-edges, largest out-degree]. Two more than the most levels of one call, so that a level can
/// clear the slot after its own while the host's seed (the slot before the first level) stays readable.
inline constexpr offset_t advance_ring_slots = 258;

/// The most levels one call advances.
inline constexpr offset_t advance_max_levels = advance_ring_slots - 2;

/// A frontier queue's statistics: [length, out-edges, largest out-degree].
struct advance_frontier {
  offset_t len = 0, edges = 0, widest = 0;
};

/// What one call did: levels that found vertices, the last one's statistics, and the out-edges of the frontiers
/// it expanded after the first (for Beamer's switch).
struct advance_done {
  offset_t found = 0;
  advance_frontier last;
  offset_t expanded_edges = 0;
};

/// Claims vertex j for the current level: true for exactly one caller (the winner of the atomic OR on `visited`).
/// A plain read first: most neighbours of a BFS frontier are already visited.
template <class Words>
KOKKOS_INLINE_FUNCTION bool frontier_claim(const Words& visited, const vertex_t j) {
  const std::uint32_t bit = std::uint32_t(1) << (j & 31);
  if (visited(j >> 5) & bit) return false;
  return !(Kokkos::atomic_fetch_or(&visited(j >> 5), bit) & bit);
}

/// The operands of `advance_levels`: the graph's CSR, the two queues (level `first_level - 1`'s frontier in
/// `qa`, `start.len` long; they alternate), the statistics ring (`advance_ring_slots` x 3), the visited bitmap,
/// levels and parents (empty: none kept). `threads` is the launch width the caller suggests; `widest` bounds
/// the out-degree of every vertex these levels expand.
template <class Mem>
struct advance_args {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<vertex_t*, Mem> qa, qb;
  Kokkos::View<offset_t*, Mem> ring;
  Kokkos::View<std::uint32_t*, Mem> visited;
  Kokkos::View<level_t*, Mem> levels;
  Kokkos::View<vertex_t*, Mem> parents;
  advance_frontier start;
  level_t first_level = 1;
  offset_t count = 1, threads = 1, widest = 0;
};

/// "bitgraph::advance::vertices", a fixed number of threads striding over the queue of level d - 1, whose
/// length the previous kernel left in the statistics ring: no read-back between levels, so the host can queue
/// many levels of a high-diameter graph (a grid: thousands of levels of a few thousand vertices) and read the
/// ring once. Each queued vertex has 2^log_width slots, slot k taking its out-edges k, k + 2^log_width, ...: on
/// a GPU one edge per thread (width = the largest out-degree, rounded up), so a level costs one chain of
/// dependent loads and atomics, not one per out-edge. Thread 0 clears the slot of level d + 1.
template <class Mem>
struct advance_vertices_functor {
  Kokkos::View<std::uint32_t*, Mem> visited;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<vertex_t*, Mem> in, out;
  Kokkos::View<offset_t*, Mem> ring;
  Kokkos::View<level_t*, Mem> levels;
  Kokkos::View<vertex_t*, Mem> parents;
  bool with_parents;
  level_t d;
  offset_t threads;
  int log_width;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t t) const {
    const offset_t cur = 3 * (offset_t(d) % advance_ring_slots), prev = 3 * (offset_t(d - 1) % advance_ring_slots);
    if (t == 0) {
      const offset_t next = 3 * (offset_t(d + 1) % advance_ring_slots);
      ring(next) = ring(next + 1) = ring(next + 2) = 0;
    }
    const offset_t width = offset_t(1) << log_width, slots = ring(prev) << log_width;
    offset_t edges = 0, widest = 0;
    for (offset_t e = t; e < slots; e += threads) {
      const vertex_t i = in(e >> log_width);
      const offset_t end = row_ptr(i + 1);
      for (offset_t pos = row_ptr(i) + (e & (width - 1)); pos < end; pos += width) {
        const vertex_t j = col(pos);
        if (!frontier_claim(visited, j)) continue;
        levels(j) = d;
        if (with_parents) parents(j) = i;
        out(atomic_fetch_add_offset(&ring(cur), 1)) = j;
        const offset_t dj = row_ptr(j + 1) - row_ptr(j);
        edges += dj;
        widest = dj > widest ? dj : widest;
      }
    }
    if (edges) {
      atomic_fetch_add_offset(&ring(cur + 1), edges);
      // A plain read first: the maximum is rarely raised, and offset_t's atomic max is a compare-and-swap loop.
      if (widest > ring(cur + 2))
        Kokkos::atomic_fetch_max(reinterpret_cast<unsigned long long*>(&ring(cur + 2)),
                                 static_cast<unsigned long long>(widest));
    }
  }
};

/// Writes the frontier before the first level into its ring slot (the other slots cleared).
template <class ExecSpace>
void advance_seed_ring(const ExecSpace& exec, const advance_args<memory_space_t<ExecSpace>>& a) {
  std::vector<offset_t> h(3 * advance_ring_slots, 0);
  const offset_t prev = 3 * (offset_t(a.first_level - 1) % advance_ring_slots);
  h[prev] = a.start.len;
  h[prev + 1] = a.start.edges;
  h[prev + 2] = a.start.widest;
  using host_view = Kokkos::View<offset_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::deep_copy(exec, a.ring, host_view(h.data(), h.size()));
}

/// Reads the ring back (fences `exec`): the levels that found vertices, up to the first that found none.
template <class ExecSpace>
advance_done advance_read_ring(const ExecSpace& exec, const advance_args<memory_space_t<ExecSpace>>& a) {
  std::vector<offset_t> h(3 * advance_ring_slots, 0);
  using host_view = Kokkos::View<offset_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::deep_copy(exec, host_view(h.data(), h.size()), a.ring);
  exec.fence();
  advance_done r;
  r.last = a.start;
  for (; r.found < a.count; ++r.found) {
    const offset_t slot = 3 * (offset_t(a.first_level + level_t(r.found)) % advance_ring_slots);
    if (h[slot] == 0) break;
    if (r.found + 1 < a.count) r.expanded_edges += h[slot + 1];
    r.last = {h[slot], h[slot + 1], h[slot + 2]};
  }
  return r;
}

/// The portable advance: one `advance_vertices_functor` launch per level, the ring read back once.
template <class ExecSpace>
struct advance_levels_generic {
  using mem = memory_space_t<ExecSpace>;

  static path_offer offer(const advance_args<mem>&) { return path_offer{}; }

  static advance_done run(op_algorithm, const ExecSpace& exec, const advance_args<mem>& a) {
    // A host thread walks a vertex's edges itself: extra slots would only add empty iterations.
    int log_width = 0;
    if constexpr (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, mem>::accessible)
      while (log_width < 6 && (offset_t(1) << log_width) < a.widest) ++log_width;
    const offset_t threads = std::min<offset_t>(a.threads << log_width, offset_t(exec.concurrency()));
    advance_seed_ring(exec, a);
    for (offset_t k = 0; k < a.count; ++k) {
      const bool even = k % 2 == 0;
      Kokkos::parallel_for(
          "bitgraph::advance::vertices", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, threads),
          advance_vertices_functor<mem>{a.visited, a.row_ptr, a.col, even ? a.qa : a.qb, even ? a.qb : a.qa, a.ring,
                                        a.levels, a.parents, a.parents.extent(0) > 0,
                                        level_t(a.first_level + level_t(k)), threads, log_width});
    }
    return advance_read_ring(exec, a);
  }
};

/// Dispatch point: a backend leaf specialises it for its execution space.
template <class ExecSpace>
struct advance_levels_impl : advance_levels_generic<ExecSpace> {};

}  // namespace bitgraph::detail
