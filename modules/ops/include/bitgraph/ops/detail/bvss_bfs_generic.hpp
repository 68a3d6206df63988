// The portable BVSS pull traversal of Blest (Alg. 2 eager, Alg. 3 lazy vertex updates) with
// frontier-aware VSS queues, primary template of the bvss_bfs dispatch: one kernel per level, every slice
// evaluated with a popcount (the host emulation of the tensor-core layout).
#pragma once

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/bvss_layout.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph::detail {

// Slots of bvss_bfs_workspace::counters. Level l reads its queue size from queue + l % 3, appends to
// queue + (l + 1) % 3 and clears queue + (l + 2) % 3 (so the CUDA kernel needs one grid sync per level); the
// vertices found per level rotate the same way.
inline constexpr int bvss_counter_queue = 0;  // 3 slots
inline constexpr int bvss_counter_found = 3;  // 3 slots
inline constexpr int bvss_counter_hubs = 6;   // 2 slots: hub rows listed at a bottom-up level l, in slot l % 2
inline constexpr int bvss_counter_slots = 8;
// Rows longer than this are hubs: the CUDA kernel's bottom-up levels scan them with many warps each.
inline constexpr offset_t bvss_hub_row = 1024;
// The workspace's read-back slots (bvss_bfs_workspace::stats).
inline constexpr int bvss_stat_depth = 0;
inline constexpr int bvss_stat_pulled = 1;  // VSSs taken from the queues
inline constexpr int bvss_stat_bottom_up = 2;
inline constexpr int bvss_stat_lazy_levels = 3;  // top-down levels of an eager traversal that took lazy updates
inline constexpr int bvss_stat_slots = 4;

/// Frontier word α of slice set `ss` for level `l`: bit j set iff vertex 8 ss + j has level l - 1.
template <class Levels>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t bvss_alpha(const Levels& levels, vertex_t n, vertex_t ss, level_t l) {
  std::uint32_t a = 0;
  for (int j = 0; j < bvss_sigma; ++j) {
    const vertex_t v = ss * bvss_sigma + j;
    if (v < n && levels(v) == l - 1) a |= 1u << j;
  }
  return a;
}

/// Level 1's queue: the VSSs of the source's slice set (one thread).
template <class Mem>
struct bvss_bfs_init {
  Kokkos::View<const offset_t*, Mem> real_ptrs;
  Kokkos::View<std::uint64_t*, Mem> qa;
  vertex_t ss0;
  KOKKOS_INLINE_FUNCTION void operator()(const int, offset_t& c) const {
    for (offset_t v = real_ptrs(ss0); v < real_ptrs(ss0 + 1); ++v) qa(c++) = (std::uint64_t(ss0) << 32) | v;
  }
};

/// One queued VSS per team, its 32 words on the vector lanes: a slice (u, mask) discovers u when mask AND
/// the slice set's frontier word is non-zero; eager updates set the level and enqueue u's slice set, lazy
/// ones mark the visited bitmap.
template <class ExecSpace>
struct bvss_bfs_pull {
  using mem = memory_space_t<ExecSpace>;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const std::uint64_t*, mem> cq;
  Kokkos::View<std::uint64_t*, mem> nqv;
  Kokkos::View<const vertex_t*, mem> v2r;
  Kokkos::View<const vertex_t*, mem> rows;
  Kokkos::View<const std::uint32_t*, mem> masks;
  Kokkos::View<const offset_t*, mem> real_ptrs;
  Kokkos::View<level_t*, mem> levels;
  Kokkos::View<level_t*, mem> pushed;
  Kokkos::View<std::uint32_t*, mem> visited;
  Kokkos::View<unsigned long long*, mem> counter;
  vertex_t n;
  level_t lev;
  bool lazy;
  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const vertex_t v = static_cast<vertex_t>(cq(m.league_rank()) & 0xffffffffu);
    const vertex_t ss = v2r(v);
    const std::uint32_t alpha = bvss_alpha(levels, n, ss, lev);
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, 32), [&](const int lane) {
      const std::uint32_t word = masks(32 * offset_t(v) + lane);
      for (int c = 0; c < bvss_slices_per_thread; ++c) {
        const std::uint32_t mask = (word >> (8 * c)) & 0xffu;
        if (popcount(mask & alpha) == 0) continue;  // the MMA's popcount, emulated
        const vertex_t u = rows(4 * (32 * offset_t(v) + lane) + c);
        if (levels(u) != unreached_level) continue;
        if (lazy) {
          Kokkos::atomic_fetch_or(&visited(u / 32), std::uint32_t(1) << (u % 32));
        } else {
          levels(u) = lev;
          // Two teams may both find u: the count only steers the bottom-up switch, an overcount is harmless.
          Kokkos::atomic_fetch_add(&counter(1), 1ull);
          const vertex_t ss_out = u / bvss_sigma;
          if (Kokkos::atomic_exchange(&pushed(ss_out), lev) != lev) {
            const offset_t b0 = real_ptrs(ss_out), cnt = real_ptrs(ss_out + 1) - b0;
            const offset_t at = Kokkos::atomic_fetch_add(&counter(0), static_cast<unsigned long long>(cnt));
            for (offset_t k = 0; k < cnt; ++k) nqv(at + k) = (std::uint64_t(ss_out) << 32) | (b0 + k);
          }
        }
      }
    });
  }
};

/// Lazy updates, stage 2: a coalesced sweep over the visited words sets the new levels and fills the
/// queue with the VSSs of the slice sets that gained vertices.
template <class Mem>
struct bvss_bfs_sweep {
  Kokkos::View<const std::uint32_t*, Mem> visited;
  Kokkos::View<level_t*, Mem> levels;
  Kokkos::View<const offset_t*, Mem> real_ptrs;
  Kokkos::View<std::uint64_t*, Mem> nqv;
  Kokkos::View<unsigned long long*, Mem> counter;
  vertex_t n;
  level_t lev;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t t) const {
    const std::uint32_t now = visited(t);
    std::uint32_t fresh = 0;
    for (int bit = 0; bit < 32; ++bit) {
      const std::uint64_t u = t * 32 + bit;
      if (((now >> bit) & 1u) && u < n && levels(u) == unreached_level) fresh |= 1u << bit;
    }
    if (!fresh) return;
    Kokkos::atomic_fetch_add(&counter(1), static_cast<unsigned long long>(popcount(fresh)));
    std::uint32_t f = fresh;
    while (f) {
      levels(t * 32 + count_trailing_zeros(f)) = lev;
      f &= f - 1;
    }
    for (int set = 0; set < 32 / bvss_sigma; ++set) {
      if (((fresh >> (bvss_sigma * set)) & 0xffu) == 0) continue;
      const vertex_t ss_out = static_cast<vertex_t>(t * (32 / bvss_sigma) + set);
      const offset_t b0 = real_ptrs(ss_out), cnt = real_ptrs(ss_out + 1) - b0;
      const offset_t at = Kokkos::atomic_fetch_add(&counter(0), static_cast<unsigned long long>(cnt));
      for (offset_t k = 0; k < cnt; ++k) nqv(at + k) = (std::uint64_t(ss_out) << 32) | (b0 + k);
    }
  }
};

/// A bottom-up level (Blest's switching kernel): one slice set per thread; each unreached vertex scans its
/// row of the pull CSR for a vertex of level l - 1 and stops at the first. Eager updates set the level and
/// enqueue the slice set's VSSs (the thread owns the set, so no deduplication is needed); lazy ones mark the
/// visited bitmap for the sweep.
template <class Mem>
struct bvss_bfs_bottom_up {
  Kokkos::View<const offset_t*, Mem> pull_ptr;
  Kokkos::View<const vertex_t*, Mem> pull_col;
  Kokkos::View<const offset_t*, Mem> real_ptrs;
  Kokkos::View<level_t*, Mem> levels;
  Kokkos::View<std::uint32_t*, Mem> visited;
  Kokkos::View<std::uint64_t*, Mem> nqv;
  Kokkos::View<unsigned long long*, Mem> counter;
  vertex_t n;
  level_t lev;
  bool lazy;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t ss) const {
    unsigned long long found = 0;
    for (int j = 0; j < bvss_sigma; ++j) {
      const vertex_t v = ss * bvss_sigma + j;
      if (v >= n || levels(v) != unreached_level) continue;
      for (offset_t e = pull_ptr(v); e < pull_ptr(v + 1); ++e) {
        if (levels(pull_col(e)) != lev - 1) continue;
        ++found;
        if (lazy)
          Kokkos::atomic_fetch_or(&visited(v / 32), std::uint32_t(1) << (v % 32));
        else
          levels(v) = lev;  // never lev - 1, so no other thread's scan mistakes v for a frontier vertex
        break;
      }
    }
    if (found == 0 || lazy) return;  // lazy: the sweep counts, sets levels and enqueues
    Kokkos::atomic_fetch_add(&counter(1), found);
    const offset_t b0 = real_ptrs(ss), cnt = real_ptrs(ss + 1) - b0;
    const offset_t at = Kokkos::atomic_fetch_add(&counter(0), static_cast<unsigned long long>(cnt));
    for (offset_t k = 0; k < cnt; ++k) nqv(at + k) = (std::uint64_t(ss) << 32) | (b0 + k);
  }
};

/// Whether level `l` runs bottom-up (`bvss_bfs_options::bottom_up_factor` and `bottom_up_min_queue`). Never level 1:
/// its frontier is the source alone, so a bottom-up pass scans nearly every unreached row to its end (mycielski:16,
/// where the source's slice set queues thousands of VSSs: 2.9 ms), while pulling the source's VSSs is a few MMAs.
/// With `scan_cost` > 0 also only when the predicted scan (unreached × min(average degree, n / frontier) entries at
/// `scan_cost` bytes each; whole rows above average degree `dense_degree` > 0) costs less than pulling the queue (640
/// bytes per VSS); `frontier` is the vertices found at level l - 1.
KOKKOS_INLINE_FUNCTION bool bvss_bottom_up(double factor, double min_queue, double scan_cost, double dense_degree,
                                           double avg_degree, unsigned long long unreached, unsigned long long queued,
                                           unsigned long long frontier, unsigned long long n, level_t l) {
  if (l <= 1 || factor <= 0 || !(double(unreached) < factor * double(queued)) ||
      !(double(queued) >= min_queue * double(n)))
    return false;
  if (scan_cost <= 0) return true;
  const double hit_after = double(n) / double(frontier > 0 ? frontier : 1);
  const double per_vertex =
      (dense_degree > 0 && avg_degree > dense_degree) || hit_after > avg_degree ? avg_degree : hit_after;
  const double scanned = double(unreached) * per_vertex;
  return scanned * scan_cost < double(queued) * 640.0;
}

/// `bvss_bfs_options::lazy_level_min_queue` where automatic picks lazy levels: the one or two wide top-down levels of
/// a random graph pull a few VSSs per hundred vertices, its narrow levels (and every level of a mesh) far fewer.
inline constexpr double bvss_auto_lazy_level_min_queue = 1.0 / 64;

/// Whether a top-down level of an eager traversal takes lazy updates (`bvss_bfs_options::lazy_level_min_queue` and
/// `lazy_level_max_fanout`); `frontier` is the vertices found at level l - 1 (1 at level 1). Never after a bottom-up
/// level (`after_bottom_up`): few vertices are left by then (the switch needs unreached < factor × queued), and the
/// CUDA kernel's bitmap holds that level's leftovers from then on.
KOKKOS_INLINE_FUNCTION bool bvss_lazy_level(double min_queue, double max_fanout, unsigned long long queued,
                                            unsigned long long frontier, unsigned long long n, bool after_bottom_up) {
  return min_queue > 0 && !after_bottom_up && double(queued) >= min_queue * double(n) &&
         double(queued) <= max_fanout * double(frontier);
}

/// out(i) = levels(ids(i)): the levels renumbered (bvss_bfs_relabel).
template <class Mem>
struct bvss_bfs_relabel_levels {
  Kokkos::View<const level_t*, Mem> levels;
  Kokkos::View<const vertex_t*, Mem> ids;
  Kokkos::View<level_t*, Mem> out;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const { out(i) = levels(ids(i)); }
};

/// Portable level-synchronous traversal (one kernel per level), evaluating every slice with popcount.
template <class ExecSpace>
struct bvss_bfs_generic {
  using mem = memory_space_t<ExecSpace>;

  static path_offer offer(const bvss_matrix<mem>&) {
    return path_offer{}
        .refuse(op_algorithm::cuda_warp, "the BVSS traversal has a generic and a cuda-mma path, not cuda-warp")
        .refuse(op_algorithm::cuda_mma, "the tensor-core kernel needs the Cuda execution space");
  }

  static bvss_bfs_stats run(op_algorithm, const ExecSpace& exec, const bvss_matrix<mem>& b, vertex_t source,
                            Kokkos::View<level_t*, mem> levels, bool lazy, const bvss_bfs_workspace<mem>& ws,
                            const csr_graph<mem>* pull, const bvss_bfs_options& opts,
                            const bvss_bfs_relabel<mem>* relabel) {
    const vertex_t n = b.n;
    bvss_bfs_stats st;
    st.lazy = lazy;
    Kokkos::deep_copy(exec, levels, unreached_level);
    Kokkos::deep_copy(exec, Kokkos::subview(levels, source), level_t(0));
    // Queue entries are (VSS, slice set) pairs; the portable version reads only the VSS half.
    auto qa = ws.queue_a;
    auto qb = ws.queue_b;
    auto counter = Kokkos::subview(ws.counters, Kokkos::make_pair(0, 2));  // queue size, vertices found
    Kokkos::deep_copy(exec, ws.pushed, level_t(-1));
    // An eager traversal may take lazy updates at wide top-down levels; the sweep tests levels, so bits of earlier
    // levels left in the bitmap are harmless.
    const bool lazy_levels = !lazy && opts.lazy_level_min_queue > 0;
    if (lazy || lazy_levels) {
      Kokkos::deep_copy(exec, ws.visited, std::uint32_t(0));
      Kokkos::deep_copy(exec, Kokkos::subview(ws.visited, source / 32), std::uint32_t(1) << (source % 32));
    }
    offset_t nq = 0;
    Kokkos::parallel_reduce("bitgraph::bvss_bfs::init", Kokkos::RangePolicy<ExecSpace>(exec, 0, 1),
                            bvss_bfs_init<mem>{b.real_ptrs, qa, source / bvss_sigma}, nq);
    using policy = Kokkos::TeamPolicy<ExecSpace>;
    const int vec = is_cuda_space_v<ExecSpace> ? 32 : 1;
    level_t l = 0;
    unsigned long long unreached = n - 1, frontier = 1;
    const double avg_degree = pull != nullptr && n > 0 ? double(pull->nnz) / double(n) : 0.0;
    // The reduction above returned to the host: the per-call state is reset when the clock starts.
    auto level_start = std::chrono::steady_clock::now();
    while (nq > 0) {
      ++l;
      Kokkos::deep_copy(exec, counter, 0ull);
      const offset_t queued = nq;
      const bool up =
          pull != nullptr && bvss_bottom_up(opts.bottom_up_factor, opts.bottom_up_min_queue, opts.bottom_up_scan_cost,
                                            opts.bottom_up_dense_degree, avg_degree, unreached, nq, frontier, n, l);
      if (up) {
        ++st.bottom_up_levels;
        Kokkos::parallel_for("bitgraph::bvss_bfs::bottom_up", Kokkos::RangePolicy<ExecSpace>(exec, 0, b.n_slice_sets),
                             bvss_bfs_bottom_up<mem>{pull->row_ptr, pull->col_idx, b.real_ptrs, levels, ws.visited, qb,
                                                     ws.counters, n, l, lazy});
      }
      const bool lazy_now = lazy || (lazy_levels && !up &&
                                     bvss_lazy_level(opts.lazy_level_min_queue, opts.lazy_level_max_fanout, nq,
                                                     frontier, n, st.bottom_up_levels > 0));
      if (!up) {
        st.vss_processed += nq;
        st.lazy_levels += lazy_now && !lazy;
        Kokkos::parallel_for("bitgraph::bvss_bfs::pull", policy(exec, static_cast<int>(nq), 1, vec),
                             bvss_bfs_pull<ExecSpace>{qa, qb, b.virtual_to_real, b.row_ids, b.masks, b.real_ptrs,
                                                      levels, ws.pushed, ws.visited, ws.counters, n, l, lazy_now});
      }
      if (lazy_now) {
        Kokkos::parallel_for("bitgraph::bvss_bfs::sweep", Kokkos::RangePolicy<ExecSpace>(exec, 0, ws.visited.extent(0)),
                             bvss_bfs_sweep<mem>{ws.visited, levels, b.real_ptrs, qb, ws.counters, n, l});
      }
      unsigned long long h[2] = {0, 0};
      Kokkos::deep_copy(
          exec, Kokkos::View<unsigned long long*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(h, 2),
          counter);
      exec.fence();
      nq = h[0];
      unreached -= h[1] < unreached ? h[1] : unreached;
      frontier = h[1];
      if (h[1] > 0) st.depth = l;  // the queue alone cannot tell: vertices without out-edges enqueue nothing
      if (opts.trace_levels) {
        const auto now = std::chrono::steady_clock::now();
        bvss_level_trace t;
        t.level = l;
        t.bottom_up = up;
        t.lazy = lazy_now;
        t.queued = queued;
        t.found = static_cast<offset_t>(h[1]);
        t.microseconds = std::chrono::duration<double, std::micro>(now - level_start).count();
        st.trace.push_back(t);
        level_start = now;
      }
      auto t = qa;
      qa = qb;
      qb = t;
    }
    if (relabel != nullptr)
      Kokkos::parallel_for("bitgraph::bvss_bfs::relabel", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                           bvss_bfs_relabel_levels<mem>{levels, relabel->ids, relabel->out});
    exec.fence();
    return st;
  }
};

/// Dispatch point; the CUDA backend specialises it with the persistent tensor-core kernel.
template <class ExecSpace>
struct bvss_bfs_impl : bvss_bfs_generic<ExecSpace> {};

}  // namespace bitgraph::detail
