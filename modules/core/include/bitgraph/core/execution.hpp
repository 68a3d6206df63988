// Execution-space traits, the kernel-path option shared by all ops, and checked allocation helpers.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <limits>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph {

/// Which implementation of an op runs. `automatic` lets the op choose; the others force one path so
/// that tests can check every path against every other. Asking for a path the execution space does
/// not have (e.g. `cuda_warp` on Serial) throws `unsupported_error`.
enum class op_algorithm : std::uint8_t {
  automatic,  ///< the op's own choice (the fastest path it has for the space and inputs)
  generic,    ///< the portable Kokkos implementation, available on every space
  cuda_warp,  ///< CUDA warp-intrinsic kernels (`__popc`, `__shfl_sync`, `__ballot_sync`)
  cuda_mma,   ///< CUDA binary tensor-core kernels (`mma.sync ... b1 ... and.popc`)
};

/// Name of an `op_algorithm` as used on the command line ("auto", "generic", "cuda-warp", "cuda-mma").
inline std::string_view to_string(op_algorithm a) {
  switch (a) {
    case op_algorithm::automatic:
      return "auto";
    case op_algorithm::generic:
      return "generic";
    case op_algorithm::cuda_warp:
      return "cuda-warp";
    case op_algorithm::cuda_mma:
      return "cuda-mma";
  }
  return "?";
}

/// True for `Kokkos::Cuda` when the CUDA backend is enabled.
template <class ExecSpace>
inline constexpr bool is_cuda_space_v =
#if defined(KOKKOS_ENABLE_CUDA)
    std::is_same_v<ExecSpace, Kokkos::Cuda>;
#else
    false;
#endif

/// True when `ExecSpace` can dereference host memory (Serial, OpenMP, Threads).
template <class ExecSpace>
inline constexpr bool is_host_space_v = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

/// Memory space an execution space allocates in by default.
template <class ExecSpace>
using memory_space_t = typename ExecSpace::memory_space;

/// Host memory that memory of `MemorySpace` is read back into: page-locked for CUDA (a kernel can write it
/// directly, and a small copy into pageable memory would go through a staging buffer), HostSpace otherwise.
template <class MemorySpace>
struct readback_space {
  using type = Kokkos::HostSpace;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct readback_space<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif
template <class MemorySpace>
using readback_space_t = typename readback_space<MemorySpace>::type;

/// Short lowercase name of an execution space ("serial", "openmp", "cuda", ...).
template <class ExecSpace>
std::string_view space_name() {
  if constexpr (std::is_same_v<ExecSpace, Kokkos::Serial>) return "serial";
#if defined(KOKKOS_ENABLE_OPENMP)
  else if constexpr (std::is_same_v<ExecSpace, Kokkos::OpenMP>)
    return "openmp";
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  else if constexpr (std::is_same_v<ExecSpace, Kokkos::Cuda>)
    return "cuda";
#endif
  else
    return ExecSpace::name();
}

namespace detail {

/// Number of bytes of `count` elements of `T`, or `size_error` if that overflows.
template <class T>
std::size_t checked_bytes(std::uint64_t count, const std::string& label) {
  if (count > std::numeric_limits<std::size_t>::max() / sizeof(T)) {
    throw size_error(concat("bitgraph: cannot allocate '", label, "': ", count, " elements of ", sizeof(T),
                            " bytes overflow the address space"));
  }
  return static_cast<std::size_t>(count) * sizeof(T);
}

}  // namespace detail

namespace detail {

/// Builds `View` with `extents` (zero-initialised unless `init` is false), turning Kokkos' allocation failures
/// into `allocation_error` naming the buffer and its `bytes`.
template <class View, class... Extents>
View allocate_with_extents(const std::string& label, std::size_t bytes, bool init, Extents... extents) {
  try {
    if (init) return View(label, extents...);
    return View(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), extents...);
  } catch (const std::bad_alloc& e) {
    throw allocation_error(concat("bitgraph: allocation of '", label, "' (", bytes, " bytes) in ",
                                  View::memory_space::name(), " failed: ", e.what()));
  } catch (const std::runtime_error& e) {
    throw allocation_error(concat("bitgraph: allocation of '", label, "' (", bytes, " bytes) in ",
                                  View::memory_space::name(), " failed: ", e.what()));
  }
}

}  // namespace detail

/// Allocates a 1-D view of `count` elements (zero-initialised unless `init` is false). Converts Kokkos'
/// allocation failures into `allocation_error` naming the buffer and size, so callers never crash on
/// oversized inputs.
template <class View>
View allocate_view(const std::string& label, std::uint64_t count, bool init = true) {
  using value_type = typename View::non_const_value_type;
  const std::size_t bytes = detail::checked_bytes<value_type>(count, label);
  return detail::allocate_with_extents<View>(label, bytes, init, static_cast<std::size_t>(count));
}

/// Allocates a 2-D view of `rows` x `cols` elements, as above (`size_error` when the product overflows).
template <class View>
View allocate_view(const std::string& label, std::uint64_t rows, std::uint64_t cols, bool init) {
  using value_type = typename View::non_const_value_type;
  if (cols != 0 && rows > std::numeric_limits<std::uint64_t>::max() / cols)
    throw size_error(detail::concat("bitgraph: cannot allocate '", label, "': ", rows, " x ", cols,
                                    " elements overflow the address space"));
  const std::size_t bytes = detail::checked_bytes<value_type>(rows * cols, label);
  return detail::allocate_with_extents<View>(label, bytes, init, static_cast<std::size_t>(rows),
                                             static_cast<std::size_t>(cols));
}

/// Reads one element of a view that may live in device memory.
template <class View>
typename View::non_const_value_type read_element(const View& v, std::size_t i) {
  typename View::non_const_value_type out{};
  Kokkos::deep_copy(out, Kokkos::subview(v, i));
  return out;
}

/// Atomic fetch-add on a 64-bit offset. Kokkos 3.4 maps `unsigned long long` to CUDA's native
/// atomicAdd but `unsigned long` (what std::uint64_t is on LP64) to a compare-and-swap loop, which
/// collapses under contention on one address: on the H100 it made a BFS queue counter take 15 s and
/// the BVSS slice count 200 s on kron:22. Every offset atomic goes through here.
KOKKOS_FORCEINLINE_FUNCTION offset_t atomic_fetch_add_offset(offset_t* p, offset_t v) {
  static_assert(sizeof(offset_t) == sizeof(unsigned long long), "offset_t must be 64 bits");
  return static_cast<offset_t>(
      Kokkos::atomic_fetch_add(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
}

namespace detail {

/// The body of `exclusive_scan`: counts(i) becomes the sum of the counts before it.
template <class View>
struct exclusive_scan_functor {
  View c;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i, offset_t& acc, const bool final) const {
    const offset_t v = c(i);
    if (final) c(i) = acc;
    acc += v;
  }
};

/// Replaces `counts` (its last entry 0) by its exclusive prefix sums and returns the total: the scan
/// step of every count / scan / fill construction (CSR and B2SR builds, SpGEMM, select, radix sort).
/// `label` names the kernel for profilers. Fences (the total is read back).
template <class ExecSpace, class View>
offset_t exclusive_scan(const ExecSpace& exec, const View& counts, const char* label = "bitgraph::exclusive_scan") {
  static_assert(std::is_same_v<typename View::non_const_value_type, offset_t>, "scans run over offsets");
  offset_t total = 0;
  Kokkos::parallel_scan(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, counts.extent(0)),
                        exclusive_scan_functor<View>{counts}, total);
  return total;
}

/// The body of `longest_span`.
template <class View>
struct longest_span_functor {
  View ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i, offset_t& m) const {
    const offset_t len = ptr(i + 1) - ptr(i);
    if (len > m) m = len;
  }
};

/// The largest `ptr(i + 1) - ptr(i)` over i < `count` (0 when `count` is 0): the longest row or tile row
/// of a pointer array, which the balanced products decide by. Fences (the maximum is read back).
template <class ExecSpace, class View>
offset_t longest_span(const ExecSpace& exec, const View& ptr, offset_t count,
                      const char* label = "bitgraph::longest_span") {
  offset_t m = 0;
  Kokkos::parallel_reduce(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, count),
                          longest_span_functor<View>{ptr}, Kokkos::Max<offset_t>(m));
  return m;
}

}  // namespace detail

}  // namespace bitgraph
