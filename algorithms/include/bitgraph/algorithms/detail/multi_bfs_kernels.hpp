// Kernels of the multi-source BFS (algorithms/multi_bfs.hpp): bit-parallel traversal of up to 128 sources at
// once (Then et al., "The More the Merrier", VLDB 2015): each vertex holds W = 1 or 2 words whose bit i says
// "reached from source i", and one pass over the edges advances every source by a level.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/detail/kokkos_compat.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// Per-vertex words of the multi-source BFS: `seen`, `frontier` (reached at the previous level) and `visit`
/// (candidates of this level), n * W words each; and the vertices whose in-rows the pull gives a warp each
/// (longer than `multi_bfs_light_max`; empty on host spaces).
template <class Mem>
struct multi_bfs_words {
  Kokkos::View<std::uint64_t*, Mem> seen, frontier, visit;
  Kokkos::View<vertex_t*, Mem> heavy;
};

/// The longest in-row a pull gives to a single thread: a warp's width on GPUs (longer rows go to a warp each),
/// unbounded elsewhere.
template <class ExecSpace>
inline constexpr offset_t multi_bfs_light_max = is_cuda_space_v<ExecSpace> ? 32 : ~offset_t(0);

/// Level 0: bit i of source i's words, levels(i, source i) = 0 when levels are kept, and the sources counted
/// per vertex when `self` is given (one thread; k <= 128 sources, duplicates allowed).
template <class Mem, int W>
struct multi_bfs_seed {
  multi_bfs_words<Mem> w;
  Kokkos::View<const vertex_t*, Mem> sources;
  Kokkos::View<level_t**, Kokkos::LayoutLeft, Mem> levels;  // k x n, or empty
  Kokkos::View<std::uint32_t*, Mem> self;                   // n, or empty
  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    for (std::size_t i = 0; i < sources.extent(0); ++i) {
      const vertex_t s = sources(i);
      const std::size_t at = std::size_t(s) * W + i / 64;
      w.seen(at) |= std::uint64_t(1) << (i % 64);
      w.frontier(at) |= std::uint64_t(1) << (i % 64);
      if (levels.extent(0) > 0) levels(i, s) = 0;
      if (self.extent(0) > 0) self(s) += 1;
    }
  }
};

/// Out-edges of the sources (the first level's push-or-pull decision).
template <class Mem>
struct multi_bfs_source_edges {
  Kokkos::View<const vertex_t*, Mem> sources;
  Kokkos::View<const offset_t*, Mem> out_ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, unsigned long long& acc) const {
    acc += out_ptr(sources(i) + 1) - out_ptr(sources(i));
  }
};

/// Top-down step: every frontier vertex ORs its bits into its out-neighbours' candidates (those not yet seen
/// by all of them; the read of `seen` may be stale, the update pass masks it again).
template <class Mem, int W>
struct multi_bfs_push {
  multi_bfs_words<Mem> w;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    std::uint64_t f[W];
    bool any = false;
    for (int j = 0; j < W; ++j) {
      f[j] = w.frontier(std::size_t(u) * W + j);
      any = any || f[j] != 0;
    }
    if (!any) return;
    for (offset_t e = row_ptr(u); e < row_ptr(u + 1); ++e) {
      const std::size_t v = std::size_t(col_idx(e)) * W;
      for (int j = 0; j < W; ++j) {
        const std::uint64_t add = f[j] & ~w.seen(v + j);
        if (add) Kokkos::atomic_fetch_or(&w.visit(v + j), add);
      }
    }
  }
};

/// Bottom-up step for the vertices whose in-degree is at most `max_degree` (the rest: `multi_bfs_pull_heavy`),
/// one thread per vertex: a vertex not yet seen by all sources ORs its in-neighbours' frontier words and stops
/// as soon as every missing source is covered.
template <class Mem, int W>
struct multi_bfs_pull_light {
  multi_bfs_words<Mem> w;
  Kokkos::View<const offset_t*, Mem> row_ptr;  // in-edge CSR
  Kokkos::View<const vertex_t*, Mem> col_idx;
  std::uint64_t full[W];  // the bits of the sources that exist
  offset_t max_degree;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    const offset_t begin = row_ptr(v), end = row_ptr(v + 1);
    if (end - begin > max_degree) return;
    std::uint64_t missing[W], acc[W];
    bool any = false;
    for (int j = 0; j < W; ++j) {
      missing[j] = ~w.seen(std::size_t(v) * W + j) & full[j];
      acc[j] = 0;
      any = any || missing[j] != 0;
    }
    if (!any) return;
    for (offset_t e = begin; e < end; ++e) {
      const std::size_t u = std::size_t(col_idx(e)) * W;
      bool done = true;
      for (int j = 0; j < W; ++j) {
        acc[j] |= w.frontier(u + j);
        done = done && (acc[j] & missing[j]) == missing[j];
      }
      if (done) break;
    }
    for (int j = 0; j < W; ++j) w.visit(std::size_t(v) * W + j) = acc[j] & missing[j];
  }
};

/// Bottom-up step for the vertices of `w.heavy`: one per team thread, its row on the vector lanes in chunks
/// with the early exit tested per chunk (a warp per hub on GPUs, where a lone thread would serialise the row).
template <class ExecSpace, int W>
struct multi_bfs_pull_heavy {
  using mem = typename ExecSpace::memory_space;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  multi_bfs_words<mem> w;
  Kokkos::View<const offset_t*, mem> row_ptr;  // in-edge CSR
  Kokkos::View<const vertex_t*, mem> col_idx;
  std::uint64_t full[W];
  int rows_per_team;
  int lanes;
  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(m, rows_per_team), [&](const int r) {
      const std::size_t at = std::size_t(m.league_rank()) * rows_per_team + r;
      if (at >= w.heavy.extent(0)) return;
      const std::size_t v = w.heavy(at);
      std::uint64_t missing[W], acc[W];
      bool any = false;
      for (int j = 0; j < W; ++j) {
        missing[j] = ~w.seen(v * W + j) & full[j];
        acc[j] = 0;
        any = any || missing[j] != 0;
      }
      if (!any) return;
      const offset_t end = row_ptr(v + 1);
      for (offset_t c = row_ptr(v); c < end; c += lanes) {
        const int len = static_cast<int>(end - c < offset_t(lanes) ? end - c : offset_t(lanes));
        bool done = true;
        for (int j = 0; j < W; ++j) {
          std::uint64_t part = 0;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(m, len),
              [&](const int i, std::uint64_t& x) { x |= w.frontier(std::size_t(col_idx(c + i)) * W + j); },
              Kokkos::BOr<std::uint64_t>(part));
          acc[j] |= part;
          done = done && (acc[j] & missing[j]) == missing[j];
        }
        if (done) break;
      }
      Kokkos::single(Kokkos::PerThread(m), [&]() {
        for (int j = 0; j < W; ++j) w.visit(v * W + j) = acc[j] & missing[j];
      });
    });
  }
};

/// The vertices whose in-degree exceeds `max_degree`, in id order (a scan).
template <class Mem>
struct multi_bfs_heavy_list {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<vertex_t*, Mem> list;
  offset_t max_degree;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, offset_t& at, const bool final) const {
    if (row_ptr(v + 1) - row_ptr(v) <= max_degree) return;
    if (final && at < list.extent(0)) list(at) = v;  // the counting pass runs with an empty list
    ++at;
  }
};

/// What one level's update pass saw.
struct multi_bfs_level_stats {
  unsigned long long active = 0;     ///< vertices reached from at least one source at this level
  unsigned long long pairs = 0;      ///< (source, vertex) pairs reached at this level
  unsigned long long out_edges = 0;  ///< out-edges of the active vertices (the next push's work)
};

/// Update pass of level `lev`: new bits = candidates not yet seen; they become the next frontier, join `seen`,
/// write the levels (levels(i, v), when kept) and the per-vertex distance sums (when kept); `visit` is cleared
/// for the next level.
template <class Mem, int W>
struct multi_bfs_update {
  using value_type = multi_bfs_level_stats;
  multi_bfs_words<Mem> w;
  Kokkos::View<const offset_t*, Mem> out_ptr;
  Kokkos::View<level_t**, Kokkos::LayoutLeft, Mem> levels;  // k x n, or empty
  Kokkos::View<double*, Mem> distance_sum;                  // n, or empty
  Kokkos::View<std::uint32_t*, Mem> reached_from;           // n, or empty
  level_t lev;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, value_type& acc) const {
    unsigned long long fresh = 0;
    for (int j = 0; j < W; ++j) {
      const std::size_t at = std::size_t(v) * W + j;
      const std::uint64_t nxt = w.visit(at) & ~w.seen(at);
      w.visit(at) = 0;
      w.frontier(at) = nxt;
      if (!nxt) continue;
      w.seen(at) |= nxt;
      fresh += static_cast<unsigned long long>(popcount(nxt));
      if (levels.extent(0) > 0) {
        std::uint64_t b = nxt;
        while (b) {
          levels(std::size_t(j) * 64 + count_trailing_zeros(b), v) = lev;
          b &= b - 1;
        }
      }
    }
    if (!fresh) return;
    acc.active += 1;
    acc.pairs += fresh;
    acc.out_edges += out_ptr(v + 1) - out_ptr(v);
    if (distance_sum.extent(0) > 0) {
      distance_sum(v) += double(lev) * double(fresh);
      reached_from(v) += static_cast<std::uint32_t>(fresh);
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& s) const { s = value_type{}; }
  KOKKOS_INLINE_FUNCTION void join(BITGRAPH_JOIN_VOLATILE value_type& dst,
                                   const BITGRAPH_JOIN_VOLATILE value_type& src) const {
    dst.active = dst.active + src.active;  // not +=: a compound assignment to a volatile is deprecated
    dst.pairs = dst.pairs + src.pairs;
    dst.out_edges = dst.out_edges + src.out_edges;
  }
};

}  // namespace bitgraph::detail
