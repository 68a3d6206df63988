// `make_csr_graph` for Kokkos Kernels' sparse types: a `KokkosSparse::CrsMatrix` (its values become the
// weights) and the `StaticCrsGraph` that holds a matrix's structure. Include it only where Kokkos Kernels
// is available; BitGraph's own build defines BITGRAPH_HAVE_KOKKOS_KERNELS when it found Kokkos Kernels.
#pragma once

#include <KokkosSparse_CrsMatrix.hpp>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/csr.hpp"

namespace bitgraph {

namespace detail {

// Matched by their members, not their names: the graph is Kokkos::StaticCrsGraph in Kokkos Kernels 3 and
// KokkosSparse::StaticCrsGraph in Kokkos Kernels 4.
template <class G>
concept kk_static_crs_graph = requires(const G& g) {
  typename G::row_map_type;
  typename G::entries_type;
  g.row_map.extent(0);
  g.entries.extent(0);
};

template <class M>
concept kk_crs_matrix = requires(const M& a) {
  typename M::staticcrsgraph_type;
  requires kk_static_crs_graph<typename M::staticcrsgraph_type>;
  a.values.extent(0);
  a.numRows();
  a.numCols();
};

/// A row map for `g`: Kokkos Kernels gives an empty graph an empty row map, `make_csr_graph` wants n + 1 = 1
/// entries.
template <class ExecSpace, class RowMap>
auto kk_row_map(const RowMap& row_map) {
  using value = std::remove_const_t<typename RowMap::value_type>;
  using view = Kokkos::View<const value*, memory_space_t<ExecSpace>>;
  if (row_map.extent(0) != 0) return view(row_map);
  return view(Kokkos::View<value*, memory_space_t<ExecSpace>>("bitgraph::make_csr_graph::empty_row_map", 1));
}

}  // namespace detail

/// Adopts the structure `g` (a `StaticCrsGraph`: row map and entries, e.g. a CrsMatrix's `graph`) as an
/// unweighted `csr_graph` of `kind` with one vertex per row: `make_csr_graph(exec, numRows, g.row_map,
/// g.entries, kind, opts)`, zero-copy where the index types are BitGraph's (`offset_t` sizes, `vertex_t`
/// ordinals). Every column id must be < the number of rows. Throws what that `make_csr_graph` throws.
template <class ExecSpace, detail::kk_static_crs_graph Graph>
csr_graph<memory_space_t<ExecSpace>> make_csr_graph(const ExecSpace& exec, const Graph& g, graph_kind kind,
                                                    const adopt_options& opts = {}) {
  const std::uint64_t rows = g.row_map.extent(0) == 0 ? 0 : g.row_map.extent(0) - 1;
  return make_csr_graph(exec, rows, detail::kk_row_map<ExecSpace>(g.row_map), g.entries, kind, opts);
}

/// Adopts the square matrix `a` as a weighted `csr_graph` of `kind`: row u's entries are u's out-edges and
/// their values the weights. Zero-copy where the types are BitGraph's (`offset_t` sizes, `vertex_t`
/// ordinals, `double` values), else converted once on `exec`. Throws `invalid_argument_error` for a
/// matrix that is not square, and what `make_csr_graph` throws for malformed arrays.
template <class ExecSpace, detail::kk_crs_matrix Matrix>
csr_graph<memory_space_t<ExecSpace>> make_csr_graph(const ExecSpace& exec, const Matrix& a, graph_kind kind,
                                                    const adopt_options& opts = {}) {
  BITGRAPH_CHECK_ARG(std::uint64_t(a.numRows()) == std::uint64_t(a.numCols()), "make_csr_graph", "the matrix is ",
                     a.numRows(), " x ", a.numCols(), "; a graph's adjacency matrix is square");
  return make_csr_graph(exec, std::uint64_t(a.numRows()), detail::kk_row_map<ExecSpace>(a.graph.row_map),
                        a.graph.entries, a.values, kind, opts);
}

}  // namespace bitgraph
