// The graph operand of the algorithms: a CSR graph with its B2SR form, plus the transposes a directed
// graph needs for pull steps (in-edges), built once and reused by every algorithm.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/b2sr_profile.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/hybrid.hpp"

namespace bitgraph {

/// A graph prepared for the algorithms. `csr` and `b2sr` hold A (row u = out-edges of u). For a
/// directed graph `csr_t` and `b2sr_t` hold A^T (row v = in-edges of v); an undirected graph is its own
/// transpose and leaves them empty (use `in_csr()` / `in_b2sr()`).
template <class MemorySpace>
struct bit_graph {
  using memory_space = MemorySpace;
  csr_graph<MemorySpace> csr;       ///< A, with weights when the input had them
  csr_graph<MemorySpace> csr_t;     ///< A^T (directed only)
  b2sr_matrix<MemorySpace> b2sr;    ///< A as bits
  b2sr_matrix<MemorySpace> b2sr_t;  ///< A^T as bits (directed only)

  /// Number of vertices.
  vertex_t n() const noexcept { return csr.n; }
  /// True for a directed graph.
  bool directed() const noexcept { return csr.kind == graph_kind::directed; }
  /// The in-edge CSR (A^T): `csr_t` for directed graphs, `csr` otherwise.
  const csr_graph<MemorySpace>& in_csr() const noexcept { return directed() ? csr_t : csr; }
  /// The in-edge B2SR (A^T).
  const b2sr_matrix<MemorySpace>& in_b2sr() const noexcept { return directed() ? b2sr_t : b2sr; }
};

/// How `make_bit_graph` builds the bit forms.
struct bit_graph_options {
  int tile_dim = 0;                        ///< 4, 8, 16, 32, 64, or 0 = chosen by the sampling profile
  bit_order order = bit_order::row_major;  ///< packing of the tiles
};

/// Builds the B2SR form (and, for a directed graph, the transposes) of `g` on `exec`. `g` must be
/// duplicate-free (the builders guarantee it unless asked otherwise). A tile dimension of 0 lets the
/// sampling profile (`profile_tile_sizes`) choose. Work: one CSR to B2SR conversion (count, scan, fill over
/// the entries), and for a directed graph a CSR transpose and a second conversion. Throws `invalid_argument_error` for
/// a CSR with duplicates, an invalid tile dimension or a malformed structure (`check_csr_graph`: row_ptr of n + 1
/// entries, col_idx and, when `has_weights`, weights of exactly nnz; unless `g.validated` (the builders' graphs),
/// one device pass: row_ptr from 0 to nnz and not decreasing, ids < n, rows ascending, and for an undirected graph
/// a symmetric pattern), `allocation_error` when a buffer does not fit. Fences `exec` before it returns.
template <class ExecSpace>
bit_graph<memory_space_t<ExecSpace>> make_bit_graph(const ExecSpace& exec, csr_graph<memory_space_t<ExecSpace>> g,
                                                    const bit_graph_options& opts = {});

namespace detail {
/// Whether a full pull over `bits` is predicted faster than over `csr` (the same pattern) on `ExecSpace`, under
/// the fitted model of the hybrid split (`hybrid_default_costs`): CSR per entry against B2SR per stored byte and
/// per set bit. The algorithms ask it once per call to pick the form their products read.
template <class ExecSpace, class Mem>
bool bits_pay(const csr_graph<Mem>& csr, const b2sr_matrix<Mem>& bits) {
  const hybrid_costs c = hybrid_default_costs<ExecSpace>();
  const double bytes = double(bits.tile_bits.extent(0)) + double(bits.tile_col_idx.extent(0)) * sizeof(vertex_t) +
                       double(bits.tile_row_ptr.extent(0)) * sizeof(offset_t);
  const double as_bits = bytes * c.bits_byte + double(bits.nnz) * c.bits_entry;
  const double as_csr = double(csr.nnz) * c.csr_entry;
  return as_bits < as_csr;
}

/// Throws `invalid_argument_error` naming `func` when `source` is not a vertex of an n-vertex graph.
template <class ExecSpace>
void check_source(const char* func, vertex_t source, vertex_t n) {
  BITGRAPH_CHECK_ARG(source < n, func, "source vertex ", source, " is out of range: the graph has ", n, " vertices");
}
}  // namespace detail

template <class ExecSpace>
bit_graph<memory_space_t<ExecSpace>> make_bit_graph(const ExecSpace& exec, csr_graph<memory_space_t<ExecSpace>> g,
                                                    const bit_graph_options& opts) {
  BITGRAPH_CHECK_ARG(!g.has_duplicates, "make_bit_graph", "the CSR graph must be duplicate-free");
  BITGRAPH_CHECK_ARG(opts.tile_dim == 0 || valid_tile_dim(opts.tile_dim), "make_bit_graph", "tile dimension ",
                     opts.tile_dim, " is not one of 0 (automatic), 4, 8, 16, 32, 64");
  detail::profiling_region region("bitgraph::make_bit_graph");
  validate_csr_graph(exec, g, "make_bit_graph");  // the device pass runs once, for a graph not built by the library
  bit_graph<memory_space_t<ExecSpace>> bg;
  const int t = opts.tile_dim != 0 ? opts.tile_dim : profile_tile_sizes(exec, g).chosen_tile_dim;
  bg.csr = std::move(g);
  bg.b2sr = to_b2sr(exec, bg.csr, {t, opts.order});
  if (bg.directed()) {
    bg.csr_t = transpose(exec, bg.csr);
    bg.b2sr_t = to_b2sr(exec, bg.csr_t, {t, opts.order});
  }
  exec.fence();
  return bg;
}

}  // namespace bitgraph
