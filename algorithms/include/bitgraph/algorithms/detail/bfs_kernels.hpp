// The portable kernels of `bfs` (algorithms/bfs.hpp) as named functors, and the BFS steps built on them:
// committing a level, turning found parents into the next frontier, and the vertex-queue push.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "bitgraph/algorithms/detail/step_path.hpp"
#include "bitgraph/backends/advance.hpp"
#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/detail/kokkos_compat.hpp"
#include "bitgraph/core/dispatch.hpp"
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

/// "bitgraph::bfs::degree_scan": qoff(q) = the out-degrees of the queued vertices before q (exclusive scan);
/// the total is the frontier's edge count m_f.
template <class Mem>
struct bfs_degree_scan_functor {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> in;
  Kokkos::View<offset_t*, Mem> qoff;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q, offset_t& upd, const bool final) const {
    const vertex_t i = in(q);
    if (final) qoff(q) = upd;
    upd += row_ptr(i + 1) - row_ptr(i);
  }
};

/// "bitgraph::bfs::expand_edges", one thread per edge of the frontier: edge e belongs to the queued vertex q
/// with qoff(q) <= e < qoff(q + 1) (binary search), so a hub's row is spread over as many threads as it has
/// entries. Claims the unvisited neighbour (one winner of the atomic OR), levels, parents and queues it.
template <class Mem>
struct bfs_expand_edges_functor {
  Kokkos::View<std::uint32_t*, Mem> visited;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<const vertex_t*, Mem> in;
  Kokkos::View<const offset_t*, Mem> qoff;
  offset_t in_len;
  Kokkos::View<vertex_t*, Mem> out;
  Kokkos::View<offset_t*, Mem> stats;  ///< [0]: the next frontier's length
  Kokkos::View<level_t*, Mem> levels;
  Kokkos::View<vertex_t*, Mem> parents;
  bool with_parents;
  level_t d;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t e) const {
    offset_t lo = 0, hi = in_len;  // qoff(lo) <= e < qoff(hi), with qoff(in_len) the total
    while (hi - lo > 1) {
      const offset_t mid = lo + (hi - lo) / 2;
      if (qoff(mid) <= e)
        lo = mid;
      else
        hi = mid;
    }
    const vertex_t i = in(lo);
    const vertex_t j = col(row_ptr(i) + (e - qoff(lo)));
    if (!frontier_claim(visited, j)) return;
    levels(j) = d;
    if (with_parents) parents(j) = i;
    out(atomic_fetch_add_offset(&stats(0), 1)) = j;
  }
};

/// The out-edges and the widest out-degree of a queue (`bfs_queue_stats`), by a reduction over it: cheaper
/// than two atomics on one address per claimed vertex in the edge-balanced expansion.
struct bfs_degree_sums {
  offset_t edges = 0, widest = 0;
};

/// "bitgraph::bfs::queue_stats": sums the queued vertices' out-degrees and finds the widest.
template <class Mem>
struct bfs_queue_stats_functor {
  using value_type = bfs_degree_sums;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> queue;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q, value_type& acc) const {
    const vertex_t v = queue(q);
    const offset_t d = row_ptr(v + 1) - row_ptr(v);
    acc.edges += d;
    acc.widest = d > acc.widest ? d : acc.widest;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& acc) const { acc = value_type{}; }
  KOKKOS_INLINE_FUNCTION void join(BITGRAPH_JOIN_VOLATILE value_type& acc,
                                   const BITGRAPH_JOIN_VOLATILE value_type& o) const {
    acc.edges = acc.edges + o.edges;  // C++20 deprecates compound assignment to volatile
    acc.widest = o.widest > acc.widest ? o.widest : acc.widest;
  }
};

/// "bitgraph::bfs::max_degree": the largest out-degree of the graph.
template <class Mem>
struct bfs_max_degree_functor {
  Kokkos::View<const offset_t*, Mem> row_ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, offset_t& acc) const {
    const offset_t dv = row_ptr(v + 1) - row_ptr(v);
    if (dv > acc) acc = dv;
  }
};

/// "bitgraph::bfs::pull_csr", one thread per vertex: an unvisited vertex scans its in-row (CSR of A^T) for a
/// vertex set in `input` and stops at the first (bottom-up step with early exit); it gets level d and that
/// parent. `input` is the frontier, or the visited set (operand reuse: an unvisited vertex's visited
/// in-neighbours all have level d - 1). Nothing is claimed here: `bfs_commit_found` turns the levels into bits.
template <class Mem>
struct bfs_pull_csr_functor {
  Kokkos::View<const std::uint32_t*, Mem> visited;
  Kokkos::View<const std::uint32_t*, Mem> input;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<level_t*, Mem> levels;
  Kokkos::View<vertex_t*, Mem> parents;
  bool with_parents;
  level_t d;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    if ((visited(v >> 5) >> (v & 31)) & 1u) return;
    for (offset_t pos = row_ptr(v); pos < row_ptr(v + 1); ++pos) {
      const vertex_t u = col(pos);
      if ((input(u >> 5) >> (u & 31)) & 1u) {
        levels(v) = d;
        if (with_parents) parents(v) = u;
        return;
      }
    }
  }
};

/// "bitgraph::bfs::commit_found", one thread per bitmap word: the unvisited vertices a pull gave level d join
/// `visited` and form `next`; sums them.
template <class Mem>
struct bfs_commit_found_functor {
  Kokkos::View<std::uint32_t*, Mem> visited;
  Kokkos::View<std::uint32_t*, Mem> next;
  Kokkos::View<const level_t*, Mem> levels;
  std::uint64_t n;
  level_t d;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t k, offset_t& acc) const {
    std::uint32_t todo = ~visited(k), bits = 0;
    while (todo) {
      const int b = count_trailing_zeros(todo);
      todo &= todo - 1;
      const std::uint64_t v = k * 32 + b;
      if (v >= n) break;
      if (levels(v) == d) bits |= std::uint32_t(1) << b;
    }
    next(k) = bits;
    if (!bits) return;
    visited(k) |= bits;
    acc += popcount(bits);
  }
};

/// "bitgraph::bfs::frontier_edges", one thread per bitmap word: the out-degree sum of the set vertices.
template <class Mem>
struct bfs_frontier_edges_functor {
  Kokkos::View<const std::uint32_t*, Mem> words;
  Kokkos::View<const offset_t*, Mem> row_ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t k, offset_t& acc) const {
    std::uint32_t bits = words(k);
    while (bits) {
      const vertex_t v = vertex_t(k * 32 + count_trailing_zeros(bits));
      bits &= bits - 1;
      acc += row_ptr(v + 1) - row_ptr(v);
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

/// The reached vertices and the entries of their out-rows.
struct bfs_reach_sums {
  offset_t reached = 0, entries = 0;
};

/// "bitgraph::bfs::stats": counts the reached vertices and the entries of their out-rows. One value type with
/// its own join: Kokkos 3.4's two-reducer form of the same sum took 111 us on a 4M-vertex graph on the H100.
template <class Mem>
struct bfs_stats_functor {
  using value_type = bfs_reach_sums;
  Kokkos::View<const level_t*, Mem> levels;
  Kokkos::View<const offset_t*, Mem> row_ptr;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, value_type& acc) const {
    if (levels(v) == unreached_level) return;
    ++acc.reached;
    acc.entries += row_ptr(v + 1) - row_ptr(v);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& acc) const { acc = value_type{}; }
  KOKKOS_INLINE_FUNCTION void join(BITGRAPH_JOIN_VOLATILE value_type& acc,
                                   const BITGRAPH_JOIN_VOLATILE value_type& o) const {
    acc.reached = acc.reached + o.reached;  // C++20 deprecates compound assignment to volatile
    acc.entries = acc.entries + o.entries;
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

/// The out-degree sum of the queued vertices (m_f), with `qoff` their exclusive scan (the queue push's row
/// offsets). Reads the sum back.
template <class ExecSpace>
offset_t bfs_queue_edges(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a,
                         Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> queue, offset_t len,
                         Kokkos::View<offset_t*, memory_space_t<ExecSpace>> qoff) {
  using mem = memory_space_t<ExecSpace>;
  offset_t total = 0;
  if (len == 0) return 0;
  Kokkos::parallel_scan("bitgraph::bfs::degree_scan",
                        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, len),
                        bfs_degree_scan_functor<mem>{a.row_ptr, queue, qoff}, total);
  return total;
}

/// Statistics of a queue: [length, out-edges, largest out-degree].
using bfs_queue_stats = advance_frontier;

/// One edge-balanced queue push level: every unvisited out-neighbour j of a queued vertex i is claimed (the
/// atomic OR on `visited` has exactly one winner), gets level d (and parent i) and is appended to `out`; the
/// `edges` = m_f entries are spread one per thread, so hubs do not serialise. Returns the new queue's length
/// (one read-back; its degree statistics are left to `bfs_queue_degrees`).
template <class ExecSpace>
offset_t bfs_expand_queue(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a,
                          Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> in, offset_t len,
                          Kokkos::View<const offset_t*, memory_space_t<ExecSpace>> qoff, offset_t edges,
                          Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> out,
                          Kokkos::View<offset_t*, memory_space_t<ExecSpace>> stats,
                          bitmap<memory_space_t<ExecSpace>>& visited,
                          Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels,
                          Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> parents, level_t d) {
  using mem = memory_space_t<ExecSpace>;
  Kokkos::deep_copy(exec, stats, offset_t(0));
  if (edges > 0)
    Kokkos::parallel_for("bitgraph::bfs::expand_edges",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, edges),
                         bfs_expand_edges_functor<mem>{visited.words, a.row_ptr, a.col_idx, in, qoff, len, out, stats,
                                                       levels, parents, parents.extent(0) > 0, d});
  offset_t found = 0;
  Kokkos::deep_copy(exec, found, Kokkos::subview(stats, 0));
  exec.fence();
  return found;
}

/// The out-edges and widest out-degree of the queue's `len` vertices (one read-back).
template <class ExecSpace>
bfs_degree_sums bfs_queue_degrees(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a,
                                  Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> queue, offset_t len) {
  bfs_degree_sums sums;
  if (len > 0)
    Kokkos::parallel_reduce("bitgraph::bfs::queue_stats",
                            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, len),
                            bfs_queue_stats_functor<memory_space_t<ExecSpace>>{a.row_ptr, queue}, sums);
  return sums;
}

/// Levels first_level, first_level + 1, ... (`count` of them, at most `advance_max_levels`, without read-backs)
/// by `advance_levels` from the queue in `qa` (statistics `s`); the queues alternate between `qa` and `qb`. The
/// traversal ended at the first level that found none. `widest` bounds the out-degree of every vertex these
/// levels expand. `path`: `generic` forces the portable kernel, anything else lets the space's leaf choose
/// (CUDA: one persistent kernel for a batch of levels).
template <class ExecSpace>
advance_done bfs_expand_levels(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a,
                               Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> qa,
                               Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> qb,
                               Kokkos::View<offset_t*, memory_space_t<ExecSpace>> ring, bfs_queue_stats s,
                               bitmap<memory_space_t<ExecSpace>>& visited,
                               Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels,
                               Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> parents, level_t first_level,
                               offset_t count, offset_t threads, offset_t widest, op_algorithm path) {
  using impl = advance_levels_impl<ExecSpace>;
  advance_args<memory_space_t<ExecSpace>> args{a.row_ptr, a.col_idx, qa,          qb,    ring,    visited.words, levels,
                                               parents,   s,         first_level, count, threads, widest};
  const op_algorithm chosen = choose_path<ExecSpace>("bfs", portable_step_path(path), impl::offer(args));
  return impl::run(chosen, exec, args);
}

/// The largest out-degree of `a` (one read-back).
template <class ExecSpace>
offset_t bfs_max_degree(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a) {
  offset_t widest = 0;
  Kokkos::parallel_reduce("bitgraph::bfs::max_degree", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n),
                          bfs_max_degree_functor<memory_space_t<ExecSpace>>{a.row_ptr}, Kokkos::Max<offset_t>(widest));
  return widest;
}

/// One bottom-up pull level over the in-edge CSR (see `bfs_pull_csr_functor`), then the commit: `next` = the
/// vertices found, `visited` |= next. Returns |next|.
template <class ExecSpace>
offset_t bfs_pull_csr(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& at,
                      bitmap<memory_space_t<ExecSpace>>& visited, const bitmap<memory_space_t<ExecSpace>>& input,
                      bitmap<memory_space_t<ExecSpace>>& next, Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels,
                      Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> parents, level_t d) {
  using mem = memory_space_t<ExecSpace>;
  Kokkos::parallel_for("bitgraph::bfs::pull_csr", Kokkos::RangePolicy<ExecSpace>(exec, 0, at.n),
                       bfs_pull_csr_functor<mem>{visited.words, input.words, at.row_ptr, at.col_idx, levels, parents,
                                                 parents.extent(0) > 0, d});
  offset_t count = 0;
  Kokkos::parallel_reduce("bitgraph::bfs::commit_found", Kokkos::RangePolicy<ExecSpace>(exec, 0, next.words.extent(0)),
                          bfs_commit_found_functor<mem>{visited.words, next.words, levels, visited.n, d}, count);
  return count;
}

/// The out-degree sum of the vertices set in `f` (m_f of a bitmap frontier). Reads it back.
template <class ExecSpace>
offset_t bfs_bitmap_edges(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a,
                          const bitmap<memory_space_t<ExecSpace>>& f) {
  using mem = memory_space_t<ExecSpace>;
  offset_t total = 0;
  Kokkos::parallel_reduce("bitgraph::bfs::frontier_edges", Kokkos::RangePolicy<ExecSpace>(exec, 0, f.words.extent(0)),
                          bfs_frontier_edges_functor<mem>{f.words, a.row_ptr}, total);
  return total;
}

}  // namespace bitgraph::detail
