// CUDA warp kernel of the masked BMM (bmm_bin_bin_sum_masked, Bit-GraphBLAS Listing 2 shape): one warp per
// 32 x 32 mask tile, lane = row, B^T rows broadcast with __shfl_sync. The two tile rows are intersected 32 tiles at
// a time (a serial merge made hub tile rows cost their whole length per mask tile). What a product contributes goes
// to a sink: the fused sum (bmm_sum_masked, triangle counting), the Boolean product tile, or a count per mask entry
// (the masked mxm on B2SR).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/types.hpp"

namespace bitgraph::cuda {

/// Threads per block of the BMM kernel.
inline constexpr int bmm_block_threads = 256;

namespace detail {

/// One pair of common tiles: for every column c of the mask's rows, lane r hands the sink (A row r) AND (B^T row
/// c) where its mask row has c. Every lane shuffles (never inside a lane's condition).
template <class Sink>
__device__ inline void bmm_tile_pair(std::uint32_t a, std::uint32_t b, std::uint32_t m, std::uint32_t cols,
                                     Sink& sink) {
  while (cols) {
    const int c = __ffs(cols) - 1;
    cols &= cols - 1;
    const std::uint32_t bc = __shfl_sync(0xffffffffu, b, c);
    if ((m >> c) & 1u) sink.add(c, a & bc);
  }
}

/// Index of the first of `key[lo, hi)` not below `k` (a lane's own search: global reads, log2(hi - lo) steps).
__device__ inline offset_t bmm_lower_bound(const vertex_t* __restrict__ key, offset_t lo, offset_t hi, vertex_t k) {
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (__ldg(key + mid) < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace detail

/// Sink of the masked sum: popcounts summed per lane, then a warp reduction and one atomic per tile.
struct bmm_sum_sink {
  unsigned long long* total;
  unsigned long long count = 0;
  __device__ void begin(offset_t, int, std::uint32_t) {}
  __device__ void add(int, std::uint32_t x) { count += __popc(x); }
  __device__ void finish(offset_t, int lane) {
    for (int off = 16; off > 0; off >>= 1) count += __shfl_down_sync(0xffffffffu, count, off);
    if (lane == 0 && count) atomicAdd(total, count);
  }
};

/// Sink of the Boolean product: lane r builds row r of the product tile and writes it (row-major).
struct bmm_bits_sink {
  std::uint32_t* out;
  std::uint32_t bits = 0;
  __device__ void begin(offset_t, int, std::uint32_t) {}
  __device__ void add(int c, std::uint32_t x) {
    if (x) bits |= 1u << c;
  }
  __device__ void finish(offset_t tile, int lane) { out[tile * 32 + lane] = bits; }
};

/// Sink of the counting product: lane r adds each popcount to the slot of its mask entry, off[tile, r] + the rank
/// of c in its mask row (the lane owns those slots: no atomics).
struct bmm_count_sink {
  const offset_t* off;
  std::uint32_t* cnt;
  std::uint32_t m = 0;
  offset_t base = 0;
  __device__ void begin(offset_t tile, int lane, std::uint32_t mask_row) {
    m = mask_row;
    base = m ? off[tile * 32 + lane] : 0;
  }
  __device__ void add(int c, std::uint32_t x) {
    const unsigned v = __popc(x);
    if (v) cnt[base + __popc(m & ((1u << c) - 1u))] += v;
  }
  __device__ void finish(offset_t, int) {}
};

/// A template only so that the header can be included by several translation units (one definition).
/// Two ways to find the common tiles of A's tile row ti and B^T's tile row tj, both warp-wide: rows of similar
/// length are merged a window of 32 tile columns each at a time (each lane places its A column among the 32 B
/// columns with five shuffles); when one row outlasts the other by more than the log of its length, each lane
/// searches its tile of the short row in the long one instead, so a hub row costs the log of its length.
/// `Sink` (bmm_sum_sink, bmm_bits_sink, bmm_count_sink) receives what every common tile pair contributes.
template <class Sink>
__global__ void __launch_bounds__(bmm_block_threads)
    bmm_masked_warp_kernel(offset_t n_mask_tiles, const vertex_t* __restrict__ mrow_of,
                           const vertex_t* __restrict__ mcol, const std::uint32_t* __restrict__ mw,
                           const offset_t* __restrict__ aptr, const vertex_t* __restrict__ acol,
                           const std::uint32_t* __restrict__ aw, const offset_t* __restrict__ bptr,
                           const vertex_t* __restrict__ bcol, const std::uint32_t* __restrict__ bw, Sink sink) {
  constexpr vertex_t none = ~vertex_t(0);  // the key of lanes past a row's end (tile columns are below it)
  const offset_t warp = (offset_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (warp >= n_mask_tiles) return;
  const vertex_t ti = __ldg(mrow_of + warp), tj = __ldg(mcol + warp);
  const std::uint32_t m = __ldg(mw + warp * 32 + lane);
  // Union of the mask rows: only these columns of B^T's tile are ever needed.
  const std::uint32_t cols = __reduce_or_sync(0xffffffffu, m);
  sink.begin(warp, lane, m);
  offset_t pa = __ldg(aptr + ti), ea = __ldg(aptr + ti + 1), pb = __ldg(bptr + tj), eb = __ldg(bptr + tj + 1);
  if (cols == 0 || pa == ea || pb == eb) pa = ea;  // nothing to count
  const offset_t la = ea - pa, lb = eb - pb;
  const offset_t ls = la < lb ? la : lb, ll = la < lb ? lb : la;
  const bool search = pa < ea && ll > ls * offset_t(64 - __clzll(static_cast<long long>(ll)));  // uniform
  if (search) {
    // Each lane takes one tile of the shorter row and finds it in the longer one; the window's last lane says
    // where the next window's searches start.
    const bool a_short = la <= lb;
    const vertex_t* skey = a_short ? acol : bcol;
    const vertex_t* lkey = a_short ? bcol : acol;
    offset_t ps = a_short ? pa : pb, es = a_short ? ea : eb, lo = a_short ? pb : pa;
    const offset_t el = a_short ? eb : ea;
    for (; ps < es && lo < el; ps += 32) {
      const offset_t s = ps + lane;
      const vertex_t k = s < es ? __ldg(skey + s) : none;
      const offset_t at = s < es ? detail::bmm_lower_bound(lkey, lo, el, k) : el;
      const bool hit = at < el && __ldg(lkey + at) == k;
      unsigned found = __ballot_sync(0xffffffffu, hit);
      while (found) {
        const int l = __ffs(found) - 1;
        found &= found - 1;
        const offset_t is = ps + l, il = __shfl_sync(0xffffffffu, at, l);
        const offset_t ia = a_short ? is : il, ib = a_short ? il : is;
        detail::bmm_tile_pair(__ldg(aw + ia * 32 + lane), __ldg(bw + ib * 32 + lane), m, cols, sink);
      }
      const int last = es - ps < 32 ? static_cast<int>(es - ps) - 1 : 31;
      lo = __shfl_sync(0xffffffffu, at, last);
    }
  } else {
    while (pa < ea && pb < eb) {  // uniform: every lane holds the same bounds
      const bool va = pa + lane < ea, vb = pb + lane < eb;
      const vertex_t ka = va ? __ldg(acol + pa + lane) : none, kb = vb ? __ldg(bcol + pb + lane) : none;
      const int na = ea - pa < 32 ? static_cast<int>(ea - pa) : 32, nb = eb - pb < 32 ? static_cast<int>(eb - pb) : 32;
      const vertex_t amax = __shfl_sync(0xffffffffu, ka, na - 1), bmax = __shfl_sync(0xffffffffu, kb, nb - 1);
      // j = how many of the window's B columns lie below ka (0..31; the 32nd is checked by equality below).
      int j = 0;
#pragma unroll
      for (int step = 16; step >= 1; step >>= 1)
        if (__shfl_sync(0xffffffffu, kb, j + step - 1) < ka) j += step;
      const vertex_t kj = __shfl_sync(0xffffffffu, kb, j);  // every lane shuffles: never inside a short circuit
      const bool hit = va && kj == ka;
      unsigned found = __ballot_sync(0xffffffffu, hit);
      while (found) {
        const int l = __ffs(found) - 1;
        found &= found - 1;
        const offset_t ia = pa + l, ib = pb + __shfl_sync(0xffffffffu, j, l);
        detail::bmm_tile_pair(__ldg(aw + ia * 32 + lane), __ldg(bw + ib * 32 + lane), m, cols, sink);
      }
      // Every A column up to bmax and B column up to amax is settled (a later match would be above both).
      pa += __popc(__ballot_sync(0xffffffffu, va && ka <= bmax));
      pb += __popc(__ballot_sync(0xffffffffu, vb && kb <= amax));
    }
  }
  sink.finish(warp, lane);
}

}  // namespace bitgraph::cuda
