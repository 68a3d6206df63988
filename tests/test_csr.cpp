#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "bitgraph/formats/csr.hpp"
#include "support/random_graphs.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

namespace {

// Reference: the set of (u, v) -> min weight a CSR must hold for the given edges and options.
std::map<std::pair<vertex_t, vertex_t>, double> reference(const edge_list& el, const csr_build_options& o) {
  std::map<std::pair<vertex_t, vertex_t>, double> ref;
  auto add = [&](vertex_t u, vertex_t v, double w) {
    if (o.remove_self_loops && u == v) return;
    auto [it, fresh] = ref.emplace(std::make_pair(u, v), w);
    if (!fresh) it->second = std::min(it->second, w);
  };
  for (std::size_t e = 0; e < el.size(); ++e) {
    const double w = el.weighted() ? el.weights[e] : 1.0;
    add(el.src[e], el.dst[e], w);
    if (o.kind == graph_kind::undirected || el.storage != edge_storage::general) {
      if (el.src[e] != el.dst[e]) add(el.dst[e], el.src[e], el.storage == edge_storage::skew_symmetric ? -w : w);
    }
  }
  return ref;
}

template <class Graph>
std::map<std::pair<vertex_t, vertex_t>, double> entries(const Graph& g) {
  auto h = copy_to<Kokkos::HostSpace>(g);
  std::map<std::pair<vertex_t, vertex_t>, double> out;
  for (vertex_t u = 0; u < h.n; ++u) {
    for (offset_t p = h.row_ptr(u); p < h.row_ptr(u + 1); ++p) {
      if (p > h.row_ptr(u)) REQUIRE(h.col_idx(p - 1) < h.col_idx(p));  // sorted, no duplicates
      out[{u, h.col_idx(p)}] = h.has_weights ? h.weights(p) : 1.0;
    }
  }
  REQUIRE(out.size() == h.nnz);
  return out;
}

// The builders record the longest row (the products' balance reads it instead of measuring it).
template <class Graph>
offset_t longest_row_of(const Graph& g) {
  auto h = copy_to<Kokkos::HostSpace>(g);
  offset_t m = 0;
  for (vertex_t u = 0; u < h.n; ++u) m = std::max<offset_t>(m, h.row_ptr(u + 1) - h.row_ptr(u));
  return m;
}

}  // namespace

TEMPLATE_TEST_CASE("build_csr matches a reference on random edge lists", "[formats][csr]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const std::uint64_t n = seed == 1 ? 1 : seed * 7 + 3;
    const std::uint64_t m = seed == 2 ? 0 : seed * 23;
    auto el = test::random_edges(n, m, seed, seed % 2 == 0);
    for (auto kind : {graph_kind::directed, graph_kind::undirected}) {
      for (bool loops : {false, true}) {
        csr_build_options o;
        o.kind = kind;
        o.remove_self_loops = loops;
        auto g = build_csr(exec, el, o);
        CHECK(g.n == n);
        CHECK(g.kind == kind);
        CHECK(entries(g) == reference(el, o));
        CHECK(g.longest_row == longest_row_of(g));
        CHECK(to_csr(exec, to_host_csr(g)).longest_row == g.longest_row);
      }
    }
  }
}

TEMPLATE_TEST_CASE("transpose, symmetrize and degrees", "[formats][csr]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto el = test::random_edges(37, 200, 5, true);
  auto g = build_csr(exec, el);
  auto t = transpose(exec, g);
  auto ge = entries(g), te = entries(t);
  REQUIRE(ge.size() == te.size());
  for (auto& [k, w] : ge) CHECK(te.at({k.second, k.first}) == w);
  CHECK(t.longest_row == longest_row_of(t));
  CHECK(t.longest_row != g.longest_row);  // in- and out-degrees differ on this graph

  auto s = symmetrize(exec, g, true);
  for (auto& [k, w] : entries(s)) {
    CHECK(k.first != k.second);
    CHECK(entries(s).count({k.second, k.first}) == 1);
  }
  auto outd = test::to_vector(out_degrees(exec, g));
  auto ind = test::to_vector(in_degrees(exec, g));
  std::vector<offset_t> ro(37, 0), ri(37, 0);
  for (auto& [k, w] : ge) {
    ++ro[k.first];
    ++ri[k.second];
  }
  CHECK(outd == ro);
  CHECK(ind == ri);
}

TEMPLATE_TEST_CASE("csr_pattern keeps the structure and drops the weights", "[formats][csr]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto el = test::random_edges(23, 90, 3, true);
  const auto g = build_csr(exec, el);
  REQUIRE(g.has_weights);
  const auto p = csr_pattern(g);
  CHECK_FALSE(p.has_weights);
  CHECK(p.weights.extent(0) == 0);
  CHECK(p.n == g.n);
  CHECK(p.nnz == g.nnz);
  CHECK(p.kind == g.kind);
  CHECK(p.validated == g.validated);
  CHECK(p.longest_row == g.longest_row);
  CHECK(p.row_ptr.data() == g.row_ptr.data());  // shared, not copied
  CHECK(p.col_idx.data() == g.col_idx.data());
  CHECK(g.has_weights);  // the graph itself keeps its weights
  CHECK(g.weights.extent(0) == g.nnz);
}

TEMPLATE_TEST_CASE("build_csr rejects bad input", "[formats][csr][errors]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  edge_list el;
  el.num_vertices = 4;
  el.src = {0, 1, 4};
  el.dst = {1, 2, 0};
  CHECK_THROWS_AS(build_csr(exec, el), invalid_argument_error);
  el.src = {0, 1};
  CHECK_THROWS_AS(build_csr(exec, el), invalid_argument_error);
  el.num_vertices = std::uint64_t(1) << 33;
  el.src = {};
  el.dst = {};
  CHECK_THROWS_AS(build_csr(exec, el), size_error);
}
