// Blest on CUDA: a whole traversal in one persistent cooperative kernel (grid-wide sync between levels): a
// prologue that resets the per-call state, then per level either warps taking VSSs round-robin from the queue
// and resolving their 128 slices with two mma.sync.m8n8k128.b1.and.popc, all 64 outputs of each MMA useful
// (Blest §4.1, Alg. 2 and 3), or, when few vertices are left unreached, a bottom-up scan of the pull CSR
// (Blest's switching kernel).
#pragma once

#include <cooperative_groups.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "bitgraph/backends/cuda/ptx/mma_b1.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/bvss_layout.hpp"
#include "bitgraph/ops/detail/bvss_bfs_generic.hpp"

namespace bitgraph::cuda {

/// Most entries a lane's bottom-up row scan loads per step (measured on the H100: 4 beats 1 and 8 on urand:22 and
/// kron:22, docs/PERFORMANCE.md).
inline constexpr int blest_scan_batch = 4;

/// Device state of one traversal.
struct blest_state {
  vertex_t n;
  vertex_t n_slice_sets;
  vertex_t source;
  const offset_t* real_ptrs;
  const vertex_t* v2r;
  const uint4* rows;  // 4 row ids per lane and VSS
  const std::uint32_t* masks;
  const offset_t* pull_ptr;  // the pull CSR for bottom-up levels; null: every level pulls VSSs
  const vertex_t* pull_col;
  double bottom_up_factor;
  double bottom_up_min_queue;
  double bottom_up_scan_cost;
  double bottom_up_dense_degree;
  double avg_degree;  // of the pull CSR
  // Eager kernel: top-down levels that take lazy updates (detail::bvss_lazy_level); lazy_level_min_queue 0: none.
  double lazy_level_min_queue;
  double lazy_level_max_fanout;
  level_t* levels;
  bool levels_aligned;                // levels is 16-byte aligned: blest_alpha reads a slice set's levels as two int4
  uint2* queue[2];                    // (VSS, its slice set): carrying the slice set saves a dependent load per VSS
  unsigned long long queue_capacity;  // entries of each queue
  unsigned long long* counters;       // detail::bvss_counter_* slots
  // Discoveries counted per block in shared memory and added to the level's count once per block before the grid
  // sync rather than by one atomic per warp: with several blocks per SM (dense graphs), thousands of warps' atomics on
  // one address queue at one L2 slice.
  bool block_found;
  level_t* pushed;  // eager: last level each slice set was enqueued at
  // Lazy, and lazy levels before the first bottom-up level: the visited bitmap (ceil(n / 32) words). Eager from the
  // first bottom-up level: the vertices it left unreached that have an in-edge (a superset of those a later bottom-up
  // level can find), so that a later bottom-up level skips words of none.
  std::uint32_t* visited;
  std::uint32_t* visited_before;  // lazy levels: the bitmap as of the last sweep (only thread t writes word t)
  // Bottom-up levels on small graphs: every block copies the previous level into a bitmap of this many words in its
  // shared memory, so a row scan tests a bit there instead of waiting on L2 for each entry's level. 0: not used.
  std::uint32_t frontier_words;
  // Bottom-up levels on large graphs (frontier_words 0): the previous level as a bitmap in global memory, two buffers
  // of ceil(n / 32) words (level l's in buffer l % 2), written only by a lazy sweep, which has the fresh words at hand.
  // A bottom-up level right after a lazy one (urand's first) tests a bit through L1 instead of each entry's level
  // through L2; after any other level it tests levels: a pass to build the bitmap cost kron more than it saved, and
  // writing it from a bottom-up level's hits slowed the late levels that scan only leftovers. Null: not used.
  std::uint32_t* frontier_bits;
  // Optional renumbered copy of the levels, written after the last level in the same launch: relabel_out[i] =
  // levels[relabel_ids[i]] for i < n (the caller's ids of a reordered graph). Null: not written.
  level_t* relabel_out;
  const vertex_t* relabel_ids;
  // detail::bvss_stat_* slots in page-locked host memory (mapped: the kernel writes them, no copy follows).
  unsigned long long* stats;
  // Bottom-up levels list the unreached hub rows (over detail::bvss_hub_row entries) here and scan each with a
  // group of warps after the other rows, instead of with the one warp that owns it: the cluster order puts the hubs
  // side by side, so one warp would otherwise scan them all in turn. Null: the graph has no hub row.
  vertex_t* hubs;
  unsigned long long hub_capacity;
  // Level trace (bvss_bfs_options::trace_levels) in page-locked host memory: [0] the global timer at the end of the
  // prologue, [1] the levels run, [2] and [3] the timer at the kernel's start and end; level l <= trace_levels at
  // [4 l, 4 l + 4): timer at its end, bottom-up (bit 0) and lazy (bit 1), queued VSSs, vertices found. Null: not
  // recorded.
  unsigned long long* trace;
  unsigned long long trace_levels;
};

/// The device's global timer (ns).
__device__ __forceinline__ unsigned long long blest_global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// Largest shared frontier bitmap (words; 32 KiB: four blocks of 256 threads or two of 1024 still fit an SM).
inline constexpr std::uint32_t blest_max_frontier_words = 8192;

/// Queue space for `need` entries per lane with one atomic per warp: this lane's first slot. All 32 lanes call it.
__device__ __forceinline__ unsigned long long blest_warp_alloc(unsigned long long need, unsigned long long* counter,
                                                               int lane) {
  unsigned long long incl = need;
  for (int off = 1; off < 32; off <<= 1) {
    const unsigned long long o = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += o;
  }
  unsigned long long base = 0;
  if (lane == 31 && incl) base = atomicAdd(counter, incl);
  return __shfl_sync(0xffffffffu, base, 31) + incl - need;
}

/// Writes this lane's `cnt` queue entries (VSSs b0, b0 + 1, ... of slice set `ss`) from slot `at`. A range of over
/// 32 entries is written by the whole warp: a hub's slice set holds thousands of VSSs, and one lane storing them one by
/// one held up whole levels of power-law graphs (docs/PERFORMANCE.md). VSS ids fit 32 bits, as in the queue entries (a
/// VSS's 128 row ids take 512 bytes). All 32 lanes call it.
__device__ __forceinline__ void blest_enqueue(uint2* nq, unsigned long long at, std::uint32_t b0, std::uint32_t cnt,
                                              vertex_t ss, int lane) {
  const bool large = cnt > 32;
  if (!large)
    for (std::uint32_t i = 0; i < cnt; ++i) nq[at + i] = make_uint2(b0 + i, ss);
  for (std::uint32_t todo = __ballot_sync(0xffffffffu, large); todo; todo &= todo - 1) {
    const int owner = __ffs(todo) - 1;
    const unsigned long long a = __shfl_sync(0xffffffffu, at, owner);
    const std::uint32_t b = __shfl_sync(0xffffffffu, b0, owner), e = __shfl_sync(0xffffffffu, cnt, owner);
    const vertex_t set = __shfl_sync(0xffffffffu, ss, owner);
    for (std::uint32_t i = lane; i < e; i += 32) nq[a + i] = make_uint2(b + i, set);
  }
}

/// Adds the warp's discoveries to the level's count, or with `s.block_found` to its block's count in shared memory
/// (`blest_flush_found` adds that to the level's). All 32 lanes call it.
__device__ __forceinline__ void blest_count_found(const blest_state& s, unsigned long long found,
                                                  unsigned long long* counter, unsigned long long* block_count,
                                                  int lane) {
  for (int off = 16; off > 0; off >>= 1) found += __shfl_xor_sync(0xffffffffu, found, off);
  if (lane == 0 && found) atomicAdd(s.block_found ? block_count : counter, found);
}

/// With `s.block_found`: the block's discoveries into the level's count. Every thread calls it before a grid sync.
__device__ __forceinline__ void blest_flush_found(const blest_state& s, unsigned long long* counter,
                                                  unsigned long long* block_count) {
  if (!s.block_found) return;
  __syncthreads();
  if (threadIdx.x == 0) {
    if (*block_count) atomicAdd(counter, *block_count);
    *block_count = 0;
  }
}

// Data other SMs write (levels, queues, the visited bitmap) is read with __ldcg, at L2: L1 is not coherent across
// SMs. A grid sync's acquire does invalidate L1 (its spin loop runs CCTL.IVALL, ncu on the H200), so a plain load is
// fresh as of the last sync, but not of what other SMs write during the level.
//
// A slice set's eight levels are one 32-byte sector: a whole set in a 16-byte-aligned array is read as two 16-byte
// vectors, one L2 round trip, where eight scalar loads guarded by v < n were issued in three or four dependent waves
// (ncu, grid2d:2048: docs/PERFORMANCE.md).
__device__ __forceinline__ std::uint32_t blest_alpha(const level_t* levels, vertex_t n, vertex_t ss, level_t l,
                                                     bool aligned) {
  static_assert(bvss_sigma == 8 && sizeof(level_t) == 4, "a slice set's levels are two int4");
  const unsigned long long first = static_cast<unsigned long long>(ss) * bvss_sigma;
  std::uint32_t a = 0;
  if (aligned && first + bvss_sigma <= n) {
    const int4* p = reinterpret_cast<const int4*>(levels + first);
    const int4 lo = __ldcg(p), hi = __ldcg(p + 1);
    const level_t v[bvss_sigma] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
#pragma unroll
    for (int j = 0; j < bvss_sigma; ++j) a |= v[j] == l - 1 ? 1u << j : 0u;
    return a;
  }
#pragma unroll
  for (int j = 0; j < bvss_sigma; ++j) {
    const unsigned long long v = first + j;
    if (v < n && __ldcg(levels + v) == l - 1) a |= 1u << j;
  }
  return a;
}

/// Whether the warp finds an entry of [b, e) of `col` in the frontier: four entries per lane and step (128 per warp),
/// loaded before any is tested, so a step waits on memory once. All 32 lanes call it with the same b and e.
template <class InFrontier>
__device__ __forceinline__ bool blest_warp_scan(const vertex_t* col, offset_t b, offset_t e, int lane,
                                                const InFrontier& in_frontier) {
  for (offset_t at = b; at < e; at += 128) {
    vertex_t c[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) c[j] = at + 32 * j + lane < e ? col[at + 32 * j + lane] : vertex_t(0);
    bool any = false;
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (at + 32 * j + lane < e) any |= in_frontier(c[j]);
    if (__any_sync(0xffffffffu, any)) return true;
  }
  return false;
}

/// The kernel's update schemes: eager, lazy, or eager with lazy wide top-down levels. The last is a kernel of its own
/// so that the eager one does not carry the sweep's code and registers.
inline constexpr int blest_eager = 0, blest_lazy = 1, blest_lazy_levels = 2;

// The lazy-levels kernel is bounded at 64 registers (four 256-thread blocks per SM, as the eager one): left to itself
// ptxas gave it 64 and spilled 12 bytes. The other two keep ptxas's own choice (a bound raised the eager one to 80).
template <int Updates, int BlockThreads>
__global__ void __launch_bounds__(BlockThreads, Updates == blest_lazy_levels ? 1024 / BlockThreads : 0)
    blest_kernel(blest_state s) {
  constexpr bool Lazy = Updates == blest_lazy;
  // The frontier bitmap only in the kernels with lazy sweeps: in the eager one, which meshes run, its code cost spills.
  constexpr bool Bits = Updates != blest_eager;
  constexpr int ScanBatch = blest_scan_batch;
  namespace cg = cooperative_groups;
  using namespace bitgraph::detail;
  cg::grid_group grid = cg::this_grid();
  const int lane = threadIdx.x & 31;
  const unsigned long long warp = (static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned long long warps = static_cast<unsigned long long>(gridDim.x) * blockDim.x / 32;
  const unsigned long long thread = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned long long threads = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  unsigned long long* const c = s.counters;
  const unsigned long long words = (static_cast<unsigned long long>(s.n) + 31) / 32;
  if (s.trace != nullptr && thread == 0) s.trace[2] = blest_global_timer();

  // Prologue: the per-call state (levels, enqueue stamps or visited bitmaps, level 1's queue, the counters)
  // set here rather than by separate fills, so that a traversal is one launch.
  for (unsigned long long v = thread; v < s.n; v += threads) s.levels[v] = v == s.source ? 0 : unreached_level;
  // The bitmaps of an eager traversal with lazy levels start empty: the source is never rediscovered.
  const bool lazy_levels = Updates == blest_lazy_levels && s.lazy_level_min_queue > 0;
  if (Lazy || lazy_levels) {
    for (unsigned long long t = thread; t < words; t += threads) {
      const std::uint32_t w = Lazy && t == s.source / 32 ? 1u << (s.source % 32) : 0u;
      s.visited[t] = w;
      s.visited_before[t] = w;  // the same thread t reads and writes word t in the sweeps
    }
  }
  if (!Lazy)
    for (unsigned long long i = thread; i < s.n_slice_sets; i += threads) s.pushed[i] = -1;
  const vertex_t ss0 = s.source / bvss_sigma;
  const offset_t q0 = s.real_ptrs[ss0], q0n = s.real_ptrs[ss0 + 1] - q0;
  for (unsigned long long k = thread; k < q0n; k += threads)
    s.queue[0][k] = make_uint2(static_cast<vertex_t>(q0 + k), ss0);
  if (thread == 0) {
    for (int i = 0; i < bvss_counter_slots; ++i) c[i] = 0;
    c[bvss_counter_queue + 1] = q0n;
  }
  // The block's discoveries (with s.block_found), and the level's queue size and discoveries as warp 0 reads them after
  // each grid sync for the whole block: one load per block and counter rather than per warp, since thousands of warps
  // reading one line wait at one L2 slice.
  __shared__ unsigned long long block_count, level_counts[2], hub_count;
  if (threadIdx.x == 0) block_count = 0;
  grid.sync();
  if (s.trace != nullptr && thread == 0) s.trace[0] = blest_global_timer();

  // Level l reads its queue size and the vertices found at level l - 1 from slot l % 3, appends to slot
  // (l + 1) % 3 and clears slot (l + 2) % 3 (last used at level l - 1, next used at level l + 1), so one grid
  // sync per level suffices in the eager scheme, and every thread takes the same bottom-up decision.
  const std::uint32_t fragb_word = (lane % 9 == 0) ? 1u : ((lane % 9 == 4) ? 2u : 0u);
  unsigned long long pulled = 0, unreached = s.n - 1;
  // The level's queue size and the vertices found by the level before: read once, at the end of the level before
  // (level 1: the source's VSSs, and nothing found yet), so that a level starts without a load after its grid sync.
  unsigned long long size = q0n, found_before = 0;
  // This warp's first queue entry of the level, loaded beside the counters for the same reason (level 1: known).
  uint2 first_entry = make_uint2(static_cast<vertex_t>(q0 + warp), ss0);
  int bottom_up_levels = 0, lazy_level_count = 0;
  bool candidates = false;  // eager: s.visited holds a bottom-up level's leftovers
  bool bits_fresh = false;  // s.frontier_bits holds the previous level (a lazy one)
  for (level_t l = 1;; ++l) {
    const uint2* cq = s.queue[(l - 1) & 1];
    uint2* nq = s.queue[l & 1];
    unsigned long long* next_counter = c + bvss_counter_queue + (l + 1) % 3;
    unsigned long long* found_counter = c + bvss_counter_found + (l + 1) % 3;
    unreached -= found_before < unreached ? found_before : unreached;
    if (thread == 0) {
      c[bvss_counter_queue + (l + 2) % 3] = 0;
      c[bvss_counter_found + (l + 2) % 3] = 0;
      c[bvss_counter_hubs + (l + 1) % 2] = 0;  // last listed at level l - 1, next at level l + 1
    }
    unsigned long long found = 0;  // this lane's discoveries (eager; the lazy sweep counts its own)
    const bool up =
        s.pull_ptr != nullptr &&
        bvss_bottom_up(s.bottom_up_factor, s.bottom_up_min_queue, s.bottom_up_scan_cost, s.bottom_up_dense_degree,
                       s.avg_degree, unreached, size, l == 1 ? 1 : found_before, s.n, l);
    if (!up) pulled += size;
    // Lazy updates at this level: always in the lazy kernel; in the lazy-levels kernel at a wide top-down level with
    // few VSSs per frontier vertex; never in the eager one. The same value in every thread, like up.
    const bool lazy_now = Lazy || (lazy_levels && !up &&
                                   bvss_lazy_level(s.lazy_level_min_queue, s.lazy_level_max_fanout, size,
                                                   l == 1 ? 1 : found_before, s.n, bottom_up_levels > 0));
    lazy_level_count += !Lazy && lazy_now;
    // The previous level as a bitmap in shared memory (bottom-up levels of small graphs), and the test a row scan
    // makes.
    extern __shared__ std::uint32_t frontier[];
    const bool shared_frontier = s.frontier_words != 0;
    // A plain load: the bitmap was written before the last grid sync, which leaves no stale line in L1.
    const auto in_frontier = [&](vertex_t c) {
      if (shared_frontier) return ((frontier[c >> 5] >> (c & 31)) & 1u) != 0;
      return Bits && bits_fresh ? ((s.frontier_bits[((l - 1) & 1) * words + (c >> 5)] >> (c & 31)) & 1u) != 0
                                : __ldcg(s.levels + c) == l - 1;
    };
    if (up) {
      // Bottom-up: lane l of a warp owns vertex base + l, so lanes 8k..8k+7 own slice set base / 8 + k whole:
      // its VSSs are enqueued once, by lane 8k (with the level's stamp when the set holds a listed hub, which the
      // hub pass below may enqueue too).
      ++bottom_up_levels;
      if (shared_frontier) {  // one ballot per 32 coalesced levels
        for (unsigned long long w = threadIdx.x / 32; w < s.frontier_words; w += blockDim.x / 32) {
          const unsigned long long v = 32 * w + lane;
          const std::uint32_t bits = __ballot_sync(0xffffffffu, v < s.n && __ldcg(s.levels + v) == l - 1);
          if (lane == 0) frontier[w] = bits;
        }
        __syncthreads();
      }
      // Settles the 32 vertices from `base` once their light rows are scanned: the hub rows by the whole warp, then the
      // hits' levels and the slice sets to enqueue.
      const auto settle = [&](unsigned long long base, offset_t row, offset_t row_end, bool heavy, bool hit) {
        const unsigned long long v = base + lane;
        bool listed = false;
        for (std::uint32_t todo = __ballot_sync(0xffffffffu, heavy); todo; todo &= todo - 1) {
          const int owner = __ffs(todo) - 1;
          const offset_t b = __shfl_sync(0xffffffffu, row, owner), e = __shfl_sync(0xffffffffu, row_end, owner);
          const offset_t first = s.hubs != nullptr ? b + bvss_hub_row : e;
          bool got = blest_warp_scan(s.pull_col, b, first, lane, in_frontier);
          if (!got && first < e) {
            unsigned long long slot = 0;
            if (lane == owner) slot = atomicAdd(c + bvss_counter_hubs + l % 2, 1ull);
            slot = __shfl_sync(0xffffffffu, slot, owner);
            if (slot < s.hub_capacity) {
              if (lane == owner) {
                s.hubs[slot] = static_cast<vertex_t>(v);
                listed = true;
              }
            } else {  // the list is full (a pull CSR longer than the BVSS): this warp scans the rest
              got = blest_warp_scan(s.pull_col, first, e, lane, in_frontier);
            }
          }
          if (lane == owner) hit = got;
        }
        const std::uint32_t hits = __ballot_sync(0xffffffffu, hit);
        if (Lazy) {
          if (lane == 0 && hits) atomicOr(s.visited + base / 32, hits);
        } else {
          if (hit) s.levels[v] = l;
          found += hit;
          const std::uint32_t left = __ballot_sync(0xffffffffu, row_end > row && !hit);
          if (lane == 0) __stcg(s.visited + base / 32, left);
          const vertex_t ss = static_cast<vertex_t>(base / bvss_sigma + lane / bvss_sigma);
          const bool shared_set = ((__ballot_sync(0xffffffffu, listed) >> (lane & ~7)) & 0xffu) != 0;
          const bool leader =
              (lane & 7) == 0 && ((hits >> lane) & 0xffu) && (!shared_set || atomicExch(s.pushed + ss, l) != l);
          const offset_t b0 = leader ? s.real_ptrs[ss] : 0;
          const unsigned long long need = leader ? s.real_ptrs[ss + 1] - b0 : 0;
          const unsigned long long at = blest_warp_alloc(need, next_counter, lane);
          blest_enqueue(nq, at, static_cast<std::uint32_t>(b0), static_cast<std::uint32_t>(need), ss, lane);
        }
      };
      // A lane scans its own row and stops at the first parent; a hub's row (over 1,024 entries, where one lane
      // would wait on L2 for each entry in turn) is scanned by the whole warp, 128 entries per step. With a hub
      // list, only its first 1,024 entries are scanned here: the cluster order puts hubs side by side, so a
      // warp could own dozens whose parents lie deep; a hub not settled by them is listed for the hub pass.
      // A lane's scan takes 1, 2, 4, then ScanBatch entries per step, each step's entries loaded before any is
      // tested: most rows of a wide frontier hit at their first entry (kron), long scans wait on memory once per
      // step instead of once per entry (urand, mycielski). A lane scans two rows at once (its vertex in this stretch
      // of the grid and in the next): a warp waits on its longest row, and two rows' steps overlap
      // (docs/PERFORMANCE.md).
      for (unsigned long long base = thread - lane; base < s.n; base += 2 * threads) {
        const unsigned long long base2 = base + threads;
        const bool second = base2 < s.n;  // warp-uniform
        // After the first bottom-up level only the words with leftovers are scanned (late levels of urand and kron
        // find thousands of vertices among millions; reading every level was the level's cost).
        std::uint32_t cand[2] = {~0u, ~0u};
        if (!Lazy && candidates) {
          cand[0] = __ldcg(s.visited + base / 32);
          cand[1] = second ? __ldcg(s.visited + base2 / 32) : 0u;
          if ((cand[0] | cand[1]) == 0) continue;  // warp-uniform: every lane read the same words
        }
        offset_t row[2] = {0, 0}, row_end[2] = {0, 0};
#pragma unroll
        for (int g = 0; g < 2; ++g) {
          const unsigned long long v = (g == 0 ? base : base2) + lane;
          if ((g == 0 || second) && v < s.n && ((cand[g] >> lane) & 1u) && __ldcg(s.levels + v) == unreached_level) {
            row[g] = s.pull_ptr[v];
            row_end[g] = s.pull_ptr[v + 1];
          }
        }
        const bool heavy[2] = {row_end[0] - row[0] > bvss_hub_row, row_end[1] - row[1] > bvss_hub_row};
        bool hit[2] = {false, false};
        offset_t e[2] = {heavy[0] ? row_end[0] : row[0], heavy[1] ? row_end[1] : row[1]};
        offset_t width[2] = {1, 1};
        while (e[0] < row_end[0] || e[1] < row_end[1]) {
          vertex_t col[2][ScanBatch];
#pragma unroll
          for (int g = 0; g < 2; ++g)
#pragma unroll
            for (int j = 0; j < ScanBatch; ++j)
              col[g][j] = offset_t(j) < width[g] && e[g] + j < row_end[g] ? s.pull_col[e[g] + j] : vertex_t(0);
#pragma unroll
          for (int g = 0; g < 2; ++g) {
            bool any = false;
#pragma unroll
            for (int j = 0; j < ScanBatch; ++j)
              if (offset_t(j) < width[g] && e[g] + j < row_end[g]) any |= in_frontier(col[g][j]);
            hit[g] = hit[g] || any;
            e[g] = any ? row_end[g] : e[g] + width[g];
            width[g] = width[g] < ScanBatch ? 2 * width[g] : width[g];
          }
        }
        settle(base, row[0], row_end[0], heavy[0], hit[0]);
        if (second) settle(base2, row[1], row_end[1], heavy[1], hit[1]);
      }
      candidates = true;
    } else {
      // A level's updates are fixed for its whole loop: the lazy-levels kernel compiles the loop once per scheme, so
      // that its eager levels run the eager kernel's loop, without a run-time test per discovery.
      const auto top_down = [&](auto lazy_c) {
        constexpr bool LazyNow = decltype(lazy_c)::value;
        for (unsigned long long q = warp; q < size; q += warps) {
          const uint2 entry = q == warp ? first_entry : __ldcg(cq + q);
          const vertex_t v = entry.x, ss = entry.y;
          const std::uint32_t alpha = blest_alpha(s.levels, s.n, ss, l, s.levels_aligned);
          const uint4 u = s.rows[32 * offset_t(v) + lane];
          const std::uint32_t mask = s.masks[32 * offset_t(v) + lane];
          // fragB: lanes t % 9 == 0 hold α in bits 0-7 (selects the first packed slice), t % 9 == 4 hold it
          // in bits 8-15 (the second); the 4 x 8 word matrix then has α exactly where each lane's own
          // fragA word meets its own two output columns.
          const std::uint32_t b = fragb_word == 1u ? alpha : (fragb_word == 2u ? alpha << 8 : 0u);
          const std::int32_t zero[2] = {0, 0};
          std::int32_t lo[2], hi[2];
          sm80_mma_m8n8k128_b1_and_popc::fma(lo, mask & 0xffffu, b, zero);
          sm80_mma_m8n8k128_b1_and_popc::fma(hi, mask >> 16, b, zero);
          const std::int32_t pop[4] = {lo[0], lo[1], hi[0], hi[1]};
          const vertex_t row[4] = {u.x, u.y, u.z, u.w};
          // The four rows' levels are loaded before any is tested or written, and the enqueue stamps and slice-set
          // extents of the new rows are issued together: each step then waits on L2 once, not once per row (a loop
          // that tests, writes and exchanges row by row waits up to four times per step).
          level_t seen[4];
#pragma unroll
          for (int k = 0; k < 4; ++k) seen[k] = pop[k] != 0 ? __ldcg(s.levels + row[k]) : level_t(0);
          // Slice sets this lane must enqueue (eager), collected so that the warp allocates queue space
          // with one atomic instead of one per discovery.
          vertex_t push_ss[4];
          std::uint32_t push_b0[4], push_end[4];
          level_t stamp[4];
#pragma unroll
          for (int k = 0; k < 4; ++k) {
            push_ss[k] = row[k] / bvss_sigma;
            stamp[k] = l;
            push_b0[k] = push_end[k] = 0;
            if (pop[k] == 0 || seen[k] != unreached_level) continue;
            const vertex_t r = row[k];
            if (LazyNow) {
              atomicOr(s.visited + r / 32, 1u << (r % 32));  // result unused: compiles to an asynchronous RED
            } else {
              s.levels[r] = l;
              ++found;  // two warps may both find r: the count only steers the bottom-up switch
              stamp[k] = atomicExch(s.pushed + push_ss[k], l);
              push_b0[k] = static_cast<std::uint32_t>(s.real_ptrs[push_ss[k]]);
              push_end[k] = static_cast<std::uint32_t>(s.real_ptrs[push_ss[k] + 1]);
            }
          }
          unsigned long long need = 0;
          std::uint32_t push_cnt[4];
#pragma unroll
          for (int k = 0; k < 4; ++k) {
            push_cnt[k] = stamp[k] != l ? push_end[k] - push_b0[k] : 0;
            need += push_cnt[k];
          }
          if (!LazyNow && __any_sync(0xffffffffu, need != 0)) {
            unsigned long long at = blest_warp_alloc(need, next_counter, lane);
            // A warp that holds no range of over 32 entries (every warp on a mesh) skips the helper's four votes,
            // which meshes' short, latency-bound levels paid for; passing this vote into the helper instead of writing
            // its loop out here measured 1 % slower on grid2d:2048 (docs/PERFORMANCE.md).
            if (__any_sync(0xffffffffu, push_cnt[0] > 32 || push_cnt[1] > 32 || push_cnt[2] > 32 || push_cnt[3] > 32)) {
#pragma unroll
              for (int k = 0; k < 4; ++k) {
                blest_enqueue(nq, at, push_b0[k], push_cnt[k], push_ss[k], lane);
                at += push_cnt[k];
              }
            } else {
#pragma unroll
              for (int k = 0; k < 4; ++k)
                for (std::uint32_t i = 0; i < push_cnt[k]; ++i) nq[at++] = make_uint2(push_b0[k] + i, push_ss[k]);
            }
          }
        }
      };
      if (Updates == blest_lazy_levels && lazy_now)
        top_down(std::true_type{});
      else
        top_down(std::bool_constant<Lazy>{});
    }
    if (!lazy_now) {  // the lazy sweep counts its own
      blest_count_found(s, found, found_counter, &block_count, lane);
      blest_flush_found(s, found_counter, &block_count);
    }
    grid.sync();
    if (up && s.hubs != nullptr) {
      // The hub pass: every listed hub row (past its first 1,024 entries) is scanned by a group of warps, warp k of
      // a group reading entries k * 32 + lane, (k + group) * 32 + lane, ...; one more grid sync, only when a hub
      // was listed (the count is read after the sync above, once per block, so every thread agrees).
      if (threadIdx.x == 0) hub_count = __ldcg(c + bvss_counter_hubs + l % 2);
      __syncthreads();
      const unsigned long long nh = hub_count < s.hub_capacity ? hub_count : s.hub_capacity;
      if (nh > 0) {
        found = 0;
        const unsigned long long group = nh <= warps ? warps / nh : 1;
        for (unsigned long long slot = warp; slot < nh * group; slot += warps) {
          const vertex_t v = __ldcg(s.hubs + slot / group);
          const unsigned long long k = slot % group;
          const offset_t b = s.pull_ptr[v] + bvss_hub_row, e = s.pull_ptr[v + 1];
          bool hit = false;
          for (offset_t at_entry = b + 32 * k; at_entry < e; at_entry += 32 * group) {
            hit = __any_sync(0xffffffffu, at_entry + lane < e && in_frontier(s.pull_col[at_entry + lane]));
            // Stop once this warp or another of the group found a parent.
            if (hit || (Lazy ? (__ldcg(s.visited + v / 32) >> (v % 32)) & 1u : __ldcg(s.levels + v) != unreached_level))
              break;
          }
          const vertex_t ss = v / bvss_sigma;
          offset_t b0 = 0, need = 0;
          unsigned long long at = 0;
          if (hit && lane == 0) {
            if (Lazy) {
              atomicOr(s.visited + v / 32, 1u << (v % 32));
            } else if (atomicCAS(s.levels + v, unreached_level, l) == unreached_level) {
              ++found;
              if (atomicExch(s.pushed + ss, l) != l) {
                b0 = s.real_ptrs[ss];
                need = s.real_ptrs[ss + 1] - b0;
                at = atomicAdd(next_counter, static_cast<unsigned long long>(need));
              }
            }
          }
          if (!Lazy) blest_enqueue(nq, at, static_cast<std::uint32_t>(b0), static_cast<std::uint32_t>(need), ss, lane);
        }
        if (!Lazy) {
          blest_count_found(s, found, found_counter, &block_count, lane);
          blest_flush_found(s, found_counter, &block_count);
        }
        grid.sync();
      }
    }
    if (lazy_now) {
      // Stage 2: coalesced sweep of the visited bitmap; new vertices get their level and their slice
      // sets' VSSs are appended with one atomic per warp (warp-aggregated allocation).
      for (unsigned long long base = thread - lane; base < words; base += threads) {
        const unsigned long long t = base + lane;
        std::uint32_t fresh = 0;
        if (t < words) {
          // New this level = set now but not at the last sweep (Alg. 3's Vcurr XOR Vnext): one coalesced
          // word compare instead of a level lookup per visited vertex.
          const std::uint32_t now = __ldcg(s.visited + t);
          fresh = now & ~s.visited_before[t];
          if (fresh) s.visited_before[t] = now;
          if (Bits && s.frontier_bits != nullptr) s.frontier_bits[(l & 1) * words + t] = fresh;
          std::uint32_t f = fresh;
          while (f) {
            const int bit = __ffs(f) - 1;
            f &= f - 1;
            s.levels[t * 32 + bit] = l;
          }
        }
        found += __popc(fresh);
        // A fresh slice set's VSS range, loaded once for both the allocation and the writes.
        std::uint32_t set_b0[4], set_cnt[4];
        unsigned long long need = 0;
#pragma unroll
        for (int set = 0; set < 4; ++set) {
          const vertex_t ss_out = static_cast<vertex_t>(t * 4 + set);
          const bool on = ((fresh >> (8 * set)) & 0xffu) != 0;
          const offset_t b0 = on ? s.real_ptrs[ss_out] : 0;
          set_b0[set] = static_cast<std::uint32_t>(b0);
          set_cnt[set] = static_cast<std::uint32_t>(on ? s.real_ptrs[ss_out + 1] - b0 : 0);
          need += set_cnt[set];
        }
        unsigned long long at = blest_warp_alloc(need, next_counter, lane);
#pragma unroll
        for (int set = 0; set < 4; ++set) {
          blest_enqueue(nq, at, set_b0[set], set_cnt[set], static_cast<vertex_t>(t * 4 + set), lane);
          at += set_cnt[set];
        }
      }
      blest_count_found(s, found, found_counter, &block_count, lane);
      blest_flush_found(s, found_counter, &block_count);
      grid.sync();
    }
    // Entries past the queue's size are stale but inside it: loading one before the size is known is harmless. It is
    // loaded beside warp 0's load of the counters.
    first_entry = warp < s.queue_capacity ? __ldcg(nq + warp) : make_uint2(0, 0);
    if (threadIdx.x < 2) level_counts[threadIdx.x] = __ldcg(threadIdx.x == 0 ? next_counter : found_counter);
    __syncthreads();
    const unsigned long long next_size = level_counts[0];
    const unsigned long long found_now = level_counts[1];
    if (s.trace != nullptr && thread == 0) {
      if (static_cast<unsigned long long>(l) <= s.trace_levels) {
        unsigned long long* const at = s.trace + 4 * static_cast<unsigned long long>(l);
        at[0] = blest_global_timer();
        at[1] = (up ? 1u : 0u) | (lazy_now ? 2u : 0u);
        at[2] = size;
        at[3] = found_now;
      }
      s.trace[1] = static_cast<unsigned long long>(l);
    }
    if (next_size == 0) {
      if (thread == 0) {
        // The last level that found a vertex (vertices without out-edges enqueue nothing, so an empty queue
        // does not mean that this level found none).
        s.stats[bvss_stat_depth] = static_cast<unsigned long long>(found_now > 0 ? l : l - 1);
        s.stats[bvss_stat_pulled] = pulled;
        s.stats[bvss_stat_bottom_up] = static_cast<unsigned long long>(bottom_up_levels);
        s.stats[bvss_stat_lazy_levels] = static_cast<unsigned long long>(lazy_level_count);
      }
      break;
    }
    size = next_size;
    found_before = found_now;
    bits_fresh = Bits && s.frontier_bits != nullptr && lazy_now;
  }
  // The loop ends right after a grid sync, so every level is final here; levels other SMs wrote are read from L2.
  // Four entries per thread and step, each step's loads issued before any is used: one entry per step waited on
  // memory twice per entry, dozens of steps a thread on large graphs (docs/PERFORMANCE.md).
  if (s.relabel_out != nullptr) {
    constexpr int Ways = 4;
    for (unsigned long long i = thread; i < s.n; i += Ways * threads) {
      vertex_t id[Ways];
#pragma unroll
      for (int k = 0; k < Ways; ++k) id[k] = i + k * threads < s.n ? __ldcs(s.relabel_ids + i + k * threads) : 0;
      level_t lv[Ways];
#pragma unroll
      for (int k = 0; k < Ways; ++k) lv[k] = i + k * threads < s.n ? __ldcg(s.levels + id[k]) : 0;
#pragma unroll
      for (int k = 0; k < Ways; ++k)
        if (i + k * threads < s.n) __stcs(s.relabel_out + i + k * threads, lv[k]);
    }
  }
  if (s.trace != nullptr) {  // the kernel's end: once every block is done (a traced call pays one more grid sync)
    grid.sync();
    if (thread == 0) s.trace[3] = blest_global_timer();
  }
}

}  // namespace bitgraph::cuda
