// Key(-value) sorts of 32-bit keys: a stable LSD radix sort (portable, or the backend's vendor sort) and a
// merge sort with merge-path partitioning. Used by SpMSpV's k-way merge and the BVSS builder.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/backends/sort.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// Number of significant bits of `max_key` (at least 1).
inline int key_bits(std::uint32_t max_key) {
  int b = 1;
  while (b < 32 && (max_key >> b) != 0) ++b;
  return b;
}

/// Stable sort of `keys[0, m)` by their low `bits` bits, values permuted alike when `with_values`; the
/// result ends in `keys` / `vals`. `path`: `automatic` = the backend's sort (CUB on CUDA, offered as
/// `cuda_warp`), `generic` = the portable radix sort (per-block digit histograms, a scan, a stable scatter;
/// O(m · bits / 8)). Throws `unsupported_error` for a path the space lacks, `allocation_error` when the
/// scratch arrays do not fit. Asynchronous on `exec` apart from the scans' totals.
template <class ExecSpace, class V>
void radix_sort_pairs(const ExecSpace& exec, Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>> keys,
                      Kokkos::View<V*, memory_space_t<ExecSpace>> vals, offset_t m, int bits, bool with_values,
                      op_algorithm path = op_algorithm::automatic) {
  using impl = radix_sort_impl<ExecSpace, V>;
  const op_algorithm p = choose_path<ExecSpace>("radix_sort", path, impl::offer());
  impl::run(p, exec, keys, vals, m, bits, with_values);
}

/// Merge sort of `keys[0, m)` (values alike): runs of 32 sorted by insertion, then bottom-up merge passes
/// in which every thread produces one chunk of output found by a merge-path binary search, so the last
/// passes (two huge runs) stay parallel. O(m log m). Throws `allocation_error` when the scratch arrays do
/// not fit. Asynchronous on `exec`.
template <class ExecSpace, class V>
void merge_sort_pairs(const ExecSpace& exec, Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>> keys,
                      Kokkos::View<V*, memory_space_t<ExecSpace>> vals, offset_t m, bool with_values) {
  merge_sort_impl<ExecSpace, V>::run(exec, keys, vals, m, with_values);
}

}  // namespace bitgraph::detail
