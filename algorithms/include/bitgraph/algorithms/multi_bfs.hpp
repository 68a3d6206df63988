// Multi-source BFS (up to 128 sources in one traversal, bit-parallel) and closeness centrality on top of it.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bitgraph/algorithms/detail/multi_bfs_kernels.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"

namespace bitgraph {

/// Most sources one multi-source traversal carries (two 64-bit words per vertex).
inline constexpr std::size_t multi_bfs_max_sources = 128;

/// Options of `multi_source_bfs`.
struct multi_bfs_options {
  bool levels = true;  ///< keep levels(i, v) (k x n entries); false keeps only the counts
  /// A level pulls (bottom-up, early exit once every missing source is covered) when the frontier's out-edges
  /// exceed the stored entries / `pull_ratio`; else it pushes (Beamer's α). Must be positive and finite.
  double pull_ratio = 14;
};

/// Result of `multi_source_bfs`.
template <class MemorySpace>
struct multi_bfs_result {
  /// levels(i, v): the level of v from sources[i] (0 at the source), `unreached_level` where v is not reachable;
  /// extents (k, n), a source's levels strided by k (LayoutLeft keeps a vertex's k levels together, as the
  /// traversal writes them). Empty when `levels` was off.
  Kokkos::View<level_t**, Kokkos::LayoutLeft, MemorySpace> levels;
  int depth = 0;            ///< the largest level over all sources
  std::uint64_t pairs = 0;  ///< (source, vertex) pairs reached, the sources themselves included
  std::string directions;   ///< per level: 'p' push, 'u' pull (bottom-up)
};

/// BFS from every vertex of `sources` (1 to 128 of them, duplicates allowed) in one traversal: each vertex
/// carries one bit per source, so a pass over the edges advances all sources by a level. Level per source in
/// `levels(i, v)` (the same levels as `bfs` from sources[i]). Work per level: the frontier's out-edges (push)
/// or the in-edges of the vertices some source has not reached, scanned until every missing source is covered
/// (pull); O(n) per level for the update; memory 3 n words of 64 bits (W = 2 words for more than 64 sources)
/// plus k n levels. Throws `invalid_argument_error` for no or more than 128 sources, a source >= n, or a bad
/// `pull_ratio`; `allocation_error` when the buffers do not fit. Fences `exec` (each level's counts are read
/// back).
template <class ExecSpace>
multi_bfs_result<memory_space_t<ExecSpace>> multi_source_bfs(const ExecSpace& exec,
                                                             const bit_graph<memory_space_t<ExecSpace>>& g,
                                                             const std::vector<vertex_t>& sources,
                                                             const multi_bfs_options& opts = {});

/// Options of `closeness_centrality`.
struct closeness_options {
  /// 0: exact, every vertex a source (ceil(n / 128) traversals). Otherwise this many distinct random sources
  /// (all of them when samples >= n), and each vertex's closeness is estimated from its distances to them
  /// (Eppstein and Wang's sampling).
  vertex_t samples = 0;
  std::uint64_t seed = 1;  ///< of the sample
};

/// Result of `closeness_centrality`.
template <class MemorySpace>
struct closeness_result {
  Kokkos::View<double*, MemorySpace> closeness;  ///< per vertex
  vertex_t sources = 0;                          ///< sources traversed from
  int traversals = 0;                            ///< multi-source traversals run
  bool exact = true;
};

/// Closeness centrality with Wasserman and Faust's scaling for graphs that are not connected (NetworkX's
/// `closeness_centrality`, wf_improved): for vertex v with R(v) other vertices u that reach it at total
/// distance S(v) = sum of d(u, v), closeness(v) = (R / (n - 1)) * (R / S), 0 when R = 0; for a connected graph
/// (n - 1) / S. Distances run from u to v (incoming closeness on a directed graph; pass the reversed graph for
/// outgoing). Sampled: R / (n - 1) and S / R are estimated over the sampled sources other than v. Built on
/// `multi_source_bfs` without levels (per-vertex sums in the update pass). Work: ceil(sources / 128)
/// multi-source traversals. Throws `invalid_argument_error` for an empty graph; `allocation_error` when
/// the buffers do not fit. Fences `exec`.
template <class ExecSpace>
closeness_result<memory_space_t<ExecSpace>> closeness_centrality(const ExecSpace& exec,
                                                                 const bit_graph<memory_space_t<ExecSpace>>& g,
                                                                 const closeness_options& opts = {});

namespace detail {

/// Optional per-vertex sums a traversal adds to (closeness).
template <class Mem>
struct multi_bfs_sums {
  Kokkos::View<double*, Mem> distance_sum;         // sum of the levels at which v was reached
  Kokkos::View<std::uint32_t*, Mem> reached_from;  // sources (other than v) that reached v
  Kokkos::View<std::uint32_t*, Mem> self;          // sources at v
};

/// Closeness of each vertex from its sums over `total` sources.
template <class Mem>
struct closeness_finish {
  Kokkos::View<const double*, Mem> distance_sum;
  Kokkos::View<const std::uint32_t*, Mem> reached_from;
  Kokkos::View<const std::uint32_t*, Mem> self;
  Kokkos::View<double*, Mem> closeness;
  double total;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    const double others = total - double(self(v));
    const double r = double(reached_from(v));
    closeness(v) = (r > 0 && others > 0) ? (r / others) * (r / distance_sum(v)) : 0.0;
  }
};

/// One multi-source traversal with W words per vertex on the caller's buffers (`w` all zero; left all zero
/// except `seen`, which the caller clears before the next traversal).
template <int W, class ExecSpace>
void multi_bfs_run(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                   Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> sources,
                   const multi_bfs_words<memory_space_t<ExecSpace>>& w,
                   Kokkos::View<level_t**, Kokkos::LayoutLeft, memory_space_t<ExecSpace>> levels,
                   const multi_bfs_sums<memory_space_t<ExecSpace>>& sums, double pull_ratio,
                   multi_bfs_result<memory_space_t<ExecSpace>>& r) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = g.n();
  const std::size_t k = sources.extent(0);
  const auto& out = g.csr;
  const auto& in = g.in_csr();
  r.pairs = k;
  Kokkos::parallel_for("bitgraph::multi_bfs::seed", Kokkos::RangePolicy<ExecSpace>(exec, 0, 1),
                       multi_bfs_seed<mem, W>{w, sources, levels, sums.self});
  // Pull: one thread per vertex; on GPUs the rows longer than a warp (w.heavy) go to a second kernel, a warp per row.
  multi_bfs_pull_light<mem, W> light{w, in.row_ptr, in.col_idx, {}, multi_bfs_light_max<ExecSpace>};
  for (int j = 0; j < W; ++j) {
    const std::size_t bits = k > std::size_t(64 * j) ? std::min<std::size_t>(64, k - 64 * j) : 0;
    light.full[j] = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
  }
  const auto& heavy = w.heavy;
  constexpr int heavy_rows = 4;  // warps per team
  multi_bfs_pull_heavy<ExecSpace, W> hub{w, in.row_ptr, in.col_idx, {}, heavy_rows, 32};
  for (int j = 0; j < W; ++j) hub.full[j] = light.full[j];
  // The sources' out-edges decide the first step like any frontier's.
  unsigned long long frontier_edges = 0;
  Kokkos::parallel_reduce("bitgraph::multi_bfs::source_edges", Kokkos::RangePolicy<ExecSpace>(exec, 0, k),
                          multi_bfs_source_edges<mem>{sources, out.row_ptr}, frontier_edges);
  for (level_t l = 1;; ++l) {
    const bool bottom_up = double(frontier_edges) * pull_ratio > double(out.nnz);
    r.directions += bottom_up ? 'u' : 'p';
    if (bottom_up) {
      Kokkos::parallel_for("bitgraph::multi_bfs::pull", Kokkos::RangePolicy<ExecSpace>(exec, 0, n), light);
      if (heavy.extent(0) > 0)
        Kokkos::parallel_for(
            "bitgraph::multi_bfs::pull_heavy",
            Kokkos::TeamPolicy<ExecSpace>(exec, static_cast<int>((heavy.extent(0) + heavy_rows - 1) / heavy_rows),
                                          heavy_rows, 32),
            hub);
    } else
      Kokkos::parallel_for("bitgraph::multi_bfs::push", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                           multi_bfs_push<mem, W>{w, out.row_ptr, out.col_idx});
    multi_bfs_level_stats st;
    Kokkos::parallel_reduce("bitgraph::multi_bfs::update", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                            multi_bfs_update<mem, W>{w, out.row_ptr, levels, sums.distance_sum, sums.reached_from, l},
                            st);
    if (st.active == 0) break;
    r.depth = l;
    r.pairs += st.pairs;
    frontier_edges = st.out_edges;
  }
}

/// The traversal for k <= 128 sources: one word per vertex up to 64 sources, two above.
template <class ExecSpace>
void multi_bfs_dispatch(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& g,
                        Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> sources,
                        const multi_bfs_words<memory_space_t<ExecSpace>>& w,
                        Kokkos::View<level_t**, Kokkos::LayoutLeft, memory_space_t<ExecSpace>> levels,
                        const multi_bfs_sums<memory_space_t<ExecSpace>>& sums, double pull_ratio,
                        multi_bfs_result<memory_space_t<ExecSpace>>& r) {
  if (sources.extent(0) <= 64)
    multi_bfs_run<1>(exec, g, sources, w, levels, sums, pull_ratio, r);
  else
    multi_bfs_run<2>(exec, g, sources, w, levels, sums, pull_ratio, r);
}

/// The buffers of traversals on `g` with `words` per vertex, made once for all of them (closeness runs
/// ceil(n / 128) traversals): the three word arrays zeroed and, on GPUs, the list of heavy in-rows.
template <class ExecSpace>
multi_bfs_words<memory_space_t<ExecSpace>> make_multi_bfs_words(const ExecSpace& exec,
                                                                const bit_graph<memory_space_t<ExecSpace>>& g,
                                                                int words) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = g.n();
  const std::size_t len = std::size_t(n) * std::size_t(words);
  multi_bfs_words<mem> w{allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::multi_bfs::seen", len),
                         allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::multi_bfs::frontier", len),
                         allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::multi_bfs::visit", len),
                         {}};
  if (is_cuda_space_v<ExecSpace>) {
    const auto& in = g.in_csr();
    offset_t count = 0;
    Kokkos::parallel_scan("bitgraph::multi_bfs::count_heavy", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                          multi_bfs_heavy_list<mem>{in.row_ptr, w.heavy, multi_bfs_light_max<ExecSpace>}, count);
    w.heavy = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::multi_bfs::heavy", count, false);
    Kokkos::parallel_scan("bitgraph::multi_bfs::list_heavy", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                          multi_bfs_heavy_list<mem>{in.row_ptr, w.heavy, multi_bfs_light_max<ExecSpace>}, count);
  }
  return w;
}

}  // namespace detail

template <class ExecSpace>
multi_bfs_result<memory_space_t<ExecSpace>> multi_source_bfs(const ExecSpace& exec,
                                                             const bit_graph<memory_space_t<ExecSpace>>& g,
                                                             const std::vector<vertex_t>& sources,
                                                             const multi_bfs_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = g.n();
  BITGRAPH_CHECK_ARG(!sources.empty() && sources.size() <= multi_bfs_max_sources, "multi_source_bfs",
                     "takes 1 to 128 sources, not ", sources.size());
  for (const vertex_t s : sources) detail::check_source<ExecSpace>("multi_source_bfs", s, n);
  BITGRAPH_CHECK_ARG(std::isfinite(opts.pull_ratio) && opts.pull_ratio > 0, "multi_source_bfs",
                     "pull_ratio must be positive and finite, not ", opts.pull_ratio);
  detail::profiling_region region("bitgraph::multi_source_bfs");
  const std::size_t k = sources.size();
  auto src = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::multi_bfs::sources", k, false);
  Kokkos::deep_copy(
      exec, src,
      Kokkos::View<const vertex_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(sources.data(), k));
  multi_bfs_result<mem> r;
  if (opts.levels) {
    r.levels =
        allocate_view<Kokkos::View<level_t**, Kokkos::LayoutLeft, mem>>("bitgraph::multi_bfs::levels", k, n, false);
    // Filled as one flat array: Kokkos 3.4 fills a rank-2 view with a 2-D launch whose y-dimension exceeds CUDA's
    // 65,535 blocks at k = 128, n = 4 M, and that launch fails unreported (the unreached levels stayed unset).
    using flat = Kokkos::View<level_t*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    Kokkos::deep_copy(exec, flat(r.levels.data(), r.levels.span()), unreached_level);
  }
  const auto w = detail::make_multi_bfs_words(exec, g, k <= 64 ? 1 : 2);
  detail::multi_bfs_dispatch(exec, g, Kokkos::View<const vertex_t*, mem>(src), w, r.levels, {}, opts.pull_ratio, r);
  exec.fence();
  return r;
}

template <class ExecSpace>
closeness_result<memory_space_t<ExecSpace>> closeness_centrality(const ExecSpace& exec,
                                                                 const bit_graph<memory_space_t<ExecSpace>>& g,
                                                                 const closeness_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = g.n();
  BITGRAPH_CHECK_ARG(n > 0, "closeness_centrality", "the graph has no vertices");
  detail::profiling_region region("bitgraph::closeness_centrality");
  closeness_result<mem> r;
  // The sources: every vertex, or a sample without repetition (a partial Fisher-Yates shuffle).
  std::vector<vertex_t> all(n);
  std::iota(all.begin(), all.end(), vertex_t(0));
  r.exact = opts.samples == 0 || opts.samples >= n;
  const vertex_t count = r.exact ? n : opts.samples;
  if (!r.exact) {
    std::mt19937_64 rng(opts.seed);
    for (vertex_t i = 0; i < count; ++i) {
      std::uniform_int_distribution<vertex_t> pick(i, n - 1);
      std::swap(all[i], all[pick(rng)]);
    }
    all.resize(count);
  }
  r.sources = count;
  detail::multi_bfs_sums<mem> sums{allocate_view<Kokkos::View<double*, mem>>("bitgraph::closeness::distance_sum", n),
                                   allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::closeness::reached", n),
                                   allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::closeness::self", n)};
  const auto w = detail::make_multi_bfs_words(exec, g, count <= 64 ? 1 : 2);
  auto src = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::closeness::sources", count, false);
  Kokkos::deep_copy(
      exec, src,
      Kokkos::View<const vertex_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(all.data(), count));
  for (std::size_t at = 0; at < count; at += multi_bfs_max_sources) {
    const std::size_t end = std::min<std::size_t>(count, at + multi_bfs_max_sources);
    if (at > 0) Kokkos::deep_copy(exec, w.seen, std::uint64_t(0));  // frontier and visit end each traversal zero
    multi_bfs_result<mem> pass;
    detail::multi_bfs_dispatch(exec, g,
                               Kokkos::View<const vertex_t*, mem>(Kokkos::subview(src, Kokkos::make_pair(at, end))), w,
                               {}, sums, multi_bfs_options{}.pull_ratio, pass);
    ++r.traversals;
  }
  r.closeness = allocate_view<Kokkos::View<double*, mem>>("bitgraph::closeness", n, false);
  Kokkos::parallel_for(
      "bitgraph::closeness::finish", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      detail::closeness_finish<mem>{sums.distance_sum, sums.reached_from, sums.self, r.closeness, double(count)});
  exec.fence();
  return r;
}

}  // namespace bitgraph
