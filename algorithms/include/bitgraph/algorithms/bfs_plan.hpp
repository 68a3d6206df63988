// A BFS prepared for many traversals of one graph: the engine (the direction-optimised BFS on the CSR and bits,
// or Blest's tensor-core BFS on a BVSS) chosen once per graph, by a cost model for the preprocessing and by
// timing both engines on a few sources, so that a traversal never runs the slower engine.
#pragma once

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/blest.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"

namespace bitgraph {

/// The traversal engines a plan chooses between.
enum class bfs_engine : std::uint8_t {
  automatic,            ///< chosen by `make_bfs_plan` (never the result of a plan)
  direction_optimized,  ///< `bfs` (push / pull by Beamer's switch), with parents when asked
  tensor_core,          ///< `bfs_tensor_core` (Blest: BVSS pulls on tensor cores, bottom-up heavy levels)
};

/// "auto", "do" or "tc".
inline std::string_view to_string(bfs_engine e) noexcept {
  return e == bfs_engine::direction_optimized ? "do" : e == bfs_engine::tensor_core ? "tc" : "auto";
}

/// Options of `make_bfs_plan`.
struct bfs_plan_options {
  bfs_engine engine = bfs_engine::automatic;  ///< force an engine, or let the plan choose
  /// Traversals the plan is expected to serve. The tensor-core engine needs an ordering and a BVSS first; it is
  /// built and tried only when this many direction-optimised traversals would take longer than the estimated
  /// preparation, so that the preparation can pay for itself. Must be at least 1.
  std::uint64_t traversals = 64;
  int trials = 5;           ///< sources timed per engine (after one warm-up call each); at least 1
  bool parents = false;     ///< traversals produce a BFS tree: only the direction-optimised engine can
  blest_options blest;      ///< the ordering of the tensor-core candidate
  bfs_options traversal;    ///< options of the direction-optimised engine (its `parents` is this plan's)
  bvss_bfs_options tensor;  ///< options of the tensor-core engine
};

/// A graph with its chosen BFS engine and the buffers both engines reuse. Not thread-safe: one traversal at a
/// time per plan.
template <class MemorySpace>
struct bfs_plan {
  bit_graph<MemorySpace> graph;  ///< the caller's graph (views shared, not copied)
  bfs_engine engine = bfs_engine::direction_optimized;
  blest_graph<MemorySpace> blest;  ///< built when the tensor-core engine was tried
  bool blest_built = false;
  bfs_plan_options options;
  double direction_optimized_seconds = -1;   ///< mean of the timed trials (-1: not timed)
  double tensor_core_seconds = -1;           ///< mean of the timed trials, same sources (-1: not tried)
  double estimated_preparation_seconds = 0;  ///< the cost model's figure for ordering + BVSS
  double preparation_seconds = 0;            ///< the measured ordering + BVSS build, when built
  bfs_workspace<MemorySpace> workspace;
  Kokkos::View<level_t*, MemorySpace> levels;  ///< the tensor-core engine's output buffer
};

/// Prepares BFS on `g`: with `opts.engine == automatic` (and no parents asked) it times the direction-optimised
/// engine on `opts.trials` sources; if `opts.traversals` of them would outlast the estimated preparation of the
/// tensor-core engine (`detail::blest_preparation_estimate`: ordering and BVSS build per stored entry, by space), it
/// builds that engine, times it on the same sources and keeps the one of the smaller mean (what many traversals pay;
/// the engines' ratio varies by source, so each engine's median, taken at different sources, could pick the slower
/// one). Trial sources: vertices with out-edges, from a fixed seed. Throws
/// `invalid_argument_error` for `traversals` or `trials` below 1, `tensor_core` forced together with parents,
/// or an empty graph; what the engines throw. Fences `exec`.
template <class ExecSpace>
bfs_plan<memory_space_t<ExecSpace>> make_bfs_plan(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                                  const bfs_plan_options& opts = {});

/// BFS from `source` with the plan's engine: levels (and parents when the plan was made with them) and the depth
/// as `bfs` returns them; the tensor-core engine leaves `reached`, `traversed_edges` 0 and `directions` empty. The
/// result's views alias the plan's buffers (valid until the next traversal). Throws `invalid_argument_error` for
/// source >= n. Fences `exec`.
template <class ExecSpace>
bfs_result<memory_space_t<ExecSpace>> bfs(const ExecSpace& exec, bfs_plan<memory_space_t<ExecSpace>>& plan,
                                          vertex_t source);

namespace detail {

/// Seconds the tensor-core engine's preparation (`make_blest_graph`: ordering, BVSS, pull CSR) is expected to take
/// for `nnz` stored entries: about the largest per-entry costs measured (docs/PERFORMANCE.md, 2026-12-07). On a GPU,
/// 4 ns with a device ordering (cluster, degree, none; 0.6-2.5 measured on H100 and H200) and 65 ns with the host's
/// RCM (32-65); on host spaces 125 ns with the device orderings (56-124 measured on one and two threads: the threads
/// shorten it little) and 55 ns with RCM (53).
template <class ExecSpace>
constexpr double blest_preparation_estimate(offset_t nnz, bool device_order) {
  if constexpr (is_host_space_v<ExecSpace>)
    return double(nnz) * (device_order ? 125e-9 : 55e-9);
  else
    return double(nnz) * (device_order ? 4e-9 : 65e-9);
}

/// Mean seconds of `run(i)` over i < trials.
template <class F>
double mean_seconds(int trials, F&& run) {
  double sum = 0;
  for (int i = 0; i < trials; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run(i);
    sum += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return sum / trials;
}

}  // namespace detail

template <class ExecSpace>
bfs_plan<memory_space_t<ExecSpace>> make_bfs_plan(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                                  const bfs_plan_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = g.n();
  BITGRAPH_CHECK_ARG(n > 0, "make_bfs_plan", "the graph has no vertices");
  BITGRAPH_CHECK_ARG(opts.traversals >= 1 && opts.trials >= 1, "make_bfs_plan",
                     "traversals and trials must be at least 1, not ", opts.traversals, " and ", opts.trials);
  BITGRAPH_CHECK_ARG(!(opts.parents && opts.engine == bfs_engine::tensor_core), "make_bfs_plan",
                     "the tensor-core engine produces no parents");
  detail::profiling_region region("bitgraph::make_bfs_plan");
  bfs_plan<mem> p;
  p.graph = g;
  p.options = opts;
  p.options.traversal.parents = opts.parents;
  auto build_blest = [&](const blest_options& bo) {
    const auto t0 = std::chrono::steady_clock::now();
    p.blest = make_blest_graph(exec, g, bo);
    p.blest_built = true;
    p.preparation_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    p.levels = allocate_view<Kokkos::View<level_t*, mem>>("bitgraph::bfs_plan::levels", n, false);
  };
  if (opts.engine != bfs_engine::automatic) {
    p.engine = opts.engine;
    if (p.engine == bfs_engine::tensor_core) build_blest(opts.blest);
    return p;
  }
  p.engine = bfs_engine::direction_optimized;
  if (opts.parents) return p;  // only one engine can serve
  // Trial sources: vertices with out-edges (a BFS from an isolated vertex says nothing about either engine).
  const auto row_ptr = detail::copy_to_host(exec, g.csr.row_ptr);
  std::vector<vertex_t> trials;
  std::mt19937_64 rng(27491095);
  std::uniform_int_distribution<vertex_t> pick(0, n - 1);
  for (int tries = 0; int(trials.size()) < opts.trials && tries < 1000 * opts.trials; ++tries) {
    const vertex_t v = pick(rng);
    if (row_ptr[v + 1] > row_ptr[v]) trials.push_back(v);
  }
  if (trials.empty()) return p;  // no edges: nothing to traverse, nothing to choose
  // The tensor-core engine's ordering, resolved once on its pull matrix (the in-edges): the estimate and the
  // build below use the same one.
  blest_options bo = opts.blest;
  if (bo.ordering == blest_ordering::automatic || !bo.shallow.has_value()) {
    const auto shape = detail::blest_graph_shape(
        exec, g, g.directed() ? detail::copy_to_host(exec, g.in_csr().row_ptr) : row_ptr, &row_ptr);
    if (bo.ordering == blest_ordering::automatic) bo.ordering = shape.ordering;
    bo.shallow = bo.shallow.value_or(shape.shallow);
  }
  const bool device_order = bo.ordering == blest_ordering::cluster || bo.ordering == blest_ordering::degree ||
                            bo.ordering == blest_ordering::none;
  p.estimated_preparation_seconds = detail::blest_preparation_estimate<ExecSpace>(g.csr.nnz, device_order);
  bfs(exec, g, trials[0], p.options.traversal, p.workspace);  // warm-up: buffers, first launches
  p.direction_optimized_seconds = detail::mean_seconds(
      opts.trials, [&](int i) { bfs(exec, g, trials[i % trials.size()], p.options.traversal, p.workspace); });
  if (double(opts.traversals) * p.direction_optimized_seconds <= p.estimated_preparation_seconds) return p;
  build_blest(bo);
  bfs_tensor_core(exec, p.blest, trials[0], p.levels, opts.tensor);  // warm-up
  p.tensor_core_seconds = detail::mean_seconds(
      opts.trials, [&](int i) { bfs_tensor_core(exec, p.blest, trials[i % trials.size()], p.levels, opts.tensor); });
  if (p.tensor_core_seconds < p.direction_optimized_seconds) p.engine = bfs_engine::tensor_core;
  return p;
}

template <class ExecSpace>
bfs_result<memory_space_t<ExecSpace>> bfs(const ExecSpace& exec, bfs_plan<memory_space_t<ExecSpace>>& plan,
                                          vertex_t source) {
  detail::check_source<ExecSpace>("bfs", source, plan.graph.n());
  if (plan.engine != bfs_engine::tensor_core)
    return bfs(exec, plan.graph, source, plan.options.traversal, plan.workspace);
  bfs_result<memory_space_t<ExecSpace>> r;
  const auto st = bfs_tensor_core(exec, plan.blest, source, plan.levels, plan.options.tensor);
  r.levels = plan.levels;
  r.depth = st.depth;
  return r;
}

}  // namespace bitgraph
