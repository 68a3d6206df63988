// Triangle counting, two ways: the degree-oriented CSR U with one sorted-list intersection per oriented
// edge, Σ_{(u,v)∈U} |U(u,:) ∩ U(v,:)|, whose cost follows the wedges it checks; or the masked product
// L·L^T on B2SR with the reduction fused (bmm_bin_bin_sum_masked), Σ_{(i,j) ∈ L} |L(i,:) ∩ L(j,:)|. Both
// count every triangle once.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>

#include "bitgraph/algorithms/detail/triangles_kernels.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/launch.hpp"
#include "bitgraph/ops/mxm.hpp"
#include "bitgraph/ops/select.hpp"

namespace bitgraph {

/// How `triangle_count` counts.
enum class triangles_method : std::uint8_t {
  automatic,  ///< oriented_intersection on host spaces for mean degree <= 64, else masked_bmm (see triangle_count)
  oriented_intersection,  ///< degree-oriented CSR, one sorted-list intersection per oriented edge (portable)
  masked_bmm,             ///< Σ (L·L^T) .* L as one masked B2SR BMM, on the kernel path `algorithm` picks
  /// degree-oriented CSR, U(u) as a bitmap of n bits in a team's scratch probed by each U(v) (portable; only
  /// where n bits fit the space's level-0 scratch, `detail::tc_bitmap_fits`)
  oriented_bitmap,
};

/// Name of a `triangles_method` as used on the command line ("auto", "oriented", "bmm").
inline std::string_view to_string(triangles_method m) {
  switch (m) {
    case triangles_method::automatic:
      return "auto";
    case triangles_method::oriented_intersection:
      return "oriented";
    case triangles_method::masked_bmm:
      return "bmm";
    case triangles_method::oriented_bitmap:
      return "bitmap";
  }
  return "?";
}

/// Options of `triangle_count`.
struct triangles_options {
  op_algorithm algorithm = op_algorithm::automatic;  ///< the masked BMM's kernel path
  triangles_method method = triangles_method::automatic;
};

/// Result of `triangle_count`.
struct triangles_result {
  std::uint64_t triangles = 0;
  /// masked_bmm: entries of L (the undirected edges without self-loops); oriented_intersection: the
  /// oriented edges (the same number).
  offset_t lower_entries = 0;
  offset_t lower_tiles = 0;  ///< masked_bmm: non-empty tiles of L; oriented_intersection: 0
  triangles_method method_used = triangles_method::automatic;  ///< the method that ran (never automatic)
};

namespace detail {

/// Oriented edges whose two lists both hold this many ids or more go to the team kernel (one vector group
/// per edge): 32 on CUDA, a warp's lanes; never on host spaces, whose threads gain nothing from it.
/// Whether `oriented_bitmap` can run on a graph of n vertices: n bits in one team's level-0 scratch.
template <class ExecSpace>
bool tc_bitmap_fits(vertex_t n) {
  return 4 * ceil_div<std::uint64_t>(n, 32) <= std::uint64_t(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0));
}

/// What `automatic` runs, as measured (docs/PERFORMANCE.md): on host spaces the oriented method on sparse graphs
/// and the BMM on dense ones; on the H100 the oriented method beat the BMM on every suite graph, and its bitmap
/// variant beat both on the dense graph it fits.
template <class ExecSpace>
triangles_method tc_automatic(const csr_graph<memory_space_t<ExecSpace>>& a, bool cuda_path) {
  if (cuda_path) return triangles_method::masked_bmm;
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space_t<ExecSpace>>::accessible;
  const bool sparse = a.nnz <= offset_t(64) * offset_t(a.n);
  if (host) return sparse ? triangles_method::oriented_intersection : triangles_method::masked_bmm;
  return !sparse && tc_bitmap_fits<ExecSpace>(a.n) ? triangles_method::oriented_bitmap
                                                   : triangles_method::oriented_intersection;
}

/// Throws `unsupported_error` when `method` is `oriented_bitmap` and n bits do not fit a team's scratch.
template <class ExecSpace>
void tc_require_fits(triangles_method method, vertex_t n, const char* func) {
  if (method == triangles_method::oriented_bitmap && !tc_bitmap_fits<ExecSpace>(n))
    throw unsupported_error(concat("bitgraph::", func, ": method 'bitmap' needs n = ", n,
                                   " bits in one team's scratch, more than this space offers (",
                                   Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0), " bytes)"));
}

template <class ExecSpace>
constexpr offset_t tc_heavy_default() {
  if constexpr (is_cuda_space_v<ExecSpace>)
    return 32;
  else
    return std::numeric_limits<offset_t>::max();
}

/// The oriented paths of `triangle_count` on the CSR `a` (undirected, rows ascending; self-loops and
/// repeats are dropped): builds U, where u→v iff (deg u, u) < (deg v, v), then sums |U(u,:) ∩ U(v,:)| over
/// its edges: by merges (edges whose two lists both hold `heavy_min` ids or more by the team kernel), or with
/// `bitmap` by one team per vertex probing its bitmap (`tc_count_bitmap_functor`; the caller checked
/// `tc_bitmap_fits`). Work: O(nnz) for U plus Σ over oriented edges of min(|U(u)| + |U(v)|, shorter · log
/// longer), or of |U(v)| with `bitmap`. A non-empty `per_vertex` (n entries, zeroed) also receives each vertex's
/// triangles (three atomic adds per triangle).
template <class ExecSpace>
triangles_result triangle_count_oriented(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a,
                                         bool bitmap = false,
                                         Kokkos::View<std::uint64_t*, memory_space_t<ExecSpace>> per_vertex = {},
                                         offset_t heavy_min = tc_heavy_default<ExecSpace>()) {
  using mem = memory_space_t<ExecSpace>;
  using edges = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
  BITGRAPH_CHECK_ARG(a.row_ptr.extent(0) == std::uint64_t(a.n) + 1 && a.col_idx.extent(0) >= a.nnz, "triangle_count",
                     "the graph's arrays do not match n = ", a.n, ", nnz = ", a.nnz);
  triangles_result r;
  r.method_used = bitmap ? triangles_method::oriented_bitmap : triangles_method::oriented_intersection;
  if (a.n == 0 || a.nnz == 0) return r;
  const vertex_t n = a.n;
  Kokkos::View<const offset_t*, mem> row_ptr = a.row_ptr;
  Kokkos::View<const vertex_t*, mem> col = a.col_idx;
  const auto shape = shape_for<ExecSpace>(static_cast<int>(std::min<offset_t>(a.nnz / n + 1, 32)));
  const int rows_league = static_cast<int>(
      std::min<std::uint64_t>(ceil_div<std::uint64_t>(n, shape.team_size), std::numeric_limits<int>::max()));
  const Kokkos::TeamPolicy<ExecSpace> rows(exec, rows_league, shape.team_size, shape.vector_length);

  // U by count, exclusive scan, fill; a row keeps the order of the CSR's (ascending).
  auto uptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::tc::uptr", offset_t(n) + 1);
  Kokkos::parallel_for("bitgraph::tc::orient_count", rows, tc_orient_count_functor<ExecSpace>{row_ptr, col, uptr, n});
  const offset_t m = exclusive_scan(exec, uptr, "bitgraph::tc::orient_scan");
  r.lower_entries = m;
  if (m == 0) return r;
  auto ucol = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::tc::ucol", m, false);
  auto usrc = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::tc::usrc", m, false);
  Kokkos::parallel_for("bitgraph::tc::orient_fill", rows,
                       tc_orient_fill_functor<ExecSpace>{row_ptr, col, uptr, ucol, usrc, n});

  std::uint64_t count = 0;
  if (bitmap) {
    const int words = static_cast<int>(ceil_div<std::uint64_t>(n, 32));
    const auto bshape = shape_for<ExecSpace>(32);
    // GPU: a team per vertex, so that the block scheduler balances vertices of very different work (one team
    // zeroes its bitmap only when its vertex has work). Host: a few teams per thread, each zeroing its bitmap once
    // (n / 32 words per vertex would cost more than the counting there).
    const int league = !Kokkos::SpaceAccessibility<Kokkos::HostSpace, mem>::accessible
                           ? static_cast<int>(n)
                           : static_cast<int>(std::min<std::uint64_t>(
                                 n, std::max<std::uint64_t>(1, 4 * std::uint64_t(exec.concurrency()) /
                                                                   (bshape.team_size * bshape.vector_length))));
    const auto scratch = Kokkos::PerTeam(tc_count_bitmap_functor<ExecSpace>::scratch_words::shmem_size(words));
    const Kokkos::TeamPolicy<ExecSpace> teams(exec, league, bshape.team_size, bshape.vector_length);
    // The per-vertex adds are a separate instantiation, keeping their branches out of the counting kernel.
    if (per_vertex.extent(0) > 0)
      Kokkos::parallel_reduce("bitgraph::tc::count_bitmap_per_vertex",
                              Kokkos::TeamPolicy<ExecSpace>(teams).set_scratch_size(0, scratch),
                              tc_count_bitmap_functor<ExecSpace, true>{uptr, ucol, n, words, per_vertex}, count);
    else
      Kokkos::parallel_reduce("bitgraph::tc::count_bitmap",
                              Kokkos::TeamPolicy<ExecSpace>(teams).set_scratch_size(0, scratch),
                              tc_count_bitmap_functor<ExecSpace>{uptr, ucol, n, words, per_vertex}, count);
    r.triangles = count;
    return r;
  }
  // Light edges one thread each (dynamic chunks: a host thread's edges differ widely in cost).
  Kokkos::parallel_reduce(
      "bitgraph::tc::count_light",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>, Kokkos::Schedule<Kokkos::Dynamic>>(exec, 0, m),
      tc_count_light_functor<mem>{uptr, ucol, usrc, heavy_min, per_vertex}, count);
  if (heavy_min != std::numeric_limits<offset_t>::max()) {
    offset_t n_heavy = 0;
    Kokkos::parallel_reduce("bitgraph::tc::heavy_count", edges(exec, 0, m),
                            tc_heavy_count_functor<mem>{uptr, ucol, usrc, heavy_min}, n_heavy);
    if (n_heavy > 0) {
      auto heavy = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::tc::heavy", n_heavy, false);
      Kokkos::parallel_scan("bitgraph::tc::heavy_list", edges(exec, 0, m),
                            tc_heavy_list_functor<mem>{uptr, ucol, usrc, heavy, heavy_min});
      const auto hshape = shape_for<ExecSpace>(32);
      const int league = static_cast<int>(
          std::min<std::uint64_t>(ceil_div<std::uint64_t>(n_heavy, hshape.team_size), std::numeric_limits<int>::max()));
      std::uint64_t heavy_count = 0;
      Kokkos::parallel_reduce("bitgraph::tc::count_heavy",
                              Kokkos::TeamPolicy<ExecSpace>(exec, league, hshape.team_size, hshape.vector_length),
                              tc_count_heavy_functor<ExecSpace>{uptr, ucol, usrc, heavy, n_heavy, per_vertex},
                              heavy_count);
      count += heavy_count;
    }
  }
  r.triangles = count;
  return r;
}

/// The masked-BMM path of `triangle_count`: L = strictly lower triangle of A, then Σ (L ⊕.⊗ L^T) .* L.
template <class ExecSpace>
triangles_result triangle_count_masked_bmm(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                           op_algorithm algorithm) {
  // L in the tile layout the space's fastest masked BMM reads (selected from the CSR then), else
  // selected from the graph's own B2SR.
  constexpr int preferred = bmm_preferred_tile<ExecSpace>::value;
  const bool rebuild = preferred != 0 && algorithm != op_algorithm::generic &&
                       (g.b2sr.tile_dim != preferred || g.b2sr.order != bit_order::row_major);
  auto l = rebuild ? to_b2sr(exec, select(exec, g.csr, select_kind::tril, -1), {preferred, bit_order::row_major})
                   : select(exec, g.b2sr, select_kind::tril, -1);
  mxm_options mo;
  mo.algorithm = algorithm;
  triangles_result r;
  r.method_used = triangles_method::masked_bmm;
  r.lower_entries = l.nnz;
  r.lower_tiles = l.n_tiles;
  // M = L, A = L and B = L^T, whose transpose (the kernel's operand) is L itself.
  r.triangles = bmm_sum_masked(exec, l, l, l, mo);
  return r;
}

}  // namespace detail

/// Counts the triangles of an undirected graph (self-loops ignored), by one of two methods, decided once:
/// - `oriented_intersection`: U keeps u→v iff (deg u, u) < (deg v, v), then
///   Σ_{(u,v)∈U} |U(u,:) ∩ U(v,:)|, one thread per oriented edge merging the two ascending lists, or
///   binary-searching the shorter one's ids in the longer one when their lengths differ widely; on CUDA the
///   edges whose lists both hold 32 ids or more go one warp each. Work: O(nnz) for U plus, per oriented
///   edge, min(|U(u)| + |U(v)|, shorter · log longer) — the orientation bounds every list by √(2·edges).
///   Portable (no kernel paths): a forced CUDA `opts.algorithm` throws `unsupported_error`.
/// - `masked_bmm`: L = strictly lower triangle of A, then Σ (L ⊕.⊗ L^T) .* L over (+, AND), fused into one
///   masked BMM. Unless `opts.algorithm` is `generic`, L is rebuilt from the CSR in the tile layout the
///   space's fastest masked BMM reads; `opts.algorithm` goes to the BMM as given. Work: O(nnz) for the
///   selection plus the masked BMM (per entry of L, the tile intersection of two rows).
/// - `oriented_bitmap`: the same U, then one team per vertex u sets U(u) in a bitmap of n bits in its scratch and
///   counts, for each v in U(u), the ids of U(v) found there. Work: O(nnz) for U plus Σ over oriented edges of
///   |U(v)|, each a scratch lookup; only where n bits fit one team's level-0 scratch (`detail::tc_bitmap_fits`:
///   40 KB on CUDA, so n <= 327,680), else `unsupported_error`.
/// `automatic` runs, on a host space, `oriented_intersection` when the mean degree is at most 64, else `masked_bmm`;
/// on a device space `oriented_bitmap` when the mean degree is above 64 and n bits fit a team's scratch, else
/// `oriented_intersection`; always `masked_bmm` when `opts.algorithm` forces a CUDA kernel path, which only the BMM
/// has (`detail::tc_automatic`). A directed graph is rejected: symmetrise it first (`symmetrize`), since a
/// triangle's orientation would otherwise matter.
/// Throws `invalid_argument_error` for a directed graph, `unsupported_error` for a CUDA path on a host
/// space (or one the BMM does not offer, or with an oriented method), or for `oriented_bitmap` beyond its n,
/// `allocation_error` when a buffer
/// does not fit. Synchronous: the count is read back to the host, which waits for `exec`'s kernels.
template <class ExecSpace>
triangles_result triangle_count(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                const triangles_options& opts = {});

template <class ExecSpace>
triangles_result triangle_count(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                                const triangles_options& opts) {
  detail::check_algorithm<ExecSpace>(opts.algorithm, "triangle_count");
  BITGRAPH_CHECK_ARG(!g.directed(), "triangle_count",
                     "the graph is directed; triangle counting needs an undirected graph (symmetrize it first)");
  const bool cuda_path = opts.algorithm == op_algorithm::cuda_warp || opts.algorithm == op_algorithm::cuda_mma;
  triangles_method method = opts.method;
  if (method == triangles_method::automatic) method = detail::tc_automatic<ExecSpace>(g.csr, cuda_path);
  if (method != triangles_method::masked_bmm && cuda_path) {
    throw unsupported_error(detail::concat("bitgraph::triangle_count: algorithm '", to_string(opts.algorithm),
                                           "' is not available: the oriented methods have no CUDA kernel "
                                           "paths (use method masked_bmm)"));
  }
  detail::tc_require_fits<ExecSpace>(method, g.n(), "triangle_count");
  detail::profiling_region region("bitgraph::triangle_count");
  if (method == triangles_method::masked_bmm) return detail::triangle_count_masked_bmm(exec, g, opts.algorithm);
  return detail::triangle_count_oriented(exec, g.csr, method == triangles_method::oriented_bitmap);
}

/// Result of `triangle_count_per_vertex`: the summary of `triangle_count` and, per vertex, the triangles it is a
/// corner of (their sum is three times the total).
template <class MemorySpace>
struct triangles_per_vertex_result {
  triangles_result summary;
  Kokkos::View<std::uint64_t*, MemorySpace> per_vertex;
};

/// Counts the triangles of an undirected graph and, for each vertex, the triangles that contain it (the local
/// triangle count of clustering coefficients), by an oriented method: `automatic` picks as `triangle_count` does
/// among the oriented ones (`oriented_bitmap` on a device space for dense graphs that fit, else
/// `oriented_intersection`). Work: that of the oriented method plus three atomic adds per triangle; memory: n
/// counters besides U. Throws as `triangle_count`, and `unsupported_error` for `masked_bmm` (its fused reduction
/// keeps no per-vertex sums) or a forced CUDA `opts.algorithm`. Synchronous (the total is read back).
template <class ExecSpace>
triangles_per_vertex_result<memory_space_t<ExecSpace>> triangle_count_per_vertex(
    const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g, const triangles_options& opts = {}) {
  detail::check_algorithm<ExecSpace>(opts.algorithm, "triangle_count_per_vertex");
  BITGRAPH_CHECK_ARG(!g.directed(), "triangle_count_per_vertex",
                     "the graph is directed; triangle counting needs an undirected graph (symmetrize it first)");
  const bool cuda_path = opts.algorithm == op_algorithm::cuda_warp || opts.algorithm == op_algorithm::cuda_mma;
  if (cuda_path || opts.method == triangles_method::masked_bmm) {
    throw unsupported_error(
        "bitgraph::triangle_count_per_vertex: only the oriented methods count per vertex (not masked_bmm, not a "
        "forced CUDA kernel path)");
  }
  triangles_method method = opts.method;
  if (method == triangles_method::automatic) {
    method = detail::tc_automatic<ExecSpace>(g.csr, false);
    if (method == triangles_method::masked_bmm) method = triangles_method::oriented_intersection;
  }
  detail::tc_require_fits<ExecSpace>(method, g.n(), "triangle_count_per_vertex");
  detail::profiling_region region("bitgraph::triangle_count_per_vertex");
  triangles_per_vertex_result<memory_space_t<ExecSpace>> r;
  r.per_vertex =
      allocate_view<Kokkos::View<std::uint64_t*, memory_space_t<ExecSpace>>>("bitgraph::tc::per_vertex", g.n());
  r.summary = detail::triangle_count_oriented(exec, g.csr, method == triangles_method::oriented_bitmap, r.per_vertex);
  return r;
}

}  // namespace bitgraph
