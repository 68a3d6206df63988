// Output masks for the ops (GraphBLAS semantics: mask, structural complement, replace).
#pragma once

#include "bitgraph/formats/vectors.hpp"

namespace bitgraph {

/// No mask: every output position is written.
struct no_mask {};

/// A vector mask. Position i of the output may be written when bit i of `bits` is set, or, with
/// `complement`, when it is clear (the structural complement ¬m, e.g. "unvisited" in BFS). Positions
/// the mask excludes keep their old value, or are cleared (set to the semiring's identity / bit 0) when
/// `replace` is set.
template <class MemorySpace>
struct vector_mask {
  bitmap<MemorySpace> bits;  ///< the mask bits (length = output length)
  bool complement = false;   ///< use ¬bits
  bool replace = false;      ///< clear excluded positions instead of keeping them
};

/// Builds a mask from a bitmap.
template <class MemorySpace>
vector_mask<MemorySpace> mask_of(const bitmap<MemorySpace>& b, bool complement = false, bool replace = false) {
  return vector_mask<MemorySpace>{b, complement, replace};
}

namespace detail {
template <class M>
inline constexpr bool is_vector_mask_v = false;
template <class Mem>
inline constexpr bool is_vector_mask_v<vector_mask<Mem>> = true;
}  // namespace detail

}  // namespace bitgraph
