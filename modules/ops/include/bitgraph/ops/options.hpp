// The vocabulary of every op on one page: the kernel-path option, each op's options and enums, and the
// statistics ops report. Faces include it; backend leaves include it instead of a face.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph {

// `op_algorithm` (automatic | generic | cuda_warp | cuda_mma), the kernel path every op with more than one
// takes in its options, lives in core/execution.hpp: the sorts of the core module take it too.

// ------------------------------------------------------------------------------ mxv, vxm (ops/mxv.hpp)

/// Which way a matrix-vector product walks the matrix.
enum class mxv_direction : std::uint8_t {
  automatic,  ///< push when the input is sparse (nnz(x)/n < switch_ratio) and a push form exists, else pull
  pull,       ///< row-based: every (unmasked) output row reads its row of A (early exit for OR / ANY)
  push,       ///< column-based: every non-zero input scatters its column into the output
};

/// How a pull product over B2SR spreads its tiles over threads (for CSR on CUDA: its stored entries, with
/// `by_tiles` naming the balanced split; automatic is by entries unless rows can stop early).
enum class mxv_balance : std::uint8_t {
  automatic,  ///< by tiles when the longest tile row would outlast an even share of the tiles per thread group
              ///< the space runs at once (power-law hubs; few tile rows on a GPU), or on a GPU when tile rows
              ///< are long (>= 32 tiles) and the semiring cannot exit early; else by rows
  by_rows,    ///< each tile row to one group of lanes (a lane per row of the tile) that walks the row's tiles:
              ///< no atomics, early exit, but as slow as the longest tile row
  by_tiles,   ///< equal runs of tiles to every warp (every thread on host spaces) whatever rows they belong to;
              ///< partial rows are combined with atomics
};

/// "auto", "rows" or "tiles".
inline std::string_view to_string(mxv_balance b) {
  switch (b) {
    case mxv_balance::automatic:
      return "auto";
    case mxv_balance::by_rows:
      return "rows";
    case mxv_balance::by_tiles:
      return "tiles";
  }
  return "?";
}

/// Options shared by `mxv` and `vxm`.
struct mxv_options {
  op_algorithm algorithm = op_algorithm::automatic;  ///< force the generic or a CUDA kernel
  mxv_direction direction = mxv_direction::automatic;
  mxv_balance balance = mxv_balance::automatic;  ///< work split of pulls (pushes go by tile rows)
  bool early_exit = true;                        ///< pull rows stop at the first contribution when the monoid allows it
  double switch_ratio = 0.01;                    ///< α = β of Yang et al. §6.3: push below this input density
};

/// The scheme names of Bit-GraphBLAS Table II, for reports.
enum class bmv_scheme : std::uint8_t { bin_bin_bin, bin_bin_full, bin_full_full };

// ---------------------------------------------------------------------------- spmspv (ops/spmspv.hpp)

/// How SpMSpV merges the gathered rows.
enum class spmspv_merge : std::uint8_t {
  automatic,   ///< no-sort for structure-only or small outputs relative to n, radix sort otherwise
  no_sort,     ///< scatter into a dense bitmap (+ dense values), then compact: O(n / 32 + gathered)
  radix_sort,  ///< LSD radix sort of (index, value) pairs, then a segmented reduction
  merge_sort,  ///< merge sort of the pairs, then a segmented reduction
};

/// "auto", "no-sort", "radix", "merge".
inline std::string_view to_string(spmspv_merge m) {
  switch (m) {
    case spmspv_merge::automatic:
      return "auto";
    case spmspv_merge::no_sort:
      return "no-sort";
    case spmspv_merge::radix_sort:
      return "radix";
    case spmspv_merge::merge_sort:
      return "merge";
  }
  return "?";
}

/// Options of `spmspv`.
struct spmspv_options {
  op_algorithm algorithm = op_algorithm::automatic;  ///< generic, or cuda_warp for the CUB-based sort
  spmspv_merge merge = spmspv_merge::automatic;
  /// Structure only (Yang et al. §5.5): ignore values, produce the output pattern only; the sort becomes
  /// key-only. The semiring must then be Boolean (its values are 0/1 anyway).
  bool structure_only = false;
};

// ------------------------------------------- ops on valued CSR matrices (mxm_csr, ewise_matrix, matrix_*)

/// The GraphBLAS descriptor of the operations on `csr_matrix` (mxm, ewise_add / ewise_mult, apply, select,
/// assign, reduce_rows / reduce_columns, transpose): the inputs' transposes; replace and complement are the
/// mask's. An op with one matrix input ignores `transpose_b`, as GraphBLAS ignores GrB_INP1 there.
struct matrix_op_options {
  op_algorithm algorithm = op_algorithm::automatic;  ///< generic only (no CUDA-specific kernels: a forced CUDA
                                                     ///< path throws `unsupported_error`)
  bool transpose_a = false;                          ///< use Aᵀ (GrB_INP0 = GrB_TRAN; materialised by `transpose`)
  bool transpose_b = false;                          ///< use Bᵀ (GrB_INP1 = GrB_TRAN; materialised by `transpose`)
};

// ---------------------------------------------------------- bmm_sum, bmm_sum_masked, mxm (ops/mxm.hpp)

/// Options of the BMM ops and of the GraphBLAS mxm on B2SR (the descriptor's transposes; replace and
/// complement are the mask's). bmm_sum and bmm_sum_masked take no transposes.
struct mxm_options {
  op_algorithm algorithm = op_algorithm::automatic;  ///< generic, cuda_warp (warp-level BMM) or cuda_mma
  bool transpose_a = false;                          ///< use Aᵀ (materialised by `transpose` first)
  bool transpose_b = false;  ///< use Bᵀ: read directly by the masked dot kernel, materialised for SpGEMM
};

// ------------------------------------------------------------------------ bvss_bfs (ops/bvss_bfs.hpp)

/// How vertex updates are applied.
enum class bvss_update : std::uint8_t {
  automatic,  ///< eager with bottom-up levels; without them lazy above `lazy_threshold` divergence (Blest's 25,000)
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
  /// Blest's switching rule: a level runs bottom-up (every unreached vertex scans its row of the pull CSR for
  /// a vertex of the previous level and stops at the first) when the unreached vertices are fewer than
  /// `bottom_up_factor` times the queued VSSs; else it pulls the queued VSSs. 0 never switches. Needs the
  /// pull CSR (`bvss_bfs`'s `pull`); without it every level pulls. Must be finite and non-negative. Level 1 (the
  /// source alone in the frontier) always pulls: bottom-up, nearly every row would be scanned to its end.
  double bottom_up_factor = 10;
  /// ... and only when the queue holds at least this many VSSs per vertex: a bottom-up level passes over all n
  /// levels (4 bytes each) while a pulled VSS reads about 640 bytes (32 lanes x 4 row ids and a mask word), so a
  /// narrow level (a mesh's thousands of them) pulls. Must be finite and non-negative.
  double bottom_up_min_queue = 1.0 / 160;
  /// ... and only when scanning is predicted cheaper than pulling: unreached × min(average degree, n / frontier) ×
  /// `bottom_up_scan_cost` < queued VSSs × 640 (bytes a pulled VSS reads). An unreached vertex scans about
  /// n / frontier entries before its first hit, so a small frontier means whole rows (mycielski:16 from a
  /// low-degree source: 2.7 ms bottom-up, 0.16 ms pulled). With Blest's rule (unreached < 10 × queued) the test can
  /// only refuse where min(average degree, n / frontier) × this cost > 64: at 2 never on graphs of average degree
  /// up to 32 (kron, urand, grids keep Blest's choices; a cost of 16 cost kron:20 23 %), while dense graphs with a
  /// small frontier pull. 0 turns the test off (Blest's rule alone). Finite and non-negative.
  double bottom_up_scan_cost = 2;
  /// ... where the estimate n / frontier is not trusted: on graphs of average degree above this, the prediction takes
  /// every unreached row as scanned to its end. On dense structured graphs the estimate can miss many times over
  /// (mycielski's are triangle-free, so frontier vertices avoid each other's neighbourhoods), a row that misses its
  /// first entries waits on memory hundreds of times, and a pulled VSS covers hundreds of edges (docs/PERFORMANCE.md,
  /// eighth session). A level with nothing left unreached still runs bottom-up (nothing to scan). 0 trusts the
  /// estimate at every degree. Finite and non-negative.
  double bottom_up_dense_degree = 128;
  /// Lazy updates for single levels of an eager traversal: a top-down level that pulls at least
  /// `lazy_level_min_queue` × n VSSs, and at most `lazy_level_max_fanout` VSSs per vertex found by the level before,
  /// marks the visited bitmap and sweeps it (the lazy scheme) instead of setting levels and enqueueing at each
  /// discovery. A wide level with few VSSs per frontier vertex hits most rows once, so one sweep costs less than a
  /// chain of atomics per discovery (urand); many VSSs per frontier vertex (hubs' slice sets, kron) hit each row many
  /// times, and a lazy level pays an atomic per hit (docs/PERFORMANCE.md, twenty-sixth session). No level after a
  /// bottom-up one is lazy. 0 never. Negative (the default): automatic, which is
  /// `detail::bvss_auto_lazy_level_min_queue` (1/64) where the caller knows the graph has few, wide levels
  /// (`bfs_tensor_core` on a `blest_graph` whose `shallow` is set) and never elsewhere (`bvss_bfs` alone knows nothing
  /// of the graph's shape): on CUDA such levels need a kernel of their own, whose lazy code slows its other levels a
  /// little, and a mesh's thousands of narrow levels add that up (docs/PERFORMANCE.md, thirtieth session). Must not
  /// be NaN or infinite; `lazy_level_max_fanout` finite and non-negative; both ignored when the whole traversal is
  /// lazy.
  double lazy_level_min_queue = -1;
  double lazy_level_max_fanout = 8;  ///< see `lazy_level_min_queue`
  /// Threads per block of the CUDA tensor-core kernel (`cuda_mma`): 256, 1024, or 0 (automatic). Automatic takes
  /// 1024 for a graph of average degree 8 or more whose previous level fits a shared-memory bitmap (n <= 262,144:
  /// a quarter as many blocks make each grid sync cheaper, and each SM builds the bitmap once), else 256 (1024 lost
  /// on kron:22 and grid2d:2048). The generic path ignores it; other values throw `invalid_argument_error`.
  int block_threads = 0;
  /// Record each level in `bvss_bfs_stats::trace` (direction, queue, vertices found, time): for tuning the switch
  /// and finding where a traversal's time goes. Costs a page-locked buffer per call on CUDA (allocated in the call)
  /// and nothing measurable per level; off by default.
  bool trace_levels = false;
};

/// One level of a BVSS traversal (`bvss_bfs_options::trace_levels`).
struct bvss_level_trace {
  level_t level = 0;       ///< 1 for the source's neighbours, then 2, 3, ...; the last one found nothing to enqueue
  bool bottom_up = false;  ///< scanned the pull CSR's unreached rows instead of pulling the queued VSSs
  bool lazy = false;       ///< applied lazy updates (a lazy traversal, or a lazy level of an eager one)
  offset_t queued = 0;     ///< VSSs in the queue at the level's start (pulled unless bottom_up)
  /// Vertices given this level. Eager top-down levels may count a vertex twice (two warps finding it at once: the
  /// count only steers the switch), so it is at least the true number; exact otherwise.
  offset_t found = 0;
  /// The level's time in µs: from the end of the previous level (level 1: from the end of the reset of the per-call
  /// state) to the end of this one. CUDA: the device's global timer inside the one persistent kernel (launch and
  /// read-back not included); host spaces: a steady clock around the level's kernels and its counter read-back.
  double microseconds = 0;
};

/// What a BVSS traversal did.
struct bvss_bfs_stats {
  int depth = 0;               ///< largest level reached
  offset_t vss_processed = 0;  ///< VSSs taken from the queues, all levels together
  bool lazy = false;           ///< which update scheme ran
  bool tensor_cores = false;   ///< whether the MMA kernel ran
  int bottom_up_levels = 0;    ///< levels that ran bottom-up over the pull CSR
  int lazy_levels = 0;         ///< top-down levels of an eager traversal that took lazy updates
  /// With `bvss_bfs_options::trace_levels`: every level run, in order (the CUDA kernel records at most the first
  /// 2^20); else empty.
  std::vector<bvss_level_trace> trace;
  /// With `trace_levels` on CUDA, where the call's time went, in µs (0 elsewhere): the host's launch call, the launch
  /// to the levels ready (host clock, to the fence's return), and by the device's global timer the kernel from its
  /// first instruction to its last, its reset of the per-call state before level 1 and its relabel after the last
  /// level.
  double launch_us = 0, launch_to_ready_us = 0, kernel_us = 0, prologue_us = 0, epilogue_us = 0;
};

/// A renumbered copy of a BVSS traversal's levels, written after the last level (fused into the CUDA kernel):
/// `out(i) = levels(ids(i))`, both of length n. Used by `bfs_tensor_core` with the reordered graph's new_of_old,
/// a permutation checked when the graph was made, so that the levels reach the caller's ids without a pass of
/// their own.
template <class MemorySpace>
struct bvss_bfs_relabel {
  Kokkos::View<level_t*, MemorySpace> out;
  Kokkos::View<const vertex_t*, MemorySpace> ids;
};

/// Buffers of a BVSS traversal, allocated once and reused by every call (allocation costs more than a
/// whole traversal of a small graph on a GPU). Queues hold (VSS, slice set) pairs.
template <class MemorySpace>
struct bvss_bfs_workspace {
  Kokkos::View<std::uint64_t*, MemorySpace> queue_a, queue_b;  ///< n_vss entries each
  Kokkos::View<unsigned long long*, MemorySpace> counters;     ///< counter slots (ops/detail/bvss_bfs_generic.hpp)
  Kokkos::View<level_t*, MemorySpace> pushed;                  ///< per slice set: level it was last enqueued at
  Kokkos::View<std::uint32_t*, MemorySpace> visited;           ///< lazy updates: visited bitmap
  Kokkos::View<std::uint32_t*, MemorySpace> visited_before;    ///< lazy updates: the bitmap at the last sweep
  /// Depth, VSSs pulled and bottom-up levels, written by the CUDA kernel straight into page-locked host memory
  /// (no copy after the launch); unused by the portable path.
  Kokkos::View<unsigned long long*, readback_space_t<MemorySpace>> stats;
  /// Hub rows (over detail::bvss_hub_row entries) listed by a bottom-up level of the CUDA kernel: nnz / 1,025 + 1.
  Kokkos::View<vertex_t*, MemorySpace> hubs;
  /// Bottom-up levels of the CUDA kernel on large graphs: the previous level's frontier as a bitmap, two buffers of
  /// ceil(n / 32) words; unused by the portable path.
  Kokkos::View<std::uint32_t*, MemorySpace> frontier;
};

// ------------------------------------------------------------- ewise_add, ewise_mult (ops/ewise.hpp)

/// The four word-wise Boolean operators on bitmaps: union, intersection, symmetric difference and
/// difference (u AND NOT v) of the sets of set bits.
enum class bit_op : std::uint8_t { lor, land, lxor, landnot };

/// "or", "and", "xor" or "andnot".
inline std::string_view to_string(bit_op op) {
  switch (op) {
    case bit_op::lor:
      return "or";
    case bit_op::land:
      return "and";
    case bit_op::lxor:
      return "xor";
    case bit_op::landnot:
      return "andnot";
  }
  return "?";
}

// ---------------------------------------------------------------------------- select (ops/select.hpp)

/// Structural selections of a matrix by the diagonal offset d = j - i of entry A(i, j), relative to k:
/// `tril` keeps d <= k (k = 0: the lower triangle with the diagonal, k = -1: strictly lower), `triu`
/// d >= k, `diag` d == k, `offdiag` d != k.
enum class select_kind : std::uint8_t { tril, triu, diag, offdiag };

/// "tril", "triu", "diag" or "offdiag".
inline std::string_view to_string(select_kind s) {
  switch (s) {
    case select_kind::tril:
      return "tril";
    case select_kind::triu:
      return "triu";
    case select_kind::diag:
      return "diag";
    case select_kind::offdiag:
      return "offdiag";
  }
  return "?";
}

}  // namespace bitgraph
