// CUDA specialisation of SpMSpV: the radix-sort merge runs on CUB's DeviceRadixSort (key-only in
// structure-only mode); gather and segmented reduction are the portable kernels.
#pragma once

#include <Kokkos_Core.hpp>
#include <cub/device/device_radix_sort.cuh>

#include <string>

#include "bitgraph/core/error.hpp"
#include "bitgraph/ops/spmspv.hpp"

namespace bitgraph::detail {

template <class S>
struct spmspv_impl<Kokkos::Cuda, S> {
  using mem = Kokkos::CudaSpace;
  using T = typename S::value_type;

  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw error(std::string("bitgraph::spmspv: CUB ") + what + " failed: " + cudaGetErrorString(e));
  }

  static void run(const Kokkos::Cuda& exec, sparse_vector<T, mem>& y, Kokkos::View<const std::uint32_t*, mem> mbits,
                  bool masked, bool complement, const csr_graph<mem>& a, const sparse_vector<T, mem>& x,
                  const spmspv_options& opts, spmspv_merge merge) {
    if (opts.algorithm == op_algorithm::cuda_mma) {
      throw unsupported_error("bitgraph::spmspv: there is no tensor-core SpMSpV (use generic or cuda-warp)");
    }
    const bool cub = opts.algorithm == op_algorithm::cuda_warp ||
                     (opts.algorithm == op_algorithm::automatic && merge == spmspv_merge::radix_sort);
    if (!cub || merge == spmspv_merge::no_sort || merge == spmspv_merge::merge_sort) {
      if (opts.algorithm == op_algorithm::cuda_warp && merge != spmspv_merge::radix_sort) {
        throw unsupported_error(std::string("bitgraph::spmspv: the CUDA path is the CUB radix sort; merge '") +
                                std::string(to_string(merge)) + "' is portable only (use 'generic')");
      }
      spmspv_generic<Kokkos::Cuda, S>::run(exec, y, mbits, masked, complement, a, x, opts, merge);
      return;
    }
    const bool with_values = !opts.structure_only;
    Kokkos::View<std::uint32_t*, mem> keys;
    Kokkos::View<T*, mem> vals;
    const offset_t m = spmspv_gather<Kokkos::Cuda, S>(exec, a, x, mbits, masked, complement, with_values, keys, vals);
    const int bits = masked ? 32 : key_bits(a.n > 0 ? a.n - 1 : 0);
    if (m > 1) {
      auto keys_out = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::spmspv::cub_keys", m, false);
      Kokkos::View<T*, mem> vals_out;
      if (with_values) vals_out = allocate_view<Kokkos::View<T*, mem>>("bitgraph::spmspv::cub_vals", m, false);
      std::size_t temp = 0;
      if (with_values) {
        check(cub::DeviceRadixSort::SortPairs(nullptr, temp, keys.data(), keys_out.data(), vals.data(), vals_out.data(),
                                              static_cast<std::int64_t>(m), 0, bits, exec.cuda_stream()),
              "SortPairs size");
      } else {
        check(cub::DeviceRadixSort::SortKeys(nullptr, temp, keys.data(), keys_out.data(), static_cast<std::int64_t>(m), 0,
                                             bits, exec.cuda_stream()),
              "SortKeys size");
      }
      auto scratch = allocate_view<Kokkos::View<char*, mem>>("bitgraph::spmspv::cub_temp", temp + 1, false);
      if (with_values) {
        check(cub::DeviceRadixSort::SortPairs(scratch.data(), temp, keys.data(), keys_out.data(), vals.data(),
                                              vals_out.data(), static_cast<std::int64_t>(m), 0, bits, exec.cuda_stream()),
              "SortPairs");
        vals = vals_out;
      } else {
        check(cub::DeviceRadixSort::SortKeys(scratch.data(), temp, keys.data(), keys_out.data(),
                                             static_cast<std::int64_t>(m), 0, bits, exec.cuda_stream()),
              "SortKeys");
      }
      keys = keys_out;
    }
    spmspv_reduce_sorted<Kokkos::Cuda, S>(exec, a.n, m, keys, vals, with_values, y);
  }
};

}  // namespace bitgraph::detail
