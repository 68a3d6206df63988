// The portable key(-value) sorts of 32-bit keys, primary templates of the sort dispatch: a stable LSD
// radix sort (per-block digit histograms, a digit-major scan, a stable scatter) and a merge sort with
// merge-path partitioning.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <utility>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// After an odd number of ping-pong passes the sorted data sits in the scratch arrays: copy the first
/// m entries back into the caller's.
template <class ExecSpace, class K, class V>
void copy_back_from_scratch(const ExecSpace& exec, const K& keys, const V& vals, const K& tk, const V& tv, offset_t m,
                            bool with_values) {
  const auto first = Kokkos::make_pair(offset_t(0), m);
  Kokkos::deep_copy(exec, Kokkos::subview(keys, first), Kokkos::subview(tk, first));
  if (with_values) Kokkos::deep_copy(exec, Kokkos::subview(vals, first), Kokkos::subview(tv, first));
}

/// Elements per block of the radix sort's histogram and scatter (one thread per block keeps the scatter
/// stable), and the digit width.
inline constexpr offset_t radix_block = 256;
inline constexpr int radix_digit_bits = 8;
inline constexpr int radix_digits = 1 << radix_digit_bits;

/// Digit histogram of one block, stored digit-major (hist(d * nblocks + b)) so one scan orders the output.
template <class Mem>
struct radix_histogram {
  Kokkos::View<const std::uint32_t*, Mem> sk;
  Kokkos::View<offset_t*, Mem> hist;
  offset_t m, nblocks;
  int shift;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t b) const {
    offset_t h[radix_digits];
    for (int d = 0; d < radix_digits; ++d) h[d] = 0;
    const offset_t end = (b + 1) * radix_block < m ? (b + 1) * radix_block : m;
    for (offset_t q = b * radix_block; q < end; ++q) ++h[(sk(q) >> shift) & (radix_digits - 1)];
    for (int d = 0; d < radix_digits; ++d) hist(offset_t(d) * nblocks + b) = h[d];
  }
};

/// Stable scatter of one block to the positions the scanned histogram gives.
template <class Mem, class V>
struct radix_scatter {
  Kokkos::View<const std::uint32_t*, Mem> sk;
  Kokkos::View<const V*, Mem> sv;
  Kokkos::View<std::uint32_t*, Mem> dk;
  Kokkos::View<V*, Mem> dv;
  Kokkos::View<const offset_t*, Mem> hist;
  offset_t m, nblocks;
  int shift;
  bool with_values;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t b) const {
    offset_t pos[radix_digits];
    for (int d = 0; d < radix_digits; ++d) pos[d] = hist(offset_t(d) * nblocks + b);
    const offset_t end = (b + 1) * radix_block < m ? (b + 1) * radix_block : m;
    for (offset_t q = b * radix_block; q < end; ++q) {
      const std::uint32_t k = sk(q);
      const offset_t p = pos[(k >> shift) & (radix_digits - 1)]++;
      dk(p) = k;
      if (with_values) dv(p) = sv(q);
    }
  }
};

/// Portable stable LSD radix sort of `keys[0, m)` (values permuted alike when `with_values`), 8-bit digits
/// over the low `bits` bits.
template <class ExecSpace, class V>
struct radix_sort_generic {
  using mem = memory_space_t<ExecSpace>;
  static path_offer offer() { return path_offer{}; }
  static void run(op_algorithm, const ExecSpace& exec, Kokkos::View<std::uint32_t*, mem> keys,
                  Kokkos::View<V*, mem> vals, offset_t m, int bits, bool with_values) {
    if (m < 2) return;
    using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
    const offset_t nblocks = ceil_div<offset_t>(m, radix_block);
    auto hist = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::radix::hist", nblocks * radix_digits, false);
    auto tk = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::radix::keys", m, false);
    Kokkos::View<V*, mem> tv;
    if (with_values) tv = allocate_view<Kokkos::View<V*, mem>>("bitgraph::radix::vals", m, false);
    auto src_k = keys, dst_k = tk;
    auto src_v = vals, dst_v = tv;
    int passes = 0;
    for (int shift = 0; shift < bits; shift += radix_digit_bits, ++passes) {
      Kokkos::parallel_for("bitgraph::radix::histogram", policy(exec, 0, nblocks),
                           radix_histogram<mem>{src_k, hist, m, nblocks, shift});
      exclusive_scan(exec, hist, "bitgraph::radix::scan");
      Kokkos::parallel_for("bitgraph::radix::scatter", policy(exec, 0, nblocks),
                           radix_scatter<mem, V>{src_k, src_v, dst_k, dst_v, hist, m, nblocks, shift, with_values});
      std::swap(src_k, dst_k);
      std::swap(src_v, dst_v);
    }
    if (passes % 2 == 1) copy_back_from_scratch(exec, keys, vals, tk, tv, m, with_values);
  }
};

/// Dispatch point of the radix sort; backends specialise it with their vendor sort (CUDA: CUB).
template <class ExecSpace, class V>
struct radix_sort_impl : radix_sort_generic<ExecSpace, V> {};

/// Merge sort, step 1: runs of 32 sorted by insertion.
template <class Mem, class V>
struct merge_sort_runs {
  static constexpr offset_t run = 32;
  Kokkos::View<std::uint32_t*, Mem> keys;
  Kokkos::View<V*, Mem> vals;
  offset_t m;
  bool with_values;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t r) const {
    const offset_t lo = r * run, hi = lo + run < m ? lo + run : m;
    for (offset_t i = lo + 1; i < hi; ++i) {
      const std::uint32_t k = keys(i);
      V v{};
      if (with_values) v = vals(i);
      offset_t j = i;
      while (j > lo && keys(j - 1) > k) {
        keys(j) = keys(j - 1);
        if (with_values) vals(j) = vals(j - 1);
        --j;
      }
      keys(j) = k;
      if (with_values) vals(j) = v;
    }
  }
};

/// Merge sort, one pass: every thread produces one chunk of output found by a merge-path binary search,
/// so the last passes (two huge runs) stay parallel. Chunks never span two pairs of runs.
template <class Mem, class V>
struct merge_sort_pass {
  Kokkos::View<const std::uint32_t*, Mem> sk;
  Kokkos::View<const V*, Mem> sv;
  Kokkos::View<std::uint32_t*, Mem> dk;
  Kokkos::View<V*, Mem> dv;
  offset_t m, w, ch;
  bool with_values;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t c) const {
    const offset_t out0 = c * ch;
    const offset_t pair = out0 / (2 * w);
    const offset_t lo = pair * 2 * w;
    const offset_t mid = lo + w < m ? lo + w : m;
    const offset_t hi = lo + 2 * w < m ? lo + 2 * w : m;
    const offset_t na = mid - lo, nb = hi - mid;
    const offset_t d = out0 - lo;  // output rank within the pair
    // Merge path: the number of A elements among the first d outputs.
    offset_t a_lo = d > nb ? d - nb : 0, a_hi = d < na ? d : na;
    while (a_lo < a_hi) {
      const offset_t ai = (a_lo + a_hi) / 2;
      const offset_t bi = d - ai - 1;
      if (sk(lo + ai) <= sk(mid + bi))
        a_lo = ai + 1;
      else
        a_hi = ai;
    }
    offset_t ia = a_lo, ib = d - a_lo;
    const offset_t out_end = out0 + ch < hi ? out0 + ch : hi;
    for (offset_t o = out0; o < out_end; ++o) {
      const bool take_a = ib >= nb || (ia < na && sk(lo + ia) <= sk(mid + ib));
      const offset_t s = take_a ? lo + ia++ : mid + ib++;
      dk(o) = sk(s);
      if (with_values) dv(o) = sv(s);
    }
  }
};

/// Merge sort of `keys[0, m)` (values alike): runs of 32 by insertion, then bottom-up merge passes.
template <class ExecSpace, class V>
struct merge_sort_generic {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, Kokkos::View<std::uint32_t*, mem> keys, Kokkos::View<V*, mem> vals, offset_t m,
                  bool with_values) {
    if (m < 2) return;
    using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
    constexpr offset_t run = merge_sort_runs<mem, V>::run;
    constexpr offset_t chunk = 256;
    Kokkos::parallel_for("bitgraph::merge_sort::runs", policy(exec, 0, ceil_div(m, run)),
                         merge_sort_runs<mem, V>{keys, vals, m, with_values});
    auto tk = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::merge_sort::keys", m, false);
    Kokkos::View<V*, mem> tv;
    if (with_values) tv = allocate_view<Kokkos::View<V*, mem>>("bitgraph::merge_sort::vals", m, false);
    auto src_k = keys, dst_k = tk;
    auto src_v = vals, dst_v = tv;
    int passes = 0;
    for (offset_t width = run; width < m; width *= 2, ++passes) {
      const offset_t ch = 2 * width < chunk ? 2 * width : chunk;
      Kokkos::parallel_for("bitgraph::merge_sort::merge", policy(exec, 0, ceil_div(m, ch)),
                           merge_sort_pass<mem, V>{src_k, src_v, dst_k, dst_v, m, width, ch, with_values});
      std::swap(src_k, dst_k);
      std::swap(src_v, dst_v);
    }
    if (passes % 2 == 1) copy_back_from_scratch(exec, keys, vals, tk, tv, m, with_values);
  }
};

template <class ExecSpace, class V>
struct merge_sort_impl : merge_sort_generic<ExecSpace, V> {};

}  // namespace bitgraph::detail
