// The portable matrix-vector products, primary templates of the mxv dispatch: B2SR pull (row-based, one
// vector lane per row, early exit), B2SR push (column-based scatter with atomics into a temporary, then the
// GraphBLAS merge) and the CSR pull over edge weights. Backend leaves specialise `b2sr_mxv_impl` /
// `csr_mxv_impl` and hand the paths they do not run back to these.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/launch.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/hybrid.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/options.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph::detail {

/// The decision a face makes once for a B2SR product: the kernel path, and whether it scatters (push)
/// over the rows of `matrix` (A or A^T) or gathers (pull) them.
template <class MemorySpace>
struct mxv_plan {
  op_algorithm path = op_algorithm::generic;
  bool push = false;
  bool by_tiles = false;  ///< a pull whose work is split by tiles (mxv_balance::by_tiles)
  const b2sr_matrix<MemorySpace>* matrix = nullptr;
};

/// Whether a pull over a matrix of `n_tiles` tiles of dimension `tile_dim` in `n_tile_rows` tile rows, the
/// longest holding `longest`, should split its work by tiles on a space that runs `concurrency` threads at
/// once. By rows, one group of min(T, 32) lanes walks each tile row, so the kernel lasts at least as long as
/// the longest row: rows lose when that row is more than twice the run each group would get if the tiles
/// were shared evenly among the groups the space holds (hub rows of power-law graphs, or too few tile rows
/// to fill a GPU); rows under 256 tiles never pay for the atomics. On a GPU-wide space (4,096 threads or
/// more) rows also lose when the mean tile row is long (32 tiles or more) and the semiring cannot stop a row
/// early: a row's walk is a chain of dependent loads, while runs of tiles keep several in flight per lane.
inline bool pull_by_tiles(offset_t longest, offset_t n_tiles, vertex_t n_tile_rows, int tile_dim,
                          std::int64_t concurrency, bool early_exit) {
  if (n_tiles == 0 || n_tile_rows == 0) return false;
  const double groups = std::max(1.0, double(concurrency) / double(std::min(tile_dim, 32)));
  if (longest >= 256 && double(longest) > 2.0 * double(n_tiles) / groups) return true;
  return concurrency >= 4096 && !early_exit && double(n_tiles) >= 32.0 * double(n_tile_rows);
}

// ------------------------------------------------------------------------------- B2SR operands

/// What every B2SR product functor reads: A's tiles and the input vector (`xbits` for a bitmap input,
/// `xval` for a dense one; the other view stays empty).
template <class Mem, int T, class S>
struct b2sr_operands {
  using word = tile_word_t<T>;
  using value_type = typename S::value_type;
  bool row_major = true;
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<const vertex_t*, Mem> tcol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> words;
  Kokkos::View<const std::uint32_t*, Mem> xbits;
  Kokkos::View<const value_type*, Mem> xval;
};

template <int T, class S, class Mem, class X>
b2sr_operands<Mem, T, S> make_b2sr_operands(const b2sr_matrix<Mem>& a, const X& x) {
  b2sr_operands<Mem, T, S> in;
  in.row_major = a.order == bit_order::row_major;
  in.ptr = a.tile_row_ptr;
  in.tcol = a.tile_col_idx;
  in.words = a.template tile_words<tile_word_t<T>>();
  if constexpr (is_bitmap<X>::value)
    in.xbits = x.words;
  else
    in.xval = x;
  return in;
}

// ------------------------------------------------------------------------------- B2SR pull (mxv)

/// The bit-by-bit part of `row_word_product`.
template <class S, bool XBits, class XValues>
KOKKOS_INLINE_FUNCTION typename S::value_type row_word_walk(typename S::value_type t, std::uint64_t bits, vertex_t i,
                                                            vertex_t j0, const XValues& xval, bool stop) {
  using value_type = typename S::value_type;
  while (bits) {
    const vertex_t j = j0 + count_trailing_zeros(bits);
    bits &= bits - 1;
    if constexpr (XBits) {
      t = S::add(t, S::multiply(S::one(), S::one(), i, j));
    } else {
      const value_type xj = xval(j);
      t = add_if_present<S>(t, S::one(), xj, !(xj == S::identity()), i, j);  // identity entries are absent
    }
    if constexpr (allows_early_exit_v<S>) {
      if (stop && t != S::identity()) return t;
    }
  }
  return t;
}

/// Row i's product with one row word `bits` of a tile whose first column is j0: `t` combined with
/// A(i, j) ⊗ x(j) for every set bit j - j0 (for a bitmap input `bits` is already ANDed with x's segment, so
/// the Boolean and counting semirings reduce the word at once). With `stop` (the monoid allows early exit)
/// it returns at the first contribution.
template <class S, bool XBits, class XValues>
KOKKOS_INLINE_FUNCTION typename S::value_type row_word_product(typename S::value_type t, std::uint64_t bits, vertex_t i,
                                                               vertex_t j0, const XValues& xval, bool stop) {
  using value_type = typename S::value_type;
  if constexpr (XBits && bit_reduction_v<S> == bit_reduction::or_and) {
    return bits ? value_type(1) : t;
  } else if constexpr (XBits && bit_reduction_v<S> == bit_reduction::popcount) {
    return S::add(t, static_cast<value_type>(popcount(bits)));
  } else {
    return row_word_walk<S, XBits>(t, bits, i, j0, xval, stop);
  }
}

/// Row-based product on B2SR, one "block" of R rows per team thread (R = 32, or 64 for T = 64: one
/// output bitmap word pair), one vector lane per row. Each lane walks its tile row and reduces its
/// row's bits against the input; Boolean outputs are assembled with a bitwise-OR vector reduction so
/// every output word is written by exactly one thread (no atomics).
template <class ExecSpace, int T, class S, bool XBits, bool YBits, class Accum>
struct b2sr_pull_functor {
  using mem = memory_space_t<ExecSpace>;
  using value_type = typename S::value_type;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr int R = T == 64 ? 64 : 32;

  b2sr_operands<mem, T, S> in;
  vertex_t n;
  vertex_t n_blocks;
  bool early_exit;
  Kokkos::View<std::uint32_t*, mem> ybits;  // YBits
  Kokkos::View<value_type*, mem> yval;      // !YBits
  mask_args<mem> mask;

  /// The (unmasked) product for row i: identity when nothing contributes.
  KOKKOS_INLINE_FUNCTION value_type row_product(vertex_t i) const {
    const vertex_t tr = i / T;
    const int lr = static_cast<int>(i % T);
    value_type t = S::identity();
    for (offset_t k = in.ptr(tr); k < in.ptr(tr + 1); ++k) {
      std::uint64_t bits = tile_row_bits<T>(in.words, k, lr, in.row_major);
      if constexpr (XBits) bits &= static_cast<std::uint64_t>(bitmap_segment<T>(in.xbits, in.tcol(k)));
      if (!bits) continue;
      t = row_word_product<S, XBits>(t, bits, i, in.tcol(k) * T, in.xval, early_exit);
      if constexpr (allows_early_exit_v<S>) {
        if (early_exit && t != S::identity()) return t;
      }
    }
    return t;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const vertex_t block = m.league_rank() * m.team_size() + m.team_rank();
    if (block >= n_blocks) return;
    const vertex_t base = block * R;
    if constexpr (YBits) {
      // Bit r of the result: product of row base + r (only rows the mask lets through are computed).
      std::uint64_t tbits = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(m, R),
          [&](const int r, std::uint64_t& acc) {
            const vertex_t i = base + r;
            if (i >= n) return;
            if (!mask.allows(i)) return;
            if (row_product(i) != S::identity()) acc |= std::uint64_t(1) << r;
          },
          Kokkos::BOr<std::uint64_t>(tbits));
      Kokkos::single(Kokkos::PerThread(m), [&]() {
        for (int w = 0; w < R / 32; ++w) {
          const std::uint64_t wi = std::uint64_t(base) / 32 + w;
          const std::uint32_t t32 = static_cast<std::uint32_t>(tbits >> (32 * w));
          ybits(wi) = merge_bits<Accum>(ybits(wi), t32, mask.allowed_word(wi), valid_bits(wi, n), mask.replace);
        }
      });
    } else {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, R), [&](const int r) {
        const vertex_t i = base + r;
        if (i >= n) return;
        const bool allowed = mask.allows(i);
        const value_type t = allowed ? row_product(i) : S::identity();
        yval(i) = merge_value<Accum>(yval(i), t, allowed, mask.replace, S::identity());
      });
    }
  }
};

// ------------------------------------------------------------------------- B2SR pull by tiles

/// Tiles of A per thread of the tile-balanced pull on host-like spaces.
inline constexpr offset_t pull_tiles_per_thread = 64;

/// Row-based product on B2SR with the work split by tiles: thread c takes tiles [c·C, c·C + C) whatever
/// tile rows they belong to, keeps the partial products of the T rows of its current tile row and combines
/// them into `t` (identity-filled; a bitmap of zeros for Boolean outputs) with the monoid's atomic when it
/// leaves that tile row. Rows the mask excludes are skipped; the caller merges `t` into the output.
template <class ExecSpace, int T, class S, bool XBits, bool YBits>
struct b2sr_pull_tiles_functor {
  using mem = memory_space_t<ExecSpace>;
  using value_type = typename S::value_type;

  b2sr_operands<mem, T, S> in;
  vertex_t n;
  vertex_t n_tile_rows;
  offset_t n_tiles;
  Kokkos::View<std::uint32_t*, mem> tbits;  // YBits
  Kokkos::View<value_type*, mem> tval;      // !YBits
  mask_args<mem> mask;

  /// Combines the partial products of tile row `tr` into the result.
  KOKKOS_INLINE_FUNCTION void flush(vertex_t tr, value_type (&acc)[T]) const {
    for (int r = 0; r < T; ++r) {
      const vertex_t i = tr * T + r;
      if (acc[r] != S::identity() && i < n) {
        if constexpr (YBits)
          Kokkos::atomic_fetch_or(&tbits(i >> 5), std::uint32_t(1) << (i & 31));
        else
          S::atomic_add(&tval(i), acc[r]);
      }
      acc[r] = S::identity();
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t c) const {
    const offset_t k0 = c * pull_tiles_per_thread;
    const offset_t k1 = k0 + pull_tiles_per_thread < n_tiles ? k0 + pull_tiles_per_thread : n_tiles;
    // The tile row of tile k0: the last tr with ptr(tr) <= k0.
    vertex_t lo = 0, hi = n_tile_rows;
    while (hi - lo > 1) {
      const vertex_t mid = lo + (hi - lo) / 2;
      if (in.ptr(mid) <= k0)
        lo = mid;
      else
        hi = mid;
    }
    vertex_t tr = lo;
    value_type acc[T];
    for (int r = 0; r < T; ++r) acc[r] = S::identity();
    for (offset_t k = k0; k < k1; ++k) {
      while (in.ptr(tr + 1) <= k) flush(tr++, acc);
      const vertex_t j0 = in.tcol(k) * T;
      std::uint64_t seg = 0;
      if constexpr (XBits) {
        seg = static_cast<std::uint64_t>(bitmap_segment<T>(in.xbits, in.tcol(k)));
        if (!seg) continue;
      }
      for (int r = 0; r < T; ++r) {
        const vertex_t i = tr * T + r;
        if (i >= n || !mask.allows(i)) continue;
        std::uint64_t bits = tile_row_bits<T>(in.words, k, r, in.row_major);
        if constexpr (XBits) bits &= seg;
        if (bits) acc[r] = row_word_product<S, XBits>(acc[r], bits, i, j0, in.xval, false);
      }
    }
    if (k0 < k1) flush(tr, acc);
  }
};

// ------------------------------------------------------------------------------- B2SR push (vxm)

/// Column-based product y = A^T x on B2SR: every tile row whose input segment is non-zero scatters
/// its tiles into a temporary result with atomics (OR on bitmap words, the monoid's atomic otherwise).
template <class ExecSpace, int T, class S, bool XBits, bool YBits>
struct b2sr_push_functor {
  using mem = memory_space_t<ExecSpace>;
  using value_type = typename S::value_type;

  b2sr_operands<mem, T, S> in;
  Kokkos::View<std::uint32_t*, mem> tbits;  // YBits: temporary result bits
  Kokkos::View<value_type*, mem> tval;      // !YBits: temporary result values (identity-filled)
  vertex_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    // Active rows of this tile row.
    std::uint64_t active = 0;
    if constexpr (XBits) {
      active = static_cast<std::uint64_t>(bitmap_segment<T>(in.xbits, tr));
    } else {
      for (int r = 0; r < T; ++r) {
        const vertex_t i = tr * T + r;
        if (i < n && in.xval(i) != S::identity()) active |= std::uint64_t(1) << r;
      }
    }
    if (!active) return;
    for (offset_t k = in.ptr(tr); k < in.ptr(tr + 1); ++k) {
      const vertex_t tc = in.tcol(k);
      if constexpr (YBits && bit_reduction_v<S> == bit_reduction::or_and) {
        // OR of the active rows' words is the output segment.
        std::uint64_t seg = 0;
        std::uint64_t a = active;
        while (a) {
          const int r = count_trailing_zeros(a);
          a &= a - 1;
          seg |= tile_row_bits<T>(in.words, k, r, in.row_major);
        }
        if (!seg) continue;
        const std::uint64_t bit0 = std::uint64_t(tc) * T;
        for (int w = 0; w < (T + 31) / 32; ++w) {
          const std::uint32_t part =
              T >= 32 ? static_cast<std::uint32_t>(seg >> (32 * w)) : static_cast<std::uint32_t>(seg << (bit0 % 32));
          if (part) Kokkos::atomic_fetch_or(&tbits(bit0 / 32 + w), part);
        }
      } else {
        std::uint64_t a = active;
        while (a) {
          const int r = count_trailing_zeros(a);
          a &= a - 1;
          const vertex_t i = tr * T + r;  // the input index: A(i, j) contributes x(i) to y(j)
          std::uint64_t bits = tile_row_bits<T>(in.words, k, r, in.row_major);
          value_type xi;
          if constexpr (XBits)
            xi = S::one();
          else
            xi = in.xval(i);
          while (bits) {
            const vertex_t j = tc * T + count_trailing_zeros(bits);
            bits &= bits - 1;
            const value_type v = S::multiply(S::one(), xi, j, i);
            if constexpr (YBits) {
              if (v != S::identity()) Kokkos::atomic_fetch_or(&tbits(j >> 5), std::uint32_t(1) << (j & 31));
            } else {
              S::atomic_add(&tval(j), v);
            }
          }
        }
      }
    }
  }
};

/// Moves a push's temporary bitmap into the output under the mask, one word per thread.
template <class Mem, class Accum>
struct merge_temporary_bits {
  vertex_t n;
  Kokkos::View<const std::uint32_t*, Mem> tbits;
  Kokkos::View<std::uint32_t*, Mem> ybits;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t wi) const {
    ybits(wi) = merge_bits<Accum>(ybits(wi), tbits(wi), mask.allowed_word(wi), valid_bits(wi, n), mask.replace);
  }
};

/// Moves a push's temporary values into the output under the mask, one entry per thread.
template <class Mem, class S, class Accum>
struct merge_temporary_values {
  using value_type = typename S::value_type;
  Kokkos::View<const value_type*, Mem> tval;
  Kokkos::View<value_type*, Mem> yval;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    yval(i) = merge_value<Accum>(yval(i), tval(i), mask.allows(i), mask.replace, S::identity());
  }
};

/// Counts the non-identity entries of a dense input (the push/pull switch's density).
template <class Mem, class S>
struct count_present {
  Kokkos::View<const typename S::value_type*, Mem> x;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, offset_t& acc) const {
    acc += x(i) != S::identity() ? 1 : 0;
  }
};

/// Density of the input (for the push/pull switch): set bits or non-identity entries over n.
template <class ExecSpace, class S, class X>
double input_density(const ExecSpace& exec, const X& x, vertex_t n) {
  if (n == 0) return 0.0;
  if constexpr (is_bitmap<X>::value) {
    return double(count(exec, x)) / double(n);
  } else {
    offset_t c = 0;
    Kokkos::parallel_reduce("bitgraph::mxv::density", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                            count_present<memory_space_t<ExecSpace>, S>{x}, c);
    return double(c) / double(n);
  }
}

/// A balanced pull's output: `kernel(tbits, tval)` combines the products into identity-filled targets with
/// atomics (or plain stores for rows one thread group owns). Without a mask and an accumulator the targets are
/// y itself (the product is the result); otherwise a temporary that is then merged into y under the GraphBLAS
/// rules.
template <class ExecSpace, class S, class Accum, class Y, class Kernel>
void pull_into_targets(const ExecSpace& exec, Y& y, const mask_args<memory_space_t<ExecSpace>>& mask, vertex_t n,
                       Kernel&& kernel) {
  using mem = memory_space_t<ExecSpace>;
  using value_type = typename S::value_type;
  // The product is the result: no temporary and no merge.
  const bool in_place = std::is_same_v<Accum, no_accumulator> && !mask.masked;
  if constexpr (is_bitmap<Y>::value) {
    Kokkos::View<std::uint32_t*, mem> tbits;
    if (in_place) {
      tbits = y.words;
      Kokkos::deep_copy(exec, tbits, std::uint32_t(0));
    } else {
      tbits = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::mxv::tmp_bits", y.words.extent(0));
    }
    kernel(tbits, Kokkos::View<value_type*, mem>());
    if (!in_place)
      Kokkos::parallel_for("bitgraph::mxv::merge_bits", Kokkos::RangePolicy<ExecSpace>(exec, 0, y.words.extent(0)),
                           merge_temporary_bits<mem, Accum>{n, tbits, y.words, mask});
  } else {
    Kokkos::View<value_type*, mem> tval;
    if (in_place)
      tval = y;
    else
      tval = allocate_view<Kokkos::View<value_type*, mem>>("bitgraph::mxv::tmp_values", n, false);
    Kokkos::deep_copy(exec, tval, S::identity());
    kernel(Kokkos::View<std::uint32_t*, mem>(), tval);
    if (!in_place)
      Kokkos::parallel_for("bitgraph::mxv::merge_values", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                           merge_temporary_values<mem, S, Accum>{tval, y, mask});
  }
}

/// The portable B2SR product along a plan: pull over the rows of `plan.matrix` (y = M x), or push over
/// them (y = M^T x).
template <class ExecSpace, class S, class Y, class X, class Accum>
struct b2sr_mxv_generic {
  using mem = memory_space_t<ExecSpace>;
  using value_type = typename S::value_type;
  static constexpr bool XBits = is_bitmap<X>::value;
  static constexpr bool YBits = is_bitmap<Y>::value;

  static path_offer offer(const mxv_plan<mem>&) {
    return path_offer{}.refuse(op_algorithm::cuda_mma,
                               "there is no tensor-core kernel for B2SR products (use cuda-warp)");
  }

  template <int T>
  static void pull(const ExecSpace& exec, Y& y, const mask_args<mem>& mask, const b2sr_matrix<mem>& a, const X& x,
                   const mxv_options& opts) {
    b2sr_pull_functor<ExecSpace, T, S, XBits, YBits, Accum> f;
    constexpr int R = decltype(f)::R;
    f.in = make_b2sr_operands<T, S>(a, x);
    f.n = a.n;
    f.n_blocks = static_cast<vertex_t>(ceil_div<std::uint64_t>(a.n, R));
    f.early_exit = opts.early_exit;
    if constexpr (YBits)
      f.ybits = y.words;
    else
      f.yval = y;
    f.mask = mask;
    if (f.n_blocks == 0) return;
    const auto shape = shape_for<ExecSpace>(R);
    const int league = static_cast<int>(ceil_div<std::uint64_t>(f.n_blocks, shape.team_size));
    Kokkos::parallel_for("bitgraph::mxv::b2sr_pull",
                         Kokkos::TeamPolicy<ExecSpace>(exec, league, shape.team_size, shape.vector_length), f);
  }

  template <int T>
  static void push(const ExecSpace& exec, Y& y, const mask_args<mem>& mask, const b2sr_matrix<mem>& a, const X& x) {
    b2sr_push_functor<ExecSpace, T, S, XBits, YBits> f;
    f.in = make_b2sr_operands<T, S>(a, x);
    f.n = a.n;
    if constexpr (YBits) {
      f.tbits = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::vxm::tmp_bits", y.words.extent(0));
    } else {
      f.tval = allocate_view<Kokkos::View<value_type*, mem>>("bitgraph::vxm::tmp_values", a.n, false);
      Kokkos::deep_copy(exec, f.tval, S::identity());
    }
    Kokkos::parallel_for("bitgraph::vxm::b2sr_push", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n_tile_rows), f);
    if constexpr (YBits) {
      Kokkos::parallel_for("bitgraph::mxv::merge_bits", Kokkos::RangePolicy<ExecSpace>(exec, 0, y.words.extent(0)),
                           merge_temporary_bits<mem, Accum>{a.n, f.tbits, y.words, mask});
    } else {
      Kokkos::parallel_for("bitgraph::mxv::merge_values", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n),
                           merge_temporary_values<mem, S, Accum>{f.tval, y, mask});
    }
  }

  template <int T>
  static void pull_tiles(const ExecSpace& exec, Y& y, const mask_args<mem>& mask, const b2sr_matrix<mem>& a,
                         const X& x) {
    pull_into_targets<ExecSpace, S, Accum>(exec, y, mask, a.n, [&](auto tbits, auto tval) {
      b2sr_pull_tiles_functor<ExecSpace, T, S, XBits, YBits> f;
      f.in = make_b2sr_operands<T, S>(a, x);
      f.n = a.n;
      f.n_tile_rows = a.n_tile_rows;
      f.n_tiles = a.n_tiles;
      f.tbits = tbits;
      f.tval = tval;
      f.mask = mask;
      Kokkos::parallel_for("bitgraph::mxv::b2sr_pull_tiles",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(
                               exec, 0, ceil_div<offset_t>(a.n_tiles, pull_tiles_per_thread)),
                           f);
    });
  }

  static void run(op_algorithm, const ExecSpace& exec, Y& y, const mask_args<mem>& mask, const mxv_plan<mem>& plan,
                  const X& x, const mxv_options& opts) {
    dispatch_tile_dim(plan.matrix->tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      if (plan.push)
        push<T>(exec, y, mask, *plan.matrix, x);
      else if (plan.by_tiles)
        pull_tiles<T>(exec, y, mask, *plan.matrix, x);
      else
        pull<T>(exec, y, mask, *plan.matrix, x, opts);
    });
  }
};

/// Dispatch point of the B2SR products; backends specialise it for their execution space.
template <class ExecSpace, class S, class Y, class X, class Accum>
struct b2sr_mxv_impl : b2sr_mxv_generic<ExecSpace, S, Y, X, Accum> {};

// ------------------------------------------------------------------------------------------ CSR

/// The rows a CSR product reads: a whole CSR graph (no bands: local row k is row k), or the CSR part of a
/// hybrid matrix (local row k is row 32 · bands(k / 32) + k % 32; rows past n are empty). Weights are A's
/// values when present (1 otherwise).
template <class Mem>
struct csr_rows {
  vertex_t n = 0;           ///< rows (= columns) of the matrix
  offset_t local_rows = 0;  ///< rows held: n, or 32 per band
  offset_t nnz = 0;
  Kokkos::View<const offset_t*, Mem> row_ptr;  ///< local_rows + 1
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<const double*, Mem> w;  ///< empty: unweighted
  Kokkos::View<const vertex_t*, Mem> bands;
  bool banded = false;
  offset_t longest = 0;  ///< entries in the longest row when known (0: products measure it)

  /// The matrix row of local row k.
  KOKKOS_INLINE_FUNCTION std::uint64_t row(offset_t k) const {
    return banded ? hybrid_band_row(bands(k / hybrid_band_rows), k) : std::uint64_t(k);
  }
};

template <class Mem>
csr_rows<Mem> make_csr_rows(const csr_graph<Mem>& g) {
  csr_rows<Mem> r;
  r.n = g.n;
  r.local_rows = g.n;
  r.nnz = g.nnz;
  r.row_ptr = g.row_ptr;
  r.col = g.col_idx;
  if (g.has_weights) r.w = g.weights;
  r.longest = g.longest_row;
  return r;
}

/// The CSR part of a hybrid matrix (unbanded when every band is CSR: its local rows are then the matrix rows).
template <class Mem>
csr_rows<Mem> make_csr_rows(const hybrid_matrix<Mem>& h) {
  csr_rows<Mem> r;
  const offset_t bands = h.csr_band_count();
  r.n = h.n;
  r.local_rows = bands * hybrid_band_rows;
  r.nnz = h.csr_nnz;
  r.row_ptr = h.csr_row_ptr;
  r.col = h.csr_col_idx;
  r.bands = h.csr_bands;
  r.banded = bands < h.band_count();
  r.longest = h.csr_longest_row;
  return r;
}

/// Whether a CSR pull over `nnz` entries whose longest row holds `longest` should split its work by stored
/// entries (equal runs per warp, partial rows combined with atomics) rather than give each row a group of
/// `group` lanes: as for B2SR tile rows (`pull_by_tiles`), when the longest row would outlast twice an even
/// share of the entries among the groups the space runs at once (hubs of power-law graphs, or too few rows
/// to fill a GPU); rows under 256 entries never pay for the atomics.
inline bool pull_by_entries(offset_t longest, offset_t nnz, int group, std::int64_t concurrency) {
  if (nnz == 0) return false;
  const double groups = std::max(1.0, double(concurrency) / double(group));
  return longest >= 256 && double(longest) > 2.0 * double(nnz) / groups;
}

/// One row of the CSR product (k local, i its matrix row); early exit for OR / ANY.
template <class Mem, class S, bool XBits>
struct csr_row_product {
  using T = typename S::value_type;
  csr_rows<Mem> a;
  bool stop_early;
  Kokkos::View<const std::uint32_t*, Mem> xbits;  // XBits
  Kokkos::View<const T*, Mem> xval;               // !XBits

  KOKKOS_INLINE_FUNCTION T operator()(const offset_t k, const vertex_t i) const {
    return stop_early ? walk<true>(k, i) : walk<false>(k, i);
  }

  // Branch-free over absent inputs (`add_if_present`); the exit test only where rows may stop.
  template <bool Stop>
  KOKKOS_INLINE_FUNCTION T walk(const offset_t k, const vertex_t i) const {
    T t = S::identity();
    const bool weighted = a.w.extent(0) > 0;
    for (offset_t p = a.row_ptr(k); p < a.row_ptr(k + 1); ++p) {
      const vertex_t j = a.col(p);
      bool present;
      T xj;
      if constexpr (XBits) {
        present = bitmap_test(xbits, j);
        xj = S::one();
      } else {
        xj = xval(j);
        present = !(xj == S::identity());  // identity entries of a dense input are absent
      }
      t = add_if_present<S>(t, weighted ? static_cast<T>(a.w(p)) : S::one(), xj, present, i, j);
      if constexpr (Stop) {
        if (t != S::identity()) break;
      }
    }
    return t;
  }
};

/// CSR pull into a bitmap: one thread per output word of the local rows (a band's word when banded); rows the
/// mask excludes are not computed.
template <class Mem, class S, bool XBits, class Accum>
struct csr_pull_bits {
  csr_row_product<Mem, S, XBits> product;
  Kokkos::View<std::uint32_t*, Mem> yw;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t lw) const {
    const std::uint64_t wi = product.a.row(lw * 32) / 32;
    const std::uint32_t valid = valid_bits(wi, product.a.n);
    const std::uint32_t allowed = mask.allowed_word(wi);
    std::uint32_t t = 0;
    std::uint32_t todo = allowed & valid;
    while (todo) {
      const int b = count_trailing_zeros(todo);
      todo &= todo - 1;
      if (product(lw * 32 + b, static_cast<vertex_t>(wi * 32 + b)) != S::identity()) t |= std::uint32_t(1) << b;
    }
    yw(wi) = merge_bits<Accum>(yw(wi), t, allowed, valid, mask.replace);
  }
};

/// CSR pull into a dense vector: one thread per local row.
template <class Mem, class S, bool XBits, class Accum>
struct csr_pull_values {
  using T = typename S::value_type;
  csr_row_product<Mem, S, XBits> product;
  Kokkos::View<T*, Mem> y;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k) const {
    const std::uint64_t i = product.a.row(k);
    if (i >= product.a.n) return;
    const bool allowed = mask.allows(i);
    const T t = allowed ? product(k, static_cast<vertex_t>(i)) : S::identity();
    y(i) = merge_value<Accum>(y(i), t, allowed, mask.replace, S::identity());
  }
};

/// Moves a banded pull's temporary bitmap (one word per band) into the output under the mask.
template <class Mem, class Accum>
struct merge_band_bits {
  vertex_t n;
  Kokkos::View<const vertex_t*, Mem> bands;
  Kokkos::View<const std::uint32_t*, Mem> tbits;
  Kokkos::View<std::uint32_t*, Mem> ybits;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t b) const {
    const std::uint64_t wi = bands(b);
    ybits(wi) = merge_bits<Accum>(ybits(wi), tbits(b), mask.allowed_word(wi), valid_bits(wi, n), mask.replace);
  }
};

/// Moves a banded pull's temporary values (local rows) into the output under the mask.
template <class Mem, class S, class Accum>
struct merge_band_values {
  using value_type = typename S::value_type;
  csr_rows<Mem> a;
  Kokkos::View<const value_type*, Mem> tval;
  Kokkos::View<value_type*, Mem> yval;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k) const {
    const std::uint64_t i = a.row(k);
    if (i < a.n) yval(i) = merge_value<Accum>(yval(i), tval(k), mask.allows(i), mask.replace, S::identity());
  }
};

/// A balanced pull over CSR rows: like `pull_into_targets`, except that banded rows (the CSR part of a hybrid
/// matrix) always go through a temporary of their local rows, merged into their bands of y only.
template <class ExecSpace, class S, class Accum, class Y, class Kernel>
void csr_pull_into_targets(const ExecSpace& exec, Y& y, const mask_args<memory_space_t<ExecSpace>>& mask,
                           const csr_rows<memory_space_t<ExecSpace>>& a, Kernel&& kernel) {
  using mem = memory_space_t<ExecSpace>;
  using value_type = typename S::value_type;
  if (!a.banded) return pull_into_targets<ExecSpace, S, Accum>(exec, y, mask, a.n, kernel);
  const std::size_t n_bands = a.bands.extent(0);
  if constexpr (is_bitmap<Y>::value) {
    auto tbits = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::mxv::tmp_band_bits", n_bands);
    kernel(tbits, Kokkos::View<value_type*, mem>());
    Kokkos::parallel_for("bitgraph::mxv::merge_band_bits", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_bands),
                         merge_band_bits<mem, Accum>{a.n, a.bands, tbits, y.words, mask});
  } else {
    auto tval = allocate_view<Kokkos::View<value_type*, mem>>("bitgraph::mxv::tmp_band_values", a.local_rows, false);
    Kokkos::deep_copy(exec, tval, S::identity());
    kernel(Kokkos::View<std::uint32_t*, mem>(), tval);
    Kokkos::parallel_for("bitgraph::mxv::merge_band_values",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, a.local_rows),
                         merge_band_values<mem, S, Accum>{a, tval, y, mask});
  }
}

/// Whether a CSR pull should split its work by stored entries: when asked (`by_tiles` names the balanced split
/// for every format), never when asked for rows or when rows may stop at their first contribution (a walk
/// then reads only what it needs: hubs stop early), else by `pull_by_entries` on spaces that run more than
/// one group of lanes at once, with the longest row as recorded or measured (a fence).
template <class ExecSpace, class S>
bool csr_pull_by_entries(const ExecSpace& exec, const csr_rows<memory_space_t<ExecSpace>>& a, const mxv_options& opts,
                         int group) {
  if (opts.balance != mxv_balance::automatic) return opts.balance == mxv_balance::by_tiles;
  const auto concurrency = static_cast<std::int64_t>(exec.concurrency());
  if (concurrency < 4096 || a.nnz < 256 || (opts.early_exit && allows_early_exit_v<S>)) return false;
  const offset_t longest =
      a.longest ? a.longest : longest_span(exec, a.row_ptr, a.local_rows, "bitgraph::mxv::longest_row");
  return pull_by_entries(longest, a.nnz, group, concurrency);
}

/// The portable CSR product: row-based, one thread per row (per output word for bitmaps), whatever the
/// balance says (host spaces run a few threads, each of which gets many rows).
template <class ExecSpace, class S, class Y, class X, class Accum>
struct csr_mxv_generic {
  using mem = memory_space_t<ExecSpace>;
  static constexpr bool XBits = is_bitmap<X>::value;

  static path_offer offer() {
    return path_offer{}
        .refuse(op_algorithm::cuda_warp, "the cuda-warp CSR kernels run on CUDA spaces only")
        .refuse(op_algorithm::cuda_mma, "there is no tensor-core kernel for CSR products");
  }

  /// Lanes per row of the path's row kernel (what the balance decision weighs): one thread here.
  static int group_lanes(op_algorithm, const csr_rows<mem>&) { return 1; }

  static void run(op_algorithm, const ExecSpace& exec, Y& y, const mask_args<mem>& mask, const csr_rows<mem>& a,
                  const X& x, const mxv_options& opts, bool /*by_entries*/) {
    csr_row_product<mem, S, XBits> product;
    product.a = a;
    product.stop_early = opts.early_exit && allows_early_exit_v<S>;
    if constexpr (XBits)
      product.xbits = x.words;
    else
      product.xval = x;
    if constexpr (is_bitmap<Y>::value) {
      Kokkos::parallel_for("bitgraph::mxv::csr_pull_bits",
                           Kokkos::RangePolicy<ExecSpace>(exec, 0, ceil_div<std::uint64_t>(a.local_rows, 32)),
                           csr_pull_bits<mem, S, XBits, Accum>{product, y.words, mask});
    } else {
      Kokkos::parallel_for("bitgraph::mxv::csr_pull",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, a.local_rows),
                           csr_pull_values<mem, S, XBits, Accum>{product, y, mask});
    }
  }
};

/// Dispatch point of the CSR products; backends specialise it for their execution space.
template <class ExecSpace, class S, class Y, class X, class Accum>
struct csr_mxv_impl : csr_mxv_generic<ExecSpace, S, Y, X, Accum> {};

}  // namespace bitgraph::detail
