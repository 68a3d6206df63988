// CUDA leaf of the CSR builder's row sort: CUB's segmented sort, so that the hub rows of power-law graphs
// (hundreds of thousands of entries) are not sorted by a single thread. Offered as `cuda_warp` and
// preferred; `generic` goes back to the portable per-row sort.
#pragma once

#include <Kokkos_Core.hpp>
#include <cub/device/device_segmented_sort.cuh>

#include <cstddef>
#include <cstdint>

#include "bitgraph/backends/cuda/cub.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/formats/detail/csr_generic.hpp"

namespace bitgraph::detail {

template <>
struct sort_rows_impl<Kokkos::Cuda> {
  using mem = Kokkos::CudaSpace;
  using generic = sort_rows_generic<Kokkos::Cuda>;

  static path_offer offer() { return generic::offer().offer(op_algorithm::cuda_warp); }

  static void run(op_algorithm path, const Kokkos::Cuda& exec, vertex_t n, Kokkos::View<offset_t*, mem> row_ptr,
                  Kokkos::View<vertex_t*, mem> cols, Kokkos::View<double*, mem> vals) {
    if (path != op_algorithm::cuda_warp) return run_generic<generic>(exec, n, row_ptr, cols, vals);
    const offset_t m = cols.extent(0);
    if (m < 2 || n == 0) return;
    const bool with_vals = vals.extent(0) > 0;
    auto keys_out = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::csr::sorted_cols", m, false);
    Kokkos::View<double*, mem> vals_out;
    if (with_vals) vals_out = allocate_view<Kokkos::View<double*, mem>>("bitgraph::csr::sorted_weights", m, false);
    const offset_t* begin = row_ptr.data();
    const offset_t* end = row_ptr.data() + 1;
    const auto items = static_cast<std::int64_t>(m);
    const auto segments = static_cast<std::int64_t>(n);
    if (with_vals) {
      cuda::cub_two_phase("build_csr", "CUB segmented SortPairs", [&](void* temp, std::size_t& bytes) {
        return cub::DeviceSegmentedSort::SortPairs(temp, bytes, cols.data(), keys_out.data(), vals.data(),
                                                   vals_out.data(), items, segments, begin, end, exec.cuda_stream());
      });
      Kokkos::deep_copy(exec, vals, vals_out);
    } else {
      cuda::cub_two_phase("build_csr", "CUB segmented SortKeys", [&](void* temp, std::size_t& bytes) {
        return cub::DeviceSegmentedSort::SortKeys(temp, bytes, cols.data(), keys_out.data(), items, segments, begin,
                                                  end, exec.cuda_stream());
      });
    }
    Kokkos::deep_copy(exec, cols, keys_out);
  }
};

}  // namespace bitgraph::detail
