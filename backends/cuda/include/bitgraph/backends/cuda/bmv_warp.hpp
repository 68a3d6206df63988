// CUDA warp kernels for B2SR pull products (Bit-GraphBLAS Listing 1 / Fig. 4): by rows, one warp produces
// one 32-bit output word (32 rows: 32/T tile rows of T rows, or half a 64-row tile row), each lane owns a
// row, bits are reduced with __popc and Boolean results assembled with __ballot_sync; by tiles, warps take
// equal runs of tiles whatever rows they belong to.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "bitgraph/backends/cuda/check.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph::cuda {

/// Threads per block of the BMV kernels (8 warps).
inline constexpr int bmv_block_threads = 256;
/// Tiles of one row whose loads the by-rows kernel issues together before it uses them (full-precision
/// input): grids and geometric graphs have 3-10 tiles per tile row.
inline constexpr int bmv_rows_unroll = 4;

namespace detail {

/// A tile's row word widened for bit arithmetic: 32 bits up to T = 32, so that finding and counting bits
/// take one instruction each (`__ffs`, `__popc`); 64 bits for T = 64.
template <int T>
using row_bits_t = std::conditional_t<T == 64, std::uint64_t, std::uint32_t>;

template <int T>
__device__ __forceinline__ row_bits_t<T> load_word(const tile_word_t<T>* words, offset_t i) {
  return static_cast<row_bits_t<T>>(__ldg(words + i));
}

/// Input segment j (T bits) of a bitmap word array.
template <int T>
__device__ __forceinline__ row_bits_t<T> load_segment(const std::uint32_t* x, std::uint64_t j) {
  if constexpr (T == 64) {
    return static_cast<std::uint64_t>(__ldg(x + 2 * j)) | (static_cast<std::uint64_t>(__ldg(x + 2 * j + 1)) << 32);
  } else if constexpr (T == 32) {
    return __ldg(x + j);
  } else {
    constexpr int per_word = 32 / T;
    return (__ldg(x + j / per_word) >> (T * (j % per_word))) & ((1u << T) - 1u);
  }
}

/// Index of the lowest set bit (bits != 0) and the number of set bits.
__device__ __forceinline__ int lowest_bit(std::uint32_t bits) { return __ffs(bits) - 1; }
__device__ __forceinline__ int lowest_bit(std::uint64_t bits) { return __ffsll(static_cast<long long>(bits)) - 1; }
__device__ __forceinline__ int bit_count(std::uint32_t bits) { return __popc(bits); }
__device__ __forceinline__ int bit_count(std::uint64_t bits) { return __popcll(bits); }

/// The type a value travels as through a shuffle: 8- and 16-bit values as int.
template <class V>
using shuffled_t = std::conditional_t<std::is_floating_point_v<V> || (sizeof(V) >= 4), V, int>;

/// `__shfl_down_sync` over the whole warp for any arithmetic value type.
template <class V>
__device__ __forceinline__ V shfl_down(V v, int delta) {
  return static_cast<V>(__shfl_down_sync(0xffffffffu, static_cast<shuffled_t<V>>(v), delta));
}

}  // namespace detail

/// Warp BMV on row-major tiles. Kernel parameters are plain pointers; see `launch_bmv_warp`. Each lane
/// walks its own row's tiles (two rows for T = 64). A full-precision input is read per set bit through the
/// read-only cache (the T values of a tile, shared by the lanes of its rows, lie in one or two sectors), and
/// the lane issues the loads of `bmv_rows_unroll` tiles before it uses them, so a short tile row costs one
/// or two memory latencies rather than one per tile. A bitmap input does the same, except for rows that may
/// stop at their first hit (OR semirings with early exit): they take one tile per step, so no load is wasted.
template <int T, class S, bool XBits, bool YBits, class Accum>
__global__ void __launch_bounds__(bmv_block_threads)
    bmv_pull_warp_kernel(const offset_t* __restrict__ ptr, const vertex_t* __restrict__ tcol,
                         const tile_word_t<T>* __restrict__ words, vertex_t n, std::uint64_t n_warps,
                         const std::uint32_t* __restrict__ xbits, const typename S::value_type* __restrict__ xval,
                         std::uint32_t* __restrict__ ybits, typename S::value_type* __restrict__ yval,
                         const std::uint32_t* __restrict__ mbits, bool masked, bool complement, bool replace,
                         bool early_exit) {
  using value_type = typename S::value_type;
  using bits_t = detail::row_bits_t<T>;
  constexpr int rows_per_lane = T == 64 ? 2 : 1;
  constexpr int U = bmv_rows_unroll;
  const std::uint64_t warp = (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (warp >= n_warps) return;  // uniform per warp

  std::uint64_t rows[rows_per_lane];
  bool allowed[rows_per_lane];
  value_type t[rows_per_lane];
  int lr[rows_per_lane];
  for (int h = 0; h < rows_per_lane; ++h) {
    rows[h] = T == 64 ? warp * 64 + h * 32 + lane : warp * 32 + lane;
    lr[h] = T == 64 ? h * 32 + lane : lane % T;
    allowed[h] =
        rows[h] < n &&
        ((::bitgraph::detail::allowed_bits(masked ? mbits[rows[h] >> 5] : 0u, masked, complement) >> (rows[h] & 31)) &
         1u);
    t[h] = S::identity();
  }
  // An allowed row lies below n, so its tile row exists.
  const vertex_t tr = static_cast<vertex_t>(T == 64 ? warp : (warp * 32 + lane) / T);

  // Walks tiles [k, kend) of the tile row U at a time: the columns and row-`r` words of a batch are all in
  // flight before `use(col, w)` sees them (tiles past kend read as empty).
  auto each_batch = [&](offset_t k, offset_t kend, int r, auto&& use) {
    for (; k < kend; k += U) {
      vertex_t col[U];
      bits_t w[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const bool in = k + u < kend;
        col[u] = in ? __ldg(tcol + k + u) : 0;
        w[u] = in ? detail::load_word<T>(words, (k + u) * T + r) : bits_t(0);
      }
      use(col, w);
    }
  };

  for (int h = 0; h < rows_per_lane; ++h) {
    if (!allowed[h]) continue;
    const offset_t kend = ptr[tr + 1];
    if constexpr (XBits) {
      // A row that may stop at its first hit takes one tile per step (loads past the hit would be wasted);
      // the others issue the loads of U tiles first, as the full-precision path does.
      const bool stops = early_exit && allows_early_exit_v<S>;  // OR / ANY monoids (or_and is one of them)
      // Adds a tile's hits (bits: row word AND input segment, not 0) to the row; true when the row is done.
      auto add_tile = [&](bits_t bits, vertex_t col) {
        if constexpr (bit_reduction_v<S> == bit_reduction::or_and) {
          t[h] = value_type(1);
          return stops;
        } else if constexpr (bit_reduction_v<S> == bit_reduction::popcount) {
          t[h] = S::add(t[h], static_cast<value_type>(detail::bit_count(bits)));
          return false;
        } else {
          for (; bits; bits &= bits - 1) {
            const vertex_t j = col * T + detail::lowest_bit(bits);
            t[h] = S::add(t[h], S::multiply(S::one(), S::one(), static_cast<vertex_t>(rows[h]), j));
            if (stops) return true;
          }
          return false;
        }
      };
      if (stops) {
        for (offset_t k = ptr[tr]; k < kend; ++k) {
          // The column is loaded with the word, not after the test: a tile costs two latencies, not three.
          const vertex_t col = __ldg(tcol + k);
          bits_t bits = detail::load_word<T>(words, k * T + lr[h]);
          if (!bits) continue;
          bits &= detail::load_segment<T>(xbits, col);
          if (bits && add_tile(bits, col)) break;
        }
      } else {
        each_batch(ptr[tr], kend, lr[h], [&](const vertex_t(&col)[U], bits_t(&w)[U]) {
#pragma unroll
          for (int u = 0; u < U; ++u)
            if (w[u]) w[u] &= detail::load_segment<T>(xbits, col[u]);
#pragma unroll
          for (int u = 0; u < U; ++u)
            if (w[u]) add_tile(w[u], col[u]);
        });
      }
    } else {
      each_batch(ptr[tr], kend, lr[h], [&](const vertex_t(&col)[U], const bits_t(&w)[U]) {
#pragma unroll
        for (int u = 0; u < U; ++u) {
          for (bits_t bits = w[u]; bits; bits &= bits - 1) {
            const vertex_t j = col[u] * T + detail::lowest_bit(bits);  // below n: bits beyond n are zero
            const value_type xj = __ldg(xval + j);
            if (xj == S::identity()) continue;  // identity entries of a dense input are absent
            t[h] = S::add(t[h], S::multiply(S::one(), xj, static_cast<vertex_t>(rows[h]), j));
          }
        }
      });
    }
  }

  for (int h = 0; h < rows_per_lane; ++h) {
    if constexpr (YBits) {
      const unsigned tb = __ballot_sync(0xffffffffu, allowed[h] && t[h] != S::identity());
      const unsigned ab = __ballot_sync(0xffffffffu, allowed[h]);
      const std::uint64_t wi = T == 64 ? warp * 2 + h : warp;
      if (lane == 0 && wi * 32 < n) {
        // The old word matters only to an accumulator or where the mask keeps bits: else no read (a latency).
        const std::uint32_t valid = ::bitgraph::detail::valid_bits(wi, n);
        const bool keep_old = !std::is_same_v<Accum, no_accumulator> || (!replace && (ab & valid) != valid);
        ybits[wi] = ::bitgraph::detail::merge_bits<Accum>(keep_old ? ybits[wi] : 0u, tb, ab, valid, replace);
      }
    } else if (rows[h] < n) {
      // Without an accumulator the old value is needed only where the mask keeps it: no read of y.
      if constexpr (std::is_same_v<Accum, no_accumulator>) {
        if (allowed[h])
          yval[rows[h]] = t[h];
        else if (replace)
          yval[rows[h]] = S::identity();
      } else {
        yval[rows[h]] = ::bitgraph::detail::merge_value<Accum>(yval[rows[h]], t[h], allowed[h], replace, S::identity());
      }
    }
  }
}

/// Launches the warp BMV on `exec`'s stream. The tiles must be row-major (the kernels read a tile row by
/// row, as the paper's mxv does); the leaf offers this path only then.
template <int T, class S, bool XBits, bool YBits, class Accum>
void launch_bmv_warp(const Kokkos::Cuda& exec, const b2sr_matrix<Kokkos::CudaSpace>& a, const std::uint32_t* xbits,
                     const typename S::value_type* xval, std::uint32_t* ybits, typename S::value_type* yval,
                     const std::uint32_t* mbits, bool masked, bool complement, bool replace, bool early_exit) {
  const std::uint64_t n_warps = T == 64 ? (std::uint64_t(a.n) + 63) / 64 : (std::uint64_t(a.n) + 31) / 32;
  if (n_warps == 0) return;
  const std::uint64_t blocks = (n_warps * 32 + bmv_block_threads - 1) / bmv_block_threads;
  auto words = a.template tile_words<tile_word_t<T>>();
  bmv_pull_warp_kernel<T, S, XBits, YBits, Accum>
      <<<static_cast<unsigned>(blocks), bmv_block_threads, 0, exec.cuda_stream()>>>(
          a.tile_row_ptr.data(), a.tile_col_idx.data(), words.data(), a.n, n_warps, xbits, xval, ybits, yval, mbits,
          masked, complement, replace, early_exit);
  BITGRAPH_CUDA_CHECK("mxv", "launching the warp BMV kernel", cudaGetLastError());
}

/// Lanes that work on one tile in the tile-balanced kernel: a lane per row (two rows per lane for T = 64).
template <int T>
inline constexpr int bmv_group_lanes = T <= 32 ? T : 32;
/// Tiles whose loads a group issues together before it uses them (memory-level parallelism).
inline constexpr int bmv_tiles_unroll = 4;

/// Tile-balanced BMV on row-major tiles (mxv_balance::by_tiles): warp w takes the tiles [w·C, w·C + C)
/// whatever tile rows they belong to, so a tile row of 150,000 tiles is spread over many warps instead of
/// held by one group of lanes. Within the run the warp's 32/T groups (a lane per row of a tile; two rows
/// per lane for T = 64) take consecutive tiles, so its loads stay coalesced, and each group issues the loads
/// of `bmv_tiles_unroll` tiles before it uses them. The warp keeps one current tile row R: each lane sums
/// its share of R, and when a step reaches past R the groups' sums are reduced with shuffles and one group
/// writes R's T results, a plain store when R lies wholly inside the run, else the monoid's atomic (an
/// atomic OR on bitmap words, which 32 rows share). Rows that start and end inside one step are combined
/// with atomics. `t` is identity-filled (zero words) by the caller, who merges it into the output.
template <int T, class S, bool XBits, bool YBits>
__global__ void __launch_bounds__(bmv_block_threads)
    bmv_tiles_kernel(const offset_t* __restrict__ ptr, const vertex_t* __restrict__ tcol,
                     const tile_word_t<T>* __restrict__ words, vertex_t n, vertex_t n_tile_rows, offset_t n_tiles,
                     offset_t chunk, const std::uint32_t* __restrict__ xbits,
                     const typename S::value_type* __restrict__ xval, std::uint32_t* tbits,
                     typename S::value_type* tval, const std::uint32_t* __restrict__ mbits, bool masked,
                     bool complement, bool early_exit) {
  using value_type = typename S::value_type;
  constexpr int rows_per_lane = T == 64 ? 2 : 1;
  constexpr int group = bmv_group_lanes<T>;
  constexpr int step = 32 / group;
  constexpr int U = bmv_tiles_unroll;
  const std::uint64_t warp = (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  const offset_t k0 = static_cast<offset_t>(warp) * chunk;
  if (k0 >= n_tiles) return;  // uniform per warp
  const offset_t k1 = k0 + chunk < n_tiles ? k0 + chunk : n_tiles;
  const int g = lane / group;
  const int gl = lane % group;
  int row[rows_per_lane];
  for (int h = 0; h < rows_per_lane; ++h) row[h] = h * 32 + gl;
  auto allowed_in = [&](vertex_t r, int h) {
    const std::uint64_t i = std::uint64_t(r) * T + row[h];
    return i < n &&
           ((::bitgraph::detail::allowed_bits(masked ? __ldg(mbits + (i >> 5)) : 0u, masked, complement) >> (i & 31)) &
            1u);
  };
  auto combine = [&](vertex_t r, int h, value_type v, bool store) {
    if (v == S::identity() || !allowed_in(r, h)) return;
    const vertex_t i = r * T + row[h];
    if constexpr (YBits)
      atomicOr(tbits + (i >> 5), 1u << (i & 31));
    else if (store)
      tval[i] = v;
    else
      S::atomic_add(tval + i, v);
  };

  // The warp's current tile row R (that of tile k0: the last R with ptr[R] <= k0) and where it ends.
  vertex_t lo = 0, hi = n_tile_rows;
  while (hi - lo > 1) {
    const vertex_t mid = lo + (hi - lo) / 2;
    if (__ldg(ptr + mid) <= k0)
      lo = mid;
    else
      hi = mid;
  }
  vertex_t R = lo;
  bool r_from_start = __ldg(ptr + R) >= k0;  // R's first tile is in this run
  offset_t r_end = __ldg(ptr + R + 1);
  // The tile row of the group's tile (it only moves forward) and the mask for the lane's rows in it.
  vertex_t tr = R;
  offset_t tr_end = r_end;
  bool allowed[rows_per_lane];
  for (int h = 0; h < rows_per_lane; ++h) allowed[h] = allowed_in(tr, h);
  value_type acc[rows_per_lane];  // the lane's partial sums of R
  for (int h = 0; h < rows_per_lane; ++h) acc[h] = S::identity();
  // The groups' sums of R reduced into group 0.
  auto reduce = [&](value_type v) {
    for (int off = group; off < 32; off <<= 1) v = S::add(v, detail::shfl_down(v, off));
    return v;
  };

  for (offset_t base = k0; base < k1; base += offset_t(step) * U) {
    vertex_t tc[U];
    detail::row_bits_t<T> w[U][rows_per_lane];
    detail::row_bits_t<T> seg[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const offset_t k = base + offset_t(u) * step + g;
      const bool in = k < k1;
      tc[u] = in ? __ldg(tcol + k) : 0;
      for (int h = 0; h < rows_per_lane; ++h) w[u][h] = in ? detail::load_word<T>(words, k * T + row[h]) : 0;
    }
    if constexpr (XBits) {
#pragma unroll
      for (int u = 0; u < U; ++u)
        seg[u] = base + offset_t(u) * step + g < k1 ? detail::load_segment<T>(xbits, tc[u]) : 0;
    }
    // Uniform: every tile of this block lies in R (the common case on long rows), so no row bookkeeping.
    const offset_t block_end = base + offset_t(step) * U < k1 ? base + offset_t(step) * U : k1;
    const bool in_r = r_end >= block_end;
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const offset_t first = base + offset_t(u) * step;  // the tile of group 0
      if (first >= k1) break;                            // uniform
      const offset_t k = first + g;
      const bool in = k < k1;
      if (in && !in_r) {
        while (tr_end <= k) {
          ++tr;
          tr_end = __ldg(ptr + tr + 1);
          for (int h = 0; h < rows_per_lane; ++h) allowed[h] = allowed_in(tr, h);
        }
      }
      // This tile's contribution to the lane's row of tile row tr.
      value_type c[rows_per_lane];
      const vertex_t j0 = tc[u] * T;
      for (int h = 0; h < rows_per_lane; ++h) {
        c[h] = S::identity();
        if (!in || !allowed[h]) continue;
        if constexpr (allows_early_exit_v<S>) {
          if (early_exit && tr == R && acc[h] != S::identity()) continue;
        }
        detail::row_bits_t<T> bits = w[u][h];
        if constexpr (XBits) {
          bits &= seg[u];
          if (!bits) continue;
          if constexpr (bit_reduction_v<S> == bit_reduction::or_and) {
            c[h] = value_type(1);
            continue;
          } else if constexpr (bit_reduction_v<S> == bit_reduction::popcount) {
            c[h] = static_cast<value_type>(detail::bit_count(bits));
            continue;
          }
        }
        const vertex_t i = tr * T + row[h];
        while (bits) {
          const int col = detail::lowest_bit(bits);
          bits &= bits - 1;
          value_type xj;
          if constexpr (XBits) {
            xj = S::one();
          } else {
            xj = __ldg(xval + j0 + col);
            if (xj == S::identity()) continue;  // identity entries of a dense input are absent
          }
          c[h] = S::add(c[h], S::multiply(S::one(), xj, i, j0 + col));
        }
      }
      if (in_r) {
        for (int h = 0; h < rows_per_lane; ++h) acc[h] = S::add(acc[h], c[h]);
        continue;
      }
      // The last group with a tile this step holds the highest tile row of the step (tiles ascend).
      const offset_t n_in = k1 - first < offset_t(step) ? k1 - first : offset_t(step);
      const vertex_t top = __shfl_sync(0xffffffffu, tr, static_cast<int>(n_in - 1) * group);
      if (top == R) {  // uniform: every group with a tile is in R
        for (int h = 0; h < rows_per_lane; ++h) acc[h] = S::add(acc[h], c[h]);
        continue;
      }
      // The step leaves R: R is complete in this run, so group 0 writes it.
      for (int h = 0; h < rows_per_lane; ++h) {
        const value_type v = reduce(S::add(acc[h], in && tr == R ? c[h] : S::identity()));
        if (g == 0) combine(R, h, v, r_from_start && r_end <= k1);
      }
      // Rows strictly between R and top start and end inside this step.
      if (in && tr != R && tr != top)
        for (int h = 0; h < rows_per_lane; ++h) combine(tr, h, c[h], false);
      R = top;
      r_from_start = true;
      r_end = __shfl_sync(0xffffffffu, tr_end, static_cast<int>(n_in - 1) * group);
      for (int h = 0; h < rows_per_lane; ++h) acc[h] = in && tr == top ? c[h] : S::identity();
      // Every group moves to R (the next tiles lie in R or beyond), which keeps tr == R between steps.
      if (tr != R) {
        tr = R;
        tr_end = r_end;
        for (int h = 0; h < rows_per_lane; ++h) allowed[h] = allowed_in(tr, h);
      }
    }
  }
  for (int h = 0; h < rows_per_lane; ++h) {
    const value_type v = reduce(acc[h]);
    if (g == 0) combine(R, h, v, r_from_start && r_end <= k1);
  }
}

/// Tiles per warp of the tile-balanced kernel: about two runs per warp the device holds at once, so the
/// warps finish together, but at least four unrolled steps (the binary search amortised) and at most 16,384.
template <int T>
offset_t bmv_tiles_chunk(const Kokkos::Cuda& exec, offset_t n_tiles) {
  const std::uint64_t resident_warps = std::max<std::uint64_t>(1, std::uint64_t(exec.concurrency()) / 32);
  const offset_t span = offset_t(32 / bmv_group_lanes<T>) * bmv_tiles_unroll;  // tiles of one unrolled step
  offset_t chunk = static_cast<offset_t>((n_tiles + 2 * resident_warps - 1) / (2 * resident_warps));
  chunk = std::min<offset_t>(std::max<offset_t>(chunk, 4 * span), 16384);
  return (chunk + span - 1) / span * span;
}

/// Launches the tile-balanced BMV on `exec`'s stream, combining into identity-filled `tbits` / `tval`.
template <int T, class S, bool XBits, bool YBits>
void launch_bmv_tiles(const Kokkos::Cuda& exec, const b2sr_matrix<Kokkos::CudaSpace>& a, const std::uint32_t* xbits,
                      const typename S::value_type* xval, std::uint32_t* tbits, typename S::value_type* tval,
                      const std::uint32_t* mbits, bool masked, bool complement, bool early_exit) {
  if (a.n_tiles == 0) return;
  auto words = a.template tile_words<tile_word_t<T>>();
  const offset_t chunk = bmv_tiles_chunk<T>(exec, a.n_tiles);
  const std::uint64_t threads = std::uint64_t((a.n_tiles + chunk - 1) / chunk) * 32;
  const std::uint64_t blocks = (threads + bmv_block_threads - 1) / bmv_block_threads;
  bmv_tiles_kernel<T, S, XBits, YBits><<<static_cast<unsigned>(blocks), bmv_block_threads, 0, exec.cuda_stream()>>>(
      a.tile_row_ptr.data(), a.tile_col_idx.data(), words.data(), a.n, a.n_tile_rows, a.n_tiles, chunk, xbits, xval,
      tbits, tval, mbits, masked, complement, early_exit);
  BITGRAPH_CUDA_CHECK("mxv", "launching the tile-balanced BMV kernel", cudaGetLastError());
}

}  // namespace bitgraph::cuda
