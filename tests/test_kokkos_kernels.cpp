// Issue 16: `make_csr_graph` adopts Kokkos Kernels' CrsMatrix and StaticCrsGraph (built only where Kokkos
// Kernels is found): the same algorithm results as the plain CSR route, zero-copy when the types match.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <KokkosSparse_CrsMatrix.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/algorithms/sssp.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/kokkos_kernels.hpp"
#include "support/random_graphs.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

namespace {

/// `h` as a KokkosSparse::CrsMatrix with ordinals O, sizes S and values V on `Exec`'s device.
template <class V, class O, class S, class Exec>
KokkosSparse::CrsMatrix<V, O, Kokkos::Device<Exec, memory_space_t<Exec>>, void, S> to_crs_matrix(const host_csr& h) {
  using matrix = KokkosSparse::CrsMatrix<V, O, Kokkos::Device<Exec, memory_space_t<Exec>>, void, S>;
  typename matrix::row_map_type::non_const_type rm("rm", h.row_ptr.size());
  typename matrix::index_type::non_const_type en("en", h.col_idx.size());
  typename matrix::values_type va("va", h.col_idx.size());
  auto hrm = Kokkos::create_mirror_view(rm);
  auto hen = Kokkos::create_mirror_view(en);
  auto hva = Kokkos::create_mirror_view(va);
  for (std::size_t i = 0; i < h.row_ptr.size(); ++i) hrm(i) = static_cast<S>(h.row_ptr[i]);
  for (std::size_t k = 0; k < h.col_idx.size(); ++k) {
    hen(k) = static_cast<O>(h.col_idx[k]);
    hva(k) = static_cast<V>(h.has_weights ? h.weights[k] : 1.0);
  }
  Kokkos::deep_copy(rm, hrm);
  Kokkos::deep_copy(en, hen);
  Kokkos::deep_copy(va, hva);
  return matrix("bitgraph::test::crs", static_cast<O>(h.n), static_cast<O>(h.n), static_cast<S>(h.col_idx.size()), va,
                rm, en);
}

/// BFS levels from 0 and SSSP distances from 0 on `g`, on the host.
template <class Exec>
std::pair<std::vector<level_t>, std::vector<double>> results(const Exec& exec, csr_graph<memory_space_t<Exec>> g) {
  const auto bg = make_bit_graph(exec, std::move(g));
  return {test::to_vector(bfs(exec, bg, 0).levels), test::to_vector(sssp(exec, bg, 0).dist)};
}

}  // namespace

TEMPLATE_TEST_CASE("make_csr_graph adopts a KokkosSparse::CrsMatrix", "[formats][adopt][kokkos-kernels]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    auto el = test::random_edges(seed * 29 + 5, seed * 90, seed, true);
    for (auto kind : {graph_kind::directed, graph_kind::undirected}) {
      INFO("seed " << seed << (kind == graph_kind::directed ? " directed" : " undirected"));
      csr_build_options o;
      o.kind = kind;
      auto plain = build_csr(exec, el, o);
      const host_csr h = to_host_csr(plain);
      const auto expected = results(exec, plain);

      // BitGraph's own types: the graph shares the matrix's arrays.
      auto same = to_crs_matrix<double, vertex_t, offset_t, TestType>(h);
      auto g = make_csr_graph(exec, same, kind);
      CHECK(static_cast<const void*>(g.row_ptr.data()) == static_cast<const void*>(same.graph.row_map.data()));
      CHECK(static_cast<const void*>(g.col_idx.data()) == static_cast<const void*>(same.graph.entries.data()));
      CHECK(static_cast<const void*>(g.weights.data()) == static_cast<const void*>(same.values.data()));
      CHECK(g.has_weights);
      CHECK(g.kind == kind);
      CHECK(results(exec, g) == expected);

      // Kokkos Kernels' usual int ordinals and sizes, float values: converted once.
      auto other = to_crs_matrix<float, int, int, TestType>(h);
      auto gc = make_csr_graph(exec, other, kind);
      CHECK(static_cast<const void*>(gc.col_idx.data()) != static_cast<const void*>(other.graph.entries.data()));
      CHECK(test::to_vector(gc.row_ptr) == h.row_ptr);
      CHECK(test::to_vector(gc.col_idx) == h.col_idx);
      // The weights are small integers (random_edges), exact in float.
      CHECK(results(exec, gc) == expected);

      // The structure alone, through the StaticCrsGraph.
      auto gs = make_csr_graph(exec, same.graph, kind);
      CHECK_FALSE(gs.has_weights);
      CHECK(gs.row_ptr.data() == g.row_ptr.data());
      CHECK(test::to_vector(bfs(exec, make_bit_graph(exec, gs), 0).levels) == expected.first);
    }
  }
}

TEMPLATE_TEST_CASE("make_csr_graph rejects a bad KokkosSparse::CrsMatrix", "[formats][adopt][kokkos-kernels][errors]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  host_csr h;
  h.n = 3;
  h.row_ptr = {0, 1, 2, 2};
  h.col_idx = {1, 3};  // 3 is not a vertex of a 3-vertex graph
  auto bad = to_crs_matrix<double, int, int, TestType>(h);
  CHECK_THROWS_AS(make_csr_graph(exec, bad, graph_kind::directed), invalid_argument_error);
  CHECK_THROWS_AS(make_csr_graph(exec, bad.graph, graph_kind::directed), invalid_argument_error);
  // Not square: 3 x 4.
  using matrix = decltype(bad);
  matrix wide("wide", 3, 4, 2, bad.values, typename matrix::row_map_type::non_const_type("rm", 4), bad.graph.entries);
  CHECK_THROWS_AS(make_csr_graph(exec, wide, graph_kind::directed), invalid_argument_error);
  // The empty graph: Kokkos Kernels leaves its row map empty.
  typename matrix::staticcrsgraph_type empty;
  auto g = make_csr_graph(exec, empty, graph_kind::undirected);
  CHECK(g.n == 0);
  CHECK(g.nnz == 0);
}
