// The portable kernels of `bfs` (algorithms/bfs.hpp) as named functors, and the BFS steps built on them:
// committing a level, turning found parents into the next frontier, and the vertex-queue push.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"

namespace bitgraph::detail {

/// "bitgraph::bfs::commit", one thread per bitmap word: the new frontier's unvisited bits join `visited`
/// and get level d; sums the bits committed.
template <class Mem>
struct bfs_commit_functor {
  Kokkos::View<std::uint32_t*, Mem> visited;
  Kokkos::View<const std::uint32_t*, Mem> next;
  Kokkos::View<level_t*, Mem> levels;
  level_t d;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t k, offset_t& acc) const {
    std::uint32_t bits = next(k) & ~visited(k);
    if (!bits) return;
    visited(k) |= bits;
    acc += popcount(bits);
    while (bits) {
      levels(k * 32 + count_trailing_zeros(bits)) = d;
      bits &= bits - 1;
    }
  }
};

/// "bitgraph::bfs::found_to_frontier", one thread per bitmap word: the unvisited vertices with a found
/// parent form the next frontier; with `copy` their parent is copied into `parents`.
template <class Mem>
struct bfs_found_to_frontier_functor {
  Kokkos::View<std::uint32_t*, Mem> next;
  Kokkos::View<const std::uint32_t*, Mem> visited;
  Kokkos::View<const vertex_t*, Mem> found;
  Kokkos::View<vertex_t*, Mem> parents;
  std::uint64_t n;
  bool copy;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t k) const {
    std::uint32_t bits = 0;
    std::uint32_t todo = ~visited(k);
    while (todo) {
      const int b = count_trailing_zeros(todo);
      todo &= todo - 1;
      const std::uint64_t v = k * 32 + b;
      if (v < n && found(v) != invalid_vertex) {
        bits |= std::uint32_t(1) << b;
        if (copy) parents(v) = found(v);
      }
    }
    next(k) = bits;
  }
};

/// "bitgraph::bfs::push_queue", one thread per queued vertex: claims its unvisited out-neighbours (one
/// winner of the atomic OR each), levels and parents them and appends them to `out`.
template <class Mem>
struct bfs_push_queue_functor {
  Kokkos::View<std::uint32_t*, Mem> visited;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<const vertex_t*, Mem> in;
  Kokkos::View<vertex_t*, Mem> out;
  Kokkos::View<offset_t, Mem> counter;
  Kokkos::View<level_t*, Mem> levels;
  Kokkos::View<vertex_t*, Mem> parents;
  bool with_parents;
  level_t d;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    const vertex_t i = in(q);
    for (offset_t pos = row_ptr(i); pos < row_ptr(i + 1); ++pos) {
      const vertex_t j = col(pos);
      const std::uint32_t bit = std::uint32_t(1) << (j & 31);
      // A plain read first: most neighbours of a BFS frontier are already visited.
      if (visited(j >> 5) & bit) continue;
      if (Kokkos::atomic_fetch_or(&visited(j >> 5), bit) & bit) continue;
      levels(j) = d;
      if (with_parents) parents(j) = i;
      out(atomic_fetch_add_offset(&counter(), 1)) = j;
    }
  }
};

/// "bitgraph::bfs::queue_to_bits": sets the bit of every queued vertex.
template <class Mem>
struct bfs_queue_to_bits_functor {
  Kokkos::View<std::uint32_t*, Mem> words;
  Kokkos::View<const vertex_t*, Mem> queue;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const { bitmap_set_atomic(words, queue(q)); }
};

/// "bitgraph::bfs::scatter_parents": writes the parents an SpMSpV push found and sets their bits.
template <class Mem>
struct bfs_scatter_parents_functor {
  Kokkos::View<vertex_t*, Mem> parents;
  Kokkos::View<const vertex_t*, Mem> indices;
  Kokkos::View<const vertex_t*, Mem> values;
  Kokkos::View<std::uint32_t*, Mem> words;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    parents(indices(q)) = values(q);
    bitmap_set_atomic(words, indices(q));
  }
};

/// "bitgraph::bfs::scatter_frontier": sets the bits of the vertices an SpMSpV push found.
template <class Mem>
struct bfs_scatter_frontier_functor {
  Kokkos::View<std::uint32_t*, Mem> words;
  Kokkos::View<const vertex_t*, Mem> indices;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const { bitmap_set_atomic(words, indices(q)); }
};

/// "bitgraph::bfs::stats": counts the reached vertices (r) and the entries of their out-rows (e).
template <class Mem>
struct bfs_stats_functor {
  Kokkos::View<const level_t*, Mem> levels;
  Kokkos::View<const offset_t*, Mem> row_ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, offset_t& r, offset_t& e) const {
    if (levels(v) == unreached_level) return;
    ++r;
    e += row_ptr(v + 1) - row_ptr(v);
  }
};

/// After a step: visited |= new frontier, levels of the new frontier = d. Returns |new frontier|.
template <class ExecSpace>
offset_t bfs_commit_level(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& visited,
                          const bitmap<memory_space_t<ExecSpace>>& next,
                          Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels, level_t d) {
  using mem = memory_space_t<ExecSpace>;
  offset_t count = 0;
  Kokkos::parallel_reduce("bitgraph::bfs::commit", Kokkos::RangePolicy<ExecSpace>(exec, 0, next.words.extent(0)),
                          bfs_commit_functor<mem>{visited.words, next.words, levels, d}, count);
  return count;
}

/// After a parent-producing step: `next` = the unvisited vertices v with found(v) != none. When `copy`
/// (the step wrote into a scratch `found`), their parent is copied into `parents`; the pull step writes
/// the parents view itself and passes it as `found`.
template <class ExecSpace>
void bfs_found_to_frontier(const ExecSpace& exec, const bitmap<memory_space_t<ExecSpace>>& visited,
                           bitmap<memory_space_t<ExecSpace>>& next,
                           Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> found,
                           Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> parents, bool copy) {
  using mem = memory_space_t<ExecSpace>;
  Kokkos::parallel_for("bitgraph::bfs::found_to_frontier",
                       Kokkos::RangePolicy<ExecSpace>(exec, 0, next.words.extent(0)),
                       bfs_found_to_frontier_functor<mem>{next.words, visited.words, found, parents, visited.n, copy});
}

/// One queue push step: every unvisited out-neighbour j of a queued vertex i is claimed (the atomic OR
/// on `visited` has exactly one winner), gets level d (and parent i) and is appended to `out`. Returns
/// the new queue's length; one 8-byte read-back per level is all the host sees.
template <class ExecSpace>
offset_t bfs_push_queue(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a,
                        Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> in, offset_t in_len,
                        Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> out,
                        Kokkos::View<offset_t, memory_space_t<ExecSpace>> counter,
                        bitmap<memory_space_t<ExecSpace>>& visited,
                        Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels,
                        Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> parents, level_t d) {
  using mem = memory_space_t<ExecSpace>;
  const bool with_parents = parents.extent(0) > 0;
  Kokkos::deep_copy(exec, counter, offset_t(0));
  Kokkos::parallel_for("bitgraph::bfs::push_queue",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, in_len),
                       bfs_push_queue_functor<mem>{visited.words, a.row_ptr, a.col_idx, in, out, counter, levels,
                                                   parents, with_parents, d});
  offset_t found = 0;
  Kokkos::deep_copy(exec, found, counter);
  exec.fence();
  return found;
}

}  // namespace bitgraph::detail
