// CUDA leaf of the radix sort: CUB's DeviceRadixSort (pairs, or keys only), offered as `cuda_warp` and
// preferred; `generic` goes back to the portable sort.
#pragma once

#include <Kokkos_Core.hpp>
#include <cub/device/device_radix_sort.cuh>

#include <cstddef>
#include <cstdint>

#include "bitgraph/backends/cuda/cub.hpp"
#include "bitgraph/core/detail/sort_generic.hpp"
#include "bitgraph/core/dispatch.hpp"

namespace bitgraph::detail {

template <class V>
struct radix_sort_impl<Kokkos::Cuda, V> {
  using mem = Kokkos::CudaSpace;
  using generic = radix_sort_generic<Kokkos::Cuda, V>;

  static path_offer offer() { return generic::offer().offer(op_algorithm::cuda_warp); }

  static void run(op_algorithm path, const Kokkos::Cuda& exec, Kokkos::View<std::uint32_t*, mem> keys,
                  Kokkos::View<V*, mem> vals, offset_t m, int bits, bool with_values) {
    if (path != op_algorithm::cuda_warp) return run_generic<generic>(exec, keys, vals, m, bits, with_values);
    if (m < 2) return;
    auto keys_out = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::sort::keys", m, false);
    Kokkos::View<V*, mem> vals_out;
    if (with_values) vals_out = allocate_view<Kokkos::View<V*, mem>>("bitgraph::sort::vals", m, false);
    const auto items = static_cast<std::int64_t>(m);
    const auto first = Kokkos::make_pair(offset_t(0), m);
    if (with_values) {
      cuda::cub_two_phase("radix_sort", "CUB SortPairs", [&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(temp, bytes, keys.data(), keys_out.data(), vals.data(), vals_out.data(),
                                               items, 0, bits, exec.cuda_stream());
      });
      Kokkos::deep_copy(exec, Kokkos::subview(vals, first), vals_out);
    } else {
      cuda::cub_two_phase("radix_sort", "CUB SortKeys", [&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(temp, bytes, keys.data(), keys_out.data(), items, 0, bits,
                                              exec.cuda_stream());
      });
    }
    Kokkos::deep_copy(exec, Kokkos::subview(keys, first), keys_out);
  }
};

}  // namespace bitgraph::detail
