// Compressed sparse row graphs (64-bit offsets, 32-bit vertex ids) and their construction and
// transformations: build from edges, transpose (CSC), symmetrise, self-loop / duplicate removal, degrees.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "bitgraph/backends/csr.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/detail/csr_check.hpp"
#include "bitgraph/formats/edge_list.hpp"
#include "bitgraph/formats/host_csr.hpp"

namespace bitgraph {

/// A graph in CSR form. Row `u` holds the out-neighbours of `u` in `col_idx[row_ptr[u] .. row_ptr[u+1])`,
/// sorted ascending. Builders also remove duplicates unless asked to keep them (`has_duplicates`).
/// `weights` is empty for an unweighted graph, otherwise parallel to `col_idx`.
template <class MemorySpace>
struct csr_graph {
  using memory_space = MemorySpace;
  using offsets_view = Kokkos::View<offset_t*, MemorySpace>;
  using indices_view = Kokkos::View<vertex_t*, MemorySpace>;
  using weights_view = Kokkos::View<double*, MemorySpace>;

  vertex_t n = 0;                          ///< number of vertices (rows and columns)
  offset_t nnz = 0;                        ///< number of stored entries (directed edges)
  graph_kind kind = graph_kind::directed;  ///< undirected graphs store both directions of each edge
  bool has_duplicates = false;             ///< true only if built with `remove_duplicates = false`
  offsets_view row_ptr;                    ///< n + 1 offsets
  indices_view col_idx;                    ///< nnz column indices, ascending within each row
  weights_view weights;                    ///< nnz weights when `has_weights`, else empty
  bool has_weights = false;                ///< whether edges carry weights (an empty view cannot tell)
  /// Entries in the longest row, recorded by the builders for the products' balance; 0 when not recorded
  /// (a hand-assembled graph), in which case a product that needs it measures it.
  offset_t longest_row = 0;
  /// Whether the structure is known to keep the promises above (row_ptr of n + 1 ascending offsets from 0 to
  /// nnz, ids < n, rows ascending, duplicate-free unless `has_duplicates`, symmetric when undirected). Set by the
  /// builders (`build_csr`, `make_csr_graph`, the transforms of such a graph) and by `check_csr_graph`; false for a
  /// hand-assembled graph, whose structure the entry points then check once on the device
  /// (`check_csr_graph`). Whoever changes a member of a graph marked valid must reset it (or keep the promises).
  bool validated = false;
};

namespace detail {

/// Core CSR builder on `ExecSpace`: counts, scans, scatters, sorts rows and removes duplicates.
/// `src`/`dst`/`w` are COO arrays in the space's memory (`w` may be empty). `mirror` adds (v, u) for
/// every (u, v) with u != v; `negate_mirror` negates the mirrored weight (skew-symmetric input).
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> build_csr_from_coo(const ExecSpace& exec, vertex_t n,
                                                        Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> src,
                                                        Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> dst,
                                                        Kokkos::View<const double*, memory_space_t<ExecSpace>> w,
                                                        bool mirror, bool negate_mirror, bool drop_loops, bool dedup,
                                                        graph_kind kind) {
  using mem = memory_space_t<ExecSpace>;
  using graph = csr_graph<mem>;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
  const offset_t m = src.extent(0);
  const bool weighted = w.extent(0) > 0;

  graph g;
  g.n = n;
  g.kind = kind;
  g.has_weights = weighted;
  g.validated = kind != graph_kind::undirected || mirror;  // the builder checks ids, sorts rows; mirrors symmetrise
  auto counts = allocate_view<typename graph::offsets_view>("bitgraph::csr::row_ptr", offset_t(n) + 1);

  // Pass 1: count entries per row (and check ids while reading them once).
  offset_t bad = 0;
  Kokkos::parallel_reduce("bitgraph::csr::count", policy(exec, 0, m),
                          coo_count<mem>{src, dst, counts, n, drop_loops, mirror}, bad);
  if (bad > 0) {
    throw invalid_argument_error(detail::concat("bitgraph::build_csr: ", bad, " entries have a vertex id >= n = ", n));
  }

  // Exclusive scan into row_ptr; the total is the number of entries before de-duplication.
  offset_t total = detail::exclusive_scan(exec, counts, "bitgraph::csr::scan");
  auto row_ptr = counts;
  auto cursor = allocate_view<typename graph::offsets_view>("bitgraph::csr::cursor", n, false);
  Kokkos::deep_copy(exec, cursor, Kokkos::subview(row_ptr, Kokkos::make_pair(offset_t(0), offset_t(n))));
  auto cols = allocate_view<typename graph::indices_view>("bitgraph::csr::col_idx", total, false);
  typename graph::weights_view vals;
  if (weighted) vals = allocate_view<typename graph::weights_view>("bitgraph::csr::weights", total, false);

  // Pass 2: scatter. Order within a row is arbitrary here; rows are sorted next.
  Kokkos::parallel_for("bitgraph::csr::scatter", policy(exec, 0, m),
                       coo_scatter<mem>{src, dst, w, cursor, cols, vals, weighted, drop_loops, mirror, negate_mirror});

  // Pass 3: sort each row; then (optionally) merge duplicates keeping the minimum weight.
  using sorter = sort_rows_impl<ExecSpace>;
  sorter::run(choose_path<ExecSpace>("build_csr", op_algorithm::automatic, sorter::offer()), exec, n, row_ptr, cols,
              vals);

  if (!dedup) {
    g.row_ptr = row_ptr;
    g.col_idx = cols;
    g.weights = vals;
    g.nnz = total;
    g.has_duplicates = true;
    g.longest_row = detail::longest_span(exec, g.row_ptr, n, "bitgraph::csr::longest_row");
    return g;
  }

  auto uniq = allocate_view<typename graph::offsets_view>("bitgraph::csr::row_ptr", offset_t(n) + 1);
  Kokkos::parallel_for("bitgraph::csr::count_unique", policy(exec, 0, n), count_unique<mem>{row_ptr, cols, uniq});
  offset_t nnz = detail::exclusive_scan(exec, uniq, "bitgraph::csr::scan_unique");
  if (nnz == total) {  // nothing repeated: keep the sorted arrays as they are
    g.row_ptr = row_ptr;
    g.col_idx = cols;
    g.weights = vals;
    g.nnz = total;
    g.longest_row = detail::longest_span(exec, g.row_ptr, n, "bitgraph::csr::longest_row");
    return g;
  }
  auto ucols = allocate_view<typename graph::indices_view>("bitgraph::csr::col_idx", nnz, false);
  typename graph::weights_view uvals;
  if (weighted) uvals = allocate_view<typename graph::weights_view>("bitgraph::csr::weights", nnz, false);
  Kokkos::parallel_for("bitgraph::csr::compact", policy(exec, 0, n),
                       compact_unique<mem>{row_ptr, uniq, cols, vals, ucols, uvals, weighted});
  g.row_ptr = uniq;
  g.col_idx = ucols;
  g.weights = uvals;
  g.nnz = nnz;
  g.longest_row = detail::longest_span(exec, g.row_ptr, n, "bitgraph::csr::longest_row");
  return g;
}

/// Checks that `n` fits the vertex type.
inline vertex_t checked_vertex_count(std::uint64_t n, const char* func) {
  if (n > max_vertices - 1) {
    throw size_error(detail::concat("bitgraph::", func, ": ", n, " vertices exceed the limit of ", max_vertices - 1,
                                    " (32-bit vertex ids)"));
  }
  return static_cast<vertex_t>(n);
}

/// The row id of every entry of `g` (its COO sources), for the transformations that rebuild a CSR from
/// COO; `what` ("bitgraph::transpose", ...) prefixes the buffer's and the kernel's labels.
template <class ExecSpace>
Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> row_sources(const ExecSpace& exec,
                                                               const csr_graph<memory_space_t<ExecSpace>>& g,
                                                               const std::string& what) {
  using mem = memory_space_t<ExecSpace>;
  auto src = allocate_view<Kokkos::View<vertex_t*, mem>>(what + "::src", g.nnz, false);
  Kokkos::parallel_for(what + "::expand", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.n),
                       expand_rows<mem>{g.row_ptr, src});
  return src;
}

}  // namespace detail

/// Builds a CSR graph on `exec` from a host edge list. Symmetric storage in the list is expanded;
/// `opts.kind == undirected` symmetrises general input; the graph's kind is `resolved_kind(edges, opts)`. Throws
/// `invalid_argument_error` on ids >= n, `size_error` if n does not fit 32 bits, `allocation_error` if memory runs out.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> build_csr(const ExecSpace& exec, const edge_list& edges,
                                               const csr_build_options& opts = {}) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = detail::checked_vertex_count(edges.num_vertices, "build_csr");
  BITGRAPH_CHECK_ARG(edges.src.size() == edges.dst.size(), "build_csr", "src has ", edges.src.size(),
                     " entries but dst has ", edges.dst.size());
  BITGRAPH_CHECK_ARG(edges.weights.empty() || edges.weights.size() == edges.src.size(), "build_csr", "weights has ",
                     edges.weights.size(), " entries but there are ", edges.src.size(), " edges");
  const offset_t m = edges.src.size();
  using host_u32 = Kokkos::View<const vertex_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using host_f64 = Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  auto src = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::csr::coo_src", m, false);
  auto dst = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::csr::coo_dst", m, false);
  Kokkos::deep_copy(exec, src, host_u32(edges.src.data(), m));
  Kokkos::deep_copy(exec, dst, host_u32(edges.dst.data(), m));
  Kokkos::View<double*, mem> w;
  if (opts.keep_weights && edges.weighted()) {
    w = allocate_view<Kokkos::View<double*, mem>>("bitgraph::csr::coo_w", m, false);
    Kokkos::deep_copy(exec, w, host_f64(edges.weights.data(), m));
  }
  const graph_kind kind = resolved_kind(edges, opts);
  const bool mirror = edges.storage != edge_storage::general || kind == graph_kind::undirected;
  const bool negate = edges.storage == edge_storage::skew_symmetric;
  auto g = detail::build_csr_from_coo<ExecSpace>(exec, n, src, dst, w, mirror, negate, opts.remove_self_loops,
                                                 opts.remove_duplicates, kind);
  return g;
}

// The transforms and degree functions below take a graph that may come from the caller: each first checks it
// (`check_csr_graph`: extents always, the device pass unless `g.validated`), throwing `invalid_argument_error`.

/// Transpose (the CSC of `g` as a CSR of A^T): row v of the result lists the in-neighbours of v.
/// For an undirected graph this equals `g` but is still computed.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> transpose(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g) {
  check_csr_graph(exec, g, "transpose");
  auto src = detail::row_sources(exec, g, "bitgraph::transpose");
  auto t = detail::build_csr_from_coo<ExecSpace>(exec, g.n, g.col_idx, src, g.weights, false, false, false,
                                                 !g.has_duplicates, g.kind);
  t.has_duplicates = g.has_duplicates;
  t.has_weights = g.has_weights;
  t.validated = t.validated || g.validated;  // the transpose of a symmetric pattern is symmetric
  return t;
}

/// Undirected version of `g`: for every stored (u, v) both (u, v) and (v, u), duplicates merged
/// (minimum weight). Self-loops are kept unless `remove_self_loops`.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> symmetrize(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                                bool remove_self_loops = false) {
  check_csr_graph(exec, g, "symmetrize");
  auto src = detail::row_sources(exec, g, "bitgraph::symmetrize");
  auto s = detail::build_csr_from_coo<ExecSpace>(exec, g.n, src, g.col_idx, g.weights, true, false, remove_self_loops,
                                                 true, graph_kind::undirected);
  s.has_weights = g.has_weights;
  return s;
}

/// Copy of `g` without (u, u) entries.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> remove_self_loops(const ExecSpace& exec,
                                                       const csr_graph<memory_space_t<ExecSpace>>& g) {
  check_csr_graph(exec, g, "remove_self_loops");
  auto src = detail::row_sources(exec, g, "bitgraph::remove_self_loops");
  auto r = detail::build_csr_from_coo<ExecSpace>(exec, g.n, src, g.col_idx, g.weights, false, false, true,
                                                 !g.has_duplicates, g.kind);
  r.has_duplicates = g.has_duplicates;
  r.has_weights = g.has_weights;
  r.validated = r.validated || g.validated;  // dropping loops keeps a pattern symmetric
  return r;
}

/// Copy of `g` with repeated (u, v) entries merged (minimum weight).
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> remove_duplicates(const ExecSpace& exec,
                                                       const csr_graph<memory_space_t<ExecSpace>>& g) {
  check_csr_graph(exec, g, "remove_duplicates");
  auto src = detail::row_sources(exec, g, "bitgraph::remove_duplicates");
  auto r =
      detail::build_csr_from_coo<ExecSpace>(exec, g.n, src, g.col_idx, g.weights, false, false, false, true, g.kind);
  r.has_weights = g.has_weights;
  r.validated = r.validated || g.validated;  // merging repeats keeps a pattern symmetric
  return r;
}

/// Out-degree of every vertex (row lengths), as a new view. O(n), asynchronous on `exec` for a validated graph
/// (the structure check of a hand-built one reads its result back).
template <class ExecSpace>
Kokkos::View<offset_t*, memory_space_t<ExecSpace>> out_degrees(const ExecSpace& exec,
                                                               const csr_graph<memory_space_t<ExecSpace>>& g) {
  using mem = memory_space_t<ExecSpace>;
  check_csr_graph(exec, g, "out_degrees");
  auto d = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::out_degrees", g.n, false);
  Kokkos::parallel_for("bitgraph::out_degrees",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.n),
                       detail::row_lengths<mem>{g.row_ptr, d});
  return d;
}

/// In-degree of every vertex (column counts, atomic), as a new view. O(nnz), asynchronous on `exec` for a validated
/// graph (the structure check of a hand-built one reads its result back).
template <class ExecSpace>
Kokkos::View<offset_t*, memory_space_t<ExecSpace>> in_degrees(const ExecSpace& exec,
                                                              const csr_graph<memory_space_t<ExecSpace>>& g) {
  using mem = memory_space_t<ExecSpace>;
  check_csr_graph(exec, g, "in_degrees");
  auto d = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::in_degrees", g.n);
  Kokkos::parallel_for("bitgraph::in_degrees",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.nnz),
                       detail::column_counts<mem>{g.col_idx, d});
  return d;
}

/// The pattern of `g`: its structure (the same views, no copy) without weights, for the kernels that read none and
/// the structures built from the pattern alone (BVSS, relabelled copies). O(1); `validated` carries over.
template <class MemorySpace>
csr_graph<MemorySpace> csr_pattern(csr_graph<MemorySpace> g) {
  g.has_weights = false;
  g.weights = {};
  return g;
}

/// Copies a graph to another memory space (e.g. device to host for validation).
template <class DstMemorySpace, class SrcMemorySpace>
csr_graph<DstMemorySpace> copy_to(const csr_graph<SrcMemorySpace>& g) {
  csr_graph<DstMemorySpace> out;
  out.n = g.n;
  out.nnz = g.nnz;
  out.kind = g.kind;
  out.has_duplicates = g.has_duplicates;
  out.has_weights = g.has_weights;
  out.longest_row = g.longest_row;
  out.row_ptr = Kokkos::create_mirror_view_and_copy(DstMemorySpace{}, g.row_ptr);
  out.col_idx = Kokkos::create_mirror_view_and_copy(DstMemorySpace{}, g.col_idx);
  out.weights = Kokkos::create_mirror_view_and_copy(DstMemorySpace{}, g.weights);
  return out;
}

/// Copies a graph into plain host vectors (for the binary cache and host-only algorithms).
template <class MemorySpace>
host_csr to_host_csr(const csr_graph<MemorySpace>& g) {
  auto h = copy_to<Kokkos::HostSpace>(g);
  host_csr out;
  out.n = h.n;
  out.kind = h.kind;
  out.has_duplicates = h.has_duplicates;
  out.has_weights = h.has_weights;
  out.row_ptr.assign(h.row_ptr.data(), h.row_ptr.data() + h.row_ptr.extent(0));
  out.col_idx.assign(h.col_idx.data(), h.col_idx.data() + h.col_idx.extent(0));
  out.weights.assign(h.weights.data(), h.weights.data() + h.weights.extent(0));
  return out;
}

/// Moves a host CSR into `ExecSpace`'s memory. Checks the invariants that kernels rely on (sizes,
/// monotone offsets, ids < n) and throws `invalid_argument_error` naming the first violation.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> to_csr(const ExecSpace& exec, const host_csr& h) {
  using mem = memory_space_t<ExecSpace>;
  using graph = csr_graph<mem>;
  BITGRAPH_CHECK_ARG(h.row_ptr.size() == std::size_t(h.n) + 1, "to_csr", "row_ptr has ", h.row_ptr.size(),
                     " entries, expected n + 1 = ", std::uint64_t(h.n) + 1);
  BITGRAPH_CHECK_ARG(h.row_ptr.front() == 0 && h.row_ptr.back() == h.col_idx.size(), "to_csr",
                     "row_ptr must start at 0 and end at nnz = ", h.col_idx.size());
  BITGRAPH_CHECK_ARG(!h.has_weights || h.weights.size() == h.col_idx.size(), "to_csr", "weights has ", h.weights.size(),
                     " entries but nnz is ", h.col_idx.size());
  offset_t longest = 0;
  for (vertex_t u = 0; u < h.n; ++u) {
    BITGRAPH_CHECK_ARG(h.row_ptr[u] <= h.row_ptr[u + 1], "to_csr", "row_ptr decreases at row ", u);
    longest = std::max<offset_t>(longest, h.row_ptr[u + 1] - h.row_ptr[u]);
  }
  for (std::size_t p = 0; p < h.col_idx.size(); ++p) {
    BITGRAPH_CHECK_ARG(h.col_idx[p] < h.n, "to_csr", "column ", h.col_idx[p], " at entry ", p, " is >= n = ", h.n);
  }
  graph g;
  g.n = h.n;
  g.nnz = h.col_idx.size();
  g.kind = h.kind;
  g.has_duplicates = h.has_duplicates;
  g.has_weights = h.has_weights;
  g.longest_row = longest;
  g.row_ptr = allocate_view<typename graph::offsets_view>("bitgraph::csr::row_ptr", h.row_ptr.size(), false);
  g.col_idx = allocate_view<typename graph::indices_view>("bitgraph::csr::col_idx", h.col_idx.size(), false);
  Kokkos::deep_copy(exec, g.row_ptr,
                    Kokkos::View<const offset_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        h.row_ptr.data(), h.row_ptr.size()));
  Kokkos::deep_copy(exec, g.col_idx,
                    Kokkos::View<const vertex_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        h.col_idx.data(), h.col_idx.size()));
  if (h.has_weights) {
    g.weights = allocate_view<typename graph::weights_view>("bitgraph::csr::weights", h.weights.size(), false);
    Kokkos::deep_copy(exec, g.weights,
                      Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                          h.weights.data(), h.weights.size()));
  }
  exec.fence();
  return g;
}

}  // namespace bitgraph
