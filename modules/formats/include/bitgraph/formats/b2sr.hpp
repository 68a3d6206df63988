// B2SR (bit-block compressed sparse row, Bit-GraphBLAS §III): block CSR whose non-empty T x T tiles are
// dense bit matrices, T in {4, 8, 16, 32, 64}; built directly from CSR on the execution space.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string_view>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr.hpp"

namespace bitgraph {

/// How the T x T bits of a tile are packed into T words of T bits (Bit-GraphBLAS Fig. 2).
enum class bit_order : std::uint8_t {
  row_major,  ///< word r holds row r of the tile; bit c of it is A(r, c). Pull (A·x) reads rows.
  col_major,  ///< word c holds column c of the tile; bit r of it is A(r, c). Push (x·A) reads columns.
};

/// "row" or "col".
inline std::string_view to_string(bit_order o) { return o == bit_order::row_major ? "row" : "col"; }

/// True for the supported tile dimensions 4, 8, 16, 32 and 64.
constexpr bool valid_tile_dim(int t) { return t == 4 || t == 8 || t == 16 || t == 32 || t == 64; }

/// Bytes of one tile word for tile dimension `t` (Table I: 4 and 8 use a byte, 16 a short, 32 an int,
/// 64 a 64-bit word).
constexpr int tile_word_bytes(int t) { return t <= 8 ? 1 : t / 8; }

/// The unsigned word type that holds one row (or column) of a T x T tile.
template <int T>
using tile_word_t = std::conditional_t<
    (T <= 8), std::uint8_t,
    std::conditional_t<(T == 16), std::uint16_t, std::conditional_t<(T == 32), std::uint32_t, std::uint64_t>>>;

/// A square bit matrix in B2SR form. Tile row `i` covers rows [i*T, (i+1)*T); its non-empty tiles are
/// `tile_col_idx[tile_row_ptr[i] .. tile_row_ptr[i+1])` (ascending tile columns), and tile `k`'s T words
/// are at `tile_words<W>()[k*T .. k*T + T)` packed as `order` says. Bits beyond n (the last, partial
/// tile row or column) are always zero.
template <class MemorySpace>
struct b2sr_matrix {
  using memory_space = MemorySpace;
  vertex_t n = 0;                       ///< rows = columns
  offset_t nnz = 0;                     ///< number of set bits (entries of the pattern)
  int tile_dim = 8;                     ///< T
  bit_order order = bit_order::row_major;
  vertex_t n_tile_rows = 0;             ///< ceil(n / T), also the number of tile columns
  offset_t n_tiles = 0;                 ///< number of non-empty tiles
  graph_kind kind = graph_kind::directed;  ///< carried over from the CSR it was built from
  Kokkos::View<offset_t*, MemorySpace> tile_row_ptr;  ///< n_tile_rows + 1
  Kokkos::View<vertex_t*, MemorySpace> tile_col_idx;  ///< n_tiles
  Kokkos::View<std::uint8_t*, MemorySpace> tile_bits; ///< n_tiles * T words of tile_word_bytes(T) bytes

  /// The tile words as an array of `Word` (which must match `tile_word_t<T>` for this tile_dim).
  template <class Word>
  Kokkos::View<Word*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> tile_words() const {
    return Kokkos::View<Word*, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
        reinterpret_cast<Word*>(tile_bits.data()), n_tiles * static_cast<offset_t>(tile_dim));
  }
};

/// Options for `to_b2sr`.
struct b2sr_options {
  int tile_dim = 8;                        ///< 4, 8, 16, 32 or 64 (see `choose_tile_dim` for automatic)
  bit_order order = bit_order::row_major;  ///< packing of each tile
};

namespace detail {

/// Calls `f(std::integral_constant<int, T>{})` for the runtime tile dimension `t`.
template <class F>
decltype(auto) dispatch_tile_dim(int t, F&& f) {
  switch (t) {
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
    case 32: return f(std::integral_constant<int, 32>{});
    case 64: return f(std::integral_constant<int, 64>{});
    default:
      throw invalid_argument_error(concat("bitgraph: tile dimension ", t, " is not one of 4, 8, 16, 32, 64"));
  }
}

/// Walks the T rows of one tile row of a CSR in tile-column order: a T-way merge over the row
/// segments (each sorted by column). For every distinct tile column `tc` it calls
/// `visit(tc, row_in_tile, col_in_tile)` for each entry, grouped by tile column, and
/// `end_tile(tc)` after the last entry of that tile. One thread owns a tile row, so no atomics.
template <int T, class RowPtr, class ColIdx, class Visit, class EndTile>
KOKKOS_INLINE_FUNCTION void merge_tile_row(const RowPtr& row_ptr, const ColIdx& col_idx, vertex_t n, vertex_t tile_row,
                                           Visit&& visit, EndTile&& end_tile) {
  offset_t cur[T], end[T];
  const vertex_t r0 = tile_row * T;
  for (int r = 0; r < T; ++r) {
    const vertex_t row = r0 + r;
    cur[r] = row < n ? row_ptr(row) : 0;
    end[r] = row < n ? row_ptr(row + 1) : 0;
  }
  while (true) {
    vertex_t tc = invalid_vertex;
    for (int r = 0; r < T; ++r)
      if (cur[r] < end[r]) {
        const vertex_t c = col_idx(cur[r]) / T;
        tc = c < tc ? c : tc;
      }
    if (tc == invalid_vertex) return;
    for (int r = 0; r < T; ++r) {
      while (cur[r] < end[r]) {
        const vertex_t c = col_idx(cur[r]);
        if (c / T != tc) break;
        visit(tc, r, static_cast<int>(c % T));
        ++cur[r];
      }
    }
    end_tile(tc);
  }
}

/// Number of non-empty T x T tiles in the tile rows listed in `tile_rows`.
template <class ExecSpace, int T>
BITGRAPH_TU_LOCAL offset_t count_tiles_of(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                        Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> tile_rows) {
  auto row_ptr = g.row_ptr;
  auto col_idx = g.col_idx;
  const vertex_t n = g.n;
  offset_t total = 0;
  Kokkos::parallel_reduce(
      "bitgraph::b2sr::count_tiles_of", Kokkos::RangePolicy<ExecSpace>(exec, 0, tile_rows.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i, offset_t& acc) {
        merge_tile_row<T>(row_ptr, col_idx, n, tile_rows(i), [](vertex_t, int, int) {}, [&](vertex_t) { ++acc; });
      },
      total);
  return total;
}

/// Number of non-empty T x T tiles of the whole matrix.
template <class ExecSpace, int T>
BITGRAPH_TU_LOCAL offset_t count_tiles(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g) {
  auto row_ptr = g.row_ptr;
  auto col_idx = g.col_idx;
  const vertex_t n = g.n;
  const vertex_t ntr = static_cast<vertex_t>(ceil_div<std::uint64_t>(n, T));
  offset_t total = 0;
  Kokkos::parallel_reduce(
      "bitgraph::b2sr::count_all_tiles", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr),
      KOKKOS_LAMBDA(const vertex_t tr, offset_t& acc) {
        merge_tile_row<T>(row_ptr, col_idx, n, tr, [](vertex_t, int, int) {}, [&](vertex_t) { ++acc; });
      },
      total);
  return total;
}

template <class ExecSpace, int T>
BITGRAPH_TU_LOCAL b2sr_matrix<memory_space_t<ExecSpace>> to_b2sr_impl(const ExecSpace& exec,
                                                    const csr_graph<memory_space_t<ExecSpace>>& g,
                                                    bit_order order) {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  b2sr_matrix<mem> b;
  b.n = g.n;
  b.nnz = 0;
  b.tile_dim = T;
  b.order = order;
  b.kind = g.kind;
  b.n_tile_rows = static_cast<vertex_t>(ceil_div<std::uint64_t>(g.n, T));
  const vertex_t ntr = b.n_tile_rows;
  const vertex_t n = g.n;
  auto row_ptr = g.row_ptr;
  auto col_idx = g.col_idx;
  auto ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);

  // Pass 1: count the non-empty tiles of every tile row.
  Kokkos::parallel_for(
      "bitgraph::b2sr::count_tiles", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr), KOKKOS_LAMBDA(const vertex_t tr) {
        offset_t count = 0;
        merge_tile_row<T>(row_ptr, col_idx, n, tr, [](vertex_t, int, int) {}, [&](vertex_t) { ++count; });
        ptr(tr) = count;
      });
  offset_t n_tiles = detail::exclusive_scan(exec, ptr, "bitgraph::b2sr::scan_tiles");
  b.n_tiles = n_tiles;
  b.tile_row_ptr = ptr;
  b.tile_col_idx = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::b2sr::tile_col_idx", n_tiles, false);
  const offset_t bytes = detail::checked_bytes<word>(n_tiles * T, "bitgraph::b2sr::tile_bits");
  b.tile_bits = allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::b2sr::tile_bits", bytes);
  auto tcol = b.tile_col_idx;
  auto words = b.template tile_words<word>();
  const bool row_major = order == bit_order::row_major;

  // Pass 2: fill tile column indices and bits (the bits view is zero-initialised).
  Kokkos::parallel_for(
      "bitgraph::b2sr::fill_tiles", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr), KOKKOS_LAMBDA(const vertex_t tr) {
        offset_t k = ptr(tr);
        merge_tile_row<T>(
            row_ptr, col_idx, n, tr,
            [&](vertex_t, int r, int c) {
              if (row_major) {
                words(k * T + r) |= static_cast<word>(word(1) << c);
              } else {
                words(k * T + c) |= static_cast<word>(word(1) << r);
              }
            },
            [&](vertex_t tc) {
              tcol(k) = tc;
              ++k;
            });
      });
  // Count set bits (duplicates in the CSR collapse into one bit).
  offset_t nnz = 0;
  Kokkos::parallel_reduce(
      "bitgraph::b2sr::count_bits", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, n_tiles * T),
      KOKKOS_LAMBDA(const offset_t i, offset_t& acc) { acc += popcount(static_cast<std::uint64_t>(words(i))); }, nnz);
  b.nnz = nnz;
  return b;
}

}  // namespace detail

/// Converts a CSR graph to B2SR on `exec` without any dense or floating-point intermediate: count the
/// non-empty tiles per tile row, scan, then fill column indices and bits. Weights are dropped (B2SR is a
/// pattern); duplicates collapse. Throws `invalid_argument_error` for an unsupported tile dimension.
template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> to_b2sr(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                               const b2sr_options& opts = {}) {
  BITGRAPH_CHECK_ARG(valid_tile_dim(opts.tile_dim), "to_b2sr", "tile dimension ", opts.tile_dim,
                     " is not one of 4, 8, 16, 32, 64");
  auto b = detail::dispatch_tile_dim(opts.tile_dim, [&](auto t) {
    return detail::to_b2sr_impl<ExecSpace, decltype(t)::value>(exec, g, opts.order);
  });
  exec.fence();
  return b;
}

namespace detail {

/// Row `r` of tile `k` as a T-bit mask (bit c = A(r, c)) whatever the packing order.
template <int T, class Words>
KOKKOS_INLINE_FUNCTION std::uint64_t tile_row_bits(const Words& words, offset_t k, int r, bool row_major) {
  if (row_major) return static_cast<std::uint64_t>(words(k * T + r));
  std::uint64_t out = 0;
  for (int c = 0; c < T; ++c) out |= static_cast<std::uint64_t>((words(k * T + c) >> r) & 1u) << c;
  return out;
}

template <class ExecSpace, int T>
BITGRAPH_TU_LOCAL csr_graph<memory_space_t<ExecSpace>> b2sr_to_csr_impl(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& b) {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  csr_graph<mem> g;
  g.n = b.n;
  g.kind = b.kind;
  const vertex_t n = b.n;
  auto ptr = b.tile_row_ptr;
  auto tcol = b.tile_col_idx;
  auto words = b.template tile_words<word>();
  const bool row_major = b.order == bit_order::row_major;
  auto row_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::csr::row_ptr", offset_t(n) + 1);
  Kokkos::parallel_for(
      "bitgraph::b2sr_to_csr::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, n), KOKKOS_LAMBDA(const vertex_t u) {
        const vertex_t tr = u / T;
        const int r = static_cast<int>(u % T);
        offset_t c = 0;
        for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) c += popcount(tile_row_bits<T>(words, k, r, row_major));
        row_ptr(u) = c;
      });
  offset_t nnz = detail::exclusive_scan(exec, row_ptr, "bitgraph::b2sr_to_csr::scan");
  auto cols = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::csr::col_idx", nnz, false);
  Kokkos::parallel_for(
      "bitgraph::b2sr_to_csr::fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, n), KOKKOS_LAMBDA(const vertex_t u) {
        const vertex_t tr = u / T;
        const int r = static_cast<int>(u % T);
        offset_t p = row_ptr(u);
        for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) {
          std::uint64_t bits = tile_row_bits<T>(words, k, r, row_major);
          while (bits) {
            const int c = count_trailing_zeros(bits);
            cols(p++) = tcol(k) * T + c;
            bits &= bits - 1;
          }
        }
      });
  g.row_ptr = row_ptr;
  g.col_idx = cols;
  g.nnz = nnz;
  return g;
}

template <class ExecSpace, int T>
BITGRAPH_TU_LOCAL b2sr_matrix<memory_space_t<ExecSpace>> b2sr_transpose_impl(const ExecSpace& exec,
                                                           const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                           bool keep_order) {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  const vertex_t ntr = a.n_tile_rows;
  const offset_t nt = a.n_tiles;
  // The tile pattern is a CSR over tile rows: transpose it by counting, scanning and scattering tile
  // ids, then sort each new tile row so tile columns ascend.
  auto src_row = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::b2sr_transpose::src_row", nt, false);
  auto aptr = a.tile_row_ptr;
  auto acol = a.tile_col_idx;
  Kokkos::parallel_for(
      "bitgraph::b2sr_transpose::expand", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr), KOKKOS_LAMBDA(const vertex_t tr) {
        for (offset_t k = aptr(tr); k < aptr(tr + 1); ++k) src_row(k) = tr;
      });
  auto ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);
  Kokkos::parallel_for(
      "bitgraph::b2sr_transpose::count", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nt),
      KOKKOS_LAMBDA(const offset_t k) { atomic_fetch_add_offset(&ptr(acol(k)), 1); });
  detail::exclusive_scan(exec, ptr, "bitgraph::b2sr_transpose::scan");  // the total is nt
  auto cursor = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr_transpose::cursor", ntr, false);
  Kokkos::deep_copy(exec, cursor, Kokkos::subview(ptr, Kokkos::make_pair(offset_t(0), offset_t(ntr))));
  // perm(k') = source tile of new tile k'; new columns sort by source tile row.
  auto new_col = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::b2sr::tile_col_idx", nt, false);
  auto perm = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr_transpose::perm", nt, false);
  Kokkos::parallel_for(
      "bitgraph::b2sr_transpose::scatter", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nt),
      KOKKOS_LAMBDA(const offset_t k) {
        const offset_t p = atomic_fetch_add_offset(&cursor(acol(k)), 1);
        new_col(p) = src_row(k);
        perm(p) = k;
      });
  Kokkos::parallel_for(
      "bitgraph::b2sr_transpose::sort", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, ntr),
      KOKKOS_LAMBDA(const offset_t tr) { sort_segment(new_col, perm, ptr(tr), ptr(tr + 1)); });

  b2sr_matrix<mem> t;
  t.n = a.n;
  t.nnz = a.nnz;
  t.tile_dim = T;
  t.n_tile_rows = ntr;
  t.n_tiles = nt;
  t.kind = a.kind;
  t.tile_row_ptr = ptr;
  t.tile_col_idx = new_col;
  t.tile_bits = allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::b2sr::tile_bits", a.tile_bits.extent(0), false);
  auto src = a.template tile_words<word>();
  auto dst = t.template tile_words<word>();
  // A tile of A^T holds the same bits as the source tile read in the other packing order; keeping
  // the order therefore means transposing the T x T bit block.
  t.order = keep_order ? a.order : (a.order == bit_order::row_major ? bit_order::col_major : bit_order::row_major);
  Kokkos::parallel_for(
      "bitgraph::b2sr_transpose::bits", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nt),
      KOKKOS_LAMBDA(const offset_t k) {
        const offset_t s = perm(k);
        for (int i = 0; i < T; ++i) {
          if (!keep_order) {
            dst(k * T + i) = src(s * T + i);
          } else {
            word w = 0;
            for (int j = 0; j < T; ++j) w |= static_cast<word>(((src(s * T + j) >> i) & 1u) << j);
            dst(k * T + i) = w;
          }
        }
      });
  return t;
}

}  // namespace detail

/// Converts B2SR back to CSR (pattern only, rows sorted). `to_csr(exec, to_b2sr(exec, g))` equals the
/// pattern of `g` after duplicate removal: the round trip is exact.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> to_csr(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& b) {
  auto g = detail::dispatch_tile_dim(b.tile_dim, [&](auto t) {
    return detail::b2sr_to_csr_impl<ExecSpace, decltype(t)::value>(exec, b);
  });
  exec.fence();
  return g;
}

/// B2SR of A^T. The tile pattern is transposed like a CSR; each tile's bits are transposed too when
/// `keep_order` (default), or kept as they are with the packing order flipped (cheaper, same matrix).
template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> transpose(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                 bool keep_order = true) {
  auto t = detail::dispatch_tile_dim(a.tile_dim, [&](auto td) {
    return detail::b2sr_transpose_impl<ExecSpace, decltype(td)::value>(exec, a, keep_order);
  });
  exec.fence();
  return t;
}

/// Copies a B2SR matrix to another memory space.
template <class DstMemorySpace, class SrcMemorySpace>
b2sr_matrix<DstMemorySpace> copy_to(const b2sr_matrix<SrcMemorySpace>& b) {
  b2sr_matrix<DstMemorySpace> out;
  out.n = b.n;
  out.nnz = b.nnz;
  out.tile_dim = b.tile_dim;
  out.order = b.order;
  out.n_tile_rows = b.n_tile_rows;
  out.n_tiles = b.n_tiles;
  out.kind = b.kind;
  out.tile_row_ptr = Kokkos::create_mirror_view_and_copy(DstMemorySpace{}, b.tile_row_ptr);
  out.tile_col_idx = Kokkos::create_mirror_view_and_copy(DstMemorySpace{}, b.tile_col_idx);
  out.tile_bits = Kokkos::create_mirror_view_and_copy(DstMemorySpace{}, b.tile_bits);
  return out;
}

}  // namespace bitgraph
