// The generic core of `l2_resident_scope` (core/l2_resident.hpp): a cache-residency hint that portable code
// cannot act on, so it does nothing. A backend leaf specialises `l2_resident_impl` (CUDA: L2 persistence).
#pragma once

#include <cstddef>

namespace bitgraph::detail {

template <class ExecSpace>
struct l2_resident_generic {
  struct state {};
  static state begin(const ExecSpace&, const void*, std::size_t) { return {}; }
  static void end(const ExecSpace&, state&) noexcept {}
};

/// Dispatch point: a backend leaf specialises it for its execution space.
template <class ExecSpace>
struct l2_resident_impl : l2_resident_generic<ExecSpace> {};

}  // namespace bitgraph::detail
