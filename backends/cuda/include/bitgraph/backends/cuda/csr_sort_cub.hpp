// CUDA specialisation of the CSR builder's row sort: CUB's segmented sort, so that the hub rows of
// power-law graphs (hundreds of thousands of entries) are not sorted by a single thread.
#pragma once

#include <Kokkos_Core.hpp>
#include <cub/device/device_segmented_sort.cuh>

#include <string>

#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/csr.hpp"

namespace bitgraph::detail {

template <>
struct sort_rows_impl<Kokkos::Cuda> {
  using mem = Kokkos::CudaSpace;
  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw error(std::string("bitgraph::build_csr: CUB segmented sort (") + what + "): " + cudaGetErrorString(e));
  }
  static void run(const Kokkos::Cuda& exec, vertex_t n, Kokkos::View<offset_t*, mem> row_ptr, Kokkos::View<vertex_t*, mem> cols,
                  Kokkos::View<double*, mem> vals) {
    const offset_t m = cols.extent(0);
    if (m < 2 || n == 0) return;
    const bool with_vals = vals.extent(0) > 0;
    auto keys_out = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::csr::sorted_cols", m, false);
    Kokkos::View<double*, mem> vals_out;
    if (with_vals) vals_out = allocate_view<Kokkos::View<double*, mem>>("bitgraph::csr::sorted_weights", m, false);
    const offset_t* begin = row_ptr.data();
    const offset_t* end = row_ptr.data() + 1;
    std::size_t temp = 0;
    if (with_vals) {
      check(cub::DeviceSegmentedSort::SortPairs(nullptr, temp, cols.data(), keys_out.data(), vals.data(), vals_out.data(),
                                                static_cast<std::int64_t>(m), static_cast<std::int64_t>(n), begin, end,
                                                exec.cuda_stream()),
            "size");
    } else {
      check(cub::DeviceSegmentedSort::SortKeys(nullptr, temp, cols.data(), keys_out.data(), static_cast<std::int64_t>(m),
                                               static_cast<std::int64_t>(n), begin, end, exec.cuda_stream()),
            "size");
    }
    auto scratch = allocate_view<Kokkos::View<char*, mem>>("bitgraph::csr::sort_scratch", temp + 1, false);
    if (with_vals) {
      check(cub::DeviceSegmentedSort::SortPairs(scratch.data(), temp, cols.data(), keys_out.data(), vals.data(),
                                                vals_out.data(), static_cast<std::int64_t>(m), static_cast<std::int64_t>(n),
                                                begin, end, exec.cuda_stream()),
            "sort");
      Kokkos::deep_copy(exec, vals, vals_out);
    } else {
      check(cub::DeviceSegmentedSort::SortKeys(scratch.data(), temp, cols.data(), keys_out.data(), static_cast<std::int64_t>(m),
                                               static_cast<std::int64_t>(n), begin, end, exec.cuda_stream()),
            "sort");
    }
    Kokkos::deep_copy(exec, cols, keys_out);
  }
};

}  // namespace bitgraph::detail
