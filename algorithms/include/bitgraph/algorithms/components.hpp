// Connected components by FastSV (Zhang, Azad, Buluç) with MIN_SECOND products on B2SR: components of an
// undirected graph, weakly connected components of a directed one.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/algorithms/detail/components_kernels.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/ops/mxv.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// Options of `connected_components`.
struct components_options {
  op_algorithm algorithm = op_algorithm::automatic;
};

/// Result: `labels[v]` is the root of v's component (the smallest vertex id in it: hooking always takes
/// minima), the same for every vertex of a component.
template <class MemorySpace>
struct components_result {
  Kokkos::View<vertex_t*, MemorySpace> labels;
  vertex_t count = 0;  ///< number of components
  int iterations = 0;
};

/// Connected components by FastSV: f = parent pointers, gp = grandparents. Each round: mngp = min over
/// neighbours of gp (A ⊗ gp over MIN_SECOND, accumulated with min), stochastic hooking
/// f(f(u)) = min(f(f(u)), mngp(u)), aggressive hooking f = min(f, mngp), shortcutting f = min(f, gp),
/// gp = f(f); stop when gp is stable, then flatten every tree to its root. A directed graph uses A and A^T
/// together, which gives its weakly connected components. `opts.algorithm` goes to the B2SR pulls as given.
/// Work per round: one or two B2SR pulls (the tiles of A, A^T) plus O(n); O(log n) rounds in practice.
/// Throws `unsupported_error` for a CUDA path on a host space (or one the products do not offer),
/// `allocation_error` when a buffer does not fit, `error` when FastSV has not converged after n + 64
/// rounds. Reads a count back every round and fences `exec` before it returns.
template <class ExecSpace>
components_result<memory_space_t<ExecSpace>> connected_components(const ExecSpace& exec,
                                                                  const bit_graph<memory_space_t<ExecSpace>>& g,
                                                                  const components_options& opts = {});

template <class ExecSpace>
components_result<memory_space_t<ExecSpace>> connected_components(const ExecSpace& exec,
                                                                  const bit_graph<memory_space_t<ExecSpace>>& g,
                                                                  const components_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  using S = min_second<vertex_t>;
  detail::check_algorithm<ExecSpace>(opts.algorithm, "connected_components");
  detail::profiling_region region("bitgraph::connected_components");
  const vertex_t n = g.n();
  components_result<mem> res;
  auto f = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::cc::parent", n, false);
  auto gp = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::cc::grandparent", n, false);
  auto mngp = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::cc::min_neighbour_gp", n, false);
  Kokkos::parallel_for("bitgraph::cc::init", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                       detail::cc_init_functor<mem>{f, gp, mngp});
  mxv_options mo;
  mo.algorithm = opts.algorithm;
  mo.direction = mxv_direction::pull;
  const auto gpc = Kokkos::View<const vertex_t*, mem>(gp);
  while (true) {
    ++res.iterations;
    BITGRAPH_REQUIRE(res.iterations <= 64 + int(n), error, "connected_components", "FastSV did not converge");
    mxv(exec, mngp, no_mask{}, accumulate_with<min_monoid<vertex_t>>{}, S{}, g.b2sr, gpc, mo);
    if (g.directed()) mxv(exec, mngp, no_mask{}, accumulate_with<min_monoid<vertex_t>>{}, S{}, g.b2sr_t, gpc, mo);
    Kokkos::parallel_for("bitgraph::cc::hook", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                         detail::cc_hook_functor<mem>{f, mngp, gp});
    offset_t changed = 0;
    Kokkos::parallel_reduce("bitgraph::cc::grandparents", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                            detail::cc_grandparents_functor<mem>{f, gp}, changed);
    if (changed == 0) break;
  }
  // Flatten completely so every label is its tree's root.
  offset_t moved = 1;
  while (moved > 0) {
    Kokkos::parallel_reduce("bitgraph::cc::flatten", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                            detail::cc_flatten_functor<mem>{f}, moved);
  }
  vertex_t roots = 0;
  Kokkos::parallel_reduce("bitgraph::cc::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                          detail::cc_count_functor<mem>{f}, roots);
  res.labels = f;
  res.count = roots;
  exec.fence();
  return res;
}

}  // namespace bitgraph
