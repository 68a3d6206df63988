// Single-source shortest paths: frontier Bellman-Ford over MIN_PLUS — on B2SR for unit weights (as
// Bit-GraphBLAS), on the CSR weights held beside the bit structure (SpMSpV) for weighted graphs.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/detail/sssp_kernels.hpp"
#include "bitgraph/algorithms/detail/sssp_near_far.hpp"
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

/// How `sssp` relaxes.
enum class sssp_method : std::uint8_t {
  automatic,     ///< `bfs` for unit weights, `near_far` for weighted graphs
  bfs,           ///< unit weights only: the direction-optimised BFS's levels
  near_far,      ///< weighted only: near-far delta-stepping (phases of width `delta`)
  bellman_ford,  ///< frontier Bellman-Ford: SpMSpV over the weights, or B2SR products for unit weights
};

/// Options of `sssp`.
struct sssp_options {
  /// Use the graph's edge weights (CSR values) when it has them; false treats every edge as weight 1
  /// and runs on the B2SR bits.
  bool use_weights = true;
  op_algorithm algorithm = op_algorithm::automatic;
  mxv_direction direction = mxv_direction::automatic;  ///< for the unit-weight B2SR products
  /// Stop after this many relaxation rounds (0: run until no distance improves). A capped run returns
  /// upper bounds on the distances and `converged = false`; benchmarks use it to time rounds on
  /// graphs whose diameter runs to thousands of rounds.
  int max_iterations = 0;
  /// Unit weights: `automatic` takes the direction-optimised BFS (its levels are the distances; a round is a
  /// level), `bellman_ford` the unit-weight B2SR products. Weighted: `automatic` takes near-far, `bellman_ford`
  /// SpMSpV rounds.
  sssp_method method = sssp_method::automatic;
  /// Near-far's phase width; 0: the mean weight times 32 over the mean degree.
  double delta = 0;
};

/// Result of `sssp`: distances (+infinity for unreachable vertices) and the number of relaxation rounds.
template <class MemorySpace>
struct sssp_result {
  Kokkos::View<double*, MemorySpace> dist;
  int iterations = 0;
  bool weighted = false;  ///< whether edge weights were used
  bool converged = true;  ///< false when `max_iterations` stopped the rounds before the fixed point
};

/// Shortest-path distances from `source` (+infinity where unreachable). A weighted graph (with
/// `opts.use_weights`) runs near-far delta-stepping by default (`sssp_method::near_far`: a vertex queue relaxed
/// round after round below a threshold, farther distances in a far pile split at threshold + `opts.delta` per
/// phase; a round is one relaxation of the queue) or frontier Bellman-Ford over MIN_PLUS (`bellman_ford`: SpMSpV
/// of the improved vertices over the CSR weights). Unit weights: by default the direction-optimised `bfs` (the level of
/// a vertex is its distance; round k finds distance k, the last round finds none), or (`sssp_method::bellman_ford`)
/// products on the B2SR bits (`vxm`, in `opts.direction`). `opts.algorithm` goes to the SpMSpV and the unit-weight
/// pulls as given; a unit-weight product that may push (any direction but pull) gets `detail::portable_step_path` of
/// it, since the pushes have only the portable kernel. Weighted graphs need finite non-negative weights (checked);
/// either way the rounds end after at most n - 1 improving rounds, or after `opts.max_iterations` (then `converged` is
/// false). Work per round: the frontier's out-edges (weighted) or one B2SR product (unit weights) plus O(n). Throws
/// `invalid_argument_error` for source >= n, a negative, NaN or infinite weight (the message counts each kind),
/// max_iterations < 0, a negative or NaN delta, or method `bfs` on weights, `unsupported_error` for a CUDA path on a
/// host space, `allocation_error` when a buffer does not fit. Reads a count back every round and fences `exec` before
/// it returns.
template <class ExecSpace>
sssp_result<memory_space_t<ExecSpace>> sssp(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                            vertex_t source, const sssp_options& opts = {});

/// Buffers `sssp` reuses across calls: the distances and the unit-weight traversal's `bfs_workspace` (one
/// workspace serves graphs of any size; it reallocates when n changes). A GPU allocation costs more than a
/// traversal of a small-diameter graph, so repeated queries should pass one.
template <class MemorySpace>
struct sssp_workspace {
  Kokkos::View<double*, MemorySpace> dist;  ///< the last call's distances: its result aliases them
  bfs_workspace<MemorySpace> bfs;           ///< the unit-weight traversal's buffers
};

/// `sssp` with reused buffers: the result's `dist` aliases `ws.dist`, so the next call with `ws` overwrites it.
/// Everything else as the overload without a workspace.
template <class ExecSpace>
sssp_result<memory_space_t<ExecSpace>> sssp(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                            vertex_t source, const sssp_options& opts,
                                            sssp_workspace<memory_space_t<ExecSpace>>& ws);

namespace detail {
template <class ExecSpace>
sssp_result<memory_space_t<ExecSpace>> sssp_run(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                                vertex_t source, const sssp_options& opts,
                                                sssp_workspace<memory_space_t<ExecSpace>>* ws);
}  // namespace detail

template <class ExecSpace>
sssp_result<memory_space_t<ExecSpace>> sssp(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                            vertex_t source, const sssp_options& opts) {
  return detail::sssp_run(exec, g, source, opts, nullptr);
}

template <class ExecSpace>
sssp_result<memory_space_t<ExecSpace>> sssp(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                            vertex_t source, const sssp_options& opts,
                                            sssp_workspace<memory_space_t<ExecSpace>>& ws) {
  return detail::sssp_run(exec, g, source, opts, &ws);
}

template <class ExecSpace>
sssp_result<memory_space_t<ExecSpace>> detail::sssp_run(const ExecSpace& exec,
                                                        const bit_graph<memory_space_t<ExecSpace>>& g, vertex_t source,
                                                        const sssp_options& opts,
                                                        sssp_workspace<memory_space_t<ExecSpace>>* ws) {
  using mem = memory_space_t<ExecSpace>;
  using S = min_plus<double>;
  const vertex_t n = g.n();
  detail::check_source<ExecSpace>("sssp", source, n);
  detail::check_algorithm<ExecSpace>(opts.algorithm, "sssp");
  BITGRAPH_CHECK_ARG(opts.max_iterations >= 0, "sssp", "max_iterations must be >= 0, not ", opts.max_iterations);
  BITGRAPH_CHECK_ARG(opts.delta >= 0, "sssp", "delta must be >= 0 (0: automatic), not ", opts.delta);  // NaN too
  detail::profiling_region region("bitgraph::sssp");
  const double inf = S::identity();
  sssp_result<mem> res;
  const auto capped = [&] { return opts.max_iterations > 0 && res.iterations >= opts.max_iterations; };
  res.weighted = opts.use_weights && g.csr.has_weights;
  if (ws == nullptr)
    res.dist = allocate_view<Kokkos::View<double*, mem>>("bitgraph::sssp::dist", n, false);
  else {
    if (ws->dist.extent(0) != std::size_t(n))
      ws->dist = allocate_view<Kokkos::View<double*, mem>>("bitgraph::sssp::dist", n, false);
    res.dist = ws->dist;
  }
  Kokkos::deep_copy(exec, res.dist, inf);
  Kokkos::deep_copy(exec, Kokkos::subview(res.dist, source), 0.0);
  auto dist = res.dist;

  if (res.weighted) {
    offset_t bad = 0;
    Kokkos::parallel_reduce("bitgraph::sssp::check_weights",
                            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.csr.nnz),
                            detail::sssp_check_weights_functor<mem>{g.csr.weights}, bad);
    if (bad != 0) {
      offset_t non_finite = 0;
      Kokkos::parallel_reduce("bitgraph::sssp::count_non_finite",
                              Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.csr.nnz),
                              detail::sssp_count_non_finite_functor<mem>{g.csr.weights}, non_finite);
      const offset_t negative = bad - non_finite;
      throw invalid_argument_error(detail::concat(
          "bitgraph::sssp: edge weights must be finite and non-negative: ",
          non_finite > 0 ? detail::concat(non_finite, " edges have NaN or infinite weights") : std::string(),
          non_finite > 0 && negative > 0 ? ", " : "",
          negative > 0 ? detail::concat(negative, " edges have negative weights") : std::string()));
    }
    BITGRAPH_CHECK_ARG(opts.method != sssp_method::bfs, "sssp",
                       "method bfs needs unit weights (use_weights = false, or a graph without weights)");
    if (opts.method != sssp_method::bellman_ford) {
      const double delta = opts.delta > 0 ? opts.delta : detail::sssp_default_delta(exec, g.csr);
      const auto done = detail::sssp_near_far(exec, g.csr, source, dist, delta, opts.max_iterations);
      res.iterations = done.first;
      res.converged = done.second;
      exec.fence();
      return res;
    }
    // Frontier Bellman-Ford: the frontier carries its distances; SpMSpV over MIN_PLUS yields the best
    // candidate per out-neighbour, which is kept where it improves.
    auto frontier = make_sparse_vector<ExecSpace, double>(exec, n, {source}, {0.0});
    spmspv_options so;
    so.algorithm = opts.algorithm;
    while (frontier.nnz > 0) {
      if (capped()) {
        res.converged = false;
        break;
      }
      ++res.iterations;
      BITGRAPH_REQUIRE(res.iterations <= int(n) + 1, error, "sssp", "no convergence after n rounds");
      sparse_vector<double, mem> cand;
      spmspv(exec, cand, no_mask{}, S{}, frontier, g.csr, so);
      auto improved = make_bitmap(exec, n);
      Kokkos::parallel_for("bitgraph::sssp::relax",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, cand.nnz),
                           detail::sssp_relax_functor<mem>{cand.indices, cand.values, dist, improved.words});
      auto next = to_sparse(exec, improved);
      frontier.n = n;
      frontier.nnz = next.nnz;
      frontier.indices = next.indices;
      frontier.values = allocate_view<Kokkos::View<double*, mem>>("bitgraph::sssp::frontier_values", next.nnz, false);
      Kokkos::parallel_for("bitgraph::sssp::frontier_values",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, next.nnz),
                           detail::sssp_frontier_values_functor<mem>{frontier.values, frontier.indices, dist});
    }
  } else if (opts.method != sssp_method::bellman_ford) {
    // Unit weights: BFS levels are the distances. Round k of Bellman-Ford finds distance k and one more round
    // finds nothing, so a traversal of depth D counts D + 1 rounds; a cap of k rounds keeps depths <= k.
    bfs_options bo;
    bo.parents = false;
    bo.algorithm = opts.algorithm;
    bo.max_depth = opts.max_iterations;
    auto b = ws == nullptr ? bfs(exec, g, source, bo) : bfs(exec, g, source, bo, ws->bfs);
    Kokkos::parallel_for("bitgraph::sssp::levels_to_dist", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                         detail::sssp_levels_to_dist_functor<mem>{b.levels, dist, inf});
    res.converged = opts.max_iterations == 0 || b.depth < opts.max_iterations;
    res.iterations = res.converged ? b.depth + 1 : opts.max_iterations;
  } else {
    // Unit weights on the bits: x holds the distances of the vertices improved last round (identity
    // elsewhere); t = A^T x over MIN_PLUS; keep the improvements.
    auto x = allocate_view<Kokkos::View<double*, mem>>("bitgraph::sssp::x", n, false);
    auto t = allocate_view<Kokkos::View<double*, mem>>("bitgraph::sssp::t", n, false);
    Kokkos::deep_copy(exec, x, inf);
    Kokkos::deep_copy(exec, Kokkos::subview(x, source), 0.0);
    mxv_options mo;
    // Pushes (sparse rounds) have only the portable kernel: a forced CUDA path applies to the pulls only.
    mo.algorithm = opts.direction == mxv_direction::pull ? opts.algorithm : detail::portable_step_path(opts.algorithm);
    mo.direction = opts.direction;
    offset_t active = 1;
    while (active > 0) {
      if (capped()) {
        res.converged = false;
        break;
      }
      ++res.iterations;
      BITGRAPH_REQUIRE(res.iterations <= int(n) + 1, error, "sssp", "no convergence after n rounds");
      Kokkos::deep_copy(exec, t, inf);
      vxm(exec, t, no_mask{}, no_accumulator{}, S{}, Kokkos::View<const double*, mem>(x), g.b2sr, mo,
          g.directed() ? &g.b2sr_t : nullptr);
      active = 0;
      Kokkos::parallel_reduce("bitgraph::sssp::relax_bits", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                              detail::sssp_relax_bits_functor<mem>{t, dist, x, inf}, active);
    }
  }
  exec.fence();
  return res;
}

}  // namespace bitgraph
