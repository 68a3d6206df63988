// CUDA leaf of l2_resident_scope: an access policy window that marks the buffer persisting in L2 for the kernels
// of the scope's stream, with the device's persisting set-aside raised to hold it (or as much of it as the device
// allows: the window's hit ratio is the share held; below `min_hit_ratio` no window). Every failure (MIG and MPS refuse
// the set-aside, old drivers) leaves the hint off and clears the runtime's last error, so that a hint never surfaces as
// a later kernel's error. The scope's end waits for the stream and restores the stream's window; the last scope of the
// device to end resets persisting lines to normal and restores the set-aside.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>

#include "bitgraph/core/detail/l2_resident_generic.hpp"

namespace bitgraph::detail {

template <>
struct l2_resident_impl<Kokkos::Cuda> {
  /// Smaller buffers stay in L2 on their own.
  static constexpr std::size_t min_bytes = std::size_t(1) << 20;
  /// The least share of the buffer the set-aside must hold: a window holding a small share of a grid's w was
  /// slower than none (docs/PERFORMANCE.md), one holding nearly all of a power-law graph's w much faster.
  static constexpr double min_hit_ratio = 0.5;

  struct state {
    bool active = false;
    int device = 0;
    cudaStreamAttrValue old_window{};
  };

  /// The set-aside is the device's, not the stream's: scopes on other streams (other host threads) may overlap in any
  /// order, so the first active scope of a device records the limit it found, and only the last one to end resets the
  /// persisting lines and puts that limit back (a scope restoring the limit it saw could leave another's raise behind).
  struct device_aside {
    int scopes = 0;
    std::size_t original_limit = 0;
  };
  struct shared_asides {
    std::mutex lock;
    std::map<int, device_aside> devices;
  };
  static shared_asides& asides() {
    static shared_asides a;
    return a;
  }

  static state begin(const Kokkos::Cuda& exec, const void* p, std::size_t bytes) {
    state s;
    if (p == nullptr || bytes < min_bytes) return s;
    const cudaStream_t stream = exec.cuda_stream();
    int dev = 0, max_persist = 0, max_window = 0;
    std::size_t old_limit = 0;
    const auto ok = [](cudaError_t e) {
      if (e == cudaSuccess) return true;
      (void)cudaGetLastError();
      return false;
    };
    if (!ok(cudaGetDevice(&dev)) ||
        !ok(cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, dev)) ||
        !ok(cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, dev)))
      return s;
    // The window covers what the device allows; the set-aside holds a fraction of it (the hit ratio).
    const std::size_t window = std::min(bytes, std::size_t(max_window));
    const std::size_t aside = std::min(window, std::size_t(max_persist));
    if (window == 0 || double(aside) < min_hit_ratio * double(bytes)) return s;
    shared_asides& shared = asides();
    const std::lock_guard<std::mutex> hold(shared.lock);
    device_aside& d = shared.devices[dev];
    if (!ok(cudaDeviceGetLimit(&old_limit, cudaLimitPersistingL2CacheSize))) return s;
    if (old_limit < aside && !ok(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, aside))) return s;
    // A stream without a window of its own (the legacy default stream answers with an error) gets none back.
    if (!ok(cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &s.old_window)))
      s.old_window = cudaStreamAttrValue{};
    cudaStreamAttrValue w{};
    w.accessPolicyWindow.base_ptr = const_cast<void*>(p);
    w.accessPolicyWindow.num_bytes = window;
    w.accessPolicyWindow.hitRatio = float(double(aside) / double(window));
    w.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    w.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    if (!ok(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &w))) {
      (void)ok(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, old_limit));
      return s;
    }
    if (d.scopes++ == 0) d.original_limit = old_limit;
    s.active = true;
    s.device = dev;
    return s;
  }

  static void end(const Kokkos::Cuda& exec, state& s) noexcept {
    if (!s.active) return;
    const cudaStream_t stream = exec.cuda_stream();
    (void)cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &s.old_window);
    (void)cudaStreamSynchronize(stream);  // the reset must not strip lines from kernels still running
    shared_asides& shared = asides();
    const std::lock_guard<std::mutex> hold(shared.lock);
    device_aside& d = shared.devices[s.device];
    if (--d.scopes == 0) {
      (void)cudaCtxResetPersistingL2Cache();
      (void)cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, d.original_limit);
    }
    (void)cudaGetLastError();
    s.active = false;
  }
};

}  // namespace bitgraph::detail
