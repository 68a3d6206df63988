// The portable selections, primary templates of the select dispatch: band selections of a CSR graph
// (count, scan, fill) and of a B2SR pattern (tiles masked bitwise, empty tiles dropped; the tile filter is
// shared with unfold), and predicate selections of dense and sparse vectors.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph::detail {

namespace elementwise {

/// Whether entry (i, j) survives the selection (d = j - i compared with k).
KOKKOS_FORCEINLINE_FUNCTION bool band_keeps(int kind, std::int64_t d, std::int64_t k) {
  switch (kind) {
    case 0:
      return d <= k;
    case 1:
      return d >= k;
    case 2:
      return d == k;
    default:
      return d != k;
  }
}

/// Bits [0, count) of a 64-bit word, count in [0, 64].
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t low_bits(std::int64_t count) {
  if (count <= 0) return 0;
  if (count >= 64) return ~std::uint64_t(0);
  return (std::uint64_t(1) << count) - 1;
}

/// Positions p in [0, 64) with p <= lim, p >= lim and p == lim.
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t positions_le(std::int64_t lim) { return low_bits(lim + 1); }
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t positions_ge(std::int64_t lim) { return ~low_bits(lim); }
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t positions_eq(std::int64_t lim) {
  return (lim >= 0 && lim < 64) ? std::uint64_t(1) << lim : 0;
}

/// Tile filter of a band selection: the bits of word w of tile (tr, tc) that survive. In a row-major
/// tile, word w is row i = tr*T + w and bit c is column j = tc*T + c, so d = j - i keeps c <= k - (tc*T - i)
/// for tril and so on; in a column-major tile word w is column j and bit r is row i, and the inequalities
/// turn around (d falls as r grows).
///
/// `lim` is clamped to [-1, T] first: every position outside the tile selects the same as that bound,
/// and shift counts stay below T. With unclamped counts in [32, 64) on 16-bit tiles, the g++ 12
/// RelWithDebInfo + ASan/UBSan build dropped the bit 32 columns away, as if the shift were taken
/// modulo 32 (offdiag with T = 16, host suite; the Release build was right).
template <int T>
struct band_filter {
  int kind;
  std::int64_t k;
  bool row_major;
  KOKKOS_INLINE_FUNCTION static std::int64_t in_tile(std::int64_t lim) { return lim < -1 ? -1 : (lim > T ? T : lim); }
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(vertex_t tr, vertex_t tc, int w) const {
    if (row_major) {
      const std::int64_t i = std::int64_t(tr) * T + w;
      const std::int64_t lim = in_tile(k + i - std::int64_t(tc) * T);  // keep column c with c (op) lim
      switch (kind) {
        case 0:
          return positions_le(lim);
        case 1:
          return positions_ge(lim);
        case 2:
          return positions_eq(lim);
        default:
          return ~positions_eq(lim);
      }
    }
    const std::int64_t j = std::int64_t(tc) * T + w;
    const std::int64_t lim = in_tile(j - k - std::int64_t(tr) * T);  // d = j - i <= k  <=>  r >= lim
    switch (kind) {
      case 0:
        return positions_ge(lim);
      case 1:
        return positions_le(lim);
      case 2:
        return positions_eq(lim);
      default:
        return ~positions_eq(lim);
    }
  }
};

/// `k` clamped to [-n - 1, n + 1]: every offset outside selects the same as the bound, and the clamp
/// keeps the kernels' 64-bit arithmetic exact for any k.
inline std::int64_t clamp_offset(std::int64_t k, vertex_t n) {
  const std::int64_t bound = std::int64_t(n) + 1;
  return k < -bound ? -bound : (k > bound ? bound : k);
}

/// The graph kind of a selection: only diag and offdiag around the main diagonal keep a symmetric
/// pattern symmetric.
inline graph_kind selected_kind(graph_kind in, select_kind s, std::int64_t k) {
  const bool symmetric_selection = (s == select_kind::diag || s == select_kind::offdiag) && k == 0;
  return in == graph_kind::undirected && symmetric_selection ? graph_kind::undirected : graph_kind::directed;
}

}  // namespace elementwise

// ------------------------------------------------------------------------------- B2SR tile filter

/// Surviving tiles of one tile row (a tile survives when a word keeps a bit after the filter).
template <class Mem, int T, class Filter>
struct filter_tiles_count {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> aptr;
  Kokkos::View<const vertex_t*, Mem> acol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> src;
  Kokkos::View<offset_t*, Mem> ptr;
  Filter f;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    offset_t c = 0;
    for (offset_t k = aptr(tr); k < aptr(tr + 1); ++k) {
      const vertex_t tc = acol(k);
      bool any = false;
      for (int w = 0; w < T && !any; ++w) any = (static_cast<std::uint64_t>(src(k * T + w)) & f(tr, tc, w)) != 0;
      c += any ? 1 : 0;
    }
    ptr(tr) = c;
  }
};

/// Writes the surviving tiles of one tile row at its scanned offset, their words filtered.
template <class Mem, int T, class Filter>
struct filter_tiles_fill {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> aptr;
  Kokkos::View<const vertex_t*, Mem> acol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> src;
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<vertex_t*, Mem> col;
  Kokkos::View<word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> dst;
  Filter f;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    offset_t q = ptr(tr);
    for (offset_t k = aptr(tr); k < aptr(tr + 1); ++k) {
      const vertex_t tc = acol(k);
      bool any = false;
      for (int w = 0; w < T && !any; ++w) any = (static_cast<std::uint64_t>(src(k * T + w)) & f(tr, tc, w)) != 0;
      if (!any) continue;
      for (int w = 0; w < T; ++w)
        dst(q * T + w) = static_cast<word>(static_cast<std::uint64_t>(src(k * T + w)) & f(tr, tc, w));
      col(q) = tc;
      ++q;
    }
  }
};

/// A new B2SR with every tile's words ANDed with `filter(tr, tc, w)` and the tiles left empty dropped:
/// count the surviving tiles of each tile row, scan, fill (recomputing the masked words), then count
/// the bits. Tile size and packing order are kept. Shared by select and unfold.
template <class ExecSpace, int T, class Filter>
b2sr_matrix<memory_space_t<ExecSpace>> filter_b2sr_tiles(const ExecSpace& exec,
                                                         const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                         const Filter& filter, graph_kind kind) {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  const vertex_t ntr = a.n_tile_rows;
  auto src = a.template tile_words<word>();
  auto ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);
  Kokkos::parallel_for("bitgraph::b2sr_filter::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr),
                       filter_tiles_count<mem, T, Filter>{a.tile_row_ptr, a.tile_col_idx, src, ptr, filter});
  const offset_t n_tiles = exclusive_scan(exec, ptr);
  b2sr_matrix<mem> b;
  b.n = a.n;
  b.tile_dim = T;
  b.order = a.order;
  b.n_tile_rows = ntr;
  b.n_tiles = n_tiles;
  b.kind = kind;
  b.tile_row_ptr = ptr;
  b.tile_col_idx = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::b2sr::tile_col_idx", n_tiles, false);
  const offset_t bytes = checked_bytes<word>(n_tiles * T, "bitgraph::b2sr::tile_bits");
  b.tile_bits = allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::b2sr::tile_bits", bytes, false);
  auto dst = b.template tile_words<word>();
  Kokkos::parallel_for(
      "bitgraph::b2sr_filter::fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr),
      filter_tiles_fill<mem, T, Filter>{a.tile_row_ptr, a.tile_col_idx, src, ptr, b.tile_col_idx, dst, filter});
  b.nnz = count_tile_bits<ExecSpace, T>(exec, b, "bitgraph::b2sr_filter::count_bits");
  b.longest_tile_row = longest_tile_row(exec, b);
  return b;
}

// ------------------------------------------------------------------------------- band selections

template <class Mem>
struct csr_band_count {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<offset_t*, Mem> ptr;
  int kind;
  std::int64_t k;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i) const {
    offset_t c = 0;
    for (offset_t p = row_ptr(i); p < row_ptr(i + 1); ++p)
      c += elementwise::band_keeps(kind, std::int64_t(col(p)) - std::int64_t(i), k) ? 1 : 0;
    ptr(i) = c;
  }
};

template <class Mem>
struct csr_band_fill {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<const double*, Mem> wts;
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<vertex_t*, Mem> ocol;
  Kokkos::View<double*, Mem> ow;
  bool weighted;
  int kind;
  std::int64_t k;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i) const {
    offset_t q = ptr(i);
    for (offset_t p = row_ptr(i); p < row_ptr(i + 1); ++p) {
      if (!elementwise::band_keeps(kind, std::int64_t(col(p)) - std::int64_t(i), k)) continue;
      ocol(q) = col(p);
      if (weighted) ow(q) = wts(p);
      ++q;
    }
  }
};

/// CSR band selection (count, scan, fill; weights kept).
template <class ExecSpace>
struct csr_select_generic {
  using mem = memory_space_t<ExecSpace>;
  static csr_graph<mem> run(const ExecSpace& exec, const csr_graph<mem>& g, select_kind s, std::int64_t k) {
    using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
    const int kind = static_cast<int>(s);
    auto ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::csr::row_ptr", offset_t(g.n) + 1);
    Kokkos::parallel_for("bitgraph::select::csr_count", policy(exec, 0, g.n),
                         csr_band_count<mem>{g.row_ptr, g.col_idx, ptr, kind, k});
    const offset_t nnz = exclusive_scan(exec, ptr);
    csr_graph<mem> out;
    out.n = g.n;
    out.nnz = nnz;
    out.kind = elementwise::selected_kind(g.kind, s, k);
    out.has_duplicates = g.has_duplicates;
    out.has_weights = g.has_weights;
    out.row_ptr = ptr;
    out.col_idx = allocate_view<typename csr_graph<mem>::indices_view>("bitgraph::csr::col_idx", nnz, false);
    if (g.has_weights)
      out.weights = allocate_view<typename csr_graph<mem>::weights_view>("bitgraph::csr::weights", nnz, false);
    Kokkos::parallel_for(
        "bitgraph::select::csr_fill", policy(exec, 0, g.n),
        csr_band_fill<mem>{g.row_ptr, g.col_idx, g.weights, ptr, out.col_idx, out.weights, g.has_weights, kind, k});
    return out;
  }
};

template <class ExecSpace>
struct csr_select_impl : csr_select_generic<ExecSpace> {};

/// B2SR band selection (dispatches the tile dimension).
template <class ExecSpace>
struct b2sr_select_generic {
  using mem = memory_space_t<ExecSpace>;
  static b2sr_matrix<mem> run(const ExecSpace& exec, const b2sr_matrix<mem>& a, select_kind s, std::int64_t k) {
    return dispatch_tile_dim(a.tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      elementwise::band_filter<T> f{static_cast<int>(s), k, a.order == bit_order::row_major};
      return filter_b2sr_tiles<ExecSpace, T>(exec, a, f, elementwise::selected_kind(a.kind, s, k));
    });
  }
};

template <class ExecSpace>
struct b2sr_select_impl : b2sr_select_generic<ExecSpace> {};

// ------------------------------------------------------------------------------- vector selections

template <class Mem, class P, class T>
struct select_dense_flag {
  Kokkos::View<const T*, Mem> x;
  Kokkos::View<offset_t*, Mem> keep;
  P p;
  T absent;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i) const {
    const T v = x(i);
    keep(i) = (v != absent && p.apply(static_cast<vertex_t>(i), v)) ? 1 : 0;
  }
};

template <class Mem, class T>
struct select_dense_fill {
  Kokkos::View<const T*, Mem> x;
  Kokkos::View<const offset_t*, Mem> keep;
  Kokkos::View<vertex_t*, Mem> oi;
  Kokkos::View<T*, Mem> ov;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i) const {
    if (keep(i + 1) == keep(i)) return;
    oi(keep(i)) = static_cast<vertex_t>(i);
    ov(keep(i)) = x(i);
  }
};

template <class Mem, class P, class T>
struct select_sparse_flag {
  Kokkos::View<const vertex_t*, Mem> ui;
  Kokkos::View<const T*, Mem> uv;
  Kokkos::View<offset_t*, Mem> keep;
  P p;
  bool has_values;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    keep(q) = p.apply(ui(q), has_values ? uv(q) : T(1)) ? 1 : 0;
  }
};

template <class Mem, class T>
struct select_sparse_fill {
  Kokkos::View<const vertex_t*, Mem> ui;
  Kokkos::View<const T*, Mem> uv;
  Kokkos::View<const offset_t*, Mem> keep;
  Kokkos::View<vertex_t*, Mem> oi;
  Kokkos::View<T*, Mem> ov;
  bool has_values;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    if (keep(q + 1) == keep(q)) return;
    oi(keep(q)) = ui(q);
    if (has_values) ov(keep(q)) = uv(q);
  }
};

/// Entries of a dense vector (present = differs from `absent`) or a sparse vector that satisfy a
/// predicate, as a new sparse vector: flag, scan, fill.
template <class ExecSpace, class P, class T>
struct select_vector_generic {
  using mem = memory_space_t<ExecSpace>;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;

  static sparse_vector<T, mem> run_dense(const ExecSpace& exec, const P& pred, const Kokkos::View<const T*, mem>& u,
                                         T absent) {
    const offset_t n = u.extent(0);
    auto keep = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::select::keep", n + 1);
    Kokkos::parallel_for("bitgraph::select::dense_flag", policy(exec, 0, n),
                         select_dense_flag<mem, P, T>{u, keep, pred, absent});
    const offset_t total = exclusive_scan(exec, keep);
    sparse_vector<T, mem> out;
    out.n = static_cast<vertex_t>(n);
    out.nnz = total;
    out.indices = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sparse::indices", total, false);
    out.values = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", total, false);
    Kokkos::parallel_for("bitgraph::select::dense_fill", policy(exec, 0, n),
                         select_dense_fill<mem, T>{u, keep, out.indices, out.values});
    return out;
  }

  static sparse_vector<T, mem> run_sparse(const ExecSpace& exec, const P& pred, const sparse_vector<T, mem>& u) {
    const offset_t nnz = u.nnz;
    const bool has_values = u.values.extent(0) > 0;
    auto keep = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::select::keep", nnz + 1);
    Kokkos::parallel_for("bitgraph::select::sparse_flag", policy(exec, 0, nnz),
                         select_sparse_flag<mem, P, T>{u.indices, u.values, keep, pred, has_values});
    const offset_t total = exclusive_scan(exec, keep);
    sparse_vector<T, mem> out;
    out.n = u.n;
    out.nnz = total;
    out.indices = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sparse::indices", total, false);
    if (has_values) out.values = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", total, false);
    Kokkos::parallel_for("bitgraph::select::sparse_fill", policy(exec, 0, nnz),
                         select_sparse_fill<mem, T>{u.indices, u.values, keep, out.indices, out.values, has_values});
    return out;
  }
};

template <class ExecSpace, class P, class T>
struct select_vector_impl : select_vector_generic<ExecSpace, P, T> {};

}  // namespace bitgraph::detail
