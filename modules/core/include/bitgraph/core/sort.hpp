// Key(-value) sorts of 32-bit keys: a stable LSD radix sort (portable, or the backend's vendor sort) and
// a merge sort with merge-path partitioning. Used by SpMSpV's k-way merge and the BVSS builder.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <utility>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// Number of significant bits of `max_key` (at least 1).
inline int key_bits(std::uint32_t max_key) {
  int b = 1;
  while (b < 32 && (max_key >> b) != 0) ++b;
  return b;
}

/// After an odd number of ping-pong passes the sorted data sits in the scratch arrays: copy the first
/// m entries back into the caller's.
template <class ExecSpace, class K, class V>
void copy_back_from_scratch(const ExecSpace& exec, const K& keys, const V& vals, const K& tk, const V& tv, offset_t m,
                            bool with_values) {
  const auto first = Kokkos::make_pair(offset_t(0), m);
  Kokkos::deep_copy(exec, Kokkos::subview(keys, first), Kokkos::subview(tk, first));
  if (with_values) Kokkos::deep_copy(exec, Kokkos::subview(vals, first), Kokkos::subview(tv, first));
}

/// Portable stable LSD radix sort of `keys[0, m)` (values permuted alike when `with_values`), 8-bit
/// digits over the low `bits` bits. Each pass: per-block digit histograms (blocks of 256 elements, one
/// thread each, so the scatter is stable), an exclusive scan in digit-major order, then the scatter.
template <class ExecSpace, class V>
BITGRAPH_TU_LOCAL void radix_sort_pairs_portable(const ExecSpace& exec, Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>> keys,
                               Kokkos::View<V*, memory_space_t<ExecSpace>> vals, offset_t m, int bits, bool with_values) {
  using mem = memory_space_t<ExecSpace>;
  if (m < 2) return;
  constexpr offset_t block = 256;
  constexpr int digit_bits = 8;
  constexpr int radix = 1 << digit_bits;
  const offset_t nblocks = ceil_div<offset_t>(m, block);
  auto hist = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::radix::hist", nblocks * radix, false);
  auto tk = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::radix::keys", m, false);
  Kokkos::View<V*, mem> tv;
  if (with_values) tv = allocate_view<Kokkos::View<V*, mem>>("bitgraph::radix::vals", m, false);
  auto src_k = keys, dst_k = tk;
  auto src_v = vals, dst_v = tv;
  int passes = 0;
  for (int shift = 0; shift < bits; shift += digit_bits, ++passes) {
    auto sk = src_k, dk = dst_k;
    auto sv = src_v, dv = dst_v;
    Kokkos::parallel_for(
        "bitgraph::radix::histogram", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nblocks),
        KOKKOS_LAMBDA(const offset_t b) {
          offset_t h[radix];
          for (int d = 0; d < radix; ++d) h[d] = 0;
          const offset_t end = (b + 1) * block < m ? (b + 1) * block : m;
          for (offset_t q = b * block; q < end; ++q) ++h[(sk(q) >> shift) & (radix - 1)];
          for (int d = 0; d < radix; ++d) hist(offset_t(d) * nblocks + b) = h[d];
        });
    exclusive_scan(exec, hist, "bitgraph::radix::scan");
    Kokkos::parallel_for(
        "bitgraph::radix::scatter", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nblocks),
        KOKKOS_LAMBDA(const offset_t b) {
          offset_t pos[radix];
          for (int d = 0; d < radix; ++d) pos[d] = hist(offset_t(d) * nblocks + b);
          const offset_t end = (b + 1) * block < m ? (b + 1) * block : m;
          for (offset_t q = b * block; q < end; ++q) {
            const std::uint32_t k = sk(q);
            const offset_t p = pos[(k >> shift) & (radix - 1)]++;
            dk(p) = k;
            if (with_values) dv(p) = sv(q);
          }
        });
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (passes % 2 == 1) copy_back_from_scratch(exec, keys, vals, tk, tv, m, with_values);
}

/// Dispatch point of the radix sort; backends specialise it with their vendor sort (CUDA: CUB).
template <class ExecSpace, class V>
struct radix_sort_impl {
  static void run(const ExecSpace& exec, Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>> keys,
                  Kokkos::View<V*, memory_space_t<ExecSpace>> vals, offset_t m, int bits, bool with_values) {
    radix_sort_pairs_portable<ExecSpace, V>(exec, keys, vals, m, bits, with_values);
  }
};

/// Stable radix sort of `keys[0, m)` by their low `bits` bits, values alike when `with_values`. The
/// backend's sort unless `portable`; the result ends in `keys` / `vals`.
template <class ExecSpace, class V>
void radix_sort_pairs(const ExecSpace& exec, Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>> keys,
                      Kokkos::View<V*, memory_space_t<ExecSpace>> vals, offset_t m, int bits, bool with_values,
                      bool portable = false) {
  if (portable) radix_sort_pairs_portable<ExecSpace, V>(exec, keys, vals, m, bits, with_values);
  else radix_sort_impl<ExecSpace, V>::run(exec, keys, vals, m, bits, with_values);
}

/// Merge sort of `keys[0, m)` (values alike): runs of 32 sorted by insertion, then bottom-up merge
/// passes in which every thread produces one chunk of output found by a merge-path binary search, so
/// the last passes (two huge runs) stay parallel.
template <class ExecSpace, class V>
BITGRAPH_TU_LOCAL void merge_sort_pairs(const ExecSpace& exec, Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>> keys,
                      Kokkos::View<V*, memory_space_t<ExecSpace>> vals, offset_t m, bool with_values) {
  using mem = memory_space_t<ExecSpace>;
  if (m < 2) return;
  constexpr offset_t run = 32;
  constexpr offset_t chunk = 256;
  Kokkos::parallel_for(
      "bitgraph::merge_sort::runs", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, ceil_div(m, run)),
      KOKKOS_LAMBDA(const offset_t r) {
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
      });
  auto tk = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::merge_sort::keys", m, false);
  Kokkos::View<V*, mem> tv;
  if (with_values) tv = allocate_view<Kokkos::View<V*, mem>>("bitgraph::merge_sort::vals", m, false);
  auto src_k = keys, dst_k = tk;
  auto src_v = vals, dst_v = tv;
  int passes = 0;
  for (offset_t width = run; width < m; width *= 2, ++passes) {
    auto sk = src_k, dk = dst_k;
    auto sv = src_v, dv = dst_v;
    const offset_t w = width;
    // Chunks never span two pairs of runs: a pair is 2w long and chunks divide it.
    const offset_t ch = 2 * w < chunk ? 2 * w : chunk;
    Kokkos::parallel_for(
        "bitgraph::merge_sort::merge", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, ceil_div(m, ch)),
        KOKKOS_LAMBDA(const offset_t c) {
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
            if (sk(lo + ai) <= sk(mid + bi)) a_lo = ai + 1;
            else a_hi = ai;
          }
          offset_t ia = a_lo, ib = d - a_lo;
          const offset_t out_end = out0 + ch < hi ? out0 + ch : hi;
          for (offset_t o = out0; o < out_end; ++o) {
            const bool take_a = ib >= nb || (ia < na && sk(lo + ia) <= sk(mid + ib));
            const offset_t s = take_a ? lo + ia++ : mid + ib++;
            dk(o) = sk(s);
            if (with_values) dv(o) = sv(s);
          }
        });
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (passes % 2 == 1) copy_back_from_scratch(exec, keys, vals, tk, tv, m, with_values);
}

}  // namespace bitgraph::detail

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/sort_cub.hpp"
#endif
