// The tile-row merge of two B2SR matrices under a B2SR mask, shared by the Boolean mxm (mxm_bits_generic.hpp)
// and the element-wise add / mult on bits (ewise_bits_generic.hpp): C<M, replace> = (C OR) T, or C AND T.
// One thread per tile row walks both operands' tiles in column order (count, scan, fill) and drops empty tiles.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/b2sr.hpp"

namespace bitgraph::detail {

/// A B2SR mask reduced to what the kernels need; `masked` false: every position is allowed.
template <class Mem>
struct b2sr_mask_args {
  b2sr_matrix<Mem> m;
  bool masked = false;
  bool complement = false;
  bool replace = false;
};

/// Tile row I of C<M, replace> = accum(C, T) on B2SR: walks C's and T's tile rows in column order (a tile
/// absent from both stays empty whatever the mask) with a cursor on the mask's; per tile row r the GraphBLAS
/// rule on bits: z = allowed ? (accum ? c | t : t) : (replace ? 0 : c), with c & t for c | t under `intersect`
/// (the element-wise mult). Empty result tiles are dropped.
/// `Fill` false counts the kept tiles into `count(I)`; true writes them at `out_ptr(I)` in the output order.
template <bool Fill, class Mem, int T>
struct b2sr_merge_tiles {
  using word = tile_word_t<T>;
  using words_view = Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<const offset_t*, Mem> cptr;
  Kokkos::View<const vertex_t*, Mem> ccol;
  words_view cw;
  Kokkos::View<const offset_t*, Mem> tptr;
  Kokkos::View<const vertex_t*, Mem> tcol;
  words_view tw;
  Kokkos::View<const offset_t*, Mem> mptr;  // read only when masked
  Kokkos::View<const vertex_t*, Mem> mcol;
  words_view mw;
  bool crow, trow, mrow, masked, complement, replace, accum, intersect;
  Kokkos::View<offset_t*, Mem> count;
  Kokkos::View<const offset_t*, Mem> out_ptr;
  Kokkos::View<vertex_t*, Mem> out_col;
  Kokkos::View<word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> ow;
  bool out_row;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t ti) const {
    constexpr std::uint64_t full = T == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << (T % 64)) - 1;
    offset_t pc = cptr(ti), pt = tptr(ti), pm = masked ? mptr(ti) : 0;
    const offset_t ce = cptr(ti + 1), te = tptr(ti + 1), me = masked ? mptr(ti + 1) : 0;
    offset_t n = 0;
    while (pc < ce || pt < te) {
      const vertex_t cj = pc < ce ? ccol(pc) : invalid_vertex, tj = pt < te ? tcol(pt) : invalid_vertex;
      const vertex_t j = cj < tj ? cj : tj;
      const bool has_c = cj == j, has_t = tj == j;
      // Unmasked, an intersection is empty where one side has no tile: skip the T rows.
      if (intersect && !masked && !(has_c && has_t)) {
        if (has_c) ++pc;
        if (has_t) ++pt;
        continue;
      }
      while (pm < me && mcol(pm) < j) ++pm;
      const bool has_m = pm < me && mcol(pm) == j;
      std::uint64_t z[T];
      bool any = false;
      for (int r = 0; r < T; ++r) {
        const std::uint64_t old = has_c ? tile_row_bits<T>(cw, pc, r, crow) : 0;
        const std::uint64_t t = has_t ? tile_row_bits<T>(tw, pt, r, trow) : 0;
        const std::uint64_t mb = has_m ? tile_row_bits<T>(mw, pm, r, mrow) : 0;
        const std::uint64_t allowed = !masked ? full : (complement ? ~mb & full : mb);
        const std::uint64_t zt = intersect ? (old & t) : (accum ? (old | t) : t);
        z[r] = (allowed & zt) | (~allowed & (replace ? 0 : old));
        any |= z[r] != 0;
      }
      if (any) {
        if constexpr (Fill) {
          const offset_t q = out_ptr(ti) + n;
          out_col(q) = j;
          for (int w = 0; w < T; ++w) {
            if (out_row) {
              ow(q * T + w) = static_cast<word>(z[w]);
            } else {
              std::uint64_t col = 0;
              for (int r = 0; r < T; ++r) col |= ((z[r] >> w) & 1u) << r;
              ow(q * T + w) = static_cast<word>(col);
            }
          }
        }
        ++n;
      }
      if (has_c) ++pc;
      if (has_t) ++pt;
    }
    if constexpr (!Fill) count(ti) = n;
  }
};

/// `c`, or an empty matrix of its shape when it has no tile_row_ptr (default-constructed).
template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> b2sr_or_empty(const ExecSpace&,
                                                     const b2sr_matrix<memory_space_t<ExecSpace>>& c) {
  using mem = memory_space_t<ExecSpace>;
  if (c.tile_row_ptr.extent(0) != 0) return c;
  b2sr_matrix<mem> e = c;
  e.n_tile_rows = static_cast<vertex_t>(ceil_div<std::uint64_t>(c.n, c.tile_dim));
  e.n_tiles = 0;
  e.nnz = 0;
  e.tile_row_ptr =
      allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(e.n_tile_rows) + 1);
  return e;
}

/// C<M, replace> = (C OR) T, or (C AND T) with `intersect`, on B2SR matrices of one n and tile dimension T (any
/// packing orders), as a new matrix in `order`. `what` names the caller in an allocation error. Fences `exec`
/// (the scan's total is read back).
template <int T, class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> b2sr_merge(const ExecSpace& exec,
                                                  const b2sr_matrix<memory_space_t<ExecSpace>>& c,
                                                  const b2sr_matrix<memory_space_t<ExecSpace>>& t,
                                                  const b2sr_mask_args<memory_space_t<ExecSpace>>& mask, bool accum,
                                                  bit_order order, const char* what, bool intersect = false) {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  using rows = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
  const vertex_t ntr = c.n_tile_rows;
  b2sr_matrix<mem> z;
  z.n = c.n;
  z.tile_dim = T;
  z.order = order;
  z.n_tile_rows = ntr;
  z.kind = graph_kind::directed;
  z.tile_row_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);
  using count_pass = b2sr_merge_tiles<false, mem, T>;
  using fill_pass = b2sr_merge_tiles<true, mem, T>;
  auto make = [&](auto pass, auto out_col, auto ow) {
    return decltype(pass){c.tile_row_ptr,
                          c.tile_col_idx,
                          c.template tile_words<word>(),
                          t.tile_row_ptr,
                          t.tile_col_idx,
                          t.template tile_words<word>(),
                          mask.m.tile_row_ptr,
                          mask.m.tile_col_idx,
                          mask.m.template tile_words<word>(),
                          c.order == bit_order::row_major,
                          t.order == bit_order::row_major,
                          mask.m.order == bit_order::row_major,
                          mask.masked,
                          mask.complement,
                          mask.replace,
                          accum,
                          intersect,
                          z.tile_row_ptr,
                          z.tile_row_ptr,
                          out_col,
                          ow,
                          order == bit_order::row_major};
  };
  Kokkos::parallel_for("bitgraph::b2sr_merge::count", rows(exec, 0, ntr),
                       make(count_pass{}, Kokkos::View<vertex_t*, mem>{},
                            Kokkos::View<word*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>{}));
  z.n_tiles = exclusive_scan(exec, z.tile_row_ptr, "bitgraph::b2sr_merge::scan");
  z.tile_col_idx = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::b2sr::tile_col_idx", z.n_tiles, false);
  z.tile_bits = allocate_view<Kokkos::View<std::uint8_t*, mem>>(
      "bitgraph::b2sr::tile_bits", checked_bytes<word>(z.n_tiles * T, std::string(what) + " result tiles"), false);
  Kokkos::parallel_for("bitgraph::b2sr_merge::fill", rows(exec, 0, ntr),
                       make(fill_pass{}, z.tile_col_idx, z.template tile_words<word>()));
  z.nnz = count_tile_bits<ExecSpace, T>(exec, z, "bitgraph::b2sr_merge::nnz");
  z.longest_tile_row = longest_tile_row(exec, z);
  return z;
}

}  // namespace bitgraph::detail
