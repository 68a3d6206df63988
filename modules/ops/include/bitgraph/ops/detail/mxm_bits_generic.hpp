// The portable core of the GraphBLAS mxm on B2SR operands (ops/mxm.hpp): C<M, replace> = accum(C, A·B) with a
// Boolean B2SR output or a counting (PLUS_PAIR) CSR output. A plain mask runs the masked dot-product kernel of
// mxm_generic.hpp on the mask's tiles only (bits sink or count sink); no mask or a complemented one runs the
// tile Gustavson (Boolean SpGEMM) first, whose pattern the count sink then fills. The result is merged into C
// by the GraphBLAS rule: tile by tile for B2SR (b2sr_merge_generic.hpp), by the CSR mxm's merge (detail::mxm_csr_merge)
// for counts.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/b2sr_merge_generic.hpp"
#include "bitgraph/ops/detail/mxm_csr_generic.hpp"
#include "bitgraph/ops/detail/mxm_generic.hpp"
#include "bitgraph/ops/options.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph::detail {

// ------------------------------------------------------------------------------------ sinks

/// Adds each popcount to the count slot of its mask entry: slot off(tile, row) + rank of the column in the
/// mask row. One thread (or warp) owns a mask tile, so its slots need no atomics.
template <class Mem, int T>
struct masked_count_sink {
  Kokkos::View<const offset_t*, Mem> off;
  Kokkos::View<std::uint32_t*, Mem> cnt;
  KOKKOS_INLINE_FUNCTION void add(offset_t km, int r, int, int q, std::uint64_t v) const {
    cnt(off(km * T + r) + q) += static_cast<std::uint32_t>(v);
  }
};

/// Sets bit (r, c) of the product tile (row-major words, one per row) when a common tile contributes.
template <class Mem, int T>
struct masked_bits_sink {
  using word = tile_word_t<T>;
  Kokkos::View<word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> out;
  KOKKOS_INLINE_FUNCTION void add(offset_t km, int r, int c, int, std::uint64_t v) const {
    if (v) out(km * T + r) |= static_cast<word>(word(1) << c);
  }
};

/// The masked dot kernel with a sink that writes, one thread per tile of the mask.
template <class Mem, int T, class Sink>
struct masked_dot_for {
  masked_dot_operands<Mem, T> dot;
  Sink sink;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t km) const { dot.tile(km, sink); }
};

/// The portable masked dot step: fills a product tile per mask tile (`bits`) or a count per mask entry
/// (`counts`). A backend swaps this policy for its own kernels (see the CUDA leaf).
template <class ExecSpace>
struct masked_dot_generic {
  using mem = memory_space_t<ExecSpace>;
  using tiles = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;

  /// `out` (m.n_tiles · T row-major words, zeroed): bit (r, c) of tile k set when (A·B)(r, c) ≠ 0 at a set bit of
  /// mask tile k.
  static void bits(const ExecSpace& exec, const b2sr_matrix<mem>& m, const b2sr_matrix<mem>& a,
                   const b2sr_matrix<mem>& bt, const Kokkos::View<std::uint8_t*, mem>& out) {
    dispatch_tile_dim(m.tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      using word = tile_word_t<T>;
      auto mrow_of = tile_row_of_tiles(exec, m);
      Kokkos::View<word*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> ow(reinterpret_cast<word*>(out.data()),
                                                                           m.n_tiles * T);
      Kokkos::parallel_for(
          "bitgraph::mxm_bits::dot_bits", tiles(exec, 0, m.n_tiles),
          masked_dot_for<mem, T, masked_bits_sink<mem, T>>{make_masked_dot<T, mem>(mrow_of, m, a, bt), {ow}});
    });
  }

  /// `cnt(off(k · T + r) + q)` (zeroed) += (A·B)(i, j) for the q-th set bit of row r of mask tile k.
  static void counts(const ExecSpace& exec, const b2sr_matrix<mem>& m, const b2sr_matrix<mem>& a,
                     const b2sr_matrix<mem>& bt, const Kokkos::View<const offset_t*, mem>& off,
                     const Kokkos::View<std::uint32_t*, mem>& cnt) {
    dispatch_tile_dim(m.tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      auto mrow_of = tile_row_of_tiles(exec, m);
      Kokkos::parallel_for(
          "bitgraph::mxm_bits::dot_counts", tiles(exec, 0, m.n_tiles),
          masked_dot_for<mem, T, masked_count_sink<mem, T>>{make_masked_dot<T, mem>(mrow_of, m, a, bt), {off, cnt}});
    });
  }
};

// ------------------------------------------------------------------------- count slots and compaction

/// The mask entries of row i (one slot each): Σ over the tiles of its tile row of popcount(row i mod T).
template <class Mem, int T>
struct mask_row_slots {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> mptr;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> mw;
  bool mrow;
  Kokkos::View<offset_t*, Mem> slots;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    const vertex_t ti = i / T;
    const int r = static_cast<int>(i % T);
    offset_t s = 0;
    for (offset_t k = mptr(ti); k < mptr(ti + 1); ++k) s += popcount(tile_row_bits<T>(mw, k, r, mrow));
    slots(i) = s;
  }
};

/// Row i's slots in column order (its tile row's tiles ascend, bits ascend within a tile row): the first slot
/// of every (mask tile, row) in `off` and the column of every slot in `slot_col`.
template <class Mem, int T>
struct mask_slot_offsets {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> mptr;
  Kokkos::View<const vertex_t*, Mem> mcol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> mw;
  bool mrow;
  Kokkos::View<const offset_t*, Mem> slot_ptr;
  Kokkos::View<offset_t*, Mem> off;
  Kokkos::View<vertex_t*, Mem> slot_col;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    const vertex_t ti = i / T;
    const int r = static_cast<int>(i % T);
    offset_t s = slot_ptr(i);
    for (offset_t k = mptr(ti); k < mptr(ti + 1); ++k) {
      off(k * T + r) = s;
      std::uint64_t bits = tile_row_bits<T>(mw, k, r, mrow);
      while (bits) {
        slot_col(s++) = mcol(k) * T + static_cast<vertex_t>(count_trailing_zeros(bits));
        bits &= bits - 1;
      }
    }
  }
};

/// Row i of the counted product without its zero counts (an entry exactly where some k gives A(i,k) and
/// B(k,j)): `Fill` false counts them into `count(i)`, true writes columns and values at `out_ptr(i)`.
template <bool Fill, class V, class Mem>
struct compact_counts {
  Kokkos::View<const offset_t*, Mem> slot_ptr;
  Kokkos::View<const vertex_t*, Mem> slot_col;
  Kokkos::View<const std::uint32_t*, Mem> cnt;
  Kokkos::View<offset_t*, Mem> count;
  Kokkos::View<const offset_t*, Mem> out_ptr;
  Kokkos::View<vertex_t*, Mem> out_col;
  Kokkos::View<V*, Mem> out_val;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    offset_t n = 0;
    const offset_t base = Fill ? out_ptr(i) : 0;
    for (offset_t s = slot_ptr(i); s < slot_ptr(i + 1); ++s) {
      if (cnt(s) == 0) continue;
      if constexpr (Fill) {
        out_col(base + n) = slot_col(s);
        out_val(base + n) = static_cast<V>(cnt(s));
      }
      ++n;
    }
    if constexpr (!Fill) count(i) = n;
  }
};

// ------------------------------------------------------------------------------------ the core

/// The GraphBLAS mxm on B2SR operands. `Dot` is the masked dot step (`masked_dot_generic` here; a backend
/// leaf instantiates the same core with its own).
template <class ExecSpace, class Dot = masked_dot_generic<ExecSpace>>
struct mxm_bits_generic {
  using mem = memory_space_t<ExecSpace>;
  using rows = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
  using b2sr = b2sr_matrix<mem>;

  /// `dot_runs`: whether the call runs the masked dot kernel (Boolean with a plain mask, or counting);
  /// `warp_shape`: whether every operand it reads is 32 x 32 row-major. Only a backend offers more.
  static path_offer offer(bool /*dot_runs*/, bool /*warp_shape*/) {
    return path_offer{}.refuse(op_algorithm::cuda_mma, "there is no tensor-core kernel for the B2SR mxm");
  }

  /// Boolean: C<M, replace> = (C OR) A·B, C keeping its tile dimension and order. Fences `exec`.
  static void run(op_algorithm, const ExecSpace& exec, b2sr& c, const b2sr_mask_args<mem>& mask, bool accum,
                  const b2sr& a, const b2sr& b, bool transpose_a, bool transpose_b) {
    dispatch_tile_dim(a.tile_dim, [&](auto td) {
      boolean<decltype(td)::value>(exec, c, mask, accum, a, b, transpose_a, transpose_b);
    });
    exec.fence();
  }

  /// Counting: C<M, replace> = accum(C, T), T(i, j) = |{k : A(i, k) ∧ B(k, j)}| where it is > 0. `pmask` is the
  /// plain mask as B2SR (read when `margs` is a mask without complement); `margs` drives the merge. Fences `exec`.
  template <class V, class Accum>
  static void run(op_algorithm, const ExecSpace& exec, csr_matrix<V, mem>& c, const b2sr& pmask,
                  const csr_mask_args<mem>& margs, const Accum& acc, const b2sr& a, const b2sr& b, bool transpose_a,
                  bool transpose_b) {
    dispatch_tile_dim(a.tile_dim, [&](auto td) {
      counting<decltype(td)::value>(exec, c, pmask, margs, acc, a, b, transpose_a, transpose_b);
    });
    exec.fence();
  }

  /// Bᵀ for the dot kernel, row-major whatever B's order (a column-major B just flips its packing order).
  static b2sr transposed_rows(const ExecSpace& exec, const b2sr& b) {
    return bitgraph::transpose(exec, b, b.order == bit_order::row_major);
  }

  template <int T>
  static void boolean(const ExecSpace& exec, b2sr& c, const b2sr_mask_args<mem>& mask, bool accum, const b2sr& a_in,
                      const b2sr& b_in, bool transpose_a, bool transpose_b) {
    using word = tile_word_t<T>;
    const b2sr a = transpose_a ? bitgraph::transpose(exec, a_in) : a_in;
    b2sr t;
    if (mask.masked && !mask.complement) {
      // Only the mask's positions are computed: T takes the mask's tile pattern.
      const b2sr bt = transpose_b ? b_in : transposed_rows(exec, b_in);
      t = mask.m;
      t.order = bit_order::row_major;
      t.tile_bits = allocate_view<Kokkos::View<std::uint8_t*, mem>>(
          "bitgraph::mxm_bits::product", checked_bytes<word>(mask.m.n_tiles * T, "mxm product tiles"));
      Dot::bits(exec, mask.m, a, bt, t.tile_bits);
    } else {
      const b2sr b = transpose_b ? bitgraph::transpose(exec, b_in) : b_in;
      t = spgemm_generic<ExecSpace>::template product<T>(exec, a, b);
      if (!mask.masked && !accum && t.order == c.order) {  // C = T
        c = t;
        return;
      }
    }
    c = b2sr_merge<T>(exec, b2sr_or_empty(exec, c), t, mask, accum, c.order, "mxm");
  }

  /// T(i, j) = |{k : A(i, k) ∧ B(k, j)}| at the set bits of the pattern `p` whose count is not 0, as CSR.
  template <int T, class V>
  static csr_matrix<V, mem> count_product(const ExecSpace& exec, const b2sr& p, const b2sr& a, const b2sr& bt) {
    using word = tile_word_t<T>;
    using mat = csr_matrix<V, mem>;
    const vertex_t n = p.n;
    const bool prow = p.order == bit_order::row_major;
    auto slot_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::mxm_bits::slot_ptr", offset_t(n) + 1);
    Kokkos::parallel_for("bitgraph::mxm_bits::slots", rows(exec, 0, n),
                         mask_row_slots<mem, T>{p.tile_row_ptr, p.template tile_words<word>(), prow, slot_ptr});
    const offset_t nslots = exclusive_scan(exec, slot_ptr, "bitgraph::mxm_bits::slot_scan");
    auto off = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::mxm_bits::offsets", p.n_tiles * T);
    auto slot_col = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::mxm_bits::slot_col", nslots, false);
    Kokkos::parallel_for("bitgraph::mxm_bits::slot_offsets", rows(exec, 0, n),
                         mask_slot_offsets<mem, T>{p.tile_row_ptr, p.tile_col_idx, p.template tile_words<word>(), prow,
                                                   slot_ptr, off, slot_col});
    auto cnt = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::mxm_bits::counts", nslots);
    Dot::counts(exec, p, a, bt, off, cnt);
    mat t;
    t.n_rows = n;
    t.n_cols = n;
    t.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::mxm_bits::row_ptr", offset_t(n) + 1);
    Kokkos::parallel_for("bitgraph::mxm_bits::compact_count", rows(exec, 0, n),
                         compact_counts<false, V, mem>{slot_ptr, slot_col, cnt, t.row_ptr, {}, {}, {}});
    t.nnz = exclusive_scan(exec, t.row_ptr, "bitgraph::mxm_bits::compact_scan");
    t.col_idx = allocate_view<typename mat::indices_view>("bitgraph::mxm_bits::col_idx", t.nnz, false);
    t.values = allocate_view<typename mat::values_view>("bitgraph::mxm_bits::values", t.nnz, false);
    Kokkos::parallel_for("bitgraph::mxm_bits::compact_fill", rows(exec, 0, n),
                         compact_counts<true, V, mem>{slot_ptr, slot_col, cnt, {}, t.row_ptr, t.col_idx, t.values});
    return t;
  }

  template <int T, class V, class Accum>
  static void counting(const ExecSpace& exec, csr_matrix<V, mem>& c, const b2sr& pmask, const csr_mask_args<mem>& margs,
                       const Accum& acc, const b2sr& a_in, const b2sr& b_in, bool transpose_a, bool transpose_b) {
    using mat = csr_matrix<V, mem>;
    const b2sr a = transpose_a ? bitgraph::transpose(exec, a_in) : a_in;
    const b2sr bt = transpose_b ? b_in : transposed_rows(exec, b_in);
    const bool plain = margs.masked && !margs.complement;
    // A plain mask is the pattern whose counts are computed; otherwise the Boolean product's (no zero counts).
    const b2sr p = plain ? pmask
                         : spgemm_generic<ExecSpace>::template product<T>(
                               exec, a, transpose_b ? bitgraph::transpose(exec, b_in) : b_in);
    const mat t = count_product<T, V>(exec, p, a, bt);

    constexpr bool accumulates = !std::is_same_v<Accum, no_accumulator>;
    // T holds allowed positions only under a plain mask, so C = T without an accumulator when nothing survives.
    if (!accumulates && (!margs.masked || (plain && margs.replace))) {
      c = t;
      return;
    }
    const mat c_old = c.row_ptr.extent(0) != 0 ? c : empty_csr_matrix<V>(exec, c.n_rows, c.n_cols);
    c = merge_into_csr(exec, acc, margs, c_old, t, "bitgraph::mxm_bits");
  }
};

template <class ExecSpace>
struct mxm_bits_impl : mxm_bits_generic<ExecSpace> {};

}  // namespace bitgraph::detail
