// B2SR (bit-block compressed sparse row, Bit-GraphBLAS §III) construction and conversions: built directly
// from CSR on the execution space (count, scan, fill), converted back to CSR, transposed, copied. The
// matrix type and its tile helpers are in formats/b2sr_matrix.hpp.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/b2sr_matrix.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/detail/b2sr_kernels.hpp"

namespace bitgraph {

/// Converts a CSR graph to B2SR on `exec` without any dense or floating-point intermediate: count the
/// non-empty tiles per tile row, scan, then fill column indices and bits. Weights are dropped (B2SR is a
/// pattern); duplicates collapse. O(nnz · T / T) merge work per tile row plus O(tiles · T). Throws
/// `invalid_argument_error` for an unsupported tile dimension or a malformed CSR (`check_csr_graph`: extents
/// always, the device pass over row_ptr and col_idx unless `g.validated`), `allocation_error` when it does not
/// fit. Fences `exec`.
template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> to_b2sr(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                               const b2sr_options& opts = {});

/// Converts B2SR back to CSR (pattern only, rows sorted). `to_csr(exec, to_b2sr(exec, g))` equals the
/// pattern of `g` after duplicate removal: the round trip is exact. O(n · tiles per tile row + nnz).
/// Fences `exec`.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> to_csr(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& b);

/// B2SR of A^T. The tile pattern is transposed like a CSR; each tile's bits are transposed too when
/// `keep_order` (default), or kept as they are with the packing order flipped (cheaper, same matrix).
/// O(tiles · T²) with `keep_order`, O(tiles · T) without. Fences `exec`.
template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> transpose(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                 bool keep_order = true);

/// Copies a B2SR matrix to another memory space.
template <class DstMemorySpace, class SrcMemorySpace>
b2sr_matrix<DstMemorySpace> copy_to(const b2sr_matrix<SrcMemorySpace>& b);

namespace detail {

/// The set bits of all tile words of `b` (T its tile dimension): the nnz of a matrix built, filtered or
/// multiplied tile by tile. `label` names the kernel. Fences `exec`.
template <class ExecSpace, int T>
offset_t count_tile_bits(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& b, const char* label) {
  offset_t nnz = 0;
  Kokkos::parallel_reduce(
      label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, b.n_tiles * T),
      count_word_bits<memory_space_t<ExecSpace>, tile_word_t<T>>{b.template tile_words<tile_word_t<T>>()}, nnz);
  return nnz;
}

/// Tiles in the longest tile row of `b` (what `b2sr_matrix::longest_tile_row` records). Fences `exec`.
template <class ExecSpace>
offset_t longest_tile_row(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& b) {
  return longest_span(exec, b.tile_row_ptr, b.n_tile_rows, "bitgraph::b2sr::longest_tile_row");
}

/// Number of non-empty T x T tiles in the tile rows listed in `tile_rows`. Fences `exec`.
template <class ExecSpace, int T>
offset_t count_tiles_of(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                        Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> tile_rows) {
  offset_t total = 0;
  Kokkos::parallel_reduce(
      "bitgraph::b2sr::count_tiles_of", Kokkos::RangePolicy<ExecSpace>(exec, 0, tile_rows.extent(0)),
      count_tiles_functor<memory_space_t<ExecSpace>, T>{g.row_ptr, g.col_idx, tile_rows, g.n}, total);
  return total;
}

/// Number of non-empty T x T tiles of the whole matrix. Fences `exec`.
template <class ExecSpace, int T>
offset_t count_tiles(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g) {
  const vertex_t ntr = static_cast<vertex_t>(ceil_div<std::uint64_t>(g.n, T));
  offset_t total = 0;
  Kokkos::parallel_reduce("bitgraph::b2sr::count_all_tiles", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr),
                          count_tiles_functor<memory_space_t<ExecSpace>, T>{g.row_ptr, g.col_idx, {}, g.n}, total);
  return total;
}

template <class ExecSpace, int T>
b2sr_matrix<memory_space_t<ExecSpace>> to_b2sr_impl(const ExecSpace& exec,
                                                    const csr_graph<memory_space_t<ExecSpace>>& g, bit_order order) {
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
  auto ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);
  // Pass 1: count the non-empty tiles of every tile row.
  Kokkos::parallel_for("bitgraph::b2sr::count_tiles", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr),
                       b2sr_count_tiles<mem, T>{g.row_ptr, g.col_idx, ptr, g.n});
  const offset_t n_tiles = exclusive_scan(exec, ptr, "bitgraph::b2sr::scan_tiles");
  b.n_tiles = n_tiles;
  b.tile_row_ptr = ptr;
  b.tile_col_idx = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::b2sr::tile_col_idx", n_tiles, false);
  const offset_t bytes = checked_bytes<word>(n_tiles * T, "bitgraph::b2sr::tile_bits");
  b.tile_bits = allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::b2sr::tile_bits", bytes);
  auto words = b.template tile_words<word>();
  // Pass 2: fill tile column indices and bits (the bits view is zero-initialised).
  Kokkos::parallel_for(
      "bitgraph::b2sr::fill_tiles", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr),
      b2sr_fill_tiles<mem, T>{g.row_ptr, g.col_idx, ptr, b.tile_col_idx, words, g.n, order == bit_order::row_major});
  // Count set bits (duplicates in the CSR collapse into one bit).
  b.nnz = count_tile_bits<ExecSpace, T>(exec, b, "bitgraph::b2sr::count_bits");
  b.longest_tile_row = longest_tile_row(exec, b);
  return b;
}

template <class ExecSpace, int T>
csr_graph<memory_space_t<ExecSpace>> b2sr_to_csr_impl(const ExecSpace& exec,
                                                      const b2sr_matrix<memory_space_t<ExecSpace>>& b) {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  csr_graph<mem> g;
  g.n = b.n;
  g.kind = b.kind;
  auto words = b.template tile_words<word>();
  const bool row_major = b.order == bit_order::row_major;
  auto row_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::csr::row_ptr", offset_t(b.n) + 1);
  Kokkos::parallel_for("bitgraph::b2sr_to_csr::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, b.n),
                       b2sr_row_counts<mem, T>{b.tile_row_ptr, words, row_ptr, row_major});
  const offset_t nnz = exclusive_scan(exec, row_ptr, "bitgraph::b2sr_to_csr::scan");
  auto cols = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::csr::col_idx", nnz, false);
  Kokkos::parallel_for("bitgraph::b2sr_to_csr::fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, b.n),
                       b2sr_row_fill<mem, T>{b.tile_row_ptr, b.tile_col_idx, words, row_ptr, cols, row_major});
  g.row_ptr = row_ptr;
  g.col_idx = cols;
  g.nnz = nnz;
  return g;
}

template <class ExecSpace, int T>
b2sr_matrix<memory_space_t<ExecSpace>> b2sr_transpose_impl(const ExecSpace& exec,
                                                           const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                           bool keep_order) {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
  const vertex_t ntr = a.n_tile_rows;
  const offset_t nt = a.n_tiles;
  // The tile pattern is a CSR over tile rows: transpose it by counting, scanning and scattering tile
  // ids, then sort each new tile row so tile columns ascend.
  auto src_row = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::b2sr_transpose::src_row", nt, false);
  Kokkos::parallel_for("bitgraph::b2sr_transpose::expand", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr),
                       tile_source_rows<mem>{a.tile_row_ptr, src_row});
  auto ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);
  Kokkos::parallel_for("bitgraph::b2sr_transpose::count", policy(exec, 0, nt),
                       tile_column_counts<mem>{a.tile_col_idx, ptr});
  exclusive_scan(exec, ptr, "bitgraph::b2sr_transpose::scan");  // the total is nt
  auto cursor = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr_transpose::cursor", ntr, false);
  Kokkos::deep_copy(exec, cursor, Kokkos::subview(ptr, Kokkos::make_pair(offset_t(0), offset_t(ntr))));
  // perm(k') = source tile of new tile k'; new columns sort by source tile row.
  auto new_col = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::b2sr::tile_col_idx", nt, false);
  auto perm = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr_transpose::perm", nt, false);
  Kokkos::parallel_for("bitgraph::b2sr_transpose::scatter", policy(exec, 0, nt),
                       tile_scatter<mem>{a.tile_col_idx, src_row, cursor, new_col, perm});
  Kokkos::parallel_for("bitgraph::b2sr_transpose::sort", policy(exec, 0, ntr), tile_row_sort<mem>{ptr, new_col, perm});

  b2sr_matrix<mem> t;
  t.n = a.n;
  t.nnz = a.nnz;
  t.tile_dim = T;
  t.n_tile_rows = ntr;
  t.n_tiles = nt;
  t.kind = a.kind;
  t.tile_row_ptr = ptr;
  t.tile_col_idx = new_col;
  t.longest_tile_row = longest_tile_row(exec, t);
  t.tile_bits =
      allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::b2sr::tile_bits", a.tile_bits.extent(0), false);
  t.order = keep_order ? a.order : (a.order == bit_order::row_major ? bit_order::col_major : bit_order::row_major);
  Kokkos::parallel_for(
      "bitgraph::b2sr_transpose::bits", policy(exec, 0, nt),
      tile_bits_transpose<mem, T>{perm, a.template tile_words<word>(), t.template tile_words<word>(), keep_order});
  return t;
}

}  // namespace detail

template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> to_b2sr(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                               const b2sr_options& opts) {
  BITGRAPH_CHECK_ARG(valid_tile_dim(opts.tile_dim), "to_b2sr", "tile dimension ", opts.tile_dim,
                     " is not one of 4, 8, 16, 32, 64");
  check_csr_graph(exec, g, "to_b2sr");
  auto b = detail::dispatch_tile_dim(
      opts.tile_dim, [&](auto t) { return detail::to_b2sr_impl<ExecSpace, decltype(t)::value>(exec, g, opts.order); });
  exec.fence();
  return b;
}

template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> to_csr(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& b) {
  auto g = detail::dispatch_tile_dim(
      b.tile_dim, [&](auto t) { return detail::b2sr_to_csr_impl<ExecSpace, decltype(t)::value>(exec, b); });
  exec.fence();
  return g;
}

template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> transpose(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                 bool keep_order) {
  auto t = detail::dispatch_tile_dim(a.tile_dim, [&](auto td) {
    return detail::b2sr_transpose_impl<ExecSpace, decltype(td)::value>(exec, a, keep_order);
  });
  exec.fence();
  return t;
}

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
  out.longest_tile_row = b.longest_tile_row;
  out.tile_row_ptr = Kokkos::create_mirror_view_and_copy(DstMemorySpace{}, b.tile_row_ptr);
  out.tile_col_idx = Kokkos::create_mirror_view_and_copy(DstMemorySpace{}, b.tile_col_idx);
  out.tile_bits = Kokkos::create_mirror_view_and_copy(DstMemorySpace{}, b.tile_bits);
  return out;
}

}  // namespace bitgraph
