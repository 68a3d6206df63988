// Select: the structural band selections of GraphBLAS (tril, triu, diag, offdiag with an offset k) on CSR
// and B2SR matrices, and value predicates on dense and sparse vectors producing sparse vectors.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/ewise.hpp"

namespace bitgraph {

/// Structural selections of a matrix by the diagonal offset d = j - i of entry A(i, j), relative to k:
/// `tril` keeps d <= k (k = 0: the lower triangle with the diagonal, k = -1: strictly lower), `triu`
/// d >= k, `diag` d == k, `offdiag` d != k.
enum class select_kind : std::uint8_t { tril, triu, diag, offdiag };

/// "tril", "triu", "diag" or "offdiag".
inline std::string_view to_string(select_kind s) {
  switch (s) {
    case select_kind::tril: return "tril";
    case select_kind::triu: return "triu";
    case select_kind::diag: return "diag";
    case select_kind::offdiag: return "offdiag";
  }
  return "?";
}

// ------------------------------------------------------------------------------------ predicates
//
// A vector predicate is a struct with `apply(i, x)` returning true for the entries to keep.

/// x == value.
template <class T>
struct value_eq {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x == value; }
};
/// x != value.
template <class T>
struct value_ne {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x != value; }
};
/// x > value.
template <class T>
struct value_gt {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x > value; }
};
/// x >= value.
template <class T>
struct value_ge {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x >= value; }
};
/// x < value.
template <class T>
struct value_lt {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x < value; }
};
/// x <= value.
template <class T>
struct value_le {
  T value{};
  KOKKOS_INLINE_FUNCTION constexpr bool apply(vertex_t, T x) const { return x <= value; }
};

namespace detail {

namespace elementwise {

/// Whether entry (i, j) survives the selection (d = j - i compared with k).
KOKKOS_FORCEINLINE_FUNCTION bool band_keeps(int kind, std::int64_t d, std::int64_t k) {
  switch (kind) {
    case 0: return d <= k;
    case 1: return d >= k;
    case 2: return d == k;
    default: return d != k;
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
  KOKKOS_INLINE_FUNCTION static std::int64_t in_tile(std::int64_t lim) {
    return lim < -1 ? -1 : (lim > T ? T : lim);
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(vertex_t tr, vertex_t tc, int w) const {
    if (row_major) {
      const std::int64_t i = std::int64_t(tr) * T + w;
      const std::int64_t lim = in_tile(k + i - std::int64_t(tc) * T);  // keep column c with c (op) lim
      switch (kind) {
        case 0: return positions_le(lim);
        case 1: return positions_ge(lim);
        case 2: return positions_eq(lim);
        default: return ~positions_eq(lim);
      }
    }
    const std::int64_t j = std::int64_t(tc) * T + w;
    const std::int64_t lim = in_tile(j - k - std::int64_t(tr) * T);  // d = j - i <= k  <=>  r >= lim
    switch (kind) {
      case 0: return positions_ge(lim);
      case 1: return positions_le(lim);
      case 2: return positions_eq(lim);
      default: return ~positions_eq(lim);
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

/// A new B2SR with every tile's words ANDed with `filter(tr, tc, w)` and the tiles left empty dropped:
/// count the surviving tiles of each tile row, scan, fill (recomputing the masked words), then count
/// the bits. Tile size and packing order are kept. Shared by select and unfold.
template <class ExecSpace, int T, class Filter>
BITGRAPH_TU_LOCAL b2sr_matrix<memory_space_t<ExecSpace>> filter_b2sr_tiles(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                         const Filter& filter, graph_kind kind) {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  const vertex_t ntr = a.n_tile_rows;
  auto aptr = a.tile_row_ptr;
  auto acol = a.tile_col_idx;
  auto src = a.template tile_words<word>();
  const Filter f = filter;
  auto ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);
  Kokkos::parallel_for(
      "bitgraph::b2sr_filter::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr), KOKKOS_LAMBDA(const vertex_t tr) {
        offset_t c = 0;
        for (offset_t k = aptr(tr); k < aptr(tr + 1); ++k) {
          const vertex_t tc = acol(k);
          bool any = false;
          for (int w = 0; w < T && !any; ++w) any = (static_cast<std::uint64_t>(src(k * T + w)) & f(tr, tc, w)) != 0;
          c += any ? 1 : 0;
        }
        ptr(tr) = c;
      });
  const offset_t n_tiles = detail::exclusive_scan(exec, ptr);
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
  auto col = b.tile_col_idx;
  auto dst = b.template tile_words<word>();
  Kokkos::parallel_for(
      "bitgraph::b2sr_filter::fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr), KOKKOS_LAMBDA(const vertex_t tr) {
        offset_t q = ptr(tr);
        for (offset_t k = aptr(tr); k < aptr(tr + 1); ++k) {
          const vertex_t tc = acol(k);
          bool any = false;
          for (int w = 0; w < T && !any; ++w) any = (static_cast<std::uint64_t>(src(k * T + w)) & f(tr, tc, w)) != 0;
          if (!any) continue;
          for (int w = 0; w < T; ++w) dst(q * T + w) = static_cast<word>(static_cast<std::uint64_t>(src(k * T + w)) & f(tr, tc, w));
          col(q) = tc;
          ++q;
        }
      });
  offset_t nnz = 0;
  Kokkos::parallel_reduce(
      "bitgraph::b2sr_filter::count_bits", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, n_tiles * T),
      KOKKOS_LAMBDA(const offset_t i, offset_t& acc) { acc += popcount(static_cast<std::uint64_t>(dst(i))); }, nnz);
  b.nnz = nnz;
  return b;
}

/// B2SR band selection for tile dimension T.
template <class ExecSpace, int T>
b2sr_matrix<memory_space_t<ExecSpace>> b2sr_select_band(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                        select_kind s, std::int64_t k) {
  elementwise::band_filter<T> f{static_cast<int>(s), k, a.order == bit_order::row_major};
  return filter_b2sr_tiles<ExecSpace, T>(exec, a, f, elementwise::selected_kind(a.kind, s, k));
}

/// CSR band selection (count, scan, fill; weights kept); portable.
template <class ExecSpace, BITGRAPH_TU_LOCAL_PARAM>
struct csr_select_impl {
  using mem = memory_space_t<ExecSpace>;
  static csr_graph<mem> run(const ExecSpace& exec, const csr_graph<mem>& g, select_kind s, std::int64_t k) {
    const int kind = static_cast<int>(s);
    auto row_ptr = g.row_ptr;
    auto col = g.col_idx;
    auto wts = g.weights;
    const bool weighted = g.has_weights;
    auto ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::csr::row_ptr", offset_t(g.n) + 1);
    Kokkos::parallel_for(
        "bitgraph::select::csr_count", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.n),
        KOKKOS_LAMBDA(const offset_t i) {
          offset_t c = 0;
          for (offset_t p = row_ptr(i); p < row_ptr(i + 1); ++p)
            c += elementwise::band_keeps(kind, std::int64_t(col(p)) - std::int64_t(i), k) ? 1 : 0;
          ptr(i) = c;
        });
    const offset_t nnz = detail::exclusive_scan(exec, ptr);
    csr_graph<mem> out;
    out.n = g.n;
    out.nnz = nnz;
    out.kind = elementwise::selected_kind(g.kind, s, k);
    out.has_duplicates = g.has_duplicates;
    out.has_weights = g.has_weights;
    out.row_ptr = ptr;
    out.col_idx = allocate_view<typename csr_graph<mem>::indices_view>("bitgraph::csr::col_idx", nnz, false);
    if (weighted) out.weights = allocate_view<typename csr_graph<mem>::weights_view>("bitgraph::csr::weights", nnz, false);
    auto ocol = out.col_idx;
    auto ow = out.weights;
    Kokkos::parallel_for(
        "bitgraph::select::csr_fill", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.n),
        KOKKOS_LAMBDA(const offset_t i) {
          offset_t q = ptr(i);
          for (offset_t p = row_ptr(i); p < row_ptr(i + 1); ++p) {
            if (!elementwise::band_keeps(kind, std::int64_t(col(p)) - std::int64_t(i), k)) continue;
            ocol(q) = col(p);
            if (weighted) ow(q) = wts(p);
            ++q;
          }
        });
    return out;
  }
};

/// B2SR band selection; portable (dispatches the tile dimension).
template <class ExecSpace>
struct b2sr_select_impl {
  using mem = memory_space_t<ExecSpace>;
  static b2sr_matrix<mem> run(const ExecSpace& exec, const b2sr_matrix<mem>& a, select_kind s, std::int64_t k) {
    return dispatch_tile_dim(a.tile_dim, [&](auto td) { return b2sr_select_band<ExecSpace, decltype(td)::value>(exec, a, s, k); });
  }
};

/// Entries of a dense vector (present = differs from `absent`) or a sparse vector that satisfy a
/// predicate, as a new sparse vector: flag, scan, fill; portable.
template <class ExecSpace, class P, class T, BITGRAPH_TU_LOCAL_PARAM>
struct select_vector_impl {
  using mem = memory_space_t<ExecSpace>;
  static sparse_vector<T, mem> run_dense(const ExecSpace& exec, const P& pred, const Kokkos::View<const T*, mem>& u,
                                         T absent) {
    const offset_t n = u.extent(0);
    auto x = u;
    const P p = pred;
    auto keep = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::select::keep", n + 1);
    Kokkos::parallel_for(
        "bitgraph::select::dense_flag", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, n),
        KOKKOS_LAMBDA(const offset_t i) {
          const T v = x(i);
          keep(i) = (v != absent && p.apply(static_cast<vertex_t>(i), v)) ? 1 : 0;
        });
    const offset_t total = detail::exclusive_scan(exec, keep);
    sparse_vector<T, mem> out;
    out.n = static_cast<vertex_t>(n);
    out.nnz = total;
    out.indices = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sparse::indices", total, false);
    out.values = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", total, false);
    auto oi = out.indices;
    auto ov = out.values;
    Kokkos::parallel_for(
        "bitgraph::select::dense_fill", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, n),
        KOKKOS_LAMBDA(const offset_t i) {
          if (keep(i + 1) == keep(i)) return;
          oi(keep(i)) = static_cast<vertex_t>(i);
          ov(keep(i)) = x(i);
        });
    return out;
  }

  static sparse_vector<T, mem> run_sparse(const ExecSpace& exec, const P& pred, const sparse_vector<T, mem>& u) {
    const offset_t nnz = u.nnz;
    auto ui = u.indices;
    auto uv = u.values;
    const bool has_values = uv.extent(0) > 0;
    const P p = pred;
    auto keep = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::select::keep", nnz + 1);
    Kokkos::parallel_for(
        "bitgraph::select::sparse_flag", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nnz),
        KOKKOS_LAMBDA(const offset_t q) { keep(q) = p.apply(ui(q), has_values ? uv(q) : T(1)) ? 1 : 0; });
    const offset_t total = detail::exclusive_scan(exec, keep);
    sparse_vector<T, mem> out;
    out.n = u.n;
    out.nnz = total;
    out.indices = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sparse::indices", total, false);
    if (has_values) out.values = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", total, false);
    auto oi = out.indices;
    auto ov = out.values;
    Kokkos::parallel_for(
        "bitgraph::select::sparse_fill", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nnz),
        KOKKOS_LAMBDA(const offset_t q) {
          if (keep(q + 1) == keep(q)) return;
          oi(keep(q)) = ui(q);
          if (has_values) ov(keep(q)) = uv(q);
        });
    return out;
  }
};

template <class P, class T, class = void>
struct is_predicate : std::false_type {};
template <class P, class T>
struct is_predicate<P, T, std::void_t<decltype(static_cast<bool>(std::declval<const P&>().apply(std::declval<vertex_t>(), std::declval<T>())))>>
    : std::true_type {};

inline void check_select_kind(select_kind s) {
  BITGRAPH_CHECK_ARG(static_cast<int>(s) <= static_cast<int>(select_kind::offdiag), "select", "unknown selection ",
                     static_cast<int>(s));
}

}  // namespace detail

/// The entries of a CSR graph selected by their diagonal offset (see `select_kind`), weights kept, as
/// a new CSR (rows stay sorted). The result is directed unless the input is undirected and the
/// selection symmetric (diag / offdiag with k = 0). O(n + nnz): count, scan, fill.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> select(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                            select_kind s, std::int64_t k = 0) {
  detail::check_select_kind(s);
  BITGRAPH_CHECK_ARG(g.row_ptr.extent(0) == offset_t(g.n) + 1, "select", "row_ptr has ", g.row_ptr.extent(0),
                     " entries, expected n + 1 = ", offset_t(g.n) + 1);
  auto out = detail::csr_select_impl<ExecSpace>::run(exec, g, s, detail::elementwise::clamp_offset(k, g.n));
  exec.fence();
  return out;
}

/// The same selection on a B2SR pattern: every tile is masked bitwise (a band of each word), tiles left
/// empty are dropped and the tile rows rebuilt (count, scan, fill); tile size and packing order are
/// kept. O(tiles · T).
template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> select(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                              select_kind s, std::int64_t k = 0) {
  detail::check_select_kind(s);
  BITGRAPH_CHECK_ARG(valid_tile_dim(a.tile_dim), "select", "tile dimension ", a.tile_dim, " is not one of 4, 8, 16, 32, 64");
  auto out = detail::b2sr_select_impl<ExecSpace>::run(exec, a, s, detail::elementwise::clamp_offset(k, a.n));
  exec.fence();
  return out;
}

/// The present entries of a dense vector (those that differ from `absent`, default T{}) for which
/// `pred.apply(i, x)` holds, as a new sparse vector with their values. O(n): flag, scan, fill.
template <class ExecSpace, class V, class P>
  requires detail::is_dense<V>::value
sparse_vector<typename V::non_const_value_type, memory_space_t<ExecSpace>> select(
    const ExecSpace& exec, const V& u, const P& pred, typename V::non_const_value_type absent = {}) {
  using T = typename V::non_const_value_type;
  using mem = memory_space_t<ExecSpace>;
  static_assert(detail::is_predicate<P, T>::value, "the predicate needs apply(i, x) returning bool");
  BITGRAPH_REQUIRE(u.extent(0) < max_vertices, size_error, "select", "vector of ", u.extent(0),
                   " entries exceeds the vertex limit");
  auto out = detail::select_vector_impl<ExecSpace, P, T>::run_dense(exec, pred, Kokkos::View<const T*, mem>(u), absent);
  exec.fence();
  return out;
}

/// The entries of a sparse vector for which `pred.apply(i, x)` holds (x = 1 in a structure-only vector,
/// whose result is structure-only too), as a new sparse vector. O(nnz).
template <class ExecSpace, class T, class P>
sparse_vector<T, memory_space_t<ExecSpace>> select(const ExecSpace& exec, const sparse_vector<T, memory_space_t<ExecSpace>>& u,
                                                   const P& pred) {
  static_assert(detail::is_predicate<P, T>::value, "the predicate needs apply(i, x) returning bool");
  detail::elementwise::check_sparse("select", "input", u);
  auto out = detail::select_vector_impl<ExecSpace, P, T>::run_sparse(exec, pred, u);
  exec.fence();
  return out;
}

}  // namespace bitgraph
