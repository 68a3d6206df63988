// Vertex orderings where the graph lives: a relabelling held in a memory space, the degree order and the
// hub-cluster order computed on the execution space, P A P^T without a trip through the host, and the moves of
// per-vertex vectors between the caller's ids and the reordered ones. With these any op or algorithm runs
// on a reordered graph and hands its results back in the caller's ids.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/launch.hpp"
#include "bitgraph/core/sort.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/reorder/permutation.hpp"

namespace bitgraph::reorder {

/// A relabelling of n vertices in `Mem` (the device form of `permutation`): vertex `old` of the caller's
/// graph is vertex `new_of_old(old)` of the reordered one, and `old_of_new` is the inverse.
template <class Mem>
struct vertex_order {
  using memory_space = Mem;
  Kokkos::View<vertex_t*, Mem> new_of_old;  ///< caller's id -> reordered id
  Kokkos::View<vertex_t*, Mem> old_of_new;  ///< reordered id -> caller's id

  vertex_t size() const noexcept { return static_cast<vertex_t>(new_of_old.extent(0)); }
};

/// Vertices by descending row length (out-degree), ties in id order: the same order as `degree_order` on a
/// host CSR, computed on `exec` (a stable radix sort of n keys). Hubs come first, so the rows and columns
/// that hold most entries share tiles. O(n + m) work. Fences `exec`.
template <class ExecSpace>
vertex_order<memory_space_t<ExecSpace>> degree_order(const ExecSpace& exec,
                                                     const csr_graph<memory_space_t<ExecSpace>>& g);

/// Hub clusters: with rank(v) the position of v in `degree_order` and anchor(v) the smallest rank among v's
/// neighbours other than v itself (rank(v) when there is none), vertices sorted by
/// (min(anchor(v), rank(v)), rank(v)). Each vertex follows its top hub unless it outranks every neighbour, and
/// then leads its own cluster, so vertices sharing a neighbour become consecutive and the hubs' tiles fill.
/// O(n + m) work plus two stable radix sorts of n keys, on `exec`. Throws `invalid_argument_error` when the
/// graph's arrays do not match its n and nnz. Fences `exec`.
template <class ExecSpace>
vertex_order<memory_space_t<ExecSpace>> cluster_order(const ExecSpace& exec,
                                                      const csr_graph<memory_space_t<ExecSpace>>& g);

/// A host permutation moved to `exec`'s memory (it is a bijection by construction). Fences `exec`.
template <class ExecSpace>
vertex_order<memory_space_t<ExecSpace>> to_vertex_order(const ExecSpace& exec, const permutation& p);

/// Throws `invalid_argument_error` naming `func` unless `p` relabels exactly `n` vertices and its two maps are
/// inverse bijections (a view assembled by hand may be neither). O(n) on `exec`; fences.
template <class ExecSpace>
void check_vertex_order(const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p, vertex_t n,
                        const char* func);

/// P A P^T: entry (u, v) of `g` becomes (p(u), p(v)), with its weight; kind, flags and the longest row kept,
/// rows sorted. O(m) plus the row sorts, on `exec`. Throws `invalid_argument_error` when `p` is not a
/// relabelling of g's vertices (`check_vertex_order`) or `g` is malformed (`check_csr_graph`). Fences `exec`.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> relabel(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                             const vertex_order<memory_space_t<ExecSpace>>& p);

/// Per-vertex values (dense views) given in the caller's ids written in reordered ids: `out(p(v)) = in(v)`. Throws
/// `invalid_argument_error` on a length mismatch. Asynchronous on `exec`.
template <class ExecSpace, class In, class Out>
requires(bitgraph::detail::is_dense<In>::value&& bitgraph::detail::is_dense<Out>::value) void to_reordered_ids(
    const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p, const In& in, const Out& out);

/// The inverse move: values computed on the reordered graph back in the caller's ids, `out(v) = in(p(v))`.
/// The values themselves are kept (translate vertex-valued results such as parents separately). Throws
/// `invalid_argument_error` on a length mismatch. Asynchronous on `exec`.
template <class ExecSpace, class In, class Out>
requires(bitgraph::detail::is_dense<In>::value&& bitgraph::detail::is_dense<Out>::value) void to_caller_ids(
    const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p, const In& in, const Out& out);

/// Both moves for bitmaps (one thread per output word, no atomics). Throw `invalid_argument_error` on a
/// length mismatch. Asynchronous on `exec`.
template <class ExecSpace>
void to_reordered_ids(const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p,
                      const bitmap<memory_space_t<ExecSpace>>& in, bitmap<memory_space_t<ExecSpace>>& out);
template <class ExecSpace>
void to_caller_ids(const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p,
                   const bitmap<memory_space_t<ExecSpace>>& in, bitmap<memory_space_t<ExecSpace>>& out);

// ------------------------------------------------------------------------------------------ implementation

namespace detail {

/// Key of vertex u for the degree order: larger rows get smaller keys.
template <class Mem>
struct degree_keys {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  offset_t longest;
  Kokkos::View<std::uint32_t*, Mem> keys;
  Kokkos::View<vertex_t*, Mem> ids;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    keys(u) = static_cast<std::uint32_t>(longest - (row_ptr(u + 1) - row_ptr(u)));
    ids(u) = u;
  }
};

/// Key of the vertex at degree rank k for the cluster order: min(k, smallest rank of its other neighbours).
/// A team thread per row and its vector lanes over the row, so a hub's long row does not stall one thread.
template <class ExecSpace>
struct cluster_keys {
  using mem = memory_space_t<ExecSpace>;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const offset_t*, mem> row_ptr;
  Kokkos::View<const vertex_t*, mem> col;
  Kokkos::View<const vertex_t*, mem> rank;     // degree order's new_of_old
  Kokkos::View<const vertex_t*, mem> by_rank;  // degree order's old_of_new
  Kokkos::View<std::uint32_t*, mem> keys;
  vertex_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    // Strided: the league is capped at INT_MAX teams, fewer than 2^32 - 1 rows on a host space.
    const std::uint64_t stride = std::uint64_t(m.league_size()) * m.team_size();
    for (std::uint64_t k = std::uint64_t(m.league_rank()) * m.team_size() + m.team_rank(); k < n; k += stride) {
      const vertex_t v = by_rank(k);
      vertex_t hub = Kokkos::reduction_identity<vertex_t>::min();  // what an empty row leaves
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(m, row_ptr(v), row_ptr(v + 1)),
          [&](const offset_t p, vertex_t& best) {
            const vertex_t u = col(p);
            if (u != v && rank(u) < best) best = rank(u);
          },
          Kokkos::Min<vertex_t>(hub));
      Kokkos::single(Kokkos::PerThread(m), [&]() { keys(k) = hub < k ? hub : static_cast<vertex_t>(k); });
    }
  }
};

/// new_of_old from old_of_new.
template <class Mem>
struct invert_order {
  Kokkos::View<const vertex_t*, Mem> old_of_new;
  Kokkos::View<vertex_t*, Mem> new_of_old;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t k) const { new_of_old(old_of_new(k)) = k; }
};

/// Vertices whose two maps disagree (or point outside 0..n-1).
template <class Mem>
struct count_order_faults {
  Kokkos::View<const vertex_t*, Mem> new_of_old;
  Kokkos::View<const vertex_t*, Mem> old_of_new;
  vertex_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u, offset_t& bad) const {
    const vertex_t k = new_of_old(u);
    if (k >= n || old_of_new(k) != u) ++bad;
  }
};

/// Row k of the relabelled graph: the length of row old_of_new(k).
template <class Mem>
struct relabel_counts {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> old_of_new;
  Kokkos::View<offset_t*, Mem> counts;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t k) const {
    const vertex_t u = old_of_new(k);
    counts(k) = row_ptr(u + 1) - row_ptr(u);
  }
};

/// Row k of the relabelled graph: row old_of_new(k) with its columns relabelled (sorted afterwards).
template <class Mem>
struct relabel_fill {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<const double*, Mem> w;
  Kokkos::View<const vertex_t*, Mem> new_of_old;
  Kokkos::View<const vertex_t*, Mem> old_of_new;
  Kokkos::View<const offset_t*, Mem> out_ptr;
  Kokkos::View<vertex_t*, Mem> out_col;
  Kokkos::View<double*, Mem> out_w;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t k) const {
    const vertex_t u = old_of_new(k);
    const offset_t base = row_ptr(u), len = row_ptr(u + 1) - base, q = out_ptr(k);
    const bool weighted = out_w.extent(0) > 0;
    for (offset_t p = 0; p < len; ++p) {
      out_col(q + p) = new_of_old(col(base + p));
      if (weighted) out_w(q + p) = w(base + p);
    }
  }
};

/// out(k) = in(map(k)): both dense moves, with the map that gives each output its source.
template <class Mem, class T>
struct gather_values {
  Kokkos::View<const vertex_t*, Mem> map;
  Kokkos::View<const T*, Mem> in;
  Kokkos::View<T*, Mem> out;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t k) const { out(k) = in(map(k)); }
};

/// Word w of the output bitmap: bit b is bit map(32 w + b) of the input.
template <class Mem>
struct gather_bits {
  Kokkos::View<const vertex_t*, Mem> map;
  Kokkos::View<const std::uint32_t*, Mem> in;
  Kokkos::View<std::uint32_t*, Mem> out;
  vertex_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t w) const {
    std::uint32_t word = 0;
    for (int b = 0; b < 32; ++b) {
      const std::uint64_t k = w * 32 + b;
      if (k >= n) break;
      const vertex_t src = map(k);
      word |= ((in(src >> 5) >> (src & 31)) & 1u) << b;
    }
    out(w) = word;
  }
};

template <class ExecSpace, class T>
void gather_dense(const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p,
                  Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> map,
                  Kokkos::View<const T*, memory_space_t<ExecSpace>> in, Kokkos::View<T*, memory_space_t<ExecSpace>> out,
                  const char* func) {
  BITGRAPH_CHECK_ARG(in.extent(0) == p.size() && out.extent(0) == p.size(), func, "vectors of ", in.extent(0), " and ",
                     out.extent(0), " entries for an order of ", p.size(), " vertices");
  Kokkos::parallel_for(func, Kokkos::RangePolicy<ExecSpace>(exec, 0, p.size()),
                       gather_values<memory_space_t<ExecSpace>, T>{map, in, out});
}

template <class ExecSpace>
void gather_bitmap(const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p,
                   Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> map,
                   const bitmap<memory_space_t<ExecSpace>>& in, bitmap<memory_space_t<ExecSpace>>& out,
                   const char* func) {
  using bm = bitmap<memory_space_t<ExecSpace>>;
  BITGRAPH_CHECK_ARG(in.n == p.size() && out.n == p.size(), func, "bitmaps of ", in.n, " and ", out.n,
                     " bits for an order of ", p.size(), " vertices");
  BITGRAPH_CHECK_ARG(in.words.extent(0) >= bm::words_for(in.n) && out.words.extent(0) >= bm::words_for(out.n), func,
                     "a bitmap has fewer words than its length needs");
  // Every word is written, the padding ones as zero.
  Kokkos::parallel_for(func, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, bm::words_for(out.n)),
                       gather_bits<memory_space_t<ExecSpace>>{map, in.words, out.words, p.size()});
}

}  // namespace detail

template <class ExecSpace>
vertex_order<memory_space_t<ExecSpace>> degree_order(const ExecSpace& exec,
                                                     const csr_graph<memory_space_t<ExecSpace>>& g) {
  using mem = memory_space_t<ExecSpace>;
  BITGRAPH_CHECK_ARG(g.row_ptr.extent(0) == std::uint64_t(g.n) + 1, "reorder::degree_order", "row_ptr has ",
                     g.row_ptr.extent(0), " entries for ", g.n, " vertices");
  bitgraph::detail::profiling_region region("bitgraph::reorder::degree_order");
  const offset_t longest = g.longest_row
                               ? g.longest_row
                               : bitgraph::detail::longest_span(exec, g.row_ptr, g.n, "bitgraph::reorder::longest_row");
  BITGRAPH_CHECK_ARG(longest <= 0xffffffffu, "reorder::degree_order", "a row of ", longest,
                     " entries does not fit a 32-bit sort key");
  vertex_order<mem> p;
  auto keys = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::reorder::degree_keys", g.n, false);
  p.old_of_new = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::reorder::old_of_new", g.n, false);
  p.new_of_old = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::reorder::new_of_old", g.n, false);
  Kokkos::parallel_for("bitgraph::reorder::degree_keys", Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n),
                       detail::degree_keys<mem>{g.row_ptr, longest, keys, p.old_of_new});
  bitgraph::detail::radix_sort_pairs(exec, keys, p.old_of_new, g.n,
                                     bitgraph::detail::key_bits(static_cast<std::uint32_t>(longest)), true);
  Kokkos::parallel_for("bitgraph::reorder::invert", Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n),
                       detail::invert_order<mem>{p.old_of_new, p.new_of_old});
  exec.fence();
  return p;
}

template <class ExecSpace>
vertex_order<memory_space_t<ExecSpace>> cluster_order(const ExecSpace& exec,
                                                      const csr_graph<memory_space_t<ExecSpace>>& g) {
  using mem = memory_space_t<ExecSpace>;
  BITGRAPH_CHECK_ARG(g.row_ptr.extent(0) == std::uint64_t(g.n) + 1 && g.col_idx.extent(0) >= g.nnz,
                     "reorder::cluster_order", "the graph's arrays do not match n = ", g.n, ", nnz = ", g.nnz);
  bitgraph::detail::profiling_region region("bitgraph::reorder::cluster_order");
  // Ranks first; the stable sort of the rank-ordered vertices by their cluster key then breaks ties by
  // rank, which is the (key, rank) order without a 64-bit key.
  vertex_order<mem> p = degree_order(exec, g);
  if (g.n == 0) return p;
  auto keys = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::reorder::cluster_keys", g.n, false);
  const auto shape = bitgraph::detail::shape_for<ExecSpace>(32);
  const int league = static_cast<int>(
      std::min<std::uint64_t>(ceil_div<std::uint64_t>(g.n, shape.team_size), std::numeric_limits<int>::max()));
  Kokkos::parallel_for("bitgraph::reorder::cluster_keys",
                       Kokkos::TeamPolicy<ExecSpace>(exec, league, shape.team_size, shape.vector_length),
                       detail::cluster_keys<ExecSpace>{g.row_ptr, g.col_idx, p.new_of_old, p.old_of_new, keys, g.n});
  bitgraph::detail::radix_sort_pairs(exec, keys, p.old_of_new, g.n, bitgraph::detail::key_bits(g.n - 1), true);
  Kokkos::parallel_for("bitgraph::reorder::invert", Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n),
                       detail::invert_order<mem>{p.old_of_new, p.new_of_old});
  exec.fence();
  return p;
}

template <class ExecSpace>
vertex_order<memory_space_t<ExecSpace>> to_vertex_order(const ExecSpace& exec, const permutation& p) {
  using mem = memory_space_t<ExecSpace>;
  using host = Kokkos::View<const vertex_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  vertex_order<mem> d;
  d.new_of_old = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::reorder::new_of_old", p.size(), false);
  d.old_of_new = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::reorder::old_of_new", p.size(), false);
  Kokkos::deep_copy(exec, d.new_of_old, host(p.new_of_old().data(), p.size()));
  Kokkos::deep_copy(exec, d.old_of_new, host(p.old_of_new().data(), p.size()));
  exec.fence();
  return d;
}

template <class ExecSpace>
void check_vertex_order(const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p, vertex_t n,
                        const char* func) {
  BITGRAPH_CHECK_ARG(p.new_of_old.extent(0) == n && p.old_of_new.extent(0) == n, func, "the vertex order has ",
                     p.new_of_old.extent(0), " and ", p.old_of_new.extent(0), " entries for ", n, " vertices");
  offset_t bad = 0;
  Kokkos::parallel_reduce("bitgraph::reorder::check_order", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                          detail::count_order_faults<memory_space_t<ExecSpace>>{p.new_of_old, p.old_of_new, n}, bad);
  BITGRAPH_CHECK_ARG(bad == 0, func, "the vertex order is not a bijection with its inverse (", bad,
                     " vertices disagree)");
}

template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> relabel(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                             const vertex_order<memory_space_t<ExecSpace>>& p) {
  using mem = memory_space_t<ExecSpace>;
  using graph = csr_graph<mem>;
  check_vertex_order(exec, p, g.n, "reorder::relabel");
  check_csr_graph(exec, g, "reorder::relabel");
  bitgraph::detail::profiling_region region("bitgraph::reorder::relabel");
  graph r;
  r.n = g.n;
  r.nnz = g.nnz;
  r.kind = g.kind;
  r.has_duplicates = g.has_duplicates;
  r.has_weights = g.has_weights;
  r.validated = g.validated;  // a bijective relabelling keeps every promise of a valid graph
  r.row_ptr = allocate_view<typename graph::offsets_view>("bitgraph::csr::row_ptr", offset_t(g.n) + 1);
  Kokkos::parallel_for("bitgraph::reorder::relabel_counts", Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n),
                       detail::relabel_counts<mem>{g.row_ptr, p.old_of_new, r.row_ptr});
  const offset_t total = bitgraph::detail::exclusive_scan(exec, r.row_ptr, "bitgraph::reorder::relabel_scan");
  BITGRAPH_CHECK_ARG(total == g.nnz, "reorder::relabel", "the rows hold ", total, " entries but nnz = ", g.nnz);
  r.col_idx = allocate_view<typename graph::indices_view>("bitgraph::csr::col_idx", g.nnz, false);
  if (g.has_weights) r.weights = allocate_view<typename graph::weights_view>("bitgraph::csr::weights", g.nnz, false);
  Kokkos::parallel_for("bitgraph::reorder::relabel_fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n),
                       detail::relabel_fill<mem>{g.row_ptr, g.col_idx, g.weights, p.new_of_old, p.old_of_new, r.row_ptr,
                                                 r.col_idx, r.weights});
  using sorter = bitgraph::detail::sort_rows_impl<ExecSpace>;
  sorter::run(choose_path<ExecSpace>("relabel", op_algorithm::automatic, sorter::offer()), exec, g.n, r.row_ptr,
              r.col_idx, r.weights);
  r.longest_row = g.longest_row ? g.longest_row
                                : bitgraph::detail::longest_span(exec, r.row_ptr, g.n, "bitgraph::csr::longest_row");
  exec.fence();
  return r;
}

template <class ExecSpace, class In, class Out>
requires(bitgraph::detail::is_dense<In>::value&& bitgraph::detail::is_dense<Out>::value) void to_reordered_ids(
    const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p, const In& in, const Out& out) {
  detail::gather_dense<ExecSpace, typename Out::non_const_value_type>(exec, p, p.old_of_new, in, out,
                                                                      "bitgraph::reorder::to_reordered_ids");
}

template <class ExecSpace, class In, class Out>
requires(bitgraph::detail::is_dense<In>::value&& bitgraph::detail::is_dense<Out>::value) void to_caller_ids(
    const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p, const In& in, const Out& out) {
  detail::gather_dense<ExecSpace, typename Out::non_const_value_type>(exec, p, p.new_of_old, in, out,
                                                                      "bitgraph::reorder::to_caller_ids");
}

template <class ExecSpace>
void to_reordered_ids(const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p,
                      const bitmap<memory_space_t<ExecSpace>>& in, bitmap<memory_space_t<ExecSpace>>& out) {
  detail::gather_bitmap(exec, p, p.old_of_new, in, out, "bitgraph::reorder::to_reordered_ids");
}

template <class ExecSpace>
void to_caller_ids(const ExecSpace& exec, const vertex_order<memory_space_t<ExecSpace>>& p,
                   const bitmap<memory_space_t<ExecSpace>>& in, bitmap<memory_space_t<ExecSpace>>& out) {
  detail::gather_bitmap(exec, p, p.new_of_old, in, out, "bitgraph::reorder::to_caller_ids");
}

}  // namespace bitgraph::reorder
