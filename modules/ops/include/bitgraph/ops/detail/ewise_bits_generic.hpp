// The portable core of the element-wise add / mult on B2SR matrices (ops/ewise_matrix.hpp): C<M, replace> =
// (C OR) (A ∪ B) or (A ∩ B). Two passes of the tile-row merge of b2sr_merge_generic.hpp: A with B unmasked
// (OR or AND of the tiles) gives T, then T is merged into C under the mask; one pass when C is simply T.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/ops/detail/b2sr_merge_generic.hpp"

namespace bitgraph::detail {

template <class ExecSpace>
struct ewise_bits_generic {
  using mem = memory_space_t<ExecSpace>;
  using b2sr = b2sr_matrix<mem>;

  /// C<M, replace> = (C OR) T with T = A ∪ B, or A ∩ B under `intersect`; Aᵀ / Bᵀ when asked. C keeps its n, tile
  /// dimension and bit order and gets new arrays. Fences `exec`.
  static void run(op_algorithm, const ExecSpace& exec, b2sr& c, const b2sr_mask_args<mem>& mask, bool accum,
                  bool intersect, const b2sr& a, const b2sr& b, bool transpose_a, bool transpose_b) {
    dispatch_tile_dim(a.tile_dim, [&](auto td) {
      combine<decltype(td)::value>(exec, c, mask, accum, intersect, a, b, transpose_a, transpose_b);
    });
    exec.fence();
  }

  template <int T>
  static void combine(const ExecSpace& exec, b2sr& c, const b2sr_mask_args<mem>& mask, bool accum, bool intersect,
                      const b2sr& a_in, const b2sr& b_in, bool transpose_a, bool transpose_b) {
    // Copies first: C may be A or B. A transpose flips the packing order only (the merge reads either).
    const b2sr a = transpose_a ? bitgraph::transpose(exec, a_in, false) : a_in;
    const b2sr b = transpose_b ? bitgraph::transpose(exec, b_in, false) : b_in;
    const b2sr_mask_args<mem> unmasked{};
    const char* what = intersect ? "ewise_mult" : "ewise_add";
    // A merged into B with OR keeps both (the union); AND keeps the tiles both have.
    if (!mask.masked && !accum) {
      c = b2sr_merge<T>(exec, a, b, unmasked, true, c.order, what, intersect);
      return;
    }
    const b2sr t = b2sr_merge<T>(exec, a, b, unmasked, true, bit_order::row_major, what, intersect);
    c = b2sr_merge<T>(exec, b2sr_or_empty(exec, c), t, mask, accum, c.order, what);
  }
};

template <class ExecSpace>
struct ewise_bits_impl : ewise_bits_generic<ExecSpace> {};

}  // namespace bitgraph::detail
