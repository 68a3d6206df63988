// CUDA warp kernels for CSR pull products (the CSR leaf of mxv). By rows, a warp owns 32 consecutive rows and
// gives each a group of G lanes (G from the mean degree), so bitmap outputs take one ballot per word and rows
// may stop at their first hit. By entries, warps take equal runs of stored entries whatever rows they belong
// to and find each row's sum with a segmented warp scan, so a hub row is spread over many warps.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "bitgraph/backends/cuda/bmv_warp.hpp"
#include "bitgraph/backends/cuda/check.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/detail/mxv_generic.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph::cuda {

/// Entries whose loads a lane issues together before it uses them (memory-level parallelism for the gathers
/// of x, which dominate a CSR product).
inline constexpr int spmv_unroll = 4;

namespace detail {

/// Shuffles for any arithmetic value type (shuffled_t: bmv_warp.hpp).
template <class V>
__device__ __forceinline__ V shfl_idx(V v, int src) {
  return static_cast<V>(__shfl_sync(0xffffffffu, static_cast<shuffled_t<V>>(v), src));
}
template <class V>
__device__ __forceinline__ V shfl_up(V v, int delta) {
  return static_cast<V>(__shfl_up_sync(0xffffffffu, static_cast<shuffled_t<V>>(v), delta));
}
template <class V>
__device__ __forceinline__ V shfl_xor(V v, int lane_mask) {
  return static_cast<V>(__shfl_xor_sync(0xffffffffu, static_cast<shuffled_t<V>>(v), lane_mask));
}

/// Whether row i is computed under the mask.
__device__ __forceinline__ bool row_allowed(std::uint64_t i, const std::uint32_t* mbits, bool masked, bool complement) {
  return (::bitgraph::detail::allowed_bits(masked ? __ldg(mbits + (i >> 5)) : 0u, masked, complement) >> (i & 31)) & 1u;
}

/// x(j) as the product reads it: one for a set bit of a bitmap input, the identity (absent) for a clear one.
template <class S, bool XBits>
__device__ __forceinline__ typename S::value_type input_at(vertex_t j, const std::uint32_t* xbits,
                                                           const typename S::value_type* xval) {
  if constexpr (XBits)
    return (__ldg(xbits + (j >> 5)) >> (j & 31)) & 1u ? S::one() : S::identity();
  else
    return __ldg(xval + j);
}

}  // namespace detail

/// The raw operands of a CSR pull: local rows, their entries and weights, and the band list that maps local
/// row k to matrix row 32 · bands[k / 32] + k % 32 (null: local row = matrix row).
struct spmv_operands {
  const offset_t* row_ptr;
  const vertex_t* col;
  const double* w;  // null: unweighted
  const vertex_t* bands;
  vertex_t n;           // matrix rows
  offset_t local_rows;  // rows held
  offset_t nnz;
  __device__ __forceinline__ std::uint64_t row(offset_t k) const {
    return bands ? std::uint64_t(__ldg(bands + (k >> 5))) * 32 + (k & 31) : std::uint64_t(k);
  }
};

template <class Mem>
spmv_operands make_spmv_operands(const ::bitgraph::detail::csr_rows<Mem>& a) {
  return {
      a.row_ptr.data(), a.col.data(), a.w.extent(0) ? a.w.data() : nullptr, a.banded ? a.bands.data() : nullptr, a.n,
      a.local_rows,     a.nnz};
}

/// CSR pull by rows: each local row gets a group of G lanes (one for rows that may stop early) that stride
/// over its entries, `spmv_unroll` of
/// them in flight per lane, and reduce with shuffles. A dense output takes 32/G rows per warp in one pass,
/// and the group's first lane merges its row into y under the mask. A bitmap output takes 32 rows (one
/// word) per warp in G passes, each row's result handed to the lane of that row, then one ballot and one
/// word per warp. Rows that may stop (`stops`: OR / ANY monoids with early exit) stop once a lane of their
/// group has a contribution.
template <class S, bool XBits, bool YBits, class Accum>
__global__ void __launch_bounds__(bmv_block_threads)
    spmv_rows_kernel(spmv_operands a, std::uint64_t n_warps, int G, const std::uint32_t* __restrict__ xbits,
                     const typename S::value_type* __restrict__ xval, std::uint32_t* __restrict__ ybits,
                     typename S::value_type* __restrict__ yval, const std::uint32_t* __restrict__ mbits, bool masked,
                     bool complement, bool replace, bool stops) {
  using value_type = typename S::value_type;
  constexpr int U = spmv_unroll;
  const std::uint64_t warp = (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (warp >= n_warps) return;  // uniform per warp
  const int per_pass = 32 / G;
  const int passes = YBits ? G : 1;
  const int gi = lane / G, gl = lane % G;
  const unsigned group_bits = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (gi * G);
  const offset_t k0 = warp * std::uint64_t(per_pass) * passes;  // the warp's first local row
  value_type mine = S::identity();                              // bitmap outputs: the lane's row

  for (int p = 0; p < passes; ++p) {
    const offset_t k = k0 + offset_t(p) * per_pass + gi;
    const std::uint64_t i = k < a.local_rows ? a.row(k) : std::uint64_t(a.n);
    const bool allowed = i < a.n && detail::row_allowed(i, mbits, masked, complement);
    offset_t q = allowed ? __ldg(a.row_ptr + k) + gl : 0;
    const offset_t qend = allowed ? __ldg(a.row_ptr + k + 1) : 0;
    value_type t = S::identity();
    bool done = false;
    // Warp-uniform loop (the shuffles and ballots need every lane); a group leaves when its row is done.
    while (__any_sync(0xffffffffu, q < qend && !done)) {
      if (q < qend && !done) {
        vertex_t c[U];
        value_type v[U], xv[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const offset_t e = q + offset_t(u) * G;
          const bool in = e < qend;
          c[u] = in ? __ldcs(a.col + e) : 0;  // read once: evict first, keeping L2 for x
          v[u] = in && a.w != nullptr ? static_cast<value_type>(__ldg(a.w + e)) : S::one();
        }
#pragma unroll
        for (int u = 0; u < U; ++u)
          xv[u] = q + offset_t(u) * G < qend ? detail::input_at<S, XBits>(c[u], xbits, xval) : S::identity();
#pragma unroll
        for (int u = 0; u < U; ++u)
          if (xv[u] != S::identity()) t = S::add(t, S::multiply(v[u], xv[u], static_cast<vertex_t>(i), c[u]));
        q += offset_t(U) * G;
      }
      if (stops && (__ballot_sync(0xffffffffu, t != S::identity()) & group_bits)) done = true;
    }
    for (int off = G / 2; off >= 1; off >>= 1) t = S::add(t, detail::shfl_xor(t, off));
    if constexpr (YBits) {
      // Row p·(32/G) + g of the warp's word sits in group g; its lane is p·(32/G) + g.
      const value_type r = detail::shfl_idx(t, (lane % per_pass) * G);
      if (lane / per_pass == p) mine = r;
    } else if (gl == 0 && i < a.n) {
      if constexpr (std::is_same_v<Accum, no_accumulator>) {
        if (allowed)
          yval[i] = t;
        else if (replace)
          yval[i] = S::identity();
      } else {
        yval[i] = ::bitgraph::detail::merge_value<Accum>(yval[i], t, allowed, replace, S::identity());
      }
    }
  }

  if constexpr (YBits) {
    const offset_t k = k0 + lane;
    const std::uint64_t i = k < a.local_rows ? a.row(k) : std::uint64_t(a.n);
    const bool allowed = i < a.n && detail::row_allowed(i, mbits, masked, complement);
    const unsigned tb = __ballot_sync(0xffffffffu, allowed && mine != S::identity());
    const unsigned ab = __ballot_sync(0xffffffffu, allowed);
    const std::uint64_t wi = a.row(k0) / 32;
    if (lane == 0 && wi * 32 < a.n) {
      // The old word matters only to an accumulator or where the mask keeps bits: else no read.
      const std::uint32_t valid = ::bitgraph::detail::valid_bits(wi, a.n);
      const bool keep_old = !std::is_same_v<Accum, no_accumulator> || (!replace && (ab & valid) != valid);
      ybits[wi] = ::bitgraph::detail::merge_bits<Accum>(keep_old ? ybits[wi] : 0u, tb, ab, valid, replace);
    }
  }
}

/// CSR pull by entries: warp w takes the entries [w·C, w·C + C) whatever rows they belong to, 32 per step
/// (coalesced), `spmv_unroll` steps of loads in flight. A step that lies wholly inside the warp's current row
/// R only adds to the lanes' partial sums. Otherwise each lane finds its entry's row in a window of 32 row
/// pointers loaded at once (a search over shuffles; a walk only past 32 row ends in one step, i.e. empty
/// rows), a segmented scan over the lanes sums each row's entries, and the last lane of each row either
/// carries the sum into the next step (the row goes on) or combines it into the target at the row's local
/// index: a plain store when the row starts and ends in this run, else the monoid's atomic (an atomic OR on
/// bitmap words). The target is identity-filled (zero words) by the caller, who merges it into the output.
template <class S, bool XBits, bool YBits>
__global__ void __launch_bounds__(bmv_block_threads)
    spmv_entries_kernel(spmv_operands a, offset_t chunk, const std::uint32_t* __restrict__ xbits,
                        const typename S::value_type* __restrict__ xval, std::uint32_t* tbits,
                        typename S::value_type* tval, const std::uint32_t* __restrict__ mbits, bool masked,
                        bool complement) {
  using value_type = typename S::value_type;
  constexpr int U = spmv_unroll;
  constexpr offset_t past = ~offset_t(0);  // the row key of lanes beyond the run, and of rows past the end
  const std::uint64_t warp = (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  const offset_t k0 = static_cast<offset_t>(warp) * chunk;
  if (k0 >= a.nnz) return;  // uniform per warp
  const offset_t k1 = k0 + chunk < a.nnz ? k0 + chunk : a.nnz;

  auto allowed = [&](offset_t r) { return detail::row_allowed(a.row(r), mbits, masked, complement); };
  auto combine = [&](offset_t r, value_type v, bool store) {
    if (v == S::identity()) return;
    if constexpr (YBits)
      atomicOr(tbits + (r >> 5), 1u << (r & 31));
    else if (store)
      tval[r] = v;
    else
      S::atomic_add(tval + r, v);
  };
  auto warp_sum = [&](value_type v) {
    for (int off = 16; off >= 1; off >>= 1) v = S::add(v, detail::shfl_xor(v, off));
    return v;
  };

  // The current row R, holding entry k0 at first: the last row whose first entry is at or before k0 (the rows
  // before it, and any empty ones, end at or before k0).
  offset_t lo = 0, hi = a.local_rows;
  while (hi - lo > 1) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (__ldg(a.row_ptr + mid) <= k0)
      lo = mid;
    else
      hi = mid;
  }
  // While `have_r`, R holds the next step's first entry, and `acc` (spread over the lanes) is its partial sum.
  bool have_r = true;
  offset_t R = lo;
  bool r_from_start = __ldg(a.row_ptr + R) >= k0;  // R's first entry is in this run
  offset_t r_end = __ldg(a.row_ptr + R + 1);
  bool r_ok = allowed(R);
  value_type acc = S::identity();
  offset_t base_row = R;  // a row at or before the next step's first entry

  for (offset_t base = k0; base < k1; base += offset_t(U) * 32) {
    vertex_t c[U];
    value_type v[U], xv[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const offset_t k = base + offset_t(u) * 32 + lane;
      const bool in = k < k1;
      c[u] = in ? __ldcs(a.col + k) : 0;  // read once: evict first, keeping L2 for x
      v[u] = in && a.w != nullptr ? static_cast<value_type>(__ldg(a.w + k)) : S::one();
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
      xv[u] = base + offset_t(u) * 32 + lane < k1 ? detail::input_at<S, XBits>(c[u], xbits, xval) : S::identity();
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const offset_t sb = base + offset_t(u) * 32;  // the step's first entry
      if (sb >= k1) break;                          // uniform
      const offset_t se = sb + 32 < k1 ? sb + 32 : k1;
      const offset_t k = sb + lane;
      const bool in = k < k1;
      if (have_r && r_end >= se) {  // uniform: the whole step lies in R
        base_row = R;
        if (in && r_ok && xv[u] != S::identity())
          acc = S::add(acc, S::multiply(v[u], xv[u], static_cast<vertex_t>(a.row(R)), c[u]));
        if (r_end == se) {  // R ends with this step
          const value_type sum = warp_sum(acc);
          if (lane == 0) combine(R, sum, r_from_start && r_end <= k1);
          acc = S::identity();
          have_r = false;
        }
        continue;
      }
      // The lane's row: base_row + the number of row ends at or before k among the next 32.
      const offset_t wi = base_row + 1 + lane;
      const offset_t window = wi <= a.local_rows ? __ldg(a.row_ptr + wi) : past;
      int ends = 0;
#pragma unroll
      for (int step = 16; step >= 1; step >>= 1)
        if (detail::shfl_idx(window, ends + step - 1) <= k) ends += step;
      offset_t tr = base_row + ends, tr_end = detail::shfl_idx(window, ends);
      if (in && tr_end <= k) {  // more than 31 rows end before k in this step (empty rows): walk on
        tr = base_row + 32;
        tr_end = __ldg(a.row_ptr + tr + 1);
        while (tr_end <= k) tr_end = __ldg(a.row_ptr + ++tr + 1);
      }
      const bool t_ok = in && allowed(tr);
      const offset_t key = in ? tr : past;
      value_type x = t_ok && xv[u] != S::identity() ? S::multiply(v[u], xv[u], static_cast<vertex_t>(a.row(tr)), c[u])
                                                    : S::identity();
      if (have_r) {  // R's partial joins lane 0's entry, which lies in R
        const value_type carried = warp_sum(acc);
        acc = S::identity();
        if (lane == 0) x = S::add(x, carried);
      }
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const value_type xu = detail::shfl_up(x, d);
        const offset_t ku = detail::shfl_up(key, d);
        if (lane >= d && ku == key) x = S::add(x, xu);
      }
      const offset_t next_key = __shfl_down_sync(0xffffffffu, key, 1);
      const bool tail = in && (lane == 31 || next_key != key);
      // Only R (lane 0's row, when carried in) can have started before this step.
      const bool from_start = !(have_r && tr == R) || r_from_start;
      const bool goes_on = tail && tr_end > se;  // only the last lane's row: it continues past this step
      if (tail && !goes_on) combine(tr, x, from_start && tr_end <= k1);
      const int last = static_cast<int>(se - sb) - 1;
      base_row = detail::shfl_idx(tr, last);
      // The row that goes on becomes R, its sum carried in lane 0's partial.
      if (__shfl_sync(0xffffffffu, static_cast<int>(goes_on), last) && se < k1) {
        const value_type cv = detail::shfl_idx(x, last);
        R = base_row;
        r_end = detail::shfl_idx(tr_end, last);
        r_from_start = __shfl_sync(0xffffffffu, static_cast<int>(from_start), last) != 0;
        r_ok = __shfl_sync(0xffffffffu, static_cast<int>(t_ok), last) != 0;
        acc = lane == 0 ? cv : S::identity();
        have_r = true;
      } else {
        if (goes_on) combine(tr, x, false);  // the run ends inside the row
        have_r = false;
      }
    }
  }
  if (have_r) {  // the run ended inside R
    const value_type sum = warp_sum(acc);
    if (lane == 0) combine(R, sum, r_from_start && r_end <= k1);
  }
}

/// Lanes per row of the by-rows kernel: enough that one unrolled step covers a mean row (4 entries a lane).
inline int spmv_group_lanes(offset_t nnz, offset_t rows) {
  const double mean = rows ? double(nnz) / double(rows) : 0.0;
  int g = 1;
  while (g < 32 && double(g) * spmv_unroll < mean) g *= 2;
  return g;
}

/// Entries per warp of the entry-balanced kernel: about two runs per warp the device holds at once, at least
/// four unrolled steps (the binary search amortised) and at most 16,384.
inline offset_t spmv_entries_chunk(const Kokkos::Cuda& exec, offset_t nnz) {
  const std::uint64_t resident_warps = std::max<std::uint64_t>(1, std::uint64_t(exec.concurrency()) / 32);
  const offset_t span = offset_t(32) * spmv_unroll;
  offset_t chunk = static_cast<offset_t>((nnz + 2 * resident_warps - 1) / (2 * resident_warps));
  chunk = std::min<offset_t>(std::max<offset_t>(chunk, 4 * span), 16384);
  return (chunk + span - 1) / span * span;
}

/// Launches the by-rows CSR pull on `exec`'s stream, merging into y under the mask.
template <class S, bool XBits, bool YBits, class Accum>
void launch_spmv_rows(const Kokkos::Cuda& exec, const spmv_operands& a, const std::uint32_t* xbits,
                      const typename S::value_type* xval, std::uint32_t* ybits, typename S::value_type* yval,
                      const std::uint32_t* mbits, bool masked, bool complement, bool replace, bool stops) {
  // Rows that stop at their first hit get a lane each: a group would read G · 4 entries before it checks.
  const int G = stops ? 1 : spmv_group_lanes(a.nnz, a.local_rows);
  const std::uint64_t rows_per_warp = YBits ? 32 : 32 / G;
  const std::uint64_t n_warps = (a.local_rows + rows_per_warp - 1) / rows_per_warp;
  if (n_warps == 0) return;
  const std::uint64_t blocks = (n_warps * 32 + bmv_block_threads - 1) / bmv_block_threads;
  spmv_rows_kernel<S, XBits, YBits, Accum><<<static_cast<unsigned>(blocks), bmv_block_threads, 0, exec.cuda_stream()>>>(
      a, n_warps, G, xbits, xval, ybits, yval, mbits, masked, complement, replace, stops);
  BITGRAPH_CUDA_CHECK("mxv", "launching the by-rows CSR kernel", cudaGetLastError());
}

/// Launches the entry-balanced CSR pull on `exec`'s stream, combining into identity-filled `tbits` / `tval`
/// (indexed by local row).
template <class S, bool XBits, bool YBits>
void launch_spmv_entries(const Kokkos::Cuda& exec, const spmv_operands& a, const std::uint32_t* xbits,
                         const typename S::value_type* xval, std::uint32_t* tbits, typename S::value_type* tval,
                         const std::uint32_t* mbits, bool masked, bool complement) {
  if (a.nnz == 0 || a.local_rows == 0) return;
  const offset_t chunk = spmv_entries_chunk(exec, a.nnz);
  const std::uint64_t threads = std::uint64_t((a.nnz + chunk - 1) / chunk) * 32;
  const std::uint64_t blocks = (threads + bmv_block_threads - 1) / bmv_block_threads;
  spmv_entries_kernel<S, XBits, YBits><<<static_cast<unsigned>(blocks), bmv_block_threads, 0, exec.cuda_stream()>>>(
      a, chunk, xbits, xval, tbits, tval, mbits, masked, complement);
  BITGRAPH_CUDA_CHECK("mxv", "launching the entry-balanced CSR kernel", cudaGetLastError());
}

}  // namespace bitgraph::cuda
