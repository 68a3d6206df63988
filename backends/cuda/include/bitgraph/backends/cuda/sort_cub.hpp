// CUDA specialisation of the stable radix sort: CUB's DeviceRadixSort (pairs, or keys only).
#pragma once

#include <Kokkos_Core.hpp>
#include <cub/device/device_radix_sort.cuh>

#include <string>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/sort.hpp"

namespace bitgraph::detail {

template <class V>
struct radix_sort_impl<Kokkos::Cuda, V> {
  using mem = Kokkos::CudaSpace;
  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw error(std::string("bitgraph: CUB radix sort (") + what + "): " + cudaGetErrorString(e));
  }
  static void run(const Kokkos::Cuda& exec, Kokkos::View<std::uint32_t*, mem> keys, Kokkos::View<V*, mem> vals, offset_t m,
                  int bits, bool with_values) {
    if (m < 2) return;
    auto keys_out = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::sort::keys", m, false);
    Kokkos::View<V*, mem> vals_out;
    if (with_values) vals_out = allocate_view<Kokkos::View<V*, mem>>("bitgraph::sort::vals", m, false);
    const auto items = static_cast<std::int64_t>(m);
    std::size_t temp = 0;
    if (with_values) {
      check(cub::DeviceRadixSort::SortPairs(nullptr, temp, keys.data(), keys_out.data(), vals.data(), vals_out.data(), items,
                                            0, bits, exec.cuda_stream()),
            "size");
    } else {
      check(cub::DeviceRadixSort::SortKeys(nullptr, temp, keys.data(), keys_out.data(), items, 0, bits, exec.cuda_stream()),
            "size");
    }
    auto scratch = allocate_view<Kokkos::View<char*, mem>>("bitgraph::sort::scratch", temp + 1, false);
    if (with_values) {
      check(cub::DeviceRadixSort::SortPairs(scratch.data(), temp, keys.data(), keys_out.data(), vals.data(), vals_out.data(),
                                            items, 0, bits, exec.cuda_stream()),
            "sort");
      Kokkos::deep_copy(exec, Kokkos::subview(vals, Kokkos::make_pair(offset_t(0), m)), vals_out);
    } else {
      check(cub::DeviceRadixSort::SortKeys(scratch.data(), temp, keys.data(), keys_out.data(), items, 0, bits, exec.cuda_stream()),
            "sort");
    }
    Kokkos::deep_copy(exec, Kokkos::subview(keys, Kokkos::make_pair(offset_t(0), m)), keys_out);
  }
};

}  // namespace bitgraph::detail
