// Breadth-first search on the bit operations: push (vertex queue, SpMSpV or B2SR scatter), pull (masked BMV
// with early exit and operand reuse) and direction-optimised (Yang, Buluç, Owens, α = β switch on nnz(f)/n).
#pragma once

#include <Kokkos_Core.hpp>

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

/// Options of `bfs`.
struct bfs_options {
  bfs_mode mode = bfs_mode::direction_optimized;
  bfs_push_kernel push_kernel = bfs_push_kernel::queue;
  bool parents = true;        ///< compute a BFS tree (ANY_SECONDI) besides the levels
  double alpha = 0.01;        ///< push -> pull when nnz(f)/n rises above alpha
  double beta = 0.01;         ///< pull -> push when nnz(f)/n falls below beta
  bool early_exit = true;     ///< pull rows stop at the first parent found (Boolean OR / ANY)
  bool operand_reuse = true;  ///< pull from the visited set instead of the frontier (A^T v ∧ ¬v = A^T f ∧ ¬v)
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

/// BFS from `source`: the level of every vertex (-1 where unreached) and, with `opts.parents`, a BFS tree,
/// plus the depth, the reached vertices and the edges traversed. Each level is one step in the direction
/// `opts.mode` picks: a push (the queue kernel, SpMSpV or a B2SR scatter, per `opts.push_kernel`) or a pull
/// (masked B2SR product with early exit). `opts.algorithm` goes to the pulls and SpMSpV pushes as given;
/// the B2SR pushes, which have only the portable kernel, get `detail::portable_step_path` of it.
/// Work: a queue push level scans the frontier's out-rows (O(n + m) over a push-only run); an SpMSpV or
/// B2SR push level the frontier's rows or tile rows; a pull level the tiles of the unvisited rows (fewer
/// with early exit); the bitmap steps add O(n / 32) per level.
/// Throws `invalid_argument_error` when source >= n or alpha / beta are not positive, `unsupported_error`
/// for a CUDA path on a host space, `allocation_error` when a buffer does not fit. Reads the frontier size
/// back every level and fences `exec` before it returns.
template <class ExecSpace>
bfs_result<memory_space_t<ExecSpace>> bfs(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                          vertex_t source, const bfs_options& opts = {});

template <class ExecSpace>
bfs_result<memory_space_t<ExecSpace>> bfs(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                          vertex_t source, const bfs_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = g.n();
  detail::check_source<ExecSpace>("bfs", source, n);
  detail::check_algorithm<ExecSpace>(opts.algorithm, "bfs");
  BITGRAPH_CHECK_ARG(opts.alpha > 0 && opts.beta > 0, "bfs", "alpha and beta must be positive");
  detail::profiling_region region("bitgraph::bfs");

  bfs_result<mem> res;
  res.levels = allocate_view<Kokkos::View<level_t*, mem>>("bitgraph::bfs::levels", n, false);
  Kokkos::deep_copy(exec, res.levels, unreached_level);
  Kokkos::deep_copy(exec, Kokkos::subview(res.levels, source), level_t(0));
  if (opts.parents) {
    res.parents = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bfs::parents", n, false);
    Kokkos::deep_copy(exec, res.parents, invalid_vertex);
    Kokkos::deep_copy(exec, Kokkos::subview(res.parents, source), source);
  }
  auto visited = make_bitmap(exec, n);
  Kokkos::deep_copy(exec, Kokkos::subview(visited.words, source / 32), std::uint32_t(1) << (source % 32));
  auto frontier_bits = make_bitmap(exec, n);
  Kokkos::deep_copy(exec, frontier_bits.words, visited.words);
  sparse_vector<vertex_t, mem> frontier_sparse = make_sparse_vector<ExecSpace, vertex_t>(exec, n, {source}, {});
  // The frontier in up to three forms; which are current depends on the step that made it.
  bool bits_valid = true;    // frontier_bits: made by pulls, SpMSpV and B2SR pushes
  bool sparse_valid = true;  // frontier_sparse: made by SpMSpV pushes
  bool queue_valid = false;  // queue: made by queue pushes (allocated at the first)
  Kokkos::View<vertex_t*, mem> queue, queue_next;
  Kokkos::View<offset_t, mem> queue_counter;
  offset_t queue_len = 0;
  offset_t nf = 1;
  double prev_ratio = 0;
  bool pulling = opts.mode == bfs_mode::pull;
  const auto& at = g.in_b2sr();

  mxv_options mo;
  mo.algorithm = opts.algorithm;
  mo.early_exit = opts.early_exit;
  spmspv_options so;
  so.algorithm = opts.algorithm;
  so.merge = opts.merge;

  // Two frontier bitmaps, swapped every level: allocating per level costs more than the level itself
  // on a GPU when the frontier is small (high-diameter graphs).
  auto next = make_bitmap(exec, n);
  for (level_t d = 1;; ++d) {
    const double ratio = n ? double(nf) / double(n) : 0.0;
    if (opts.mode == bfs_mode::direction_optimized) {
      if (!pulling && ratio > opts.alpha && ratio >= prev_ratio)
        pulling = true;
      else if (pulling && ratio < opts.beta && ratio < prev_ratio)
        pulling = false;
    }
    prev_ratio = ratio;
    if (!bits_valid && (pulling ? !opts.operand_reuse : opts.push_kernel != bfs_push_kernel::queue)) {
      // Only a queue push leaves the bitmap stale; rebuild it where the next step reads it.
      Kokkos::deep_copy(exec, frontier_bits.words, std::uint32_t(0));
      Kokkos::parallel_for("bitgraph::bfs::queue_to_bits",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, queue_len),
                           detail::bfs_queue_to_bits_functor<mem>{frontier_bits.words, queue});
      bits_valid = true;
    }
    if (!pulling && opts.push_kernel == bfs_push_kernel::queue) {
      res.directions += 'p';
      if (queue.extent(0) == 0) {
        queue = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bfs::queue", n, false);
        queue_next = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bfs::queue_next", n, false);
        queue_counter = Kokkos::View<offset_t, mem>("bitgraph::bfs::queue_counter");
      }
      if (!queue_valid) {
        auto s = to_sparse(exec, frontier_bits);
        queue_len = s.nnz;
        Kokkos::deep_copy(exec, Kokkos::subview(queue, std::make_pair(offset_t(0), s.nnz)),
                          Kokkos::subview(s.indices, std::make_pair(offset_t(0), s.nnz)));
      }
      // The step claims, levels and queues the new vertices itself: no commit pass.
      nf = detail::bfs_push_queue(exec, g.csr, queue, queue_len, queue_next, queue_counter, visited, res.levels,
                                  opts.parents ? res.parents : Kokkos::View<vertex_t*, mem>(), d);
      std::swap(queue, queue_next);
      queue_len = nf;
      queue_valid = true;
      bits_valid = false;
      sparse_valid = false;
    } else {
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
    }
    if (nf == 0) {
      res.depth = d - 1;
      res.directions.pop_back();
      break;
    }
  }
  // Reached vertices and the edges of their out-rows.
  offset_t reached = 0, entries = 0;
  Kokkos::parallel_reduce("bitgraph::bfs::stats", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                          detail::bfs_stats_functor<mem>{res.levels, g.csr.row_ptr}, reached, entries);
  res.reached = reached;
  res.traversed_edges = g.directed() ? entries : entries / 2;
  exec.fence();
  return res;
}

}  // namespace bitgraph
