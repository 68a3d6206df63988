// The BVSS pull traversal of Blest (Alg. 2 eager, Alg. 3 lazy vertex updates) with frontier-aware VSS
// queues: the portable version evaluates each slice with a popcount (host emulation of the tensor-core
// layout); the CUDA backend runs all levels in one persistent kernel with m8n8k128 b1 MMAs.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/bvss.hpp"

namespace bitgraph {

/// How vertex updates are applied.
enum class bvss_update : std::uint8_t {
  automatic,  ///< lazy when the update divergence exceeds `lazy_threshold` (Blest's 25,000), else eager
  eager,      ///< Alg. 2: set the level and enqueue the slice set's VSSs at discovery
  lazy,       ///< Alg. 3: mark a visited bitmap; a coalesced sweep at the end of the level sets levels and
              ///< fills the queue (warp-aggregated allocation)
};

/// Options of `bvss_bfs`.
struct bvss_bfs_options {
  op_algorithm algorithm = op_algorithm::automatic;  ///< generic (popcount emulation) or cuda_mma
  bvss_update update = bvss_update::automatic;
  double lazy_threshold = 25000;  ///< update divergence above which `automatic` picks lazy updates
  double update_divergence = -1;  ///< the BVSS's divergence if known (else computed when needed)
};

/// What a BVSS traversal did.
struct bvss_bfs_stats {
  int depth = 0;                 ///< largest level reached
  offset_t vss_processed = 0;    ///< VSSs taken from the queues, all levels together
  bool lazy = false;             ///< which update scheme ran
  bool tensor_cores = false;     ///< whether the MMA kernel ran
};

/// Buffers of a BVSS traversal, allocated once and reused by every call (allocation costs more than a
/// whole traversal of a small graph on a GPU). Queues hold (VSS, slice set) pairs.
template <class MemorySpace>
struct bvss_bfs_workspace {
  Kokkos::View<std::uint64_t*, MemorySpace> queue_a, queue_b;  ///< n_vss entries each
  Kokkos::View<unsigned long long*, MemorySpace> counters;     ///< 3 rotating queue sizes, VSSs processed, depth
  Kokkos::View<level_t*, MemorySpace> pushed;                  ///< per slice set: level it was last enqueued at
  Kokkos::View<std::uint32_t*, MemorySpace> visited;           ///< lazy updates: visited bitmap
  Kokkos::View<std::uint32_t*, MemorySpace> visited_before;    ///< lazy updates: the bitmap at the last sweep
};

/// Allocates the workspace for traversals of `b`.
template <class ExecSpace>
bvss_bfs_workspace<memory_space_t<ExecSpace>> make_bvss_bfs_workspace(const ExecSpace&, const bvss_matrix<memory_space_t<ExecSpace>>& b) {
  using mem = memory_space_t<ExecSpace>;
  bvss_bfs_workspace<mem> w;
  const offset_t cap = b.n_vss > 0 ? b.n_vss : 1;
  w.queue_a = allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::bvss_bfs::queue_a", cap, false);
  w.queue_b = allocate_view<Kokkos::View<std::uint64_t*, mem>>("bitgraph::bvss_bfs::queue_b", cap, false);
  w.counters = allocate_view<Kokkos::View<unsigned long long*, mem>>("bitgraph::bvss_bfs::counters", 5);
  w.pushed = allocate_view<Kokkos::View<level_t*, mem>>("bitgraph::bvss_bfs::pushed", b.n_slice_sets, false);
  w.visited = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss_bfs::visited", ceil_div<std::uint64_t>(b.n, 32));
  w.visited_before =
      allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::bvss_bfs::visited_before", ceil_div<std::uint64_t>(b.n, 32));
  return w;
}

namespace detail {

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

/// Portable level-synchronous traversal (one kernel per level), evaluating every slice with popcount.
template <class ExecSpace, BITGRAPH_TU_LOCAL_PARAM>
struct bvss_bfs_generic {
  using mem = memory_space_t<ExecSpace>;
  static bvss_bfs_stats run(const ExecSpace& exec, const bvss_matrix<mem>& b, vertex_t source,
                            Kokkos::View<level_t*, mem> levels, bool lazy, const bvss_bfs_workspace<mem>& ws) {
    const vertex_t n = b.n;
    bvss_bfs_stats st;
    st.lazy = lazy;
    Kokkos::deep_copy(exec, levels, unreached_level);
    Kokkos::deep_copy(exec, Kokkos::subview(levels, source), level_t(0));
    auto real_ptrs = b.real_ptrs;
    auto v2r = b.virtual_to_real;
    auto rows = b.row_ids;
    auto masks = b.masks;
    // Queue entries are (VSS, slice set) pairs; the portable version reads only the VSS half.
    auto qa = ws.queue_a;
    auto qb = ws.queue_b;
    auto counter = Kokkos::subview(ws.counters, Kokkos::make_pair(0, 1));
    auto pushed = ws.pushed;
    Kokkos::deep_copy(exec, pushed, level_t(-1));
    auto visited = ws.visited;
    if (lazy) {
      Kokkos::deep_copy(exec, visited, std::uint32_t(0));
      Kokkos::deep_copy(exec, Kokkos::subview(visited, source / 32), std::uint32_t(1) << (source % 32));
    }
    // Level 1 processes the VSSs of the source's slice set.
    const vertex_t ss0 = source / bvss_sigma;
    offset_t nq = 0;
    Kokkos::parallel_reduce(
        "bitgraph::bvss_bfs::init", Kokkos::RangePolicy<ExecSpace>(exec, 0, 1),
        KOKKOS_LAMBDA(const int, offset_t& c) {
          for (offset_t v = real_ptrs(ss0); v < real_ptrs(ss0 + 1); ++v) qa(c++) = (std::uint64_t(ss0) << 32) | v;
        },
        nq);
    using policy = Kokkos::TeamPolicy<ExecSpace>;
    const int vec = is_cuda_space_v<ExecSpace> ? 32 : 1;
    level_t l = 0;
    while (nq > 0) {
      ++l;
      st.vss_processed += nq;
      Kokkos::deep_copy(exec, counter, 0ull);
      auto cq = qa, nqv = qb;
      const level_t lev = l;
      Kokkos::parallel_for(
          "bitgraph::bvss_bfs::pull", policy(exec, static_cast<int>(nq), 1, vec),
          KOKKOS_LAMBDA(const typename policy::member_type& m) {
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
          });
      if (lazy) {
        // Stage 2: a coalesced sweep over the visited words sets the new levels and fills the queue.
        Kokkos::parallel_for(
            "bitgraph::bvss_bfs::sweep", Kokkos::RangePolicy<ExecSpace>(exec, 0, visited.extent(0)),
            KOKKOS_LAMBDA(const std::size_t t) {
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
            });
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
template <class ExecSpace, BITGRAPH_TU_LOCAL_PARAM>
struct bvss_bfs_impl {
  static bvss_bfs_stats run(const ExecSpace& exec, const bvss_matrix<memory_space_t<ExecSpace>>& b, vertex_t source,
                            Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels, bool lazy, op_algorithm alg,
                            const bvss_bfs_workspace<memory_space_t<ExecSpace>>& ws) {
    if (alg == op_algorithm::cuda_mma || alg == op_algorithm::cuda_warp) {
      throw unsupported_error("bitgraph::bvss_bfs: the tensor-core kernel needs the Cuda execution space");
    }
    return bvss_bfs_generic<ExecSpace>::run(exec, b, source, levels, lazy, ws);
  }
};

}  // namespace detail

/// BFS levels from `source` by pulls over a BVSS (Blest): level l processes only the VSSs queued at
/// level l - 1 (those whose slice set holds a frontier vertex); a slice (u, mask) discovers u when
/// mask AND the slice set's 8 frontier bits is non-zero. `levels` (length n) receives the levels,
/// `unreached_level` elsewhere. Throws `invalid_argument_error` for source >= n or a wrong length.
/// `workspace` (from `make_bvss_bfs_workspace` for this `b`) avoids allocating per call; one is
/// allocated when it is null.
template <class ExecSpace>
bvss_bfs_stats bvss_bfs(const ExecSpace& exec, const bvss_matrix<memory_space_t<ExecSpace>>& b, vertex_t source,
                        Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels, const bvss_bfs_options& opts = {},
                        const bvss_bfs_workspace<memory_space_t<ExecSpace>>* workspace = nullptr) {
  BITGRAPH_CHECK_ARG(source < b.n, "bvss_bfs", "source vertex ", source, " is out of range: the graph has ", b.n,
                     " vertices");
  BITGRAPH_CHECK_ARG(levels.extent(0) == b.n, "bvss_bfs", "levels has ", levels.extent(0), " entries, expected ", b.n);
  if (opts.algorithm == op_algorithm::cuda_warp) {
    throw unsupported_error("bitgraph::bvss_bfs: the BVSS traversal has a generic and a cuda-mma path, not cuda-warp");
  }
  detail::check_algorithm<ExecSpace>(opts.algorithm, "bvss_bfs");
  bool lazy = opts.update == bvss_update::lazy;
  if (opts.update == bvss_update::automatic) {
    const double div = opts.update_divergence >= 0 ? opts.update_divergence : update_divergence(exec, b);
    lazy = div > opts.lazy_threshold;
  }
  if (workspace != nullptr) {
    BITGRAPH_CHECK_ARG(workspace->queue_a.extent(0) >= b.n_vss && workspace->pushed.extent(0) == b.n_slice_sets,
                       "bvss_bfs", "the workspace was made for another BVSS");
    return detail::bvss_bfs_impl<ExecSpace>::run(exec, b, source, levels, lazy, opts.algorithm, *workspace);
  }
  return detail::bvss_bfs_impl<ExecSpace>::run(exec, b, source, levels, lazy, opts.algorithm,
                                               make_bvss_bfs_workspace(exec, b));
}

}  // namespace bitgraph

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/blest.hpp"
#endif
