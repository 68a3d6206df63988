// Orderings on the execution space (reorder/device_order.hpp) against the host reorder module, and an op run
// on a reordered graph whose results come back in the caller's ids.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "bitgraph/formats/csr.hpp"
#include "bitgraph/io/load_graph.hpp"
#include "bitgraph/ops/mxv.hpp"
#include "bitgraph/reorder/device_order.hpp"
#include "bitgraph/reorder/orderings.hpp"
#include "bitgraph/reorder/permutation.hpp"
#include "support/mxv_cases.hpp"
#include "support/random_graphs.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

namespace {

struct graph_case {
  std::uint64_t n, m;
  bool weighted;
  graph_kind kind;
};

// Empty, a single vertex, isolated vertices (m << n), hubs (m >> n), directed and undirected, weighted.
const graph_case cases[] = {
    {0, 0, false, graph_kind::directed},     {1, 0, false, graph_kind::undirected},
    {37, 12, false, graph_kind::directed},   {100, 900, true, graph_kind::undirected},
    {257, 3000, true, graph_kind::directed}, {64, 2000, false, graph_kind::undirected},
};

template <class Exec>
csr_graph<typename Exec::memory_space> make_graph(const Exec& exec, const graph_case& c, std::uint64_t seed) {
  csr_build_options o;
  o.kind = c.kind;
  o.remove_self_loops = seed % 2 == 0;  // self-loops kept on odd seeds
  return build_csr(exec, test::random_edges(c.n, c.m, seed, c.weighted), o);
}

template <class Mem>
std::vector<vertex_t> host_vec(const Kokkos::View<vertex_t*, Mem>& v) {
  return test::to_vector(v);
}

// The cluster order spelled out on the host: degree ranks, each vertex's smallest-ranked other neighbour,
// then a sort by (min(anchor, rank), rank).
reorder::permutation host_cluster_order(const host_csr& h) {
  const auto rank = reorder::degree_order(h).new_of_old();
  std::vector<std::uint64_t> key(h.n);
  for (vertex_t v = 0; v < h.n; ++v) {
    vertex_t anchor = rank[v];
    for (offset_t p = h.row_ptr[v]; p < h.row_ptr[v + 1]; ++p)
      if (h.col_idx[p] != v) anchor = std::min(anchor, rank[h.col_idx[p]]);
    key[v] = (std::uint64_t(std::min(anchor, rank[v])) << 32) | rank[v];
  }
  std::vector<vertex_t> old_of_new(h.n);
  std::iota(old_of_new.begin(), old_of_new.end(), vertex_t(0));
  std::sort(old_of_new.begin(), old_of_new.end(), [&](vertex_t a, vertex_t b) { return key[a] < key[b]; });
  return reorder::permutation::from_old_of_new(old_of_new);
}

template <class Exec>
csr_graph<typename Exec::memory_space> graph_of(const Exec& exec, std::uint64_t n,
                                                const std::vector<std::pair<vertex_t, vertex_t>>& edges,
                                                graph_kind kind, bool loops = true) {
  edge_list el;
  el.num_vertices = n;
  for (const auto& [u, v] : edges) {
    el.src.push_back(u);
    el.dst.push_back(v);
  }
  csr_build_options o;
  o.kind = kind;
  o.remove_self_loops = !loops;
  return build_csr(exec, el, o);
}

// cluster_order(exec, g) against the host reference, and a bijection with its inverse.
template <class Exec>
void check_cluster_order(const Exec& exec, const csr_graph<typename Exec::memory_space>& g) {
  const auto expect = host_cluster_order(to_host_csr(g));
  auto p = reorder::cluster_order(exec, g);
  CHECK_NOTHROW(reorder::check_vertex_order(exec, p, g.n, "test"));
  CHECK(host_vec(p.old_of_new) == expect.old_of_new());
  CHECK(host_vec(p.new_of_old) == expect.new_of_old());
}

}  // namespace

TEMPLATE_TEST_CASE("degree_order on the space equals the host degree order", "[reorder][device]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  std::uint64_t seed = 1;
  for (const auto& c : cases) {
    auto g = make_graph(exec, c, ++seed);
    INFO("n=" << c.n << " m=" << c.m);
    const auto host = reorder::degree_order(to_host_csr(g));
    auto p = reorder::degree_order(exec, g);
    CHECK(host_vec(p.old_of_new) == host.old_of_new());
    CHECK(host_vec(p.new_of_old) == host.new_of_old());
    // A hand-assembled graph without a recorded longest row gets the same order.
    auto unrecorded = g;
    unrecorded.longest_row = 0;
    CHECK(host_vec(reorder::degree_order(exec, unrecorded).old_of_new) == host.old_of_new());
  }
}

TEMPLATE_TEST_CASE("cluster_order on the space equals the host reference", "[reorder][device]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  SECTION("random graphs: empty, one vertex, isolated vertices, hubs, directed, self-loops") {
    std::uint64_t seed = 30;
    for (const auto& c : cases) {
      INFO("n=" << c.n << " m=" << c.m << " seed=" << seed + 1);
      check_cluster_order(exec, make_graph(exec, c, ++seed));
    }
  }
  SECTION("generated graphs") {
    for (const char* spec : {"kron:10", "urand:10", "kron:9:directed:loops", "grid2d:16"}) {
      INFO(spec);
      check_cluster_order(exec, io::load_graph(exec, spec));
    }
  }
  SECTION("isolated vertices keep their degree order") {
    auto g = graph_of(exec, 5, {}, graph_kind::undirected);
    auto p = reorder::cluster_order(exec, g);
    CHECK(host_vec(p.old_of_new) == std::vector<vertex_t>{0, 1, 2, 3, 4});
  }
  SECTION("a star: the hub, then its leaves, then the rest") {
    // Hub 5 with leaves 1, 3, 7, 8; an edge 0-2 (a two-vertex cluster); 4 and 6 isolated.
    auto g = graph_of(exec, 9, {{5, 1}, {5, 3}, {5, 7}, {5, 8}, {0, 2}}, graph_kind::undirected);
    auto p = reorder::cluster_order(exec, g);
    CHECK(host_vec(p.old_of_new) == std::vector<vertex_t>{5, 1, 3, 7, 8, 0, 2, 4, 6});
    check_cluster_order(exec, g);
  }
  SECTION("self-loops count in the row length only") {
    // Rows 0 {1}, 1 {0}, 2 {3, 4}, 3 {2, 3}, 4 {2}: ranks 2 3 0 1 4; 3 and 4 follow hub 2, 1 follows 0.
    const std::vector<std::pair<vertex_t, vertex_t>> edges{{0, 1}, {2, 3}, {3, 3}, {2, 4}};
    for (const bool loops : {true, false}) {
      INFO("loops=" << loops);
      auto g = graph_of(exec, 5, edges, graph_kind::undirected, loops);
      CHECK(host_vec(reorder::cluster_order(exec, g).old_of_new) == std::vector<vertex_t>{2, 3, 4, 0, 1});
      check_cluster_order(exec, g);
    }
  }
  SECTION("a directed graph follows out-neighbours only") {
    // Ranks 0 1 2 3 8 4 5 6 7 (rows 4, 2, 1, 1, 1 long, then empty): 8 -> 0 joins the hub's cluster, the
    // hub's out-neighbours 4..7 have no out-neighbours and keep their own ranks (undirected they would join).
    auto g = graph_of(exec, 9, {{0, 4}, {0, 5}, {0, 6}, {0, 7}, {1, 2}, {1, 8}, {2, 8}, {3, 2}, {8, 0}},
                      graph_kind::directed);
    CHECK(host_vec(reorder::cluster_order(exec, g).old_of_new) == std::vector<vertex_t>{0, 8, 1, 2, 3, 4, 5, 6, 7});
    check_cluster_order(exec, g);
  }
}

TEMPLATE_TEST_CASE("relabel equals the host permute, weights and kind kept", "[reorder][device]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  std::uint64_t seed = 10;
  for (const auto& c : cases) {
    auto g = make_graph(exec, c, ++seed);
    const host_csr h = to_host_csr(g);
    for (int which = 0; which < 3; ++which) {
      INFO("n=" << c.n << " m=" << c.m << " order=" << which);
      const reorder::permutation perm = which == 0   ? reorder::permutation::identity(g.n)
                                        : which == 1 ? reorder::random_order(g.n, seed)
                                                     : reorder::degree_order(h);
      auto r = reorder::relabel(exec, g, reorder::to_vertex_order(exec, perm));
      const host_csr expect = reorder::permute(h, perm);
      const host_csr got = to_host_csr(r);
      CHECK(got.n == expect.n);
      CHECK(got.kind == expect.kind);
      CHECK(got.has_weights == expect.has_weights);
      CHECK(got.row_ptr == expect.row_ptr);
      CHECK(got.col_idx == expect.col_idx);
      CHECK(got.weights == expect.weights);
      CHECK(r.nnz == g.nnz);
      CHECK(r.longest_row == g.longest_row);
    }
  }
}

TEMPLATE_TEST_CASE("mxv on a reordered graph answers in the caller's ids", "[reorder][device][ops]",
                   BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  std::uint64_t seed = 20;
  for (const auto& c : cases) {
    auto g = make_graph(exec, c, ++seed);
    const vertex_t n = g.n;
    for (const bool cluster : {false, true}) {
      INFO("n=" << c.n << " m=" << c.m << (cluster ? " cluster" : " degree"));
      auto p = cluster ? reorder::cluster_order(exec, g) : reorder::degree_order(exec, g);
      auto r = reorder::relabel(exec, g, p);
      // Dense: y = A x directly, and as P^T ((P A P^T)(P x)).
      std::vector<double> xh(n);
      for (vertex_t v = 0; v < n; ++v) xh[v] = double((v * 7 + seed) % 11);
      auto x = test::to_view<mem>(xh);
      Kokkos::View<double*, mem> y_direct("y", n), x_new("x_new", n), y_new("y_new", n), y("y", n);
      mxv(exec, y_direct, no_mask{}, no_accumulator{}, plus_times<double>{}, g, Kokkos::View<const double*, mem>(x));
      reorder::to_reordered_ids(exec, p, x, x_new);
      mxv(exec, y_new, no_mask{}, no_accumulator{}, plus_times<double>{}, r, Kokkos::View<const double*, mem>(x_new));
      reorder::to_caller_ids(exec, p, y_new, y);
      CHECK(test::to_vector(y) == test::to_vector(y_direct));
      // Bitmaps: the Boolean product, and a round trip of the input.
      auto xb = test::make_bits(exec, test::random_bits(n, 0.3, seed));
      auto yb_direct = test::make_bits(exec, std::vector<std::uint8_t>(n, 0));
      auto xb_new = test::make_bits(exec, std::vector<std::uint8_t>(n, 1));
      auto yb_new = test::make_bits(exec, std::vector<std::uint8_t>(n, 0));
      auto yb = test::make_bits(exec, std::vector<std::uint8_t>(n, 1));
      auto back = test::make_bits(exec, std::vector<std::uint8_t>(n, 0));
      mxv(exec, yb_direct, no_mask{}, no_accumulator{}, lor_land{}, g, xb);
      reorder::to_reordered_ids(exec, p, xb, xb_new);
      reorder::to_caller_ids(exec, p, xb_new, back);
      CHECK(test::host_bits(back) == test::host_bits(xb));
      mxv(exec, yb_new, no_mask{}, no_accumulator{}, lor_land{}, r, xb_new);
      reorder::to_caller_ids(exec, p, yb_new, yb);
      CHECK(test::host_bits(yb) == test::host_bits(yb_direct));
    }
  }
}

TEMPLATE_TEST_CASE("device orders reject orders that lie", "[reorder][device][errors]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  auto g = make_graph(exec, {50, 200, false, graph_kind::directed}, 3);
  auto p = reorder::degree_order(exec, g);
  // Wrong length.
  auto short_order = reorder::to_vertex_order(exec, reorder::permutation::identity(49));
  CHECK_THROWS_AS(reorder::relabel(exec, g, short_order), invalid_argument_error);
  // Not a bijection: two vertices sent to one id.
  reorder::vertex_order<mem> bad;
  bad.new_of_old = test::to_view<mem>(test::to_vector(p.new_of_old));
  bad.old_of_new = p.old_of_new;
  Kokkos::deep_copy(Kokkos::subview(bad.new_of_old, 1), vertex_t(test::to_vector(p.new_of_old)[0]));
  CHECK_THROWS_AS(reorder::relabel(exec, g, bad), invalid_argument_error);
  // An id out of range.
  Kokkos::deep_copy(Kokkos::subview(bad.new_of_old, 1), vertex_t(50));
  CHECK_THROWS_AS(reorder::check_vertex_order(exec, bad, 50, "test"), invalid_argument_error);
  // Vectors of the wrong length.
  Kokkos::View<double*, mem> x("x", 50), y("y", 49);
  CHECK_THROWS_AS(reorder::to_caller_ids(exec, p, x, y), invalid_argument_error);
  auto b50 = test::make_bits(exec, std::vector<std::uint8_t>(50, 0));
  auto b49 = test::make_bits(exec, std::vector<std::uint8_t>(49, 0));
  CHECK_THROWS_AS(reorder::to_reordered_ids(exec, p, b50, b49), invalid_argument_error);
}

TEMPLATE_TEST_CASE("load_graph applies a spec's order", "[reorder][device][io]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (const char* order : {"degree", "cluster", "rcm", "random"}) {
    INFO(order);
    io::load_report rep;
    auto plain = io::load_graph(exec, "kron:8:seed=5");
    auto ordered = io::load_graph(exec, std::string("kron:8:seed=5:order=") + order, {}, &rep);
    CHECK(rep.name == std::string("kron:8:seed=5:order=") + order);
    CHECK(rep.order_seconds > 0);
    const host_csr h = to_host_csr(plain);
    const std::string name = order;
    const reorder::permutation perm = name == "degree"    ? reorder::degree_order(h)
                                      : name == "cluster" ? host_cluster_order(h)
                                      : name == "rcm"     ? reorder::rcm(h)
                                                          : reorder::random_order(h.n, 5);
    const host_csr expect = reorder::permute(h, perm);
    const host_csr got = to_host_csr(ordered);
    CHECK(got.row_ptr == expect.row_ptr);
    CHECK(got.col_idx == expect.col_idx);
  }
}
