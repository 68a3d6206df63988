// The portable BVSS pull traversal of Blest (Alg. 2 eager, Alg. 3 lazy vertex updates) with
// frontier-aware VSS queues, primary template of the bvss_bfs dispatch: one kernel per level, every slice
// evaluated with a popcount (the host emulation of the tensor-core layout).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/bvss_layout.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph::detail {

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
                            Kokkos::View<level_t*, mem> levels, bool lazy, const bvss_bfs_workspace<mem>& ws) {
    const vertex_t n = b.n;
    bvss_bfs_stats st;
    st.lazy = lazy;
    Kokkos::deep_copy(exec, levels, unreached_level);
    Kokkos::deep_copy(exec, Kokkos::subview(levels, source), level_t(0));
    // Queue entries are (VSS, slice set) pairs; the portable version reads only the VSS half.
    auto qa = ws.queue_a;
    auto qb = ws.queue_b;
    auto counter = Kokkos::subview(ws.counters, Kokkos::make_pair(0, 1));
    Kokkos::deep_copy(exec, ws.pushed, level_t(-1));
    if (lazy) {
      Kokkos::deep_copy(exec, ws.visited, std::uint32_t(0));
      Kokkos::deep_copy(exec, Kokkos::subview(ws.visited, source / 32), std::uint32_t(1) << (source % 32));
    }
    offset_t nq = 0;
    Kokkos::parallel_reduce("bitgraph::bvss_bfs::init", Kokkos::RangePolicy<ExecSpace>(exec, 0, 1),
                            bvss_bfs_init<mem>{b.real_ptrs, qa, source / bvss_sigma}, nq);
    using policy = Kokkos::TeamPolicy<ExecSpace>;
    const int vec = is_cuda_space_v<ExecSpace> ? 32 : 1;
    level_t l = 0;
    while (nq > 0) {
      ++l;
      st.vss_processed += nq;
      Kokkos::deep_copy(exec, counter, 0ull);
      Kokkos::parallel_for("bitgraph::bvss_bfs::pull", policy(exec, static_cast<int>(nq), 1, vec),
                           bvss_bfs_pull<ExecSpace>{qa, qb, b.virtual_to_real, b.row_ids, b.masks, b.real_ptrs, levels,
                                                    ws.pushed, ws.visited, ws.counters, n, l, lazy});
      if (lazy) {
        Kokkos::parallel_for("bitgraph::bvss_bfs::sweep", Kokkos::RangePolicy<ExecSpace>(exec, 0, ws.visited.extent(0)),
                             bvss_bfs_sweep<mem>{ws.visited, levels, b.real_ptrs, qb, ws.counters, n, l});
      }
      unsigned long long next_size = 0;
      Kokkos::deep_copy(exec, next_size, Kokkos::subview(counter, 0));
      nq = next_size;
      auto t = qa;
      qa = qb;
      qb = t;
    }
    st.depth = l > 0 ? l - 1 : 0;
    exec.fence();
    return st;
  }
};

/// Dispatch point; the CUDA backend specialises it with the persistent tensor-core kernel.
template <class ExecSpace>
struct bvss_bfs_impl : bvss_bfs_generic<ExecSpace> {};

}  // namespace bitgraph::detail
