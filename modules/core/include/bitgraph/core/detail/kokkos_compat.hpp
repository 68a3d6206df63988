// What differs between the Kokkos versions BitGraph supports (3.4.01 to 4.6): math functions callable in
// kernels, and the signature of a reduction functor's join().
#pragma once

#include <Kokkos_Core.hpp>

// A reduction functor's join(): Kokkos 3.4 calls it on volatile references; Kokkos 4 rejects a join that
// takes them (plain references work since 3.7). Write `void join(BITGRAPH_JOIN_VOLATILE value_type& dst,
// const BITGRAPH_JOIN_VOLATILE value_type& src) const`, with a body valid either way. A reducer for nested (team or
// vector) reductions also needs a plain join under Kokkos 3.4: its lane shuffles call join on plain locals, and a
// volatile join alone keeps them in local memory (multi_bfs_bits_or, docs/PERFORMANCE.md).
#if KOKKOS_VERSION >= 30700
#define BITGRAPH_JOIN_VOLATILE
#else
#define BITGRAPH_JOIN_VOLATILE volatile
#endif

namespace bitgraph::detail {

// Kokkos 3.4 has them only as Kokkos::Experimental::*; Kokkos 4 removed those names (Kokkos::* since 3.7).
#if KOKKOS_VERSION >= 30700
template <class T>
KOKKOS_INLINE_FUNCTION T fabs(T x) {
  return Kokkos::fabs(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T sqrt(T x) {
  return Kokkos::sqrt(x);
}
#else
template <class T>
KOKKOS_INLINE_FUNCTION T fabs(T x) {
  return Kokkos::Experimental::fabs(x);
}
template <class T>
KOKKOS_INLINE_FUNCTION T sqrt(T x) {
  return Kokkos::Experimental::sqrt(x);
}
#endif

}  // namespace bitgraph::detail
