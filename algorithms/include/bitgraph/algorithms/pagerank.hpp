// PageRank on the B2SR bin·full→full product with out-degree scaling; dangling vertices handled as
// LAGraph's LAGr_PageRank (redistributed) or as GAP's pr.cc (ignored).
#pragma once

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

#include "bitgraph/algorithms/detail/pagerank_kernels.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/l2_resident.hpp"
#include "bitgraph/ops/mxv.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// What happens to the rank of vertices without out-edges (sinks).
enum class pagerank_dangling : std::uint8_t {
  redistribute,  ///< spread uniformly over all vertices each iteration (LAGraph LAGr_PageRank, LDBC)
  ignore,        ///< lost (GAP's pr.cc); ranks then sum to less than 1 on graphs with sinks
};

/// Which form of A^T the products of `pagerank` read.
enum class pagerank_product : std::uint8_t { automatic, bits, csr };

/// Options of `pagerank`.
struct pagerank_options {
  double damping = 0.85;
  double tolerance = 1e-4;  ///< stop when the L1 change of one iteration is below this
  int max_iterations = 100;
  pagerank_dangling dangling = pagerank_dangling::redistribute;
  op_algorithm algorithm = op_algorithm::automatic;
  /// The form the products read: the B2SR bits of A^T, its CSR, or (automatic) the one predicted faster for a
  /// full product on the space (`detail::bits_pay`).
  pagerank_product product = pagerank_product::automatic;
};

/// Result of `pagerank`.
template <class MemorySpace>
struct pagerank_result {
  Kokkos::View<double*, MemorySpace> rank;
  int iterations = 0;
  double last_change = 0;  ///< L1 change of the last iteration
};

/// PageRank: r(v) = (1 - d)/n [+ d/n Σ_sinks r] + d Σ_{u -> v} r(u) / outdeg(u), from r = 1/n, until
/// the L1 change falls below the tolerance or `max_iterations`. Each iteration is one pull product y = A^T w
/// (PLUS_TIMES, the scaled ranks w as input) over the B2SR or the CSR of A^T (`opts.product`), then one fused
/// pass that forms the new ranks, the change, the next w and the sinks' rank; `opts.algorithm` goes to the
/// product as given. Work per iteration: one pull (the tiles or entries of A^T) plus O(n); no allocation
/// inside the loop. Throws `invalid_argument_error` for damping outside [0, 1), a negative tolerance or
/// max_iterations <= 0, `unsupported_error` for a CUDA path on a host space (or one the product does not
/// offer), `allocation_error` when a buffer does not fit. Reads the two sums (16 bytes) back every iteration
/// and fences `exec` before it returns (an empty graph returns at once, with an empty rank). The products' input
/// w is held resident in the last-level cache for the run where the space can (`l2_resident_scope`).
template <class ExecSpace>
pagerank_result<memory_space_t<ExecSpace>> pagerank(const ExecSpace& exec,
                                                    const bit_graph<memory_space_t<ExecSpace>>& g,
                                                    const pagerank_options& opts = {});

template <class ExecSpace>
pagerank_result<memory_space_t<ExecSpace>> pagerank(const ExecSpace& exec,
                                                    const bit_graph<memory_space_t<ExecSpace>>& g,
                                                    const pagerank_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  using S = plus_times<double>;
  detail::check_algorithm<ExecSpace>(opts.algorithm, "pagerank");
  BITGRAPH_CHECK_ARG(opts.damping >= 0 && opts.damping < 1, "pagerank", "damping must be in [0, 1), not ",
                     opts.damping);
  BITGRAPH_CHECK_ARG(opts.tolerance >= 0, "pagerank", "tolerance must be non-negative");
  BITGRAPH_CHECK_ARG(opts.max_iterations > 0, "pagerank", "max_iterations must be positive");
  detail::profiling_region region("bitgraph::pagerank");
  const vertex_t n = g.n();
  pagerank_result<mem> res;
  res.rank = allocate_view<Kokkos::View<double*, mem>>("bitgraph::pagerank::rank", n, false);
  if (n == 0) return res;
  auto r = res.rank;
  auto w = allocate_view<Kokkos::View<double*, mem>>("bitgraph::pagerank::scaled", n, false);
  auto y = allocate_view<Kokkos::View<double*, mem>>("bitgraph::pagerank::product", n, false);
  const double d = opts.damping;
  const bool redistribute = opts.dangling == pagerank_dangling::redistribute;
  // Out-degrees scale the ranks; the product reads the in-edges (A^T), a pattern (weights ignored).
  const auto& out_ptr = g.csr.row_ptr;
  const csr_graph<mem> at = csr_pattern(g.in_csr());
  const bool bits = opts.product == pagerank_product::bits ||
                    (opts.product == pagerank_product::automatic && detail::bits_pay<ExecSpace>(at, g.in_b2sr()));
  double sink = 0;
  Kokkos::parallel_reduce("bitgraph::pagerank::init", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                          detail::pagerank_init_functor<mem>{out_ptr, r, w, d, 1.0 / n}, sink);
  mxv_options mo;
  mo.algorithm = opts.algorithm;
  mo.direction = mxv_direction::pull;
  const Kokkos::View<const double*, mem> wc = w;
  // Every product gathers w at random (power-law and random graphs): kept in the last-level cache where the
  // space can, while the column ids stream past it.
  const l2_resident_scope<ExecSpace> keep_w(exec, w);
  for (int it = 1; it <= opts.max_iterations; ++it) {
    res.iterations = it;
    const double teleport = (1.0 - d) / n + (redistribute ? d * sink / n : 0.0);
    if (bits)
      mxv(exec, y, no_mask{}, no_accumulator{}, S{}, g.in_b2sr(), wc, mo);
    else
      mxv(exec, y, no_mask{}, no_accumulator{}, S{}, at, wc, mo);
    detail::pagerank_sums sums;
    Kokkos::parallel_reduce("bitgraph::pagerank::update", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                            detail::pagerank_update_functor<mem>{out_ptr, y, r, w, d, teleport}, sums);
    sink = sums.sink;
    res.last_change = sums.change;
    if (sums.change < opts.tolerance) break;
  }
  exec.fence();
  return res;
}

}  // namespace bitgraph
