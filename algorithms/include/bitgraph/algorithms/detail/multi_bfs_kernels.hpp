// Kernels of the multi-source BFS (algorithms/multi_bfs.hpp): bit-parallel traversal of up to 128 sources at
// once (Then et al., "The More the Merrier", VLDB 2015): each vertex holds W = 1 or 2 words whose bit i says
// "reached from source i", and one pass over the edges advances every source by a level.
#pragma once

#include <Kokkos_Core.hpp>

#include <bit>
#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/detail/kokkos_compat.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// One vertex's bits, one per source: W words loaded as one (16 bytes for W = 2).
template <int W>
struct alignas(8 * W) multi_bfs_bits {
  std::uint64_t w[W];
};

/// Whether any bit of `b` is set.
template <int W>
KOKKOS_INLINE_FUNCTION bool multi_bfs_any(const multi_bfs_bits<W>& b) {
  bool any = false;
  for (int j = 0; j < W; ++j) any = any || b.w[j] != 0;
  return any;
}

/// Whether `acc` holds every bit of `missing`.
template <int W>
KOKKOS_INLINE_FUNCTION bool multi_bfs_covers(const multi_bfs_bits<W>& acc, const multi_bfs_bits<W>& missing) {
  bool all = true;
  for (int j = 0; j < W; ++j) all = all && (acc.w[j] & missing.w[j]) == missing.w[j];
  return all;
}

/// The sources of `full` that have not reached a vertex with `seen`.
template <int W>
KOKKOS_INLINE_FUNCTION multi_bfs_bits<W> multi_bfs_missing(const multi_bfs_bits<W>& seen,
                                                           const multi_bfs_bits<W>& full) {
  multi_bfs_bits<W> m;
  for (int j = 0; j < W; ++j) m.w[j] = ~seen.w[j] & full.w[j];
  return m;
}

/// Every bit set (every source of a W-word vertex).
template <int W>
KOKKOS_INLINE_FUNCTION constexpr multi_bfs_bits<W> multi_bfs_all() {
  multi_bfs_bits<W> b{};
  for (int j = 0; j < W; ++j) b.w[j] = ~std::uint64_t(0);
  return b;
}

/// The bits of `a` that `b` holds too.
template <int W>
KOKKOS_INLINE_FUNCTION multi_bfs_bits<W> multi_bfs_and(const multi_bfs_bits<W>& a, const multi_bfs_bits<W>& b) {
  multi_bfs_bits<W> r;
  for (int j = 0; j < W; ++j) r.w[j] = a.w[j] & b.w[j];
  return r;
}

/// The candidate list of a sparse level (few frontier out-edges): each vertex offered new bits at the level is
/// listed once, so that the update visits the list instead of every vertex. A vertex is listed by the offer that
/// turns one of its candidate words from zero to non-zero and then stamps `mark(v)` with the level's `stamp` first
/// (a vertex has up to W such offers). Off (`list` empty) on dense levels.
template <class Mem>
struct multi_bfs_appender {
  Kokkos::View<vertex_t*, Mem> list;
  Kokkos::View<unsigned long long*, Mem> count;  // count(0): entries appended
  Kokkos::View<std::uint32_t*, Mem> mark;        // n
  std::uint32_t stamp = 0;
  KOKKOS_INLINE_FUNCTION bool on() const { return list.extent(0) > 0; }
  KOKKOS_INLINE_FUNCTION void add(const vertex_t v) const {
    if (Kokkos::atomic_exchange(&mark(v), stamp) == stamp) return;
    const unsigned long long at = Kokkos::atomic_fetch_add(&count(0), 1ull);
    if (at < list.extent(0)) list(at) = v;  // never full: the level's out-edges bound its candidates
  }
};

/// Candidate bits `f` for out-neighbour `v` with words `seen` and candidates `cand` (both read earlier, maybe stale)
/// at `visit`: the bits it has neither seen nor been offered. A stale `seen` only lets bits through that the update
/// pass masks again; a stale `cand` only costs an atomic, since candidates only grow during a level. Skipping what
/// `cand` holds spares most atomics on vertices many frontier vertices reach.
template <int W, class Mem>
KOKKOS_INLINE_FUNCTION void multi_bfs_offer(multi_bfs_bits<W>& visit, const multi_bfs_bits<W>& f,
                                            const multi_bfs_bits<W>& seen, const multi_bfs_bits<W>& cand,
                                            const vertex_t v, const multi_bfs_appender<Mem>& app) {
  for (int j = 0; j < W; ++j) {
    const std::uint64_t add = f.w[j] & ~seen.w[j] & ~cand.w[j];
    if (!add) continue;
    if (app.on()) {
      if (Kokkos::atomic_fetch_or(&visit.w[j], add) == 0) app.add(v);
    } else {
      Kokkos::atomic_fetch_or(&visit.w[j], add);
    }
  }
}

/// Column ids a vector lane of the push segments loads before it uses any of them: it loads up to
/// `multi_bfs_push_batch` ids, then their words, then offers its bits, so that it waits on memory once per batch
/// rather than twice per entry (docs/PERFORMANCE.md; the thread-per-row kernels stay unbatched: the extra registers
/// halved their occupancy). Pieces shorter than 4 x 32 entries take smaller batches, so that more lanes of a warp
/// have entries. The batched kernels take more registers (fewer resident warps): a push level runs them only when its
/// frontier holds a row over `multi_bfs_hub_min` entries (they lost 5 % on uniform random graphs' 33-70-entry rows).
inline constexpr int multi_bfs_push_batch = 4;

/// Lanes (entry groups) for a piece of `len` entries: one entry each up to 32, then up to `multi_bfs_push_batch` each.
KOKKOS_INLINE_FUNCTION int multi_bfs_push_groups(int len) {
  const int per = len >= 32 * multi_bfs_push_batch ? multi_bfs_push_batch : (len + 31) / 32;
  return (len + per - 1) / per;
}

/// Offers `f` to the out-neighbours at entries first, first + stride, ... (`count` of them, at most
/// `multi_bfs_push_batch`): ids first, then their words, then the atomics. Without `UseSeen` only the candidates
/// filter the offers (the update pass masks the seen bits anyway): half the gathers and fewer registers, for frontiers
/// whose bits few neighbours have seen yet.
template <int W, bool UseSeen = true, class Cols, class Words, class Visit, class Mem>
KOKKOS_INLINE_FUNCTION void multi_bfs_offer_batch(const Cols& col_idx, const Words& seen, const Visit& visit,
                                                  const multi_bfs_bits<W>& f, offset_t first, offset_t stride,
                                                  int count, const multi_bfs_appender<Mem>& app) {
  constexpr int B = multi_bfs_push_batch;
  vertex_t v[B];
  multi_bfs_bits<W> sv[B], cv[B];
  for (int q = 0; q < B; ++q)
    if (q < count) v[q] = col_idx(first + offset_t(q) * stride);
  for (int q = 0; q < B; ++q)
    if (q < count) {
      if constexpr (UseSeen) {
        sv[q] = seen(v[q]);
      } else {
        sv[q] = multi_bfs_bits<W>{};
      }
      cv[q] = visit(v[q]);
    }
  for (int q = 0; q < B; ++q)
    if (q < count) multi_bfs_offer(visit(v[q]), f, sv[q], cv[q], v[q], app);
}

/// Offers `f` to the out-neighbours at entries first .. first + count - 1 (a piece of at most `multi_bfs_segment`)
/// with the vector lanes of team thread `m`, in batches: lane i takes entries i, i + groups, ..., so that each
/// batch's loads stay coalesced across the lanes.
template <int W, bool UseSeen = true, class Member, class Cols, class Words, class Visit, class Mem>
KOKKOS_INLINE_FUNCTION void multi_bfs_offer_piece(const Member& m, const Cols& col_idx, const Words& seen,
                                                  const Visit& visit, const multi_bfs_bits<W>& f, offset_t first,
                                                  int count, const multi_bfs_appender<Mem>& app) {
  const int groups = multi_bfs_push_groups(count);
  Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, groups), [&](const int i) {
    multi_bfs_offer_batch<W, UseSeen>(col_idx, seen, visit, f, first + i, groups, (count - i + groups - 1) / groups,
                                      app);
  });
}

/// A Kokkos reducer across the vector lanes of a team thread, of `Op::value_type` by `Op::join` (written with plain
/// assignments, so that it takes the volatile operands of Kokkos 3.4's top-level reductions too) from `Op::init`. The
/// lanes' shuffle reduction calls `join` on plain locals: with only the volatile join both operands lived in local
/// memory, and the pull segments spent their time writing it to L2 (docs/PERFORMANCE.md).
template <class Op>
struct multi_bfs_lane_reducer {
  using reducer = multi_bfs_lane_reducer;
  using value_type = typename Op::value_type;
  using result_view_type = Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  value_type* value;
  KOKKOS_INLINE_FUNCTION explicit multi_bfs_lane_reducer(value_type& v) : value(&v) {}
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const { Op::join(dst, src); }
#if KOKKOS_VERSION < 30700
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    Op::join(dst, src);
  }
#endif
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { Op::init(v); }
  KOKKOS_INLINE_FUNCTION value_type& reference() const { return *value; }
  KOKKOS_INLINE_FUNCTION result_view_type view() const { return result_view_type(value); }
  KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }
};

/// OR of `multi_bfs_bits`.
template <int W>
struct multi_bfs_or_op {
  using value_type = multi_bfs_bits<W>;
  template <class Dst, class Src>
  KOKKOS_INLINE_FUNCTION static void join(Dst& dst, const Src& src) {
    for (int j = 0; j < W; ++j) dst.w[j] = dst.w[j] | src.w[j];  // not |=: a compound assignment to a volatile
  }
  KOKKOS_INLINE_FUNCTION static void init(value_type& v) {
    for (int j = 0; j < W; ++j) v.w[j] = 0;
  }
};
template <int W>
using multi_bfs_bits_or = multi_bfs_lane_reducer<multi_bfs_or_op<W>>;

/// A vertex id map applied where a kernel meets the caller's ids (the traversal may run on a relabelled graph):
/// `map(v)`, or v itself when `map` is empty.
template <class Mem>
struct multi_bfs_ids {
  Kokkos::View<const vertex_t*, Mem> map;
  KOKKOS_INLINE_FUNCTION vertex_t operator()(const vertex_t v) const { return map.extent(0) > 0 ? map(v) : v; }
};

/// Rows longer than `multi_bfs_light_max` entries are cut into segments of `multi_bfs_segment` entries, each
/// scanned by a team thread's vector lanes (a warp on GPUs): one lane per row would serialise a hub's row, and one
/// warp per hub made the 128-source BFS wait on its longest rows (docs/PERFORMANCE.md). Host
/// threads scan rows up to a segment whole; longer ones are split there too, so that one thread does not hold the
/// others up on a hub.
inline constexpr offset_t multi_bfs_segment = 1024;
template <class ExecSpace>
inline constexpr offset_t multi_bfs_light_max = is_cuda_space_v<ExecSpace> ? 32 : multi_bfs_segment;
/// The in-rows a pull scans with one thread (the rest by segments): on GPUs longer than the push's, since a thread
/// loads its row in batches (`multi_bfs_pull_batch`) and, in degree order, often stops at the row's first entries,
/// while a warp per row waited on a reduction per step (docs/PERFORMANCE.md).
template <class ExecSpace>
inline constexpr offset_t multi_bfs_pull_light_max = is_cuda_space_v<ExecSpace> ? 256 : multi_bfs_segment;
/// Frontier words per column block of a pull where `multi_bfs_options::pull_block_bytes` is automatic (0: one pass):
/// on GPUs a fraction of L2, within which random gathers ran at about twice the rate they did from DRAM
/// (docs/PERFORMANCE.md); host spaces one pass.
template <class ExecSpace>
inline constexpr std::size_t multi_bfs_pull_block_bytes = is_cuda_space_v<ExecSpace> ? std::size_t(16) << 20 : 0;
/// Most column blocks of a pull (each a pass over the rows still missing a source).
inline constexpr std::size_t multi_bfs_max_pull_blocks = 64;
/// Rows over which a push level runs the batched segment kernel (`multi_bfs_push_batch`).
template <class ExecSpace>
inline constexpr offset_t multi_bfs_hub_min = 4 * multi_bfs_light_max<ExecSpace>;

/// Segments of the rows over the light bound: row `vertex(s)`, entries from `first(s)` on, at most
/// `multi_bfs_segment` of them. Row by row, or (the pull's) by their place in the row: every row's first segment,
/// then every second, and so on, rows ascending within each place.
template <class Mem>
struct multi_bfs_segments {
  Kokkos::View<vertex_t*, Mem> vertex;
  Kokkos::View<offset_t*, Mem> first;
};

/// Segments per row (counting pass of `make_multi_bfs_segments`).
template <class Mem>
struct multi_bfs_segment_count {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<offset_t*, Mem> count;
  offset_t light;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    const offset_t len = row_ptr(v + 1) - row_ptr(v);
    count(v) = len > light ? (len + multi_bfs_segment - 1) / multi_bfs_segment : 0;
  }
};

/// Fills the segment list from the scanned counts, and each segment's place in its row when `place` is given.
template <class Mem>
struct multi_bfs_segment_fill {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const offset_t*, Mem> at;  // exclusive scan of the counts
  multi_bfs_segments<Mem> seg;
  offset_t light;
  Kokkos::View<std::uint32_t*, Mem> place;  // or empty
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    const offset_t b = row_ptr(v), len = row_ptr(v + 1) - b;
    if (len <= light) return;
    std::uint32_t k = 0;
    for (offset_t s = 0, i = at(v); s < len; s += multi_bfs_segment, ++i, ++k) {
      seg.vertex(i) = v;
      seg.first(i) = b + s;
      if (place.extent(0) > 0) place(i) = k;
    }
  }
};

/// The segments' first entries from their rows and places, once the list is sorted by place.
template <class Mem>
struct multi_bfs_segment_first {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> vertex;
  Kokkos::View<const std::uint32_t*, Mem> place;
  Kokkos::View<offset_t*, Mem> first;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t s) const {
    first(s) = row_ptr(vertex(s)) + offset_t(place(s)) * multi_bfs_segment;
  }
};

/// Most segments of one row, less one (the largest place).
template <class Mem>
struct multi_bfs_segment_last_place {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, offset_t& acc) const {
    const offset_t len = row_ptr(v + 1) - row_ptr(v);
    const offset_t last = len > 0 ? (len - 1) / multi_bfs_segment : 0;
    if (last > acc) acc = last;
  }
};

/// Per-traversal reset: `seen`, `visit` and the first frontier slot to zero.
template <class Mem, int W>
struct multi_bfs_reset {
  Kokkos::View<multi_bfs_bits<W>*, Mem> seen, visit, frontier;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    multi_bfs_bits<W> z;
    for (int j = 0; j < W; ++j) z.w[j] = 0;
    seen(v) = z;
    visit(v) = z;
    frontier(v) = z;
  }
};

/// Zeroes every frontier slot's words of the vertices from `live` to n (once per allocation: no pass writes them).
template <class Mem>
struct multi_bfs_zero_beyond {
  Kokkos::View<std::uint64_t*, Mem> slots;  // slot s of vertex v at (s n + v) words
  std::size_t n, live, words;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t t) const {
    const std::size_t s = t / (n - live), v = live + t % (n - live);
    for (std::size_t j = 0; j < words; ++j) slots((s * n + v) * words + j) = 0;
  }
};

/// The levels a traversal writes (caller's ids, k x n, a vertex's k levels together): 32-bit (`wide`), 8-bit
/// (`narrow`), or none (both empty).
template <class Mem>
struct multi_bfs_level_out {
  Kokkos::View<level_t**, Kokkos::LayoutLeft, Mem> wide;
  Kokkos::View<level8_t**, Kokkos::LayoutLeft, Mem> narrow;
  KOKKOS_INLINE_FUNCTION bool kept() const { return wide.extent(0) > 0 || narrow.extent(0) > 0; }
  /// Level `l` (at most `max_level8` when narrow) of vertex v from source i.
  KOKKOS_INLINE_FUNCTION void set(const std::size_t i, const std::size_t v, const level_t l) const {
    if (wide.extent(0) > 0)
      wide(i, v) = l;
    else
      narrow(i, v) = static_cast<level8_t>(l);
  }
};

/// A sparse level's frontier slot to zero before its update writes the vertices with new bits (16-byte stores:
/// Kokkos 3.4's `deep_copy` of a value, 8 bytes per thread, cost the sparse levels their gain).
template <class Mem, int W>
struct multi_bfs_clear {
  Kokkos::View<multi_bfs_bits<W>*, Mem> slot;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const { slot(v) = multi_bfs_bits<W>{}; }
};

/// A frontier that holds the bits of its listed vertices only, copied into a zeroed slot: the whole frontier, for a
/// level that reads every vertex's bits.
template <class Mem, int W>
struct multi_bfs_copy_listed {
  Kokkos::View<const multi_bfs_bits<W>*, Mem> from;
  Kokkos::View<multi_bfs_bits<W>*, Mem> to;
  Kokkos::View<const vertex_t*, Mem> list;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { to(list(i)) = from(list(i)); }
};

/// A sparse level ends the history (`multi_bfs_run`) once the last level reached at most live / this many new pairs:
/// the levels it writes as reached then cost less than zeroing a slot per level and reading it back at the end.
inline constexpr unsigned long long multi_bfs_tail_pairs = 4;

/// Level 0: bit i of source i's words (duplicates allowed: atomic), levels(i, source i) = 0 when `levels` is given
/// (the direct mode; the history mode records level 0 in the frontier slot), the sources counted per vertex when
/// `self` is given. Sources, levels and `self` are in the caller's ids, the words in the traversal's.
template <class Mem, int W>
struct multi_bfs_seed {
  Kokkos::View<multi_bfs_bits<W>*, Mem> seen, frontier;
  Kokkos::View<const vertex_t*, Mem> sources;
  multi_bfs_ids<Mem> traversal_id;         // caller's id -> traversal's
  multi_bfs_level_out<Mem> levels;         // direct mode, or none
  Kokkos::View<std::uint32_t*, Mem> self;  // n, or empty
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    const vertex_t s = sources(i), t = traversal_id(s);
    const std::uint64_t bit = std::uint64_t(1) << (i % 64);
    Kokkos::atomic_fetch_or(&seen(t).w[i / 64], bit);
    Kokkos::atomic_fetch_or(&frontier(t).w[i / 64], bit);
    if (levels.kept()) levels.set(i, s, 0);
    if (self.extent(0) > 0) Kokkos::atomic_fetch_add(&self(s), std::uint32_t(1));
  }
};

/// Every level of every pair unreached (the direct mode's start; the history mode writes each level once instead).
template <class Mem, class Level>
struct multi_bfs_fill {
  Kokkos::View<Level*, Mem> flat;
  Level unreached;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { flat(i) = unreached; }
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

/// Per-source counts of up to 2^9 - 1 vertices, bit-sliced: bit i of `s[j][b]` is bit b of source 64 j + i's count.
inline constexpr int multi_bfs_sliced_depth = 9;
template <int W>
struct multi_bfs_sliced {
  std::uint64_t s[W][multi_bfs_sliced_depth];
};

/// Adds one vertex's word j (a 1 for each source whose bit it holds) to `x`: a ripple-carry increment that stops when
/// its carry dies.
template <int W>
KOKKOS_INLINE_FUNCTION void multi_bfs_sliced_add(multi_bfs_sliced<W>& x, int j, std::uint64_t carry) {
  for (int b = 0; b < multi_bfs_sliced_depth && carry; ++b) {
    const std::uint64_t next = x.s[j][b] & carry;
    x.s[j][b] ^= carry;
    carry = next;
  }
}

/// Sum of `multi_bfs_sliced` counts (a bit-sliced ripple-carry add), for `multi_bfs_lane_reducer`.
template <int W>
struct multi_bfs_sliced_op {
  using value_type = multi_bfs_sliced<W>;
  template <class Dst, class Src>
  KOKKOS_INLINE_FUNCTION static void join(Dst& dst, const Src& src) {
    for (int j = 0; j < W; ++j) {
      std::uint64_t carry = 0;
      for (int b = 0; b < multi_bfs_sliced_depth; ++b) {
        const std::uint64_t x = dst.s[j][b], y = src.s[j][b];
        dst.s[j][b] = x ^ y ^ carry;
        carry = (x & y) | (carry & (x ^ y));
      }
    }
  }
  KOKKOS_INLINE_FUNCTION static void init(value_type& v) {
    for (int j = 0; j < W; ++j)
      for (int b = 0; b < multi_bfs_sliced_depth; ++b) v.s[j][b] = 0;
  }
};

/// Vertices in each source's frontier (`count(i)`: the vertices whose frontier words hold bit i), for a pull level to
/// find the sources whose frontier is small against the others' (those it pushes). An atomic per set bit made every
/// thread of a wide frontier wait on the same 128 counters, one thread per 256 vertices left too few threads to hide
/// the loads, and 128 atomics per 256 vertices cost a quarter of the pass (docs/PERFORMANCE.md). Instead each
/// team thread takes tiles of 256 vertices, strided by the league (one wave): its 32 vector lanes add 8 vertices each
/// (strided by 32, so that the loads coalesce) to bit-sliced counts, the lanes' counts are summed bit-sliced and added
/// to the thread's sums in team scratch, and at the end the team adds its threads' sums to `count`.
inline constexpr int multi_bfs_count_lanes = 32;
inline constexpr int multi_bfs_count_per_lane = 8;
template <class ExecSpace, int W>
struct multi_bfs_source_frontier_size {
  using mem = typename ExecSpace::memory_space;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using scratch =
      Kokkos::View<unsigned*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr std::size_t tile = std::size_t(multi_bfs_count_lanes) * multi_bfs_count_per_lane;
  static constexpr int sources = 64 * W;
  static_assert(tile < (std::size_t(1) << multi_bfs_sliced_depth), "a tile's counts fit the bit-sliced depth");
  Kokkos::View<const multi_bfs_bits<W>*, mem> frontier;
  Kokkos::View<unsigned long long*, mem> count;  // 64 W, zero before the pass
  std::size_t live;
  static std::size_t scratch_bytes(int team_size) { return scratch::shmem_size(std::size_t(team_size) * sources); }
  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const scratch sums(m.team_scratch(0), std::size_t(m.team_size()) * sources);
    const std::size_t mine = std::size_t(m.team_rank()) * sources;
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, 64 * W), [&](const int i) { sums(mine + i) = 0; });
    const std::size_t stride = std::size_t(m.league_size()) * std::size_t(m.team_size());
    for (std::size_t t = std::size_t(m.league_rank()) * std::size_t(m.team_size()) + std::size_t(m.team_rank());
         t * tile < live; t += stride) {
      const std::size_t base = t * tile;
      multi_bfs_sliced<W> total;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(m, multi_bfs_count_lanes),
          [&](const int lane, multi_bfs_sliced<W>& x) {
            for (int q = 0; q < multi_bfs_count_per_lane; ++q) {
              const std::size_t v = base + std::size_t(q) * multi_bfs_count_lanes + std::size_t(lane);
              if (v >= live) break;
              const multi_bfs_bits<W> f = frontier(v);
              for (int j = 0; j < W; ++j) multi_bfs_sliced_add(x, j, f.w[j]);
            }
          },
          multi_bfs_lane_reducer<multi_bfs_sliced_op<W>>(total));
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, 64 * W), [&](const int i) {
        unsigned c = 0;
        for (int b = 0; b < multi_bfs_sliced_depth; ++b) c |= unsigned((total.s[i / 64][b] >> (i % 64)) & 1u) << b;
        sums(mine + i) += c;
      });
    }
    m.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamVectorRange(m, 64 * W), [&](const int i) {
      unsigned long long c = 0;
      for (int r = 0; r < m.team_size(); ++r) c += sums(std::size_t(r) * sources + i);
      if (c) Kokkos::atomic_add(&count(i), c);
    });
  }
};

/// Top-down step for the rows of at most `max_degree` entries (the rest: `multi_bfs_push_segments`), one thread per
/// vertex: a frontier vertex ORs its bits into its out-neighbours' candidates (those not yet seen by all of them;
/// the read of `seen` may be stale, the update pass masks it again).
template <class Mem, int W>
struct multi_bfs_push {
  Kokkos::View<const multi_bfs_bits<W>*, Mem> frontier, seen;
  Kokkos::View<multi_bfs_bits<W>*, Mem> visit;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  offset_t max_degree;
  multi_bfs_appender<Mem> app;
  multi_bfs_bits<W> only = multi_bfs_all<W>();  // the sources pushed (a pull level pushes its slow ones)
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    const multi_bfs_bits<W> f = multi_bfs_and(frontier(u), only);  // first: most vertices are not in the frontier
    if (!multi_bfs_any(f)) return;
    const offset_t begin = row_ptr(u), end = row_ptr(u + 1);
    if (end - begin > max_degree) return;
    for (offset_t e = begin; e < end; ++e) {
      const vertex_t v = col_idx(e);
      multi_bfs_offer(visit(v), f, seen(v), visit(v), v, app);
    }
  }
};

/// Top-down step for the segments of the long rows: a team thread's vector lanes share one segment, in batches when
/// `Batched` (then filtering the offers by `seen` too only when `UseSeen`).
template <class ExecSpace, int W, bool Batched, bool UseSeen = true>
struct multi_bfs_push_segments {
  using mem = typename ExecSpace::memory_space;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const multi_bfs_bits<W>*, mem> frontier, seen;
  Kokkos::View<multi_bfs_bits<W>*, mem> visit;
  Kokkos::View<const offset_t*, mem> row_ptr;
  Kokkos::View<const vertex_t*, mem> col_idx;
  multi_bfs_segments<mem> seg;
  multi_bfs_appender<mem> app;
  multi_bfs_bits<W> only = multi_bfs_all<W>();  // the sources pushed
  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const std::size_t s = std::size_t(m.league_rank()) * std::size_t(m.team_size()) + std::size_t(m.team_rank());
    if (s >= seg.vertex.extent(0)) return;
    const vertex_t u = seg.vertex(s);
    const multi_bfs_bits<W> f = multi_bfs_and(frontier(u), only);
    if (!multi_bfs_any(f)) return;
    const offset_t b = seg.first(s), end = row_ptr(u + 1);
    const int len = static_cast<int>(end - b < multi_bfs_segment ? end - b : multi_bfs_segment);
    if constexpr (Batched) {
      multi_bfs_offer_piece<W, UseSeen>(m, col_idx, seen, visit, f, b, len, app);
    } else {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, len), [&](const int i) {
        const vertex_t v = col_idx(b + i);
        multi_bfs_offer(visit(v), f, seen(v), visit(v), v, app);
      });
    }
  }
};

/// Offers `f` to a row of `len` entries from `begin` in pieces of `multi_bfs_segment`: pieces first_piece,
/// first_piece + piece_stride, ... (team thread `m`'s share of the row), each with `multi_bfs_offer_piece`.
template <int W, class Member, class Cols, class Words, class Visit, class Mem>
KOKKOS_INLINE_FUNCTION void multi_bfs_offer_row(const Member& m, const Cols& col_idx, const Words& seen,
                                                const Visit& visit, const multi_bfs_bits<W>& f, offset_t begin,
                                                offset_t len, std::size_t first_piece, std::size_t piece_stride,
                                                const multi_bfs_appender<Mem>& app) {
  for (std::size_t p = first_piece; offset_t(p) * multi_bfs_segment < len; p += piece_stride) {
    const offset_t at = offset_t(p) * multi_bfs_segment, rest = len - at;
    multi_bfs_offer_piece(m, col_idx, seen, visit, f, begin + at,
                          static_cast<int>(rest < multi_bfs_segment ? rest : multi_bfs_segment), app);
  }
}

/// Level 1's push: the frontier is the sources, so instead of passes over every vertex and every segment, `spread`
/// teams per source share its out-row in pieces of `multi_bfs_segment` entries, a team thread's vector lanes (a warp
/// on GPUs) per piece, each source pushing its own bit (a duplicate source scans the row again).
template <class ExecSpace, int W>
struct multi_bfs_push_sources {
  using mem = typename ExecSpace::memory_space;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const multi_bfs_bits<W>*, mem> seen;
  Kokkos::View<multi_bfs_bits<W>*, mem> visit;
  Kokkos::View<const offset_t*, mem> row_ptr;
  Kokkos::View<const vertex_t*, mem> col_idx;
  Kokkos::View<const vertex_t*, mem> sources;  // caller's ids
  multi_bfs_ids<mem> traversal_id;
  int spread;  // teams per source
  multi_bfs_appender<mem> app;
  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const std::size_t i = std::size_t(m.league_rank()) / std::size_t(spread);
    const std::size_t stride = std::size_t(spread) * std::size_t(m.team_size());
    const vertex_t u = traversal_id(sources(i));
    const offset_t b = row_ptr(u), len = row_ptr(u + 1) - b;
    multi_bfs_bits<W> f{};
    f.w[i / 64] = std::uint64_t(1) << (i % 64);
    multi_bfs_offer_row(m, col_idx, seen, visit, f, b, len,
                        std::size_t(m.league_rank() % spread) * std::size_t(m.team_size()) + std::size_t(m.team_rank()),
                        stride, app);
  }
};

/// Top-down step of a sparse level whose frontier is listed (the previous level's sparse update listed it) and holds
/// no row over `multi_bfs_hub_min` entries: a team thread's vector lanes per listed vertex, its row in one piece.
template <class ExecSpace, int W>
struct multi_bfs_push_queue {
  using mem = typename ExecSpace::memory_space;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const multi_bfs_bits<W>*, mem> frontier, seen;
  Kokkos::View<multi_bfs_bits<W>*, mem> visit;
  Kokkos::View<const offset_t*, mem> row_ptr;
  Kokkos::View<const vertex_t*, mem> col_idx;
  Kokkos::View<const vertex_t*, mem> queue;
  std::size_t size;  // listed vertices
  multi_bfs_appender<mem> app;
  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const std::size_t i = std::size_t(m.league_rank()) * std::size_t(m.team_size()) + std::size_t(m.team_rank());
    if (i >= size) return;
    const vertex_t u = queue(i);
    const offset_t b = row_ptr(u), len = row_ptr(u + 1) - b;
    multi_bfs_offer_row(m, col_idx, seen, visit, frontier(u), b, len, 0, 1, app);
  }
};

/// One column block of a blocked pull: pass `index` of `count` scans, in each row (or segment) r, the entries from
/// split(index - 1, r) to split(index, r) (offsets from the row's start; the first pass from 0, the last to the row's
/// end), whose columns lie in the block, so that the frontier words a pass gathers fit in cache.
template <class Mem>
struct multi_bfs_column_block {
  Kokkos::View<const std::uint16_t*, Mem> split;  // (count - 1) x rows
  std::size_t rows = 0;
  int index = 0, count = 1;
  KOKKOS_INLINE_FUNCTION offset_t first(const std::size_t r) const {
    return index == 0 ? 0 : split(std::size_t(index - 1) * rows + r);
  }
  KOKKOS_INLINE_FUNCTION offset_t last(const std::size_t r, const offset_t len) const {
    return index + 1 == count ? len : split(std::size_t(index) * rows + r);
  }
};

/// The split offsets of `multi_bfs_column_block`: for row (or segment) r with entries begin(r) .. end(r) - 1 (sorted
/// columns), the first entry of each block b = 1 .. count - 1 (columns from b x width on). Non-decreasing by
/// construction, so the passes partition every row even where its columns are not sorted.
template <class Mem>
struct multi_bfs_split_rows {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  Kokkos::View<const vertex_t*, Mem> seg_vertex;  // segments: their vertices (empty: r is the vertex)
  Kokkos::View<const offset_t*, Mem> seg_first;
  Kokkos::View<std::uint16_t*, Mem> split;
  std::size_t rows;
  offset_t max_len;  // rows: longer ones are the segments'; segments: multi_bfs_segment
  vertex_t width;
  int count;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t r) const {
    offset_t begin, end;
    if (seg_vertex.extent(0) > 0) {
      const vertex_t v = seg_vertex(r);
      begin = seg_first(r);
      end = row_ptr(v + 1) - begin < max_len ? row_ptr(v + 1) : begin + max_len;
    } else {
      begin = row_ptr(r);
      end = row_ptr(r + 1);
      if (end - begin > max_len) end = begin;  // a segmented row: its own splits are the segments'
    }
    offset_t lo = begin;
    for (int b = 1; b < count; ++b) {
      const std::uint64_t key = std::uint64_t(b) * width;
      offset_t hi = end;
      while (lo < hi) {  // first entry at or after lo with a column >= key
        const offset_t mid = lo + (hi - lo) / 2;
        if (col_idx(mid) < key)
          lo = mid + 1;
        else
          hi = mid;
      }
      split(std::size_t(b - 1) * rows + r) = static_cast<std::uint16_t>(lo - begin);
    }
  }
};

/// Entries a thread-per-row pull loads before it tests them: ids, then their words, then the test, so that it waits on
/// memory once per batch rather than once per entry (docs/PERFORMANCE.md). A row's first entry goes alone: in degree
/// order it is the row's hub, which often covers every missing source by itself.
inline constexpr int multi_bfs_pull_batch = 4;

/// Bottom-up scan of one in-row (entries begin .. end - 1): the OR of the in-neighbours' frontier bits within
/// `missing`, stopping after the entry or batch that covers every missing source.
template <int W, class Frontier, class Cols>
KOKKOS_INLINE_FUNCTION multi_bfs_bits<W> multi_bfs_pull_row(const Frontier& frontier, const Cols& col_idx,
                                                            offset_t begin, offset_t end,
                                                            const multi_bfs_bits<W>& missing) {
  constexpr int B = multi_bfs_pull_batch;
  multi_bfs_bits<W> acc{};
  offset_t e = begin;
  if (e < end) {
    acc = frontier(col_idx(e));
    e = multi_bfs_covers(acc, missing) ? end : e + 1;
  }
  for (; e < end; e += B) {
    vertex_t u[B];
    for (int q = 0; q < B; ++q)
      if (e + q < end) u[q] = col_idx(e + q);
    multi_bfs_bits<W> f[B];
    for (int q = 0; q < B; ++q) f[q] = e + q < end ? frontier(u[q]) : multi_bfs_bits<W>{};
    for (int j = 0; j < W; ++j)
      for (int q = 0; q < B; ++q) acc.w[j] |= f[q].w[j];
    if (multi_bfs_covers(acc, missing)) break;
  }
  for (int j = 0; j < W; ++j) acc.w[j] &= missing.w[j];
  return acc;
}

/// Bottom-up step for the rows of at most `max_degree` entries (the rest: `multi_bfs_pull_segments`), one thread
/// per vertex: a vertex not yet seen by all sources ORs its in-neighbours' frontier bits and stops as soon as every
/// missing source that is still advancing is covered.
template <class Mem, int W>
struct multi_bfs_pull {
  Kokkos::View<const multi_bfs_bits<W>*, Mem> frontier, seen;
  Kokkos::View<multi_bfs_bits<W>*, Mem> visit;
  Kokkos::View<const offset_t*, Mem> row_ptr;  // in-edge CSR
  Kokkos::View<const vertex_t*, Mem> col_idx;
  multi_bfs_bits<W> advancing;  // the sources whose frontier is not empty (the others reach nothing more)
  offset_t max_degree;
  multi_bfs_column_block<Mem> block{};  // the entries of this pass (all when there is one block)
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    const offset_t row = row_ptr(v), row_end = row_ptr(v + 1);
    if (row_end - row > max_degree) return;
    multi_bfs_bits<W> missing = multi_bfs_missing(seen(v), advancing);
    if (!multi_bfs_any(missing)) return;
    const offset_t begin = row + block.first(v), end = block.last(v, row_end - row) + row;
    if (begin == end) return;
    multi_bfs_bits<W> prior{};
    if (block.index > 0) {  // what the earlier blocks found
      prior = visit(v);
      for (int j = 0; j < W; ++j) missing.w[j] &= ~prior.w[j];
      if (!multi_bfs_any(missing)) return;
    }
    const multi_bfs_bits<W> acc = multi_bfs_pull_row(frontier, col_idx, begin, end, missing);
    if (block.index == 0) {
      visit(v) = acc;
    } else if (multi_bfs_any(acc)) {
      multi_bfs_bits<W> both;
      for (int j = 0; j < W; ++j) both.w[j] = prior.w[j] | acc.w[j];
      visit(v) = both;
    }
  }
};

/// Bottom-up step for the segments of the long in-rows: a team thread's vector lanes OR a segment's frontier bits
/// 128 entries at a time, stop once the segment alone covers every missing advancing source, and OR the result into the
/// vertex's candidates (atomic: its other segments run beside).
template <class ExecSpace, int W>
struct multi_bfs_pull_segments {
  using mem = typename ExecSpace::memory_space;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const multi_bfs_bits<W>*, mem> frontier, seen;
  Kokkos::View<multi_bfs_bits<W>*, mem> visit;
  Kokkos::View<const offset_t*, mem> row_ptr;  // in-edge CSR
  Kokkos::View<const vertex_t*, mem> col_idx;
  multi_bfs_segments<mem> seg;
  multi_bfs_bits<W> advancing;          // the sources whose frontier is not empty (the others reach nothing more)
  multi_bfs_column_block<mem> block{};  // the entries of this pass, per segment (all when there is one block)
  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const std::size_t s = std::size_t(m.league_rank()) * std::size_t(m.team_size()) + std::size_t(m.team_rank());
    if (s >= seg.vertex.extent(0)) return;
    const vertex_t v = seg.vertex(s);
    const offset_t first = seg.first(s);
    // The list runs every row's first segment before its later ones: a later segment starts from what the earlier
    // ones found (its read beside that of `seen`), which in degree order is mostly everything it would look for.
    const bool later = first != row_ptr(v);
    const multi_bfs_bits<W> seen_v = seen(v);
    // What the vertex's other segments found already need not be found again (a stale read only costs work): read
    // during each step for the next, so that it adds no wait of its own.
    multi_bfs_bits<W> found = later ? multi_bfs_bits<W>(visit(v)) : multi_bfs_bits<W>{};
    multi_bfs_bits<W> missing = multi_bfs_missing(seen_v, advancing);
    if (!multi_bfs_any(missing)) return;
    multi_bfs_bits<W> acc{};
    const offset_t end = row_ptr(v + 1);
    const offset_t span = end - first < multi_bfs_segment ? end - first : multi_bfs_segment;
    const offset_t b = first + block.first(s), e = first + block.last(s, span);
    if (b == e) return;
    constexpr offset_t step = 128;
    for (offset_t c = b; c < e; c += step) {
      for (int j = 0; j < W; ++j) missing.w[j] &= ~found.w[j];
      if (multi_bfs_covers(acc, missing)) break;
      const multi_bfs_bits<W> next_found = visit(v);
      const int len = static_cast<int>(e - c < step ? e - c : step);
      multi_bfs_bits<W> part;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(m, len),
          [&](const int i, multi_bfs_bits<W>& x) {
            const multi_bfs_bits<W> f = frontier(col_idx(c + i));
            for (int j = 0; j < W; ++j) x.w[j] |= f.w[j];
          },
          multi_bfs_bits_or<W>(part));
      for (int j = 0; j < W; ++j) acc.w[j] |= part.w[j] & missing.w[j];
      if (multi_bfs_covers(acc, missing)) break;
      found = next_found;
    }
    Kokkos::single(Kokkos::PerThread(m), [&]() {
      for (int j = 0; j < W; ++j)
        if (acc.w[j]) Kokkos::atomic_fetch_or(&visit(v).w[j], acc.w[j]);
    });
  }
};

/// What one level's update pass saw.
struct multi_bfs_level_stats {
  unsigned long long active = 0;        ///< vertices reached from at least one source at this level
  unsigned long long pairs = 0;         ///< (source, vertex) pairs reached at this level
  unsigned long long out_edges = 0;     ///< out-edges of the active vertices (the next push's work)
  unsigned long long heavy = 0;         ///< active vertices whose rows the segment kernels push
  unsigned long long hubs = 0;          ///< active vertices with rows over the hub bound
  unsigned long long done_in = 0;       ///< in-edges of the vertices every source reached at this level
  std::uint64_t advancing[2] = {0, 0};  ///< the sources that reached a vertex at this level (words 0 .. W - 1)
};

/// Update pass of level `lev`: new bits = candidates not yet seen; they become the level's frontier slot (in the
/// history mode the slot is kept and the levels are written from the slots at the end), join `seen`, write the
/// levels directly (direct mode, `levels` given) and the per-vertex distance sums (when kept); `visit` is cleared
/// for the next level. The levels and sums are in the caller's ids.
template <class Mem, int W>
struct multi_bfs_update {
  static_assert(W >= 1 && W <= 2, "multi_bfs_level_stats keeps two words of advancing sources");
  using value_type = multi_bfs_level_stats;
  Kokkos::View<multi_bfs_bits<W>*, Mem> seen, visit, frontier;
  Kokkos::View<const offset_t*, Mem> out_ptr, in_ptr;
  multi_bfs_ids<Mem> caller_id;                    // traversal's id -> caller's
  multi_bfs_level_out<Mem> levels;                 // direct mode, or none
  Kokkos::View<double*, Mem> distance_sum;         // n, or empty
  Kokkos::View<std::uint32_t*, Mem> reached_from;  // n, or empty
  level_t lev;
  offset_t light;          // rows over it are pushed by segments
  offset_t hub;            // rows over it are pushed in batches
  multi_bfs_bits<W> full;  // the bits of the sources that exist
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, value_type& acc) const {
    const multi_bfs_bits<W> c = visit(v);
    if (!multi_bfs_any(c)) {  // most vertices on most levels: `seen` is not read
      frontier(v) = multi_bfs_bits<W>{};
      return;
    }
    settle(v, c, acc);
  }
  /// Vertex v with candidates c (not all zero): its new bits; whether it has any.
  KOKKOS_INLINE_FUNCTION bool settle(const vertex_t v, const multi_bfs_bits<W>& c, value_type& acc) const {
    multi_bfs_bits<W> nxt{};
    multi_bfs_bits<W> s = seen(v);
    unsigned long long fresh = 0;
    for (int j = 0; j < W; ++j) {
      nxt.w[j] = c.w[j] & ~s.w[j];
      fresh += static_cast<unsigned long long>(popcount(nxt.w[j]));
    }
    visit(v) = multi_bfs_bits<W>{};
    frontier(v) = nxt;
    if (!fresh) return false;
    bool done = true;
    for (int j = 0; j < W; ++j) {
      s.w[j] |= nxt.w[j];
      done = done && s.w[j] == full.w[j];
    }
    seen(v) = s;
    if (done) acc.done_in += in_ptr(v + 1) - in_ptr(v);
    const vertex_t c_v = caller_id(v);
    if (levels.kept())
      for (int j = 0; j < W; ++j)
        for (std::uint64_t b = nxt.w[j]; b; b &= b - 1)
          levels.set(std::size_t(j) * 64 + count_trailing_zeros(b), c_v, lev);
    for (int j = 0; j < W; ++j) acc.advancing[j] |= nxt.w[j];
    acc.active += 1;
    acc.pairs += fresh;
    const offset_t degree = out_ptr(v + 1) - out_ptr(v);
    acc.out_edges += degree;
    acc.heavy += degree > light ? 1 : 0;
    acc.hubs += degree > hub ? 1 : 0;
    if (distance_sum.extent(0) > 0) {
      distance_sum(c_v) += double(lev) * double(fresh);
      reached_from(c_v) += static_cast<std::uint32_t>(fresh);
    }
    return true;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& s) const { s = value_type{}; }
  KOKKOS_INLINE_FUNCTION void join(BITGRAPH_JOIN_VOLATILE value_type& dst,
                                   const BITGRAPH_JOIN_VOLATILE value_type& src) const {
    dst.active = dst.active + src.active;  // not +=: a compound assignment to a volatile is deprecated
    dst.pairs = dst.pairs + src.pairs;
    dst.out_edges = dst.out_edges + src.out_edges;
    dst.heavy = dst.heavy + src.heavy;
    dst.hubs = dst.hubs + src.hubs;
    dst.done_in = dst.done_in + src.done_in;
    for (int j = 0; j < W; ++j) dst.advancing[j] = dst.advancing[j] | src.advancing[j];
  }
};

/// Update pass of a sparse level: `multi_bfs_update` on the listed candidates only (the level's frontier slot was
/// zeroed before), the vertices with new bits listed in `queue` for the next level's push (as many as the level's
/// `active` count).
template <class Mem, int W>
struct multi_bfs_update_list {
  using value_type = multi_bfs_level_stats;
  multi_bfs_update<Mem, W> update;
  Kokkos::View<const vertex_t*, Mem> list;
  Kokkos::View<vertex_t*, Mem> queue;
  Kokkos::View<unsigned long long*, Mem> counts;  // listed candidates, queued vertices
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, value_type& acc) const {
    if (i >= counts(0)) return;
    const vertex_t v = list(i);
    if (update.settle(v, update.visit(v), acc)) queue(Kokkos::atomic_fetch_add(&counts(1), 1ull)) = v;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& s) const { update.init(s); }
  KOKKOS_INLINE_FUNCTION void join(BITGRAPH_JOIN_VOLATILE value_type& dst,
                                   const BITGRAPH_JOIN_VOLATILE value_type& src) const {
    update.join(dst, src);
  }
};

/// Most frontier slots a traversal keeps (levels 0 .. 15 written from them at the end).
inline constexpr int multi_bfs_max_history = 16;

/// Bits 0 .. 3 of `nibble` spread to bit 0 of bytes 0 .. 3 (the multiply's four shifted copies do not overlap).
KOKKOS_INLINE_FUNCTION std::uint32_t multi_bfs_spread_nibble(const std::uint32_t nibble) {
  return (nibble * 0x00204081u) & 0x01010101u;
}

/// Four levels stored as one 16-byte write.
struct alignas(16) multi_bfs_level4 {
  level_t l[4];
};

/// History mode's last pass: the levels of `sources` sources from the frontier slots of levels 0 .. `depth`
/// (slot l holds the bits first reached at level l), every pair written once, `unreached_level` where no slot has
/// its bit. One thread per vertex and group g of sources: 64 j + 4 g .. 64 j + 4 g + 3 of each word j, so that the
/// 16 threads of a vertex write a word's 64 levels as one contiguous 256-byte run per 16-byte store (when the source
/// count is a multiple of 4, which keeps each store aligned). Eight consecutive sources per thread wrote half of
/// each 32-byte sector per store, so L2 took each sector twice (docs/PERFORMANCE.md).
/// Threads are numbered v * 2^shift + g (groups rounded up to a power of two): a 64-bit division per thread cost
/// more than the stores. Each source's bit lies in exactly one slot, so a thread reads only the 32-bit half of each
/// word that holds its 4 bits and sums, per word, l x (those bits spread to 4 bytes by one multiply) over the slots
/// 1 .. depth (slot 0 adds nothing): a byte per source holds its level. Packing the bits and scanning them per
/// source took about three times the instructions, and the pass was issue-bound.
inline constexpr int multi_bfs_expand_group = 4;
template <class Mem, int W>
struct multi_bfs_expand {
  static_assert(multi_bfs_expand_group == 4, "one 16-byte store holds a group's levels of one word");
  static constexpr int Q = multi_bfs_expand_group;      // sources per word and thread (one nibble, 4 bytes)
  Kokkos::View<const multi_bfs_bits<W>*, Mem> history;  // slot l of vertex v at l * n + v
  Kokkos::View<const multi_bfs_bits<W>*, Mem> seen;
  multi_bfs_ids<Mem> caller_id;  // traversal's id -> caller's (the levels' columns)
  Kokkos::View<level_t**, Kokkos::LayoutLeft, Mem> levels;
  std::size_t n, sources;
  int shift;  // log2 of the groups per vertex, rounded up
  int depth;  // < multi_bfs_max_history: the byte sums stay below 16
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t t) const {
    const std::size_t v = t >> shift, first = (t & ((std::size_t(1) << shift) - 1)) * Q;
    if (first >= sources) return;
    const std::size_t half = first >> 5;
    const unsigned s = static_cast<unsigned>(first & 31);
    static_assert(std::endian::native == std::endian::little, "half 0 of a 64-bit word holds its bits 0 .. 31");
    const std::uint32_t* const seen32 = reinterpret_cast<const std::uint32_t*>(seen.data());
    const std::uint32_t* const hist32 = reinterpret_cast<const std::uint32_t*>(history.data());
    std::uint32_t mine[W], bytes[W];
    bool any = false;
    for (int j = 0; j < W; ++j) {
      mine[j] = (seen32[(v * W + std::size_t(j)) * 2 + half] >> s) & 0xFu;
      bytes[j] = 0;
      any = any || mine[j] != 0;
    }
    if (any)
      for (int l = 1; l <= depth; ++l)
        for (int j = 0; j < W; ++j) {
          const std::uint32_t nib = (hist32[((std::size_t(l) * n + v) * W + std::size_t(j)) * 2 + half] >> s) & 0xFu;
          bytes[j] += multi_bfs_spread_nibble(nib) * static_cast<std::uint32_t>(l);
        }
    const std::size_t c_v = caller_id(static_cast<vertex_t>(v));
    for (int j = 0; j < W; ++j) {
      multi_bfs_level4 out;
      for (int q = 0; q < Q; ++q)
        out.l[q] = (mine[j] >> q) & 1u ? static_cast<level_t>((bytes[j] >> (8 * q)) & 0xFFu) : unreached_level;
      const std::size_t at = 64 * std::size_t(j) + first;
      if (at >= sources) break;
      if (sources % Q == 0) {
        *reinterpret_cast<multi_bfs_level4*>(&levels(at, c_v)) = out;
      } else {
        for (std::size_t q = 0; q < Q && at + q < sources; ++q) levels(at + q, c_v) = out.l[q];
      }
    }
  }
};

/// Sixteen 8-bit levels stored as one 16-byte write.
struct alignas(16) multi_bfs_level16 {
  std::uint32_t w[4];
};

/// `multi_bfs_expand` for 8-bit levels: a thread takes 16 sources of each word (the 16-bit quarter of the slot words
/// that holds their bits), so that its byte sums are the levels themselves and one 16-byte store writes them; the 4
/// threads of a vertex write a word's 64 levels as 64 contiguous bytes (when the source count is a multiple of 16). A
/// slot quarter without bits adds nothing and is skipped; a source without its bit gets 255 (`unreached_level8`).
inline constexpr int multi_bfs_expand8_group = 16;
template <class Mem, int W>
struct multi_bfs_expand8 {
  static constexpr int Q = multi_bfs_expand8_group;
  Kokkos::View<const multi_bfs_bits<W>*, Mem> history;  // slot l of vertex v at l * n + v
  Kokkos::View<const multi_bfs_bits<W>*, Mem> seen;
  multi_bfs_ids<Mem> caller_id;  // traversal's id -> caller's (the levels' columns)
  Kokkos::View<level8_t**, Kokkos::LayoutLeft, Mem> levels;
  std::size_t n, sources;
  int shift;  // log2 of the groups per vertex, rounded up
  int depth;  // < multi_bfs_max_history: the byte sums stay below 16
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t t) const {
    static_assert(unreached_level8 == 0xFFu, "an unreached byte is all ones");
    const std::size_t v = t >> shift, first = (t & ((std::size_t(1) << shift) - 1)) * Q;
    if (first >= sources) return;
    const std::size_t half = first >> 5;
    const unsigned s = static_cast<unsigned>(first & 31);
    const std::uint32_t* const seen32 = reinterpret_cast<const std::uint32_t*>(seen.data());
    const std::uint32_t* const hist32 = reinterpret_cast<const std::uint32_t*>(history.data());
    std::uint32_t mine[W], bytes[W][4];
    bool any = false;
    for (int j = 0; j < W; ++j) {
      mine[j] = (seen32[(v * W + std::size_t(j)) * 2 + half] >> s) & 0xFFFFu;
      for (int b = 0; b < 4; ++b) bytes[j][b] = 0;
      any = any || mine[j] != 0;
    }
    if (any)
      for (int l = 1; l <= depth; ++l)
        for (int j = 0; j < W; ++j) {
          const std::uint32_t q = (hist32[((std::size_t(l) * n + v) * W + std::size_t(j)) * 2 + half] >> s) & 0xFFFFu;
          if (q != 0)
            for (int b = 0; b < 4; ++b)
              bytes[j][b] += multi_bfs_spread_nibble((q >> (4 * b)) & 0xFu) * static_cast<std::uint32_t>(l);
        }
    const std::size_t c_v = caller_id(static_cast<vertex_t>(v));
    for (int j = 0; j < W; ++j) {
      const std::size_t at = 64 * std::size_t(j) + first;
      if (at >= sources) break;
      multi_bfs_level16 out;
      for (int b = 0; b < 4; ++b)
        out.w[b] = bytes[j][b] | multi_bfs_spread_nibble(~(mine[j] >> (4 * b)) & 0xFu) * 0xFFu;
      if (sources % Q == 0) {
        *reinterpret_cast<multi_bfs_level16*>(&levels(at, c_v)) = out;
      } else {
        for (std::size_t q = 0; q < Q && at + q < sources; ++q)
          levels(at + q, c_v) = static_cast<level8_t>((out.w[q / 4] >> (8 * (q % 4))) & 0xFFu);
      }
    }
  }
};

}  // namespace bitgraph::detail
