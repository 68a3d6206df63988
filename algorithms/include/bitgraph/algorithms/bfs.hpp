// Breadth-first search on the bit operations: push (vertex queue, SpMSpV or B2SR scatter), pull (masked BMV
// with early exit and operand reuse) and direction-optimised (Yang, Buluç, Owens, α = β switch on nnz(f)/n).
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bitgraph/algorithms/detail/bfs_kernels.hpp"
#include "bitgraph/algorithms/detail/step_path.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/mxv.hpp"
#include "bitgraph/ops/spmspv.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// How BFS traverses.
enum class bfs_mode : std::uint8_t {
  direction_optimized,  ///< push while the frontier is small, pull while it is large (α = β switch)
  push,                 ///< top-down only: frontier vertices scatter to their out-neighbours
  pull,                 ///< bottom-up only: unvisited vertices look for a parent in the frontier
};

/// Which kernel performs push steps.
enum class bfs_push_kernel : std::uint8_t {
  /// Top-down expansion of a vertex queue on the CSR: each out-neighbour is claimed by an atomic OR on
  /// the visited bitmap and appended to the next queue. Work per level is the frontier's edges, with no
  /// pass over all n vertices, so high-diameter graphs (grids: thousands of levels) are not bound by
  /// O(n) per level.
  queue,
  spmspv,  ///< SpMSpV on the CSR (gather + merge, GraphBLAST's column-based matvec)
  b2sr,    ///< scatter of the frontier's B2SR tile rows into a bitmap (atomic OR)
};

/// Which kernel performs pull steps.
enum class bfs_pull_kernel : std::uint8_t {
  automatic,  ///< `csr` unless the bit form is predicted faster for a full product (`detail::bits_pay`)
  /// Bottom-up over the in-edge CSR: every unvisited vertex scans its in-row for a vertex of the frontier
  /// bitmap and stops at the first (one thread per vertex).
  csr,
  b2sr,  ///< masked B2SR product (bin·bin→bin or ANY_SECONDI) with early exit
};

/// Options of `bfs`.
struct bfs_options {
  bfs_mode mode = bfs_mode::direction_optimized;
  bfs_push_kernel push_kernel = bfs_push_kernel::queue;
  bfs_pull_kernel pull_kernel = bfs_pull_kernel::automatic;
  bool parents = true;  ///< compute a BFS tree (ANY_SECONDI) besides the levels
  /// Beamer's switch as GAP's bfs.cc: push -> pull when the frontier's out-edges m_f exceed m_u / alpha (m_u:
  /// the edges not yet checked); pull -> push when the frontier shrinks below n / beta vertices.
  double alpha = 15;
  double beta = 18;
  bool early_exit = true;     ///< pull rows stop at the first parent found (Boolean OR / ANY)
  bool operand_reuse = true;  ///< pull from the visited set instead of the frontier (A^T v ∧ ¬v = A^T f ∧ ¬v)
  /// Queue pushes over a graph whose out-degrees are all at most `narrow_degree` queue up to 256 levels per
  /// read-back once past level 16 (grids: thousands of levels, each too small to hide a launch and a read-back).
  bool batch_levels = true;
  /// Stop after this level (0: traverse the whole reach); vertices farther away stay unreached.
  level_t max_depth = 0;
  op_algorithm algorithm = op_algorithm::automatic;  ///< forwarded to the ops
  spmspv_merge merge = spmspv_merge::automatic;      ///< SpMSpV merge for push steps
};

/// Result of `bfs`. Levels are -1 (`unreached_level`) for unreached vertices; parents (when requested)
/// are `invalid_vertex` there, and parent[source] = source.
template <class MemorySpace>
struct bfs_result {
  Kokkos::View<level_t*, MemorySpace> levels;
  Kokkos::View<vertex_t*, MemorySpace> parents;  ///< empty when not requested
  int depth = 0;                                 ///< largest level reached
  offset_t reached = 0;                          ///< vertices reached, the source included
  /// Edges in the source's reach as GAP / Graph500 count them for TEPS: the stored entries (out-degree
  /// sum) of the reached vertices, halved for an undirected graph (each edge once).
  offset_t traversed_edges = 0;
  std::string directions;  ///< one letter per level: 'p' push, 'P' pull
};

/// The buffers of `bfs` kept between calls. A caller that runs many traversals (many sources, or graphs of one size)
/// passes the same workspace so that no call allocates: buffers are made at the first call that needs them and remade
/// only when the vertex count changes. The result of such a call aliases the workspace's levels and parents: the next
/// call with the workspace overwrites them (copy them to keep them).
template <class MemorySpace>
struct bfs_workspace {
  vertex_t n = 0;
  Kokkos::View<level_t*, MemorySpace> levels;
  Kokkos::View<vertex_t*, MemorySpace> parents;
  bitmap<MemorySpace> visited, frontier, next;
  Kokkos::View<vertex_t*, MemorySpace> queue, queue_next;
  Kokkos::View<offset_t*, MemorySpace> queue_offsets, ring;
};

/// BFS from `source`: the level of every vertex (-1 where unreached) and, with `opts.parents`, a BFS tree,
/// plus the depth, the reached vertices and the edges traversed. Each level is one step in the direction
/// `opts.mode` picks (direction-optimised: Beamer's switch on edges and vertices, `alpha` / `beta`): a push
/// (per `opts.push_kernel`: the queue kernel — one thread per frontier edge, so hubs do not serialise, or one per
/// frontier vertex when none has more than `detail::advance_narrow_degree` out-edges, with up to 256 levels per
/// read-back on graphs without such vertices (`opts.batch_levels`; on CUDA one persistent kernel per batch) —
/// SpMSpV, or a B2SR scatter) or a pull (per `opts.pull_kernel`: bottom-up over the in-edge CSR with early exit, or
/// the masked B2SR product). `opts.algorithm` goes to the B2SR pulls and SpMSpV pushes as given; the B2SR pushes and
/// the batched queue levels get `detail::portable_step_path` of it (`generic` forces the portable kernels). Work: a
/// queue push level scans the frontier's out-rows (O(n + m) over a push-only run); an SpMSpV or B2SR push level the
/// frontier's rows or tile rows; a CSR pull level the in-rows of the unvisited vertices up to their first parent, a
/// B2SR pull the tiles of the unvisited rows (fewer with early exit); bitmap steps add O(n / 32) per level. Throws
/// `invalid_argument_error` when source >= n, alpha / beta are not positive or max_depth is negative,
/// `unsupported_error` for a CUDA path on a host space, `allocation_error` when a buffer does not fit. Reads one or two
/// counts back per level (once per batch of levels) and fences `exec` before it returns.
template <class ExecSpace>
bfs_result<memory_space_t<ExecSpace>> bfs(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                          vertex_t source, const bfs_options& opts = {});

/// `bfs` with the caller's workspace (see `bfs_workspace`): the same traversal, without allocations after the
/// first call on a graph of this size; the result's views alias `ws`'s.
template <class ExecSpace>
bfs_result<memory_space_t<ExecSpace>> bfs(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                          vertex_t source, const bfs_options& opts,
                                          bfs_workspace<memory_space_t<ExecSpace>>& ws);

template <class ExecSpace>
bfs_result<memory_space_t<ExecSpace>> bfs(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                          vertex_t source, const bfs_options& opts) {
  bfs_workspace<memory_space_t<ExecSpace>> ws;
  return bfs(exec, g, source, opts, ws);
}

template <class ExecSpace>
bfs_result<memory_space_t<ExecSpace>> bfs(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                          vertex_t source, const bfs_options& opts,
                                          bfs_workspace<memory_space_t<ExecSpace>>& ws) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = g.n();
  detail::check_source<ExecSpace>("bfs", source, n);
  detail::check_algorithm<ExecSpace>(opts.algorithm, "bfs");
  BITGRAPH_CHECK_ARG(opts.alpha > 0 && opts.beta > 0, "bfs", "alpha and beta must be positive");
  BITGRAPH_CHECK_ARG(opts.max_depth >= 0, "bfs", "max_depth must be >= 0, not ", opts.max_depth);
  detail::profiling_region region("bitgraph::bfs");

  if (ws.n != n || ws.levels.extent(0) != std::size_t(n)) {
    ws = bfs_workspace<mem>{};
    ws.n = n;
    ws.levels = allocate_view<Kokkos::View<level_t*, mem>>("bitgraph::bfs::levels", n, false);
    ws.visited = make_bitmap(exec, n);
    ws.frontier = make_bitmap(exec, n);
    ws.next = make_bitmap(exec, n);
  }
  if (opts.parents && ws.parents.extent(0) != std::size_t(n))
    ws.parents = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bfs::parents", n, false);

  bfs_result<mem> res;
  res.levels = ws.levels;
  Kokkos::deep_copy(exec, res.levels, unreached_level);
  Kokkos::deep_copy(exec, Kokkos::subview(res.levels, source), level_t(0));
  Kokkos::View<vertex_t*, mem> parents;
  if (opts.parents) {
    res.parents = ws.parents;
    Kokkos::deep_copy(exec, res.parents, invalid_vertex);
    Kokkos::deep_copy(exec, Kokkos::subview(res.parents, source), source);
    parents = res.parents;
  }
  // References into the workspace: the two frontier bitmaps are swapped every level, there.
  auto& visited = ws.visited;
  Kokkos::deep_copy(exec, visited.words, std::uint32_t(0));
  Kokkos::deep_copy(exec, Kokkos::subview(visited.words, source / 32), std::uint32_t(1) << (source % 32));
  auto& frontier_bits = ws.frontier;
  Kokkos::deep_copy(exec, frontier_bits.words, visited.words);
  auto& next = ws.next;
  Kokkos::deep_copy(exec, next.words, std::uint32_t(0));
  // Made only for SpMSpV pushes (an allocation and a host copy).
  sparse_vector<vertex_t, mem> frontier_sparse;
  if (opts.push_kernel == bfs_push_kernel::spmspv)
    frontier_sparse = make_sparse_vector<ExecSpace, vertex_t>(exec, n, {source}, {});
  // The frontier in up to three forms; which are current depends on the step that made it.
  bool bits_valid = true;    // frontier_bits: made by pulls, SpMSpV and B2SR pushes
  bool sparse_valid = true;  // frontier_sparse: made by SpMSpV pushes
  bool queue_valid = false;  // queue: made by queue pushes (allocated at the first)
  auto& queue = ws.queue;
  auto& queue_next = ws.queue_next;
  auto& qoff = ws.queue_offsets;
  auto& ring = ws.ring;
  offset_t queue_len = 0;
  // The queue's statistics (length, out-edges, widest out-degree) and whether they are current.
  detail::bfs_queue_stats qs;
  bool stats_known = false;
  std::int64_t graph_widest = -1;  // the graph's largest out-degree, measured when batching is considered
  offset_t batch = 4;              // levels per read-back, doubled per batch up to 256
  offset_t nf = 1, prev_nf = 0;
  // Beamer's switch: the frontier's out-edges against the edges not yet checked (GAP's edges_to_check).
  double unchecked = double(g.csr.nnz);
  bool pulling = opts.mode == bfs_mode::pull;
  const auto& at = g.in_b2sr();
  const bool csr_pull = opts.pull_kernel == bfs_pull_kernel::csr || (opts.pull_kernel == bfs_pull_kernel::automatic &&
                                                                     !detail::bits_pay<ExecSpace>(g.in_csr(), at));
  const bool queue_push = opts.push_kernel == bfs_push_kernel::queue;

  mxv_options mo;
  mo.algorithm = opts.algorithm;
  mo.early_exit = opts.early_exit;
  spmspv_options so;
  so.algorithm = opts.algorithm;
  so.merge = opts.merge;

  // The queue (made from the bitmap frontier unless a queue push made it) and its degree statistics.
  const auto queue_stats = [&] {
    if (queue.extent(0) == 0) {
      queue = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bfs::queue", n, false);
      queue_next = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bfs::queue_next", n, false);
      qoff = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::bfs::queue_offsets", n, false);
      ring = Kokkos::View<offset_t*, mem>("bitgraph::bfs::level_stats", 3 * detail::advance_ring_slots);
    }
    if (!queue_valid) {
      auto s = to_sparse(exec, frontier_bits);
      queue_len = s.nnz;
      Kokkos::deep_copy(exec, Kokkos::subview(queue, std::make_pair(offset_t(0), s.nnz)),
                        Kokkos::subview(s.indices, std::make_pair(offset_t(0), s.nnz)));
      queue_valid = true;
    }
    const auto sums = detail::bfs_queue_degrees(exec, g.csr, Kokkos::View<const vertex_t*, mem>(queue), queue_len);
    qs = {queue_len, sums.edges, sums.widest};
    stats_known = true;
  };

  // Only a queue push leaves the bitmap stale; rebuilt where the next step reads it.
  const auto queue_to_bits = [&] {
    Kokkos::deep_copy(exec, frontier_bits.words, std::uint32_t(0));
    Kokkos::parallel_for("bitgraph::bfs::queue_to_bits",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, queue_len),
                         detail::bfs_queue_to_bits_functor<mem>{frontier_bits.words, queue});
    bits_valid = true;
  };

  // Two frontier bitmaps (`frontier_bits`, `next`), swapped every level: allocating per level costs more than the
  // level itself on a GPU when the frontier is small (high-diameter graphs).
  for (level_t d = 1;; ++d) {
    if (opts.max_depth > 0 && d > opts.max_depth) {
      res.depth = d - 1;
      break;
    }
    // The queue and its degree scan, when the next step is (or may be) a queue push.
    offset_t mf = 0;
    if (!pulling) {
      if (queue_push) {
        if (!stats_known) queue_stats();
        mf = qs.edges;
      } else if (opts.mode == bfs_mode::direction_optimized) {
        mf = detail::bfs_bitmap_edges(exec, g.csr, frontier_bits);
      }
    }
    if (opts.mode == bfs_mode::direction_optimized) {
      if (!pulling && double(mf) * opts.alpha > unchecked) {
        pulling = true;
      } else if (pulling && nf < prev_nf && double(nf) * opts.beta <= double(n)) {
        pulling = false;
        // The pull left a bitmap frontier: the queue push needs it as a queue, and its m_f.
        if (queue_push) {
          queue_valid = false;
          queue_stats();
          mf = qs.edges;
        }
      }
    }
    prev_nf = nf;
    if (!pulling) unchecked -= double(mf);
    if (!pulling && queue_push) {
      if (stats_known && qs.widest <= detail::advance_narrow_degree) {
        // No hub in the frontier: a thread per queued vertex, and on a narrow graph past its first levels, many
        // levels per read-back.
        offset_t count = 1;
        if (opts.batch_levels && d > 16) {
          if (graph_widest < 0) graph_widest = std::int64_t(detail::bfs_max_degree(exec, g.csr));
          if (graph_widest <= std::int64_t(detail::advance_narrow_degree))
            count = batch = std::min<offset_t>(2 * batch, detail::advance_max_levels);
        }
        if (opts.max_depth > 0) count = std::min<offset_t>(count, offset_t(opts.max_depth - d + 1));
        const offset_t threads =
            std::max<offset_t>(1, std::min<offset_t>(std::max<offset_t>(4 * queue_len, 1024), exec.concurrency()));
        // Within a batch, every frontier is bounded by the graph's widest vertex; a single level by its own.
        const offset_t widest = count > 1 ? offset_t(graph_widest) : qs.widest;
        const auto done = detail::bfs_expand_levels(exec, g.csr, queue, queue_next, ring, qs, visited, res.levels,
                                                    parents, d, count, threads, widest, opts.algorithm);
        res.directions.append(std::size_t(done.found), 'p');
        if (done.found % 2) std::swap(queue, queue_next);
        unchecked -= double(done.expanded_edges);
        if (done.found < count) {  // level d + found found nothing: the traversal is over
          res.depth = d + level_t(done.found) - 1;
          break;
        }
        d += level_t(count) - 1;
        qs = done.last;  // the vertex kernel accumulates the next frontier's statistics itself
        stats_known = true;
      } else {
        res.directions += 'p';
        // The degree scan places each edge of the frontier; the step claims, levels and queues the new
        // vertices itself (no commit pass). The next frontier's statistics are computed when it is used.
        detail::bfs_queue_edges(exec, g.csr, Kokkos::View<const vertex_t*, mem>(queue), queue_len, qoff);
        const offset_t found = detail::bfs_expand_queue(
            exec, g.csr, Kokkos::View<const vertex_t*, mem>(queue), queue_len, Kokkos::View<const offset_t*, mem>(qoff),
            mf, queue_next, Kokkos::subview(ring, std::make_pair(offset_t(0), offset_t(3))), visited, res.levels,
            parents, d);
        std::swap(queue, queue_next);
        qs.len = found;
        stats_known = false;
      }
      nf = qs.len;
      queue_len = nf;
      queue_valid = true;
      bits_valid = false;
      sparse_valid = false;
    } else if (pulling && csr_pull) {
      res.directions += 'P';
      if (!bits_valid && !opts.operand_reuse) {
        queue_to_bits();
      }
      nf = detail::bfs_pull_csr(exec, g.in_csr(), visited, opts.operand_reuse ? visited : frontier_bits, next,
                                res.levels, parents, d);
      std::swap(frontier_bits, next);
      bits_valid = true;
      queue_valid = false;
      stats_known = false;
      sparse_valid = false;
    } else {
      if (!bits_valid) {
        queue_to_bits();
        bits_valid = true;
      }
      Kokkos::deep_copy(exec, next.words, std::uint32_t(0));
      if (pulling) {
        res.directions += 'P';
        const auto& input = opts.operand_reuse ? visited : frontier_bits;
        mo.direction = mxv_direction::pull;
        mo.algorithm = opts.algorithm;
        if (opts.parents) {
          // Unvisited vertices get any in-neighbour from the input as parent (identity = none); visited
          // ones keep theirs (complemented mask, no replace).
          mxv(exec, res.parents, mask_of(visited, true), no_accumulator{}, any_secondi<vertex_t>{}, at, input, mo);
          detail::bfs_found_to_frontier(exec, visited, next, res.parents, res.parents, false);
        } else {
          mxv(exec, next, mask_of(visited, true, true), no_accumulator{}, lor_land{}, at, input, mo);
        }
        sparse_valid = false;
      } else {
        res.directions += 'p';
        if (opts.push_kernel == bfs_push_kernel::spmspv) {
          if (!sparse_valid) {
            auto s = to_sparse(exec, frontier_bits);
            frontier_sparse.n = s.n;
            frontier_sparse.nnz = s.nnz;
            frontier_sparse.indices = s.indices;
            frontier_sparse.values = Kokkos::View<vertex_t*, mem>();
            sparse_valid = true;
          }
          if (opts.parents) {
            sparse_vector<vertex_t, mem> y;
            spmspv(exec, y, mask_of(visited, true), any_secondi<vertex_t>{}, frontier_sparse, g.csr, so);
            Kokkos::parallel_for(
                "bitgraph::bfs::scatter_parents",
                Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, y.nnz),
                detail::bfs_scatter_parents_functor<mem>{res.parents, y.indices, y.values, next.words});
            frontier_sparse.nnz = y.nnz;
            frontier_sparse.indices = y.indices;
          } else {
            sparse_vector<std::uint8_t, mem> y;
            sparse_vector<std::uint8_t, mem> x;
            x.n = frontier_sparse.n;
            x.nnz = frontier_sparse.nnz;
            x.indices = frontier_sparse.indices;
            spmspv_options s2 = so;
            s2.structure_only = true;
            spmspv(exec, y, mask_of(visited, true), lor_land{}, x, g.csr, s2);
            Kokkos::parallel_for("bitgraph::bfs::scatter_frontier",
                                 Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, y.nnz),
                                 detail::bfs_scatter_frontier_functor<mem>{next.words, y.indices});
            frontier_sparse.nnz = y.nnz;
            frontier_sparse.indices = y.indices;
          }
          sparse_valid = true;
        } else {
          mo.direction = mxv_direction::push;
          mo.algorithm = detail::portable_step_path(opts.algorithm);  // the scatters have no CUDA kernel
          if (opts.parents) {
            // Scatter the frontier's tile rows; ANY keeps the first parent written.
            Kokkos::View<vertex_t*, mem> cand =
                allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bfs::candidates", n, false);
            Kokkos::deep_copy(exec, cand, invalid_vertex);
            vxm(exec, cand, mask_of(visited, true), no_accumulator{}, any_secondi<vertex_t>{}, frontier_bits, g.b2sr,
                mo);
            detail::bfs_found_to_frontier(exec, visited, next, cand, res.parents, true);
          } else {
            vxm(exec, next, mask_of(visited, true, true), no_accumulator{}, lor_land{}, frontier_bits, g.b2sr, mo);
          }
          sparse_valid = false;
        }
      }
      nf = detail::bfs_commit_level(exec, visited, next, res.levels, d);
      std::swap(frontier_bits, next);
      bits_valid = true;
      queue_valid = false;
      stats_known = false;
    }
    if (nf == 0) {
      res.depth = d - 1;
      res.directions.pop_back();
      break;
    }
  }
  // Reached vertices and the edges of their out-rows.
  detail::bfs_reach_sums sums;
  Kokkos::parallel_reduce("bitgraph::bfs::stats", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                          detail::bfs_stats_functor<mem>{res.levels, g.csr.row_ptr}, sums);
  res.reached = sums.reached;
  res.traversed_edges = g.directed() ? sums.entries : sums.entries / 2;
  exec.fence();
  return res;
}

}  // namespace bitgraph
