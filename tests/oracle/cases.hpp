// The oracle's graphs: random specs over BitGraph's generators and test::random_edges, and the
// construction of both sides of a graph (BitGraph's CSR; the oracle's own GraphBLAS matrices).
#pragma once

#include <cstdint>
#include <string>

#include "bitgraph/formats/edge_list.hpp"
#include "oracle.hpp"

namespace bitgraph::oracle {

/// A generated graph: its spec, its edges, and how both sides are to build it.
struct graph_case {
  std::string spec;
  edge_list edges;
  csr_build_options build;
};

/// Builds the graph of a spec: a generator spec of `gen::parse_graph_spec` ("kron:5:seed=3:directed"),
/// or "random:N:M[:seed=S][:weighted][:directed|:undirected][:loops]" for `test::random_edges(N, M, S,
/// weighted)` (directed unless told; self-loops dropped unless `loops`; repeats always possible).
graph_case make_case(const std::string& spec);

/// The index-th spec of a run with this seed: a fixed list of edge cases first (empty graph, one
/// vertex, self-loops, duplicates, isolated vertices, n around the tile sizes, sinks), then random
/// picks over every generator, size (up to about max_vertices), kind and option.
std::string random_spec(std::uint64_t seed, std::uint64_t index, std::uint64_t max_vertices);

/// Both sides of a generated graph. The GraphBLAS matrices are built from the edge list by the
/// oracle's own reading of the build rules (mirror symmetric storage and undirected kinds, drop
/// self-loops when asked, merge repeats keeping the minimum weight); BitGraph's side by `build_csr`.
/// Throws what `build_csr` throws.
graph_under_test prepare(context& ctx, const graph_case& c, std::uint64_t op_seed);

/// Outcome of reading a data file with both readers.
struct file_outcome {
  bool lagraph_ok = false;
  bool bitgraph_ok = false;
  std::string lagraph_message, bitgraph_message;
  graph_under_test graph;  ///< valid when both accepted
};

/// Reads `path` with LAGraph_MMRead and with `io::read_matrix_market` (header-less files and
/// rectangular matrices allowed, as LAGraph; rectangular ones padded to square on both sides;
/// repeats allowed, which LAGraph rejects) and prepares the graph when both accept it.
file_outcome prepare_file(context& ctx, const std::string& path, std::uint64_t op_seed);

}  // namespace bitgraph::oracle
