// Connected components of an undirected graph, weakly connected components of a directed one: Afforest
// (Sutton, Ben-Nun, Barak) over the CSR by default, FastSV (Zhang, Azad, Buluç) with MIN_SECOND products on
// B2SR on request.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

#include "bitgraph/algorithms/detail/components_kernels.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/launch.hpp"
#include "bitgraph/ops/mxv.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// Which method `connected_components` runs.
enum class components_method {
  automatic,  ///< Afforest
  afforest,   ///< Afforest over the CSR: sampled linking, then only the edges off the giant component
  fastsv,     ///< FastSV with MIN_SECOND products on the B2SR form
};

/// Options of `connected_components`.
struct components_options {
  op_algorithm algorithm = op_algorithm::automatic;  ///< the B2SR products' path (FastSV only)
  components_method method = components_method::automatic;
};

/// Result: `labels[v]` is the root of v's component (the smallest vertex id in it: both methods hook the
/// larger root under the smaller id), the same for every vertex of a component, fully flattened.
template <class MemorySpace>
struct components_result {
  Kokkos::View<vertex_t*, MemorySpace> labels;
  vertex_t count = 0;  ///< number of components
  /// FastSV: rounds (B2SR pulls of A, and of A^T for a directed graph). Afforest: link passes over the
  /// CSR, the two neighbour rounds and the final pass (3; 0 for an empty graph).
  int iterations = 0;
};

/// Connected components of `g` (weakly connected components of a directed graph).
///
/// Afforest (`components_method::afforest`, and `automatic`): parent pointers comp, comp(v) = v. Two
/// neighbour rounds link every vertex u to its r-th CSR neighbour (r = 0, 1) by lock-free union (find both
/// roots with path halving, hook the larger root under the smaller id by compare-exchange), each followed
/// by a compress (pointer jumping to the root). The labels of 1024 pseudo-random vertices (fixed seed) then
/// name the most frequent component c, and a final pass links, for every vertex not in c, its remaining
/// out-neighbours and, for a directed graph, all its in-neighbours (`csr_t`); a last compress flattens the
/// trees. An edge with one end in c is linked from the other end; one with both ends in c needs none.
/// Work: O(n) for the neighbour rounds, compresses and sampling, plus the edges of the vertices outside c
/// (every edge in the worst case, none beyond the first two per vertex when one component holds the whole
/// graph), times the short tree walks of each link; no product, no B2SR form. Rows longer than 32 entries
/// are linked by a team kernel (vector lanes over the row). `opts.algorithm` is not used, but a CUDA path
/// on a host space still throws.
///
/// FastSV (`components_method::fastsv`): f = parent pointers, gp = grandparents. Each round: mngp = min
/// over neighbours of gp (A ⊗ gp over MIN_SECOND, accumulated with min), stochastic hooking
/// f(f(u)) = min(f(f(u)), mngp(u)), aggressive hooking f = min(f, mngp), shortcutting f = min(f, gp),
/// gp = f(f); stop when gp is stable, then flatten every tree to its root. A directed graph uses A and A^T
/// together. `opts.algorithm` goes to the B2SR pulls as given. Work per round: one or two B2SR pulls (the
/// tiles of A, A^T) plus O(n); O(log n) rounds in practice.
///
/// Throws `unsupported_error` for a CUDA path on a host space (or, with FastSV, one the products do not
/// offer), `allocation_error` when a buffer does not fit, `error` when FastSV has not converged after
/// n + 64 rounds. Afforest reads the 1024 sampled labels back once; FastSV reads a count back every
/// round. Both fence `exec` before they return.
template <class ExecSpace>
components_result<memory_space_t<ExecSpace>> connected_components(const ExecSpace& exec,
                                                                  const bit_graph<memory_space_t<ExecSpace>>& g,
                                                                  const components_options& opts = {});

namespace detail {

/// Neighbour rounds of Afforest before the giant component is sampled (GAP's default).
inline constexpr int afforest_neighbour_rounds = 2;
/// Vertices whose labels are sampled to find the giant component (GAP's choice).
inline constexpr int afforest_samples = 1024;

template <class ExecSpace>
components_result<memory_space_t<ExecSpace>> components_afforest(const ExecSpace& exec,
                                                                 const bit_graph<memory_space_t<ExecSpace>>& g) {
  using mem = memory_space_t<ExecSpace>;
  using range = Kokkos::RangePolicy<ExecSpace>;
  const vertex_t n = g.n();
  components_result<mem> res;
  auto comp = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::cc::parent", n, false);
  res.labels = comp;
  if (n == 0) return res;
  const Kokkos::View<const offset_t*, mem> row_ptr = g.csr.row_ptr;
  const Kokkos::View<const vertex_t*, mem> col = g.csr.col_idx;
  Kokkos::parallel_for("bitgraph::cc::afforest_init", range(exec, 0, n), cc_afforest_init_functor<mem>{comp});
  // Neighbour rounds, each compressed before the next: on the H100 this beat one pass over both
  // neighbours (kron:22 1.16 against 1.41 ms in all) as the second round then finds flat trees.
  for (int r = 0; r < afforest_neighbour_rounds; ++r) {
    ++res.iterations;
    Kokkos::parallel_for("bitgraph::cc::afforest_link_sample", range(exec, 0, n),
                         cc_link_sample_functor<mem>{comp, row_ptr, col, offset_t(r)});
    Kokkos::parallel_for("bitgraph::cc::afforest_compress", range(exec, 0, n), cc_compress_functor<mem>{comp});
  }
  // The most frequent label among the samples: the giant component, when there is one.
  auto sample = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::cc::sample", afforest_samples, false);
  Kokkos::parallel_for("bitgraph::cc::afforest_sample", Kokkos::RangePolicy<ExecSpace>(exec, 0, afforest_samples),
                       cc_sample_functor<mem>{comp, sample, n});
  auto hs = Kokkos::create_mirror_view(Kokkos::HostSpace{}, sample);
  Kokkos::deep_copy(exec, hs, sample);
  exec.fence();
  std::sort(hs.data(), hs.data() + afforest_samples);
  vertex_t giant = hs(0);
  int best = 0;
  for (int i = 0; i < afforest_samples;) {
    int j = i;
    while (j < afforest_samples && hs(j) == hs(i)) ++j;
    if (j - i > best) {
      best = j - i;
      giant = hs(i);
    }
    i = j;
  }
  // The final pass: the edges of the vertices outside the giant component, long rows queued for teams.
  ++res.iterations;
  const bool directed = g.directed();
  const offset_t skip = afforest_neighbour_rounds;
  const offset_t cap = std::min<offset_t>(n, g.csr.nnz / (cc_heavy_row + 1) + 1);
  auto heavy = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::cc::heavy_rows", cap, false);
  auto heavy_in =
      directed ? allocate_view<Kokkos::View<vertex_t*, mem>>(
                     "bitgraph::cc::heavy_in_rows", std::min<offset_t>(n, g.csr_t.nnz / (cc_heavy_row + 1) + 1), false)
               : Kokkos::View<vertex_t*, mem>();
  auto heavy_count = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::cc::heavy_count", 2);
  const Kokkos::View<const offset_t*, mem> in_row_ptr = directed ? g.csr_t.row_ptr : Kokkos::View<offset_t*, mem>();
  const Kokkos::View<const vertex_t*, mem> in_col = directed ? g.csr_t.col_idx : Kokkos::View<vertex_t*, mem>();
  Kokkos::parallel_for(
      "bitgraph::cc::afforest_link_rest", range(exec, 0, n),
      cc_link_rest_functor<mem>{comp, row_ptr, col, in_row_ptr, in_col, heavy, heavy_in, heavy_count, skip, giant});
  const auto shape = shape_for<ExecSpace>(32);
  const int league = static_cast<int>(std::min<offset_t>(ceil_div<offset_t>(cap, shape.team_size), 4096));
  const Kokkos::View<const offset_t*, mem> counts = heavy_count;
  Kokkos::parallel_for("bitgraph::cc::afforest_link_heavy",
                       Kokkos::TeamPolicy<ExecSpace>(exec, league, shape.team_size, shape.vector_length),
                       cc_link_heavy_functor<ExecSpace>{comp, row_ptr, col, heavy, counts, 0, skip});
  if (directed) {
    const int league_in =
        static_cast<int>(std::min<offset_t>(ceil_div<offset_t>(heavy_in.extent(0), shape.team_size), 4096));
    Kokkos::parallel_for("bitgraph::cc::afforest_link_heavy",
                         Kokkos::TeamPolicy<ExecSpace>(exec, league_in, shape.team_size, shape.vector_length),
                         cc_link_heavy_functor<ExecSpace>{comp, in_row_ptr, in_col, heavy_in, counts, 1, 0});
  }
  Kokkos::parallel_for("bitgraph::cc::afforest_compress", range(exec, 0, n), cc_compress_functor<mem>{comp});
  vertex_t roots = 0;
  Kokkos::parallel_reduce("bitgraph::cc::count", range(exec, 0, n), cc_count_functor<mem>{comp}, roots);
  res.count = roots;
  return res;
}

template <class ExecSpace>
components_result<memory_space_t<ExecSpace>> components_fastsv(const ExecSpace& exec,
                                                               const bit_graph<memory_space_t<ExecSpace>>& g,
                                                               const components_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  using S = min_second<vertex_t>;
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
  return res;
}

}  // namespace detail

template <class ExecSpace>
components_result<memory_space_t<ExecSpace>> connected_components(const ExecSpace& exec,
                                                                  const bit_graph<memory_space_t<ExecSpace>>& g,
                                                                  const components_options& opts) {
  detail::check_algorithm<ExecSpace>(opts.algorithm, "connected_components");
  detail::profiling_region region("bitgraph::connected_components");
  auto res = opts.method == components_method::fastsv ? detail::components_fastsv(exec, g, opts)
                                                      : detail::components_afforest(exec, g);
  exec.fence();
  return res;
}

}  // namespace bitgraph
