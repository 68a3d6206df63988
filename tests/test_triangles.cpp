// Triangle counting by both methods (degree-oriented intersection and masked BMM) on every enabled space:
// the validator, the reference count, each other, and known answers (karate, Mycielski graphs, bcsstk13,
// stars, complete graphs), plus the team kernel of the oriented path forced on small lists.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "bitgraph/algorithms/reference.hpp"
#include "bitgraph/algorithms/triangles.hpp"
#include "bitgraph/algorithms/validate.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "support/random_graphs.hpp"
#include "support/spaces.hpp"
#include "support/test_data.hpp"

using namespace bitgraph;

namespace {

struct named_graph {
  std::string name;
  edge_list el;
  csr_build_options opts;
};

edge_list load_mtx(const std::string& file) {
  io::mm_read_options o;
  o.allow_duplicates = true;
  return io::read_matrix_market(std::string(BITGRAPH_TEST_DATA_DIR) + "/" + file, o);
}

csr_build_options undirected(bool drop_loops = false) {
  csr_build_options o;
  o.kind = graph_kind::undirected;
  o.remove_self_loops = drop_loops;
  return o;
}

edge_list star(vertex_t n) {
  edge_list el;
  el.num_vertices = n;
  for (vertex_t v = 1; v < n; ++v) {
    el.src.push_back(0);
    el.dst.push_back(v);
  }
  return el;
}

edge_list complete(vertex_t n) {
  edge_list el;
  el.num_vertices = n;
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v = u + 1; v < n; ++v) {
      el.src.push_back(u);
      el.dst.push_back(v);
    }
  return el;
}

// Undirected graphs with self-loops and duplicate entries (build_csr merges them), isolated vertices,
// n = 1, no edges, n not a multiple of any tile, hubs, generators and LAGraph files.
std::vector<named_graph> suite() {
  std::vector<named_graph> s;
  s.push_back({"one vertex", test::random_edges(1, 2, 3), undirected()});
  s.push_back({"no edges", test::random_edges(9, 0, 3), undirected()});
  s.push_back({"random sparse", test::random_edges(150, 260, 5, true), undirected()});
  s.push_back({"random dense", test::random_edges(70, 1500, 6), undirected()});
  s.push_back({"random isolated", test::random_edges(333, 400, 7), undirected()});
  s.push_back({"star:50", star(50), undirected()});
  s.push_back({"K_12", complete(12), undirected()});
  s.push_back({"grid2d:13", gen::grid_2d(13), undirected()});
  s.push_back({"kron:9", gen::kronecker(9), undirected(true)});
  s.push_back({"kron:10 with loops", gen::kronecker(10), undirected()});
  s.push_back({"urand:8", gen::uniform_random(8), undirected(true)});
  s.push_back({"mycielski:7", gen::mycielski(7), undirected()});
  s.push_back({"rgg:9", gen::random_geometric(9, 1), undirected()});
  s.push_back({"karate", load_mtx("karate.mtx"), undirected()});
  s.push_back({"jagmesh7", load_mtx("jagmesh7.mtx"), undirected()});
  s.push_back({"zenios", load_mtx("zenios.mtx"), undirected()});
  s.push_back({"west0067 symmetrised", load_mtx("west0067.mtx"), undirected()});
  return s;
}

triangles_options with(triangles_method m, op_algorithm a = op_algorithm::automatic) {
  triangles_options o;
  o.method = m;
  o.algorithm = a;
  return o;
}

// Every way the space has to count: the oriented path, and the masked BMM on each kernel path.
template <class Exec>
std::vector<triangles_options> every_method() {
  std::vector<triangles_options> out{with(triangles_method::automatic), with(triangles_method::oriented_intersection),
                                     with(triangles_method::oriented_bitmap)};
  for (auto alg : test::kernel_paths<Exec>()) out.push_back(with(triangles_method::masked_bmm, alg));
  return out;
}

}  // namespace

TEMPLATE_TEST_CASE("triangle counting: both methods are exact and agree", "[algorithms][tc]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& gcase : suite()) {
    for (int t : {8, 32}) {
      auto bg = make_bit_graph(exec, build_csr(exec, gcase.el, gcase.opts), {t});
      const auto h = to_host_csr(bg.csr);
      const std::uint64_t expected = reference::triangles(h);
      std::uint64_t undirected_edges = 0;  // entries above the diagonal
      for (vertex_t u = 0; u < h.n; ++u)
        for (auto p = h.row_ptr[u]; p < h.row_ptr[u + 1]; ++p) undirected_edges += h.col_idx[p] > u;
      for (const auto& o : every_method<TestType>()) {
        INFO(gcase.name << " T=" << t << " method=" << to_string(o.method) << " alg=" << to_string(o.algorithm));
        const auto r = triangle_count(exec, bg, o);
        auto v = validate::check_triangles(h, r.triangles);
        INFO(v.message);
        CHECK(v.ok);
        CHECK(r.triangles == expected);
        CHECK(r.lower_entries == undirected_edges);
        // automatic: on host spaces the oriented method for mean degree <= 64, else the BMM; on devices the bitmap
        // variant above mean degree 64 (the suite's graphs all fit its scratch), else the oriented method.
        constexpr bool host =
            Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename TestType::memory_space>::accessible;
        const bool sparse = bg.csr.nnz <= offset_t(64) * offset_t(bg.n());
        const auto automatic =
            host ? (sparse ? triangles_method::oriented_intersection : triangles_method::masked_bmm)
                 : (sparse ? triangles_method::oriented_intersection : triangles_method::oriented_bitmap);
        const auto want = o.method == triangles_method::automatic ? automatic : o.method;
        CHECK(r.method_used == want);
        if (r.method_used != triangles_method::masked_bmm) CHECK(r.lower_tiles == 0);
      }
    }
  }
}

TEMPLATE_TEST_CASE("triangle counting per vertex equals a brute-force count", "[algorithms][tc]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& gcase : suite()) {
    auto bg = make_bit_graph(exec, build_csr(exec, gcase.el, gcase.opts), {8});
    const auto h = to_host_csr(bg.csr);
    // The triangles at each vertex, from the adjacency sets directly (loops and repeats ignored).
    std::vector<std::vector<char>> adj(h.n, std::vector<char>(h.n, 0));
    for (vertex_t u = 0; u < h.n; ++u)
      for (auto p = h.row_ptr[u]; p < h.row_ptr[u + 1]; ++p)
        if (h.col_idx[p] != u) adj[u][h.col_idx[p]] = 1;
    std::vector<std::uint64_t> want(h.n, 0);
    std::uint64_t total = 0;
    for (vertex_t a = 0; a < h.n; ++a)
      for (vertex_t b = a + 1; b < h.n; ++b)
        if (adj[a][b])
          for (vertex_t c = b + 1; c < h.n; ++c)
            if (adj[a][c] && adj[b][c]) {
              ++want[a];
              ++want[b];
              ++want[c];
              ++total;
            }
    for (auto method :
         {triangles_method::automatic, triangles_method::oriented_intersection, triangles_method::oriented_bitmap}) {
      INFO(gcase.name << " method=" << to_string(method));
      const auto r = triangle_count_per_vertex(exec, bg, {op_algorithm::automatic, method});
      CHECK(r.summary.triangles == total);
      CHECK(r.summary.method_used != triangles_method::masked_bmm);
      CHECK(test::to_vector(r.per_vertex) == want);
    }
  }
  // A hub in many triangles and vertices in none: the wheel W_12 (hub 0, rim 1..12).
  edge_list wheel;
  wheel.num_vertices = 13;
  for (vertex_t i = 1; i <= 12; ++i) {
    wheel.src.push_back(0);
    wheel.dst.push_back(i);
    wheel.src.push_back(i);
    wheel.dst.push_back(i % 12 + 1);
  }
  csr_build_options u;
  u.kind = graph_kind::undirected;
  auto w = make_bit_graph(exec, build_csr(exec, wheel, u), {8});
  const auto r = triangle_count_per_vertex(exec, w);
  CHECK(r.summary.triangles == 12);
  const auto pv = test::to_vector(r.per_vertex);
  CHECK(pv[0] == 12);
  for (vertex_t i = 1; i <= 12; ++i) CHECK(pv[i] == 2);
  CHECK_THROWS_AS(triangle_count_per_vertex(exec, w, {op_algorithm::automatic, triangles_method::masked_bmm}),
                  unsupported_error);
  auto directed = make_bit_graph(exec, build_csr(exec, test::random_edges(10, 30, 2)), {8});
  CHECK_THROWS_AS(triangle_count_per_vertex(exec, directed), invalid_argument_error);
}

TEMPLATE_TEST_CASE("triangle counting: the oriented path's team kernel and repeated entries", "[algorithms][tc]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& gcase : suite()) {
    auto g = build_csr(exec, gcase.el, gcase.opts);
    const std::uint64_t expected = reference::triangles(to_host_csr(g));
    // heavy_min 0 sends every edge to the team kernel, 1 every edge with two non-empty lists.
    for (offset_t heavy_min : {offset_t(0), offset_t(1), offset_t(2), offset_t(3), offset_t(8), offset_t(32),
                               std::numeric_limits<offset_t>::max()}) {
      INFO(gcase.name << " heavy_min=" << heavy_min);
      CHECK(detail::triangle_count_oriented(exec, g, heavy_min).triangles == expected);
    }
    // Kept repeats (adjacent in a sorted row) count once.
    auto keep = gcase.opts;
    keep.remove_duplicates = false;
    auto gd = build_csr(exec, gcase.el, keep);
    INFO(gcase.name << " with repeats, nnz " << gd.nnz << " vs " << g.nnz);
    CHECK(detail::triangle_count_oriented(exec, gd).triangles == expected);
    CHECK(detail::triangle_count_oriented(exec, gd, 1).triangles == expected);
  }
}

TEMPLATE_TEST_CASE("triangle counting: known answers", "[algorithms][tc]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto count_all = [&](const bit_graph<memory_space_t<TestType>>& bg, std::uint64_t expected) {
    for (const auto& o : every_method<TestType>()) {
      INFO("method=" << to_string(o.method) << " alg=" << to_string(o.algorithm));
      CHECK(triangle_count(exec, bg, o).triangles == expected);
    }
  };
  SECTION("karate: 45") { count_all(make_bit_graph(exec, build_csr(exec, load_mtx("karate.mtx"), undirected())), 45); }
  SECTION("Mycielski graphs are triangle-free") {
    for (unsigned k : {2u, 3u, 4u, 9u}) {
      INFO("mycielski:" << k);
      count_all(make_bit_graph(exec, build_csr(exec, gen::mycielski(k), undirected()), {8}), 0);
    }
  }
  SECTION("bcsstk13: 342300") {
    count_all(make_bit_graph(exec, build_csr(exec, load_mtx("bcsstk13.mtx"), undirected(true)), {16}), 342300);
  }
  SECTION("a star has none; one rim edge makes one") {
    for (vertex_t n : {2u, 3u, 40u, 1000u}) {
      INFO("star n=" << n);
      count_all(make_bit_graph(exec, build_csr(exec, star(n), undirected()), {32}), 0);
      if (n < 3) continue;
      auto el = star(n);
      el.src.push_back(n - 1);
      el.dst.push_back(n - 2);
      count_all(make_bit_graph(exec, build_csr(exec, el, undirected()), {32}), 1);
    }
  }
  SECTION("K_n: n choose 3") {
    for (vertex_t n : {1u, 2u, 3u, 4u, 5u, 10u, 33u, 70u}) {
      INFO("K_" << n);
      const std::uint64_t choose3 = std::uint64_t(n) * (n - 1) * (n >= 2 ? n - 2 : 0) / 6;
      auto g = build_csr(exec, complete(n), undirected());
      count_all(make_bit_graph(exec, g, {16}), choose3);
      CHECK(detail::triangle_count_oriented(exec, g, 1).triangles == choose3);
      CHECK(detail::triangle_count_oriented(exec, g).lower_entries == std::uint64_t(n) * (n - 1) / 2);
    }
  }
}

TEMPLATE_TEST_CASE("a file's symmetry gives the graph kind on the default path", "[algorithms][tc][io]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  // read_matrix_market and build_csr with default options, as docs/io.md shows them.
  const auto from_text = [](const std::string& text) {
    std::istringstream in(text);
    return io::read_matrix_market(in, "inline.mtx");
  };
  const auto count = [&](const csr_graph<mem>& g) { return triangle_count(exec, make_bit_graph(exec, g)).triangles; };
  SECTION("symmetric: karate is undirected and has 45 triangles") {
    const auto el = io::read_matrix_market(std::string(BITGRAPH_TEST_DATA_DIR) + "/karate.mtx");
    REQUIRE(el.storage == edge_storage::symmetric);
    const auto g = build_csr(exec, el);
    CHECK(g.kind == graph_kind::undirected);
    CHECK(g.nnz == 156);
    const auto bg = make_bit_graph(exec, g);
    CHECK_FALSE(bg.directed());
    CHECK(bg.csr_t.nnz == 0);  // an undirected graph is its own transpose: none is built
    CHECK(triangle_count(exec, bg).triangles == 45);
  }
  SECTION("skew-symmetric and hermitian files are undirected too") {
    const std::string entries = "3 3 3\n2 1 1.5\n3 1 -2\n3 2 0.5\n";
    for (const char* symmetry : {"skew-symmetric", "hermitian"}) {
      INFO(symmetry);
      const auto g =
          build_csr(exec, from_text(std::string("%%MatrixMarket matrix coordinate real ") + symmetry + "\n" + entries));
      CHECK(g.kind == graph_kind::undirected);
      CHECK(g.nnz == 6);
      CHECK(count(g) == 1);
    }
  }
  SECTION("general stays directed unless asked") {
    const std::string text = "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n3 1\n";
    const auto el = from_text(text);
    const auto g = build_csr(exec, el);
    CHECK(g.kind == graph_kind::directed);
    CHECK(g.nnz == 3);
    CHECK_THROWS_AS(triangle_count(exec, make_bit_graph(exec, g)), invalid_argument_error);
    csr_build_options o;
    o.kind = graph_kind::undirected;
    const auto u = build_csr(exec, el, o);
    CHECK(u.kind == graph_kind::undirected);
    CHECK(count(u) == 1);
  }
  SECTION("an explicit kind wins over the file's") {
    const auto el = from_text("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 1\n3 2\n");
    csr_build_options o;
    o.kind = graph_kind::directed;
    const auto g = build_csr(exec, el, o);
    CHECK(g.kind == graph_kind::directed);
    CHECK(g.nnz == 6);  // still expanded: the file stores each edge once for both directions
    CHECK(resolved_kind(el, o) == graph_kind::directed);
    CHECK(resolved_kind(el, {}) == graph_kind::undirected);
  }
}

TEMPLATE_TEST_CASE("triangle counting rejects bad arguments", "[algorithms][tc][errors]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto directed = make_bit_graph(exec, build_csr(exec, test::random_edges(10, 30, 2)), {8});
  for (auto m : {triangles_method::automatic, triangles_method::oriented_intersection, triangles_method::masked_bmm}) {
    INFO("method=" << to_string(m));
    CHECK_THROWS_AS(triangle_count(exec, directed, with(m)), invalid_argument_error);
  }
  // The oriented path has no CUDA kernel paths (and a host space has none at all).
  auto g = make_bit_graph(exec, build_csr(exec, complete(5), undirected()), {8});
  CHECK_THROWS_AS(triangle_count(exec, g, with(triangles_method::oriented_intersection, op_algorithm::cuda_warp)),
                  unsupported_error);
  CHECK_THROWS_AS(triangle_count(exec, g, with(triangles_method::oriented_intersection, op_algorithm::cuda_mma)),
                  unsupported_error);
  if constexpr (is_cuda_space_v<TestType>) {
    // automatic with a forced CUDA path is the BMM's.
    CHECK(triangle_count(exec, g, with(triangles_method::automatic, op_algorithm::cuda_warp)).method_used ==
          triangles_method::masked_bmm);
  } else {
    CHECK_THROWS_AS(triangle_count(exec, g, with(triangles_method::masked_bmm, op_algorithm::cuda_warp)),
                    unsupported_error);
  }
}
