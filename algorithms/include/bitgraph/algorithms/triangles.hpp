// Triangle counting by the masked product L·L^T on B2SR with the reduction fused
// (bmm_bin_bin_sum_masked): Σ_{(i,j) ∈ L} |L(i,:) ∩ L(j,:)| counts every triangle once.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/ops/mxm.hpp"
#include "bitgraph/ops/select.hpp"

namespace bitgraph {

/// Options of `triangle_count`.
struct triangles_options {
  op_algorithm algorithm = op_algorithm::automatic;
};

/// Result of `triangle_count`.
struct triangles_result {
  std::uint64_t triangles = 0;
  offset_t lower_entries = 0;  ///< entries of L (the undirected edges without self-loops)
  offset_t lower_tiles = 0;    ///< non-empty tiles of L
};

/// Counts the triangles of an undirected graph: L = strictly lower triangle of A (self-loops dropped),
/// then Σ (L ⊕.⊗ L^T) .* L over (+, AND), fused into one masked BMM. A directed graph is rejected:
/// symmetrise it first (`symmetrize`), since a triangle's orientation would otherwise matter. Unless
/// `opts.algorithm` is `generic`, L is rebuilt from the CSR in the tile layout the space's fastest masked
/// BMM reads; `opts.algorithm` goes to the BMM as given.
/// Work: O(nnz) for the selection plus the masked BMM (per entry of L, the tile intersection of two rows).
/// Throws `invalid_argument_error` for a directed graph, `unsupported_error` for a CUDA path on a host
/// space (or one the BMM does not offer), `allocation_error` when a buffer does not fit. Synchronous: the
/// count is read back to the host.
template <class ExecSpace>
triangles_result triangle_count(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                const triangles_options& opts = {});

template <class ExecSpace>
triangles_result triangle_count(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                const triangles_options& opts) {
  detail::check_algorithm<ExecSpace>(opts.algorithm, "triangle_count");
  BITGRAPH_CHECK_ARG(!g.directed(), "triangle_count",
                     "the graph is directed; triangle counting needs an undirected graph (symmetrize it first)");
  detail::profiling_region region("bitgraph::triangle_count");
  // L in the tile layout the space's fastest masked BMM reads (selected from the CSR then), else
  // selected from the graph's own B2SR.
  constexpr int preferred = bmm_preferred_tile<ExecSpace>::value;
  const bool rebuild = preferred != 0 && opts.algorithm != op_algorithm::generic &&
                       (g.b2sr.tile_dim != preferred || g.b2sr.order != bit_order::row_major);
  auto l = rebuild ? to_b2sr(exec, select(exec, g.csr, select_kind::tril, -1), {preferred, bit_order::row_major})
                   : select(exec, g.b2sr, select_kind::tril, -1);
  mxm_options mo;
  mo.algorithm = opts.algorithm;
  triangles_result r;
  r.lower_entries = l.nnz;
  r.lower_tiles = l.n_tiles;
  // M = L, A = L and B = L^T, whose transpose (the kernel's operand) is L itself.
  r.triangles = bmm_sum_masked(exec, l, l, l, mo);
  return r;
}

}  // namespace bitgraph
