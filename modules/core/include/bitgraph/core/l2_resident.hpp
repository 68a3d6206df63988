// A cache-residency hint for a buffer that the kernels of a scope gather at random (PageRank's scaled ranks):
// on CUDA devices with L2 persistence it stays in L2 while column ids stream past it; elsewhere nothing happens.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <type_traits>

#include "bitgraph/backends/l2_resident.hpp"

namespace bitgraph {

/// While it lives, kernels on `exec`'s stream keep `view`'s bytes resident in the last-level cache where the space
/// can (CUDA, compute capability 8.0+: an access policy window over the buffer, the device's persisting L2
/// set-aside raised to hold it or as much as the device allows; only buffers of 1 MiB or more of which the set-aside
/// holds at least half). A hint: it never
/// throws, and where it cannot act (host spaces, MIG or MPS, a buffer too large) nothing changes. Its end waits
/// for `exec` (fences it) when the hint was active and restores the stream's window; the last scope of the device to
/// end (scopes on other streams, e.g. other host threads, may overlap) resets the persisting lines and restores the
/// set-aside. Kernels of other streams may run with less L2 meanwhile. Not copyable.
template <class ExecSpace>
class l2_resident_scope {
 public:
  template <class View>
  l2_resident_scope(const ExecSpace& exec, const View& view)
      : exec_(exec),
        state_(detail::l2_resident_impl<ExecSpace>::begin(exec, view.data(),
                                                          view.span() * sizeof(typename View::value_type))) {
    static_assert(Kokkos::is_view<View>::value, "l2_resident_scope takes a Kokkos::View");
  }
  ~l2_resident_scope() { detail::l2_resident_impl<ExecSpace>::end(exec_, state_); }
  /// Whether the hint took effect (always false on spaces without a leaf).
  bool active() const noexcept {
    if constexpr (std::is_empty_v<typename detail::l2_resident_impl<ExecSpace>::state>)
      return false;
    else
      return state_.active;
  }
  l2_resident_scope(const l2_resident_scope&) = delete;
  l2_resident_scope& operator=(const l2_resident_scope&) = delete;

 private:
  ExecSpace exec_;
  typename detail::l2_resident_impl<ExecSpace>::state state_;
};

}  // namespace bitgraph
