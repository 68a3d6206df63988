// The portable kernels of `triangle_count`'s oriented path (algorithms/triangles.hpp) as named functors:
// the degree-oriented CSR U (count, fill) and the per-edge sorted-list intersections Σ_{(u,v)∈U} |U(u,:) ∩ U(v,:)|.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// Whether the oriented graph keeps u→v: rank(u) = (degree(u), u) is below rank(v). Strict, so a
/// self-loop never survives.
KOKKOS_INLINE_FUNCTION bool tc_rank_below(offset_t du, vertex_t u, offset_t dv, vertex_t v) {
  return du < dv || (du == dv && u < v);
}

/// Whether entry p of row u (which starts at `begin` and has `du` entries) survives the orientation; a
/// repeat of the entry before it does not (the rows are sorted, so repeats are adjacent).
template <class RowPtr, class Col>
KOKKOS_INLINE_FUNCTION bool tc_keeps(const RowPtr& row_ptr, const Col& col, offset_t p, offset_t begin, vertex_t u,
                                     offset_t du) {
  const vertex_t v = col(p);
  if (p > begin && col(p - 1) == v) return false;
  return tc_rank_below(du, u, row_ptr(v + 1) - row_ptr(v), v);
}

/// No per-match work: the counting paths.
struct tc_no_match {
  KOKKOS_INLINE_FUNCTION void operator()(vertex_t) const {}
};

/// Adds one to counts(w) for each common id w: the per-vertex paths (the third corner of each triangle).
template <class Counts>
struct tc_count_match {
  Counts counts;
  KOKKOS_INLINE_FUNCTION void operator()(vertex_t w) const { Kokkos::atomic_add(&counts(w), std::uint64_t(1)); }
};

/// |col[a0, a1) ∩ col[b0, b1)| for two ascending, duplicate-free lists, calling `on_match(id)` for each common
/// id: a merge when their lengths are similar, else a lower_bound of each element of the shorter list in the
/// longer one, whose window starts after the previous match point (the shorter list is sorted too).
template <class Col, class OnMatch = tc_no_match>
KOKKOS_INLINE_FUNCTION std::uint64_t tc_intersect(const Col& col, offset_t a0, offset_t a1, offset_t b0, offset_t b1,
                                                  const OnMatch& on_match = {}) {
  if (a1 - a0 > b1 - b0) {
    const offset_t t0 = a0, t1 = a1;
    a0 = b0;
    a1 = b1;
    b0 = t0;
    b1 = t1;
  }
  const offset_t la = a1 - a0, lb = b1 - b0;
  if (la == 0 || col(a1 - 1) < col(b0) || col(b1 - 1) < col(a0)) return 0;
  int lg = 1;  // ⌈log2⌉ + 1 of the longer length: one lower_bound's probes
  for (offset_t x = lb; x > 1; x >>= 1) ++lg;
  std::uint64_t c = 0;
  if (la * offset_t(lg) < la + lb) {
    offset_t lo = b0;
    for (offset_t i = a0; i < a1 && lo < b1; ++i) {
      const vertex_t x = col(i);
      offset_t hi = b1;
      while (lo < hi) {
        const offset_t mid = lo + (hi - lo) / 2;
        if (col(mid) < x)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo < b1 && col(lo) == x) {
        ++c;
        on_match(x);
        ++lo;
      }
    }
  } else {
    offset_t i = a0, j = b0;
    while (i < a1 && j < b1) {
      const vertex_t x = col(i), y = col(j);
      if (x == y) {
        ++c;
        on_match(x);
      }
      i += x <= y;
      j += y <= x;
    }
  }
  return c;
}

/// "bitgraph::tc::orient_count", one vector group per row u (strided over the league): counts(u) = the
/// entries of row u that survive the orientation.
template <class ExecSpace>
struct tc_orient_count_functor {
  using mem = memory_space_t<ExecSpace>;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const offset_t*, mem> row_ptr;
  Kokkos::View<const vertex_t*, mem> col;
  Kokkos::View<offset_t*, mem> counts;
  vertex_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    // Strided: the league is capped at INT_MAX teams.
    const std::uint64_t stride = std::uint64_t(m.league_size()) * m.team_size();
    for (std::uint64_t k = std::uint64_t(m.league_rank()) * m.team_size() + m.team_rank(); k < n; k += stride) {
      const vertex_t u = static_cast<vertex_t>(k);
      const offset_t begin = row_ptr(u), end = row_ptr(u + 1), du = end - begin;
      offset_t kept = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(m, begin, end),
          [&](const offset_t p, offset_t& c) { c += tc_keeps(row_ptr, col, p, begin, u, du) ? 1 : 0; }, kept);
      Kokkos::single(Kokkos::PerThread(m), [&]() { counts(u) = kept; });
    }
  }
};

/// "bitgraph::tc::orient_fill", one vector group per row u: writes row u of U (the surviving entries,
/// still ascending) at uptr(u) and u as the source of each of them.
template <class ExecSpace>
struct tc_orient_fill_functor {
  using mem = memory_space_t<ExecSpace>;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const offset_t*, mem> row_ptr;
  Kokkos::View<const vertex_t*, mem> col;
  Kokkos::View<const offset_t*, mem> uptr;
  Kokkos::View<vertex_t*, mem> ucol;
  Kokkos::View<vertex_t*, mem> usrc;
  vertex_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const std::uint64_t stride = std::uint64_t(m.league_size()) * m.team_size();
    for (std::uint64_t k = std::uint64_t(m.league_rank()) * m.team_size() + m.team_rank(); k < n; k += stride) {
      const vertex_t u = static_cast<vertex_t>(k);
      const offset_t begin = row_ptr(u), end = row_ptr(u + 1), du = end - begin, base = uptr(u);
      // Over [0, du), not [begin, end): Kokkos 3.4's CUDA vector-range scan ignores the range's start.
      Kokkos::parallel_scan(Kokkos::ThreadVectorRange(m, du),
                            [&](const offset_t j, offset_t& before, const bool final) {
                              const offset_t p = begin + j;
                              const bool keep = tc_keeps(row_ptr, col, p, begin, u, du);
                              if (final && keep) {
                                ucol(base + before) = col(p);
                                usrc(base + before) = u;
                              }
                              before += keep ? 1 : 0;
                            });
    }
  }
};

/// Whether oriented edge e = (u, v) goes to the team kernel: both of its lists hold `heavy_min` or more ids.
template <class Ptr, class Col>
KOKKOS_INLINE_FUNCTION bool tc_is_heavy(const Ptr& uptr, const Col& usrc, const Col& ucol, offset_t e,
                                        offset_t heavy_min) {
  const vertex_t u = usrc(e), v = ucol(e);
  return uptr(u + 1) - uptr(u) >= heavy_min && uptr(v + 1) - uptr(v) >= heavy_min;
}

/// "bitgraph::tc::count_light", one thread per oriented edge (u, v): adds |U(u,:) ∩ U(v,:)| unless the
/// edge is heavy (`tc_is_heavy`), which the team kernel counts.
template <class Mem>
struct tc_count_light_functor {
  Kokkos::View<const offset_t*, Mem> uptr;
  Kokkos::View<const vertex_t*, Mem> ucol;
  Kokkos::View<const vertex_t*, Mem> usrc;
  offset_t heavy_min;
  /// When not empty, each triangle also adds one to each of its corners (u, v and the common id).
  Kokkos::View<std::uint64_t*, Mem> per_vertex;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t e, std::uint64_t& acc) const {
    const vertex_t u = usrc(e), v = ucol(e);
    const offset_t a0 = uptr(u), a1 = uptr(u + 1), b0 = uptr(v), b1 = uptr(v + 1);
    if (a1 - a0 >= heavy_min && b1 - b0 >= heavy_min) return;
    if (per_vertex.extent(0) == 0) {
      acc += tc_intersect(ucol, a0, a1, b0, b1);
      return;
    }
    const std::uint64_t c = tc_intersect(ucol, a0, a1, b0, b1, tc_count_match<decltype(per_vertex)>{per_vertex});
    if (c) {
      Kokkos::atomic_add(&per_vertex(u), c);
      Kokkos::atomic_add(&per_vertex(v), c);
    }
    acc += c;
  }
};

/// "bitgraph::tc::heavy_count": the number of heavy oriented edges.
template <class Mem>
struct tc_heavy_count_functor {
  Kokkos::View<const offset_t*, Mem> uptr;
  Kokkos::View<const vertex_t*, Mem> ucol;
  Kokkos::View<const vertex_t*, Mem> usrc;
  offset_t heavy_min;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t e, offset_t& acc) const {
    acc += tc_is_heavy(uptr, usrc, ucol, e, heavy_min) ? 1 : 0;
  }
};

/// "bitgraph::tc::heavy_list": the ids of the heavy oriented edges, ascending (a compaction by scan).
template <class Mem>
struct tc_heavy_list_functor {
  Kokkos::View<const offset_t*, Mem> uptr;
  Kokkos::View<const vertex_t*, Mem> ucol;
  Kokkos::View<const vertex_t*, Mem> usrc;
  Kokkos::View<offset_t*, Mem> heavy;
  offset_t heavy_min;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t e, offset_t& before, const bool final) const {
    const bool h = tc_is_heavy(uptr, usrc, ucol, e, heavy_min);
    if (final && h) heavy(before) = e;
    before += h ? 1 : 0;
  }
};

/// "bitgraph::tc::count_heavy", one vector group per heavy edge (u, v) (strided over the league): the
/// lanes split the shorter list and binary-search their ids in the longer one.
template <class ExecSpace>
struct tc_count_heavy_functor {
  using mem = memory_space_t<ExecSpace>;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const offset_t*, mem> uptr;
  Kokkos::View<const vertex_t*, mem> ucol;
  Kokkos::View<const vertex_t*, mem> usrc;
  Kokkos::View<const offset_t*, mem> heavy;
  offset_t count;
  Kokkos::View<std::uint64_t*, mem> per_vertex;  ///< as in `tc_count_light_functor`

  KOKKOS_INLINE_FUNCTION void operator()(const member& m, std::uint64_t& acc) const {
    const std::uint64_t stride = std::uint64_t(m.league_size()) * m.team_size();
    for (std::uint64_t k = std::uint64_t(m.league_rank()) * m.team_size() + m.team_rank(); k < count; k += stride) {
      const offset_t e = heavy(k);
      const vertex_t u = usrc(e), v = ucol(e);
      offset_t a0 = uptr(u), a1 = uptr(u + 1), b0 = uptr(v), b1 = uptr(v + 1);
      if (a1 - a0 > b1 - b0) {
        const offset_t t0 = a0, t1 = a1;
        a0 = b0;
        a1 = b1;
        b0 = t0;
        b1 = t1;
      }
      std::uint64_t found = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(m, a0, a1),
          [&](const offset_t i, std::uint64_t& c) {
            const vertex_t x = ucol(i);
            offset_t lo = b0, hi = b1;
            while (lo < hi) {
              const offset_t mid = lo + (hi - lo) / 2;
              if (ucol(mid) < x)
                lo = mid + 1;
              else
                hi = mid;
            }
            const bool hit = lo < b1 && ucol(lo) == x;
            if (hit && per_vertex.extent(0) > 0) Kokkos::atomic_add(&per_vertex(x), std::uint64_t(1));
            c += hit ? 1 : 0;
          },
          found);
      Kokkos::single(Kokkos::PerThread(m), [&]() {
        acc += found;
        if (found && per_vertex.extent(0) > 0) {
          Kokkos::atomic_add(&per_vertex(u), found);
          Kokkos::atomic_add(&per_vertex(v), found);
        }
      });
    }
  }
};

/// "bitgraph::tc::count_bitmap", one team per vertex u (strided over the league), U(u) as a bitmap of n bits in
/// the team's scratch: Σ_{v ∈ U(u)} Σ_{w ∈ U(v)} [w ∈ U(u)], the same wedges as the merges, each checked by one
/// scratch lookup while U(v) is read in order (dense graphs, whose lists are long). The bits are cleared after
/// each vertex, so a team zeroes its bitmap once, at its first vertex with two or more ids.
template <class ExecSpace, bool PerVertex = false>
struct tc_count_bitmap_functor {
  using mem = memory_space_t<ExecSpace>;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using scratch_words =
      Kokkos::View<std::uint32_t*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<const offset_t*, mem> uptr;
  Kokkos::View<const vertex_t*, mem> ucol;
  vertex_t n;
  int words;
  Kokkos::View<std::uint64_t*, mem> per_vertex;  ///< with PerVertex: as in `tc_count_light_functor`

  KOKKOS_INLINE_FUNCTION void operator()(const member& m, std::uint64_t& acc) const {
    scratch_words bits(m.team_scratch(0), words);
    bool zeroed = false;
    std::uint64_t mine = 0;
    for (std::uint64_t k = m.league_rank(); k < n; k += std::uint64_t(m.league_size())) {
      const vertex_t u = static_cast<vertex_t>(k);
      const offset_t a0 = uptr(u), a1 = uptr(u + 1);
      if (a1 - a0 < 2) continue;  // a triangle needs two ids in U(u); the whole team skips alike
      if (!zeroed) {
        Kokkos::parallel_for(Kokkos::TeamVectorRange(m, words), [&](const int w) { bits(w) = 0; });
        m.team_barrier();
        zeroed = true;
      }
      Kokkos::parallel_for(Kokkos::TeamVectorRange(m, a0, a1), [&](const offset_t p) {
        const vertex_t w = ucol(p);
        Kokkos::atomic_fetch_or(&bits(w / 32), std::uint32_t(1) << (w % 32));
      });
      m.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(m, a0, a1), [&](const offset_t p) {
        const vertex_t v = ucol(p);
        const offset_t b0 = uptr(v), len = uptr(v + 1) - b0;
        std::uint64_t c = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(m, len),
            [&](const offset_t j, std::uint64_t& t) {
              const vertex_t w = ucol(b0 + j);
              const std::uint32_t hit = (bits(w / 32) >> (w % 32)) & 1u;
              if constexpr (PerVertex)
                if (hit) Kokkos::atomic_add(&per_vertex(w), std::uint64_t(1));
              t += hit;
            },
            c);
        Kokkos::single(Kokkos::PerThread(m), [&]() {
          mine += c;
          if constexpr (PerVertex)
            if (c) {
              Kokkos::atomic_add(&per_vertex(u), c);
              Kokkos::atomic_add(&per_vertex(v), c);
            }
        });
      });
      m.team_barrier();
      // Every bit set in a word is U(u)'s, so storing zero to the whole word is exact.
      Kokkos::parallel_for(Kokkos::TeamVectorRange(m, a0, a1), [&](const offset_t p) { bits(ucol(p) / 32) = 0; });
      m.team_barrier();
    }
    Kokkos::single(Kokkos::PerThread(m), [&]() { acc += mine; });
  }
};

}  // namespace bitgraph::detail
