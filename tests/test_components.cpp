// Connected components on every enabled space: Afforest and FastSV against the validator and the
// reference (labels = smallest vertex id of the component, fully flattened), identical labels from both
// methods, on random, degenerate, deep, directed, generated and LAGraph graphs, plus graphs built so that
// Afforest's final pass alone (its long-row team kernel included) joins two parts of a component.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bitgraph/algorithms/components.hpp"
#include "bitgraph/algorithms/reference.hpp"
#include "bitgraph/algorithms/validate.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "support/random_graphs.hpp"
#include "support/spaces.hpp"
#include "support/test_data.hpp"

using namespace bitgraph;

namespace {

struct cc_case {
  std::string name;
  edge_list el;
  graph_kind kind;
};

void add_edge(edge_list& el, vertex_t u, vertex_t v) {
  el.src.push_back(u);
  el.dst.push_back(v);
}

edge_list empty_graph(std::uint64_t n, const char* name) {
  edge_list el;
  el.num_vertices = n;
  el.name = name;
  return el;
}

// A path over a permutation of 0..n-1 (identity, reversed or shuffled ids): one component whose
// union-find trees get as deep as the path.
edge_list path_graph(vertex_t n, int order) {
  std::vector<vertex_t> ids(n);
  std::iota(ids.begin(), ids.end(), vertex_t(0));
  if (order == 1) std::reverse(ids.begin(), ids.end());
  if (order == 2) std::shuffle(ids.begin(), ids.end(), std::mt19937_64(11));
  auto el = empty_graph(n, "path");
  for (vertex_t i = 0; i + 1 < n; ++i) add_edge(el, ids[i], ids[i + 1]);
  return el;
}

// Many small components: disjoint paths of 1..5 vertices over shuffled ids.
edge_list small_components(vertex_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<vertex_t> ids(n);
  std::iota(ids.begin(), ids.end(), vertex_t(0));
  std::shuffle(ids.begin(), ids.end(), rng);
  auto el = empty_graph(n, "small components");
  vertex_t i = 0;
  while (i < n) {
    const vertex_t len = std::min<vertex_t>(vertex_t(1 + rng() % 5), n - i);
    for (vertex_t k = 1; k < len; ++k) add_edge(el, ids[i + k - 1], ids[i + k]);
    i += len;
  }
  return el;
}

// A k x k grid (the giant component, ids p + 1 on) and a hub H = p + 1 + k^2 with pendants 0..p-1 (vertex
// p is isolated); H's row is [0, 1, ..., p-1, g] with g = p + 1 the grid's corner, whose own row is
// [g + 1, g + k, H]. The pendants join H in the first neighbour round, but the edge H - g sits past the
// neighbour rounds in both rows and g is in the giant component: only H's final pass joins the two parts,
// in the long-row team kernel when p > 34. `directed` stores the grid both ways and pendant -> H, g -> H
// (an in-edge of H), or with `out` H -> pendant, H -> g (an out-edge of H).
edge_list hub_off_giant(vertex_t k, vertex_t p, bool directed, bool out) {
  const vertex_t first = p + 1, hub = first + k * k;
  auto el = empty_graph(std::uint64_t(hub) + 1, "hub off the giant component");
  for (vertex_t i = 0; i < k; ++i) {
    for (vertex_t j = 0; j < k; ++j) {
      const vertex_t v = first + i * k + j;
      if (j + 1 < k) {
        add_edge(el, v, v + 1);
        if (directed) add_edge(el, v + 1, v);
      }
      if (i + 1 < k) {
        add_edge(el, v, v + k);
        if (directed) add_edge(el, v + k, v);
      }
    }
  }
  for (vertex_t q = 0; q < p; ++q) add_edge(el, directed && !out ? q : hub, directed && !out ? hub : q);
  if (directed && !out)
    add_edge(el, first, hub);
  else
    add_edge(el, hub, first);
  return el;
}

edge_list load_mtx(const std::string& file) {
  io::mm_read_options o;
  o.allow_duplicates = true;
  return io::read_matrix_market(std::string(BITGRAPH_TEST_DATA_DIR) + "/" + file, o);
}

std::vector<cc_case> cc_suite() {
  const auto U = graph_kind::undirected, D = graph_kind::directed;
  std::vector<cc_case> s;
  s.push_back({"empty", empty_graph(0, "empty"), U});
  s.push_back({"empty directed", empty_graph(0, "empty"), D});
  s.push_back({"one vertex", test::random_edges(1, 3, 1), U});
  s.push_back({"one vertex directed", test::random_edges(1, 3, 1), D});
  s.push_back({"no edges", empty_graph(37, "no edges"), U});
  s.push_back({"no edges directed", empty_graph(5, "no edges"), D});
  s.push_back({"two vertices", test::random_edges(2, 1, 9), U});
  // Loops and repeats (the builder merges repeats), isolated vertices (m well below n).
  s.push_back({"random loops duplicates", test::random_edges(300, 900, 2), U});
  s.push_back({"random sparse", test::random_edges(1000, 400, 3), U});
  s.push_back({"random directed", test::random_edges(500, 700, 4), D});
  s.push_back({"random directed sparse", test::random_edges(2000, 900, 5), D});
  s.push_back({"random dense", test::random_edges(90, 3000, 6), D});
  s.push_back({"small components", small_components(3000, 7), U});
  s.push_back({"small components directed", small_components(3000, 8), D});
  s.push_back({"path", path_graph(20000, 0), U});
  s.push_back({"path reversed", path_graph(20000, 1), U});
  s.push_back({"path shuffled", path_graph(20000, 2), U});
  s.push_back({"directed path", path_graph(20000, 0), D});
  s.push_back({"directed path reversed", path_graph(20000, 1), D});
  s.push_back({"directed path shuffled", path_graph(20000, 2), D});
  s.push_back({"hub off giant, long row", hub_off_giant(30, 60, false, true), U});
  s.push_back({"hub off giant, short row", hub_off_giant(30, 10, false, true), U});
  s.push_back({"hub off giant, directed out long", hub_off_giant(30, 60, true, true), D});
  s.push_back({"hub off giant, directed in long", hub_off_giant(30, 60, true, false), D});
  s.push_back({"hub off giant, directed in short", hub_off_giant(30, 10, true, false), D});
  s.push_back({"kron:12", gen::kronecker(12), U});
  s.push_back({"kron:11 directed", gen::kronecker(11), D});
  s.push_back({"urand:12", gen::uniform_random(12, 1), U});
  s.push_back({"urand:11 directed", gen::uniform_random(11, 1), D});
  s.push_back({"grid2d:40", gen::grid_2d(40), U});
  s.push_back({"rgg:11", gen::random_geometric(11, 3), U});
  s.push_back({"mycielski:8", gen::mycielski(8), U});
  s.push_back({"karate", load_mtx("karate.mtx"), U});
  s.push_back({"west0067", load_mtx("west0067.mtx"), D});
  return s;
}

}  // namespace

TEMPLATE_TEST_CASE("connected components: Afforest and FastSV give the component minima", "[algorithms][cc]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& gcase : cc_suite()) {
    csr_build_options bo;
    bo.kind = gcase.kind;
    auto bg = make_bit_graph(exec, build_csr(exec, gcase.el, bo), {8});
    const auto h = to_host_csr(bg.csr);
    const auto expected = reference::components(h);
    const auto expected_count = reference::count_components(h);
    std::vector<std::vector<vertex_t>> all;
    for (auto method : {components_method::afforest, components_method::fastsv, components_method::automatic}) {
      INFO(gcase.name << " (n = " << h.n << ", " << (bg.directed() ? "directed" : "undirected") << ") method = "
                      << (method == components_method::fastsv     ? "fastsv"
                          : method == components_method::afforest ? "afforest"
                                                                  : "automatic"));
      components_options o;
      o.method = method;
      auto r = connected_components(exec, bg, o);
      auto labels = test::to_vector(r.labels);
      REQUIRE(labels.size() == h.n);
      auto v = validate::check_components(h, labels);
      INFO(v.message);
      CHECK(v.ok);
      CHECK(labels == expected);
      CHECK(r.count == expected_count);
      if (method != components_method::fastsv) CHECK(r.iterations == (h.n == 0 ? 0 : 3));
      all.push_back(std::move(labels));
    }
    INFO(gcase.name);
    CHECK(all[0] == all[1]);
    CHECK(all[0] == all[2]);
  }
}

TEMPLATE_TEST_CASE("connected components: Afforest on the B2SR tile sizes and kernel paths", "[algorithms][cc]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  csr_build_options u;
  u.kind = graph_kind::undirected;
  u.remove_self_loops = true;
  const auto el = gen::kronecker(10);
  for (int t : {4, 32}) {
    auto bg = make_bit_graph(exec, build_csr(exec, el, u), {t});
    const auto expected = reference::components(to_host_csr(bg.csr));
    for (auto alg : test::kernel_paths<TestType>()) {
      INFO("T=" << t << " alg=" << to_string(alg));
      for (auto method : {components_method::afforest, components_method::fastsv}) {
        components_options o;
        o.algorithm = alg;
        o.method = method;
        CHECK(test::to_vector(connected_components(exec, bg, o).labels) == expected);
      }
    }
  }
  // Repeated runs race differently on a parallel space; the labels may not change.
  auto bg = make_bit_graph(exec, build_csr(exec, gen::uniform_random(13, 2), u), {8});
  const auto expected = reference::components(to_host_csr(bg.csr));
  for (int rep = 0; rep < 3; ++rep) CHECK(test::to_vector(connected_components(exec, bg).labels) == expected);
}

TEMPLATE_TEST_CASE("connected components: a CUDA path on a host space throws for both methods", "[algorithms][cc]",
                   BITGRAPH_TEST_SPACES) {
  if constexpr (!is_cuda_space_v<TestType>) {
    TestType exec;
    auto bg = make_bit_graph(exec, build_csr(exec, test::random_edges(10, 20, 1)), {8});
    for (auto method : {components_method::afforest, components_method::fastsv}) {
      components_options o;
      o.method = method;
      o.algorithm = op_algorithm::cuda_warp;
      CHECK_THROWS_AS(connected_components(exec, bg, o), unsupported_error);
    }
  }
}
