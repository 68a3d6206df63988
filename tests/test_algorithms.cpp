// Algorithms on every enabled space: validators (any correct answer passes), references on small graphs,
// and the known answers of LAGraph's data and GAP's generators.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/components.hpp"
#include "bitgraph/algorithms/pagerank.hpp"
#include "bitgraph/algorithms/reference.hpp"
#include "bitgraph/algorithms/sssp.hpp"
#include "bitgraph/algorithms/triangles.hpp"
#include "bitgraph/algorithms/validate.hpp"
#include "bitgraph/core/l2_resident.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
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

csr_build_options undirected_no_loops() {
  csr_build_options o;
  o.kind = graph_kind::undirected;
  o.remove_self_loops = true;
  return o;
}

// The property-test suite: random graphs with loops and duplicates, isolated vertices, n = 1, n not a
// multiple of any tile, directed inputs, generators and LAGraph files. Reduced mode keeps about a quarter of the
// edges: smaller Kronecker and uniform graphs, and neither of the two largest files (zenios, jagmesh7).
std::vector<named_graph> suite() {
  const bool r = test::reduced();
  std::vector<named_graph> s;
  csr_build_options directed;
  csr_build_options undirected;
  undirected.kind = graph_kind::undirected;
  s.push_back({"one vertex", test::random_edges(1, 2, 3), undirected});
  s.push_back({"no edges", test::random_edges(9, 0, 3), undirected});
  s.push_back({"random directed", test::random_edges(77, 300, 4, true), directed});
  s.push_back({"random undirected", test::random_edges(150, 260, 5, true), undirected});
  s.push_back({"random dense", test::random_edges(70, 1500, 6), directed});
  s.push_back({"grid2d:13", gen::grid_2d(13), undirected});
  s.push_back({r ? "kron:8" : "kron:9", gen::kronecker(r ? 8 : 9), undirected_no_loops()});
  s.push_back({r ? "urand:6" : "urand:8", gen::uniform_random(r ? 6 : 8), undirected_no_loops()});
  s.push_back({"mycielski:7", gen::mycielski(7), undirected});
  s.push_back({"rgg:9", gen::random_geometric(9, 1), undirected});
  s.push_back({"karate", load_mtx("karate.mtx"), undirected});
  s.push_back({"west0067", load_mtx("west0067.mtx"), directed});
  s.push_back({"ldbc-directed-example", load_mtx("ldbc-directed-example.mtx"), directed});
  if (!r) {
    s.push_back({"jagmesh7", load_mtx("jagmesh7.mtx"), undirected});
    s.push_back({"zenios", load_mtx("zenios.mtx"), undirected});
  }
  return s;
}

template <class View>
std::vector<typename View::non_const_value_type> host(const View& v) {
  return test::to_vector(v);
}

}  // namespace

TEMPLATE_TEST_CASE("BFS passes its validator in every mode and all modes agree", "[algorithms][bfs]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  // Reduced mode: every 97th (graph, tile size, source, mode, push kernel, parents, path) combination.
  test::thinning thin(97);
  for (auto& gcase : suite()) {
    for (int t : {8, 32}) {
      auto bg = make_bit_graph(exec, build_csr(exec, gcase.el, gcase.opts), {t});
      auto h = to_host_csr(bg.csr);
      for (vertex_t source : {vertex_t(0), vertex_t(bg.n() / 2), vertex_t(bg.n() - 1)}) {
        std::vector<level_t> first;
        for (auto mode : {bfs_mode::push, bfs_mode::pull, bfs_mode::direction_optimized}) {
          for (auto pk : {bfs_push_kernel::queue, bfs_push_kernel::spmspv, bfs_push_kernel::b2sr}) {
            for (bool parents : {true, false}) {
              for (auto alg : test::kernel_paths<TestType>()) {
                if (!thin.keep()) continue;
                // Pulls over the CSR or the bits; queue pushes with and without batched levels; the
                // switch as tuned (alpha 15, beta 18) or eager (every level with a frontier edge pulls).
                const int variant = int(pk) + 2 * parents + int(alg);
                INFO(gcase.name << " T=" << t << " source=" << source << " mode=" << int(mode) << " push=" << int(pk)
                                << " parents=" << parents << " alg=" << to_string(alg) << " variant=" << variant);
                bfs_options o;
                o.mode = mode;
                o.push_kernel = pk;
                o.parents = parents;
                o.algorithm = alg;
                o.operand_reuse = source % 2 == 0;
                o.pull_kernel = variant % 2 ? bfs_pull_kernel::b2sr : bfs_pull_kernel::csr;
                o.batch_levels = variant % 3 != 1;
                if (variant % 4 == 3) o.alpha = o.beta = 1e6;
                auto r = bfs(exec, bg, source, o);
                auto lv = host(r.levels);
                std::vector<vertex_t> pv;
                if (parents) pv = host(r.parents);
                auto v = validate::check_bfs(h, source, lv, parents ? &pv : nullptr);
                INFO(v.message);
                CHECK(v.ok);
                if (first.empty()) first = lv;
                CHECK(lv == first);  // levels are unique: every mode must agree
                offset_t reached = 0;
                for (auto l : lv) reached += l != unreached_level;
                CHECK(r.reached == reached);
              }
            }
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("BFS known answers and errors", "[algorithms][bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  csr_build_options u;
  u.kind = graph_kind::undirected;
  auto karate = make_bit_graph(exec, build_csr(exec, load_mtx("karate.mtx"), u), {8});
  // LAGraph test_BreadthFirstSearch.c: LEVELS30 and the valid parents PARENT30 of karate from source 30.
  const std::vector<level_t> expect = {2, 1, 2, 2, 3, 3, 3, 2, 1, 2, 3, 3, 3, 2, 2, 2, 4,
                                       2, 2, 2, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2, 0, 2, 1, 1};
  const std::vector<std::vector<vertex_t>> valid_parents = {
      {1, 8},   {30},    {1, 8, 32}, {1},    {0},      {0},      {0},      {1},      {30},
      {33},     {0},     {0},        {0, 3}, {1, 33},  {32, 33}, {32, 33}, {5, 6},   {1},
      {32, 33}, {1, 33}, {32, 33},   {1},    {32, 33}, {32, 33}, {27, 31}, {23, 31}, {33},
      {33},     {33},    {32, 33},   {30},   {32, 33}, {30},     {30}};
  for (auto mode : {bfs_mode::push, bfs_mode::pull, bfs_mode::direction_optimized}) {
    bfs_options o;
    o.mode = mode;
    auto r = bfs(exec, karate, 30, o);
    CHECK(host(r.levels) == expect);
    auto par = host(r.parents);
    for (vertex_t v = 0; v < 34; ++v) {
      INFO("vertex " << v << " parent " << par[v]);
      CHECK(std::find(valid_parents[v].begin(), valid_parents[v].end(), par[v]) != valid_parents[v].end());
    }
    CHECK(r.traversed_edges == 78);
    CHECK(r.depth == 4);
  }
  // A 40 x 40 grid: the level of (i, j) from a corner is i + j.
  auto grid = make_bit_graph(exec, build_csr(exec, gen::grid_2d(40), u), {16});
  auto g = bfs(exec, grid, 0);
  auto lv = host(g.levels);
  for (vertex_t i = 0; i < 40; ++i)
    for (vertex_t j = 0; j < 40; ++j) CHECK(lv[i * 40 + j] == level_t(i + j));
  CHECK(g.depth == 78);
  CHECK_THROWS_AS(bfs(exec, karate, 34), invalid_argument_error);
  bfs_options bad;
  bad.alpha = 0;
  CHECK_THROWS_AS(bfs(exec, karate, 0, bad), invalid_argument_error);
}

TEMPLATE_TEST_CASE("BFS with a reused workspace equals BFS without one", "[algorithms][bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  bfs_workspace<memory_space_t<TestType>> ws;
  test::thinning thin(17);  // reduced mode: every 17th (graph, source, mode, parents) combination
  // One workspace across graphs of different sizes, modes, sources, with and without parents: every
  // call must start from a clean state (a stale visited bit or queue would lose or misplace vertices).
  for (auto& gcase : suite()) {
    auto bg = make_bit_graph(exec, build_csr(exec, gcase.el, gcase.opts), {8});
    auto h = to_host_csr(bg.csr);
    for (vertex_t source : {vertex_t(bg.n() - 1), vertex_t(0), vertex_t(bg.n() / 3)}) {
      for (auto mode : {bfs_mode::direction_optimized, bfs_mode::push, bfs_mode::pull}) {
        for (bool parents : {false, true}) {
          if (!thin.keep()) continue;
          INFO(gcase.name << " source=" << source << " mode=" << int(mode) << " parents=" << parents);
          bfs_options o;
          o.mode = mode;
          o.parents = parents;
          const auto fresh = bfs(exec, bg, source, o);
          const auto reused = bfs(exec, bg, source, o, ws);
          CHECK(reused.levels.data() == ws.levels.data());
          const auto lv = host(reused.levels);
          CHECK(lv == host(fresh.levels));
          CHECK(reused.reached == fresh.reached);
          CHECK(reused.depth == fresh.depth);
          CHECK(reused.traversed_edges == fresh.traversed_edges);
          std::vector<vertex_t> pv;
          if (parents) pv = host(reused.parents);
          const auto v = validate::check_bfs(h, source, lv, parents ? &pv : nullptr);
          INFO(v.message);
          CHECK(v.ok);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("BFS batched levels on long graphs agree with one launch per level", "[algorithms][bfs]",
                   BITGRAPH_TEST_SPACES) {
  // Graphs of hundreds of levels whose out-degrees are all small: the queue push runs them in batches of up to
  // 256 levels (on CUDA one persistent kernel per batch, the statistics ring wrapping around), and must give the
  // levels of the portable kernel, a valid parent tree, the same depth and the same traversed edges; max_depth
  // cuts a batch short.
  TestType exec;
  csr_build_options u;
  u.kind = graph_kind::undirected;
  edge_list path;  // 0 - 1 - ... - 699, each edge stored from its higher end
  path.num_vertices = 700;
  for (vertex_t v = 0; v + 1 < 700; ++v) {
    path.src.push_back(v + 1);
    path.dst.push_back(v);
  }
  std::vector<named_graph> graphs = {{"grid2d:120", gen::grid_2d(120), u},
                                     {"path:700 (reversed edges)", path, u},
                                     {"rgg:12", gen::random_geometric(12, 1), u}};
  // Reduced mode: every 13th (graph, source, parents, max_depth) combination: one run on each graph.
  test::thinning thin(13);
  for (auto& gcase : graphs) {
    auto bg = make_bit_graph(exec, build_csr(exec, gcase.el, gcase.opts), {8});
    auto h = to_host_csr(bg.csr);
    for (vertex_t source : {vertex_t(0), vertex_t(bg.n() / 2 + 7), vertex_t(bg.n() - 1)}) {
      for (bool parents : {true, false}) {
        for (level_t max_depth : {0, 300}) {
          if (!thin.keep()) continue;
          INFO(gcase.name << " source=" << source << " parents=" << parents << " max_depth=" << max_depth);
          bfs_options o;
          o.mode = bfs_mode::push;
          o.parents = parents;
          o.max_depth = max_depth;
          bfs_options one = o;
          one.batch_levels = false;
          one.algorithm = op_algorithm::generic;
          const auto batched = bfs(exec, bg, source, o);
          const auto single = bfs(exec, bg, source, one);
          const auto lv = host(batched.levels);
          CHECK(lv == host(single.levels));
          CHECK(batched.depth == single.depth);
          CHECK(batched.reached == single.reached);
          CHECK(batched.traversed_edges == single.traversed_edges);
          if (max_depth == 0) {
            std::vector<vertex_t> pv;
            if (parents) pv = host(batched.parents);
            const auto v = validate::check_bfs(h, source, lv, parents ? &pv : nullptr);
            INFO(v.message);
            CHECK(v.ok);
          } else {
            CHECK(batched.depth <= max_depth);
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("SSSP passes its validator (weighted and unit weights)", "[algorithms][sssp]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  test::thinning thin(17);  // reduced mode: every 17th (graph, source, weights, path, method) run
  for (auto& gcase : suite()) {
    auto el = gcase.el;
    if (!el.weighted()) {
      el.weights.resize(el.size());
      for (std::size_t e = 0; e < el.size(); ++e) el.weights[e] = double(1 + (e * 7919) % 13);
    } else {
      for (auto& w : el.weights) w = std::abs(w);  // SSSP needs non-negative weights
    }
    auto bg = make_bit_graph(exec, build_csr(exec, el, gcase.opts), {16});
    auto h = to_host_csr(bg.csr);
    auto hu = h;
    hu.has_weights = false;
    hu.weights.clear();
    for (vertex_t source : {vertex_t(0), vertex_t(bg.n() - 1)}) {
      for (bool weights : {true, false}) {
        for (auto alg : test::kernel_paths<TestType>()) {
          INFO(gcase.name << " source=" << source << " weights=" << weights << " alg=" << to_string(alg));
          for (auto method : {sssp_method::automatic, sssp_method::bellman_ford, sssp_method::near_far}) {
            if (method == sssp_method::near_far && !(weights && h.has_weights)) continue;  // weights only
            if (!thin.keep()) continue;
            INFO("method=" << int(method));
            sssp_options o;
            o.use_weights = weights;
            o.algorithm = alg;
            o.method = method;
            if (method == sssp_method::near_far) o.delta = 0.5 + double(source % 3);  // narrow and wide phases
            auto r = sssp(exec, bg, source, o);
            CHECK(r.weighted == (weights && h.has_weights));
            auto v = validate::check_sssp(weights ? h : hu, source, host(r.dist));
            INFO(v.message);
            CHECK(v.ok);
          }
        }
      }
    }
  }
  auto bg = make_bit_graph(exec, build_csr(exec, test::random_edges(10, 20, 1)), {8});
  CHECK_THROWS_AS(sssp(exec, bg, 10), invalid_argument_error);
  edge_list neg = test::random_edges(10, 20, 1, true);
  neg.weights[3] = -1;
  auto ng = make_bit_graph(exec, build_csr(exec, neg), {8});
  CHECK_THROWS_AS(sssp(exec, ng, 0), invalid_argument_error);
  // bfs needs unit weights.
  auto wg = make_bit_graph(exec, build_csr(exec, test::random_edges(10, 20, 1, true)), {8});
  sssp_options on_weights;
  on_weights.method = sssp_method::bfs;
  CHECK_THROWS_AS(sssp(exec, wg, 0, on_weights), invalid_argument_error);
  on_weights.use_weights = false;
  CHECK(sssp(exec, wg, 0, on_weights).converged);
  // Distances near DBL_MAX: delta is lost to rounding there, and the phases must still end.
  {
    edge_list big;
    big.num_vertices = 6;
    for (vertex_t v = 0; v + 1 < 6; ++v) {
      big.src.push_back(v);
      big.dst.push_back(v + 1);
      big.weights.push_back(v == 2 ? std::numeric_limits<double>::max() : 1.0);
    }
    auto bgr = make_bit_graph(exec, build_csr(exec, big), {8});
    for (auto method : {sssp_method::near_far, sssp_method::bellman_ford}) {
      sssp_options o;
      o.method = method;
      auto d = host(sssp(exec, bgr, 0, o).dist);
      CHECK(d[2] == 2.0);
      CHECK(d[3] == std::numeric_limits<double>::max());  // 2 + DBL_MAX rounds to DBL_MAX
      CHECK(d[5] == std::numeric_limits<double>::max());
    }
  }
  // Near-far with phases far narrower and far wider than the weights agrees with Bellman-Ford.
  const auto wh = to_host_csr(wg.csr);
  for (double delta : {1e-3, 0.25, 7.0, 1e6}) {
    INFO("delta=" << delta);
    sssp_options nf;
    nf.method = sssp_method::near_far;
    nf.delta = delta;
    auto v = validate::check_sssp(wh, 3, host(sssp(exec, wg, 3, nf).dist));
    INFO(v.message);
    CHECK(v.ok);
  }
}

TEMPLATE_TEST_CASE("SSSP with a reused workspace equals SSSP without one", "[algorithms][sssp]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  sssp_workspace<memory_space_t<TestType>> ws;
  test::thinning thin(11);  // reduced mode: every 11th (graph, source, weights, method) combination
  // One workspace across graphs of different sizes, methods, weights and sources: each call starts clean, and the
  // result aliases the workspace's distances.
  for (auto& gcase : suite()) {
    auto el = gcase.el;
    for (auto& w : el.weights) w = std::abs(w);  // SSSP needs non-negative weights
    auto bg = make_bit_graph(exec, build_csr(exec, el, gcase.opts), {8});
    for (vertex_t source : {vertex_t(bg.n() - 1), vertex_t(0)}) {
      for (bool weights : {false, true}) {
        for (auto method : {sssp_method::automatic, sssp_method::bellman_ford}) {
          if (!thin.keep()) continue;
          INFO(gcase.name << " source=" << source << " weights=" << weights << " method=" << int(method));
          sssp_options o;
          o.use_weights = weights;
          o.method = method;
          const auto fresh = sssp(exec, bg, source, o);
          const auto reused = sssp(exec, bg, source, o, ws);
          CHECK(reused.dist.data() == ws.dist.data());
          CHECK(host(reused.dist) == host(fresh.dist));
          // Near-far's round count depends on the order of its atomic updates on parallel spaces.
          if (!(weights && bg.csr.has_weights)) CHECK(reused.iterations == fresh.iterations);
          CHECK(reused.converged == fresh.converged);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("SSSP stops after max_iterations rounds", "[algorithms][sssp]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  // A path 0 - 1 - ... - 39: round k settles vertex k, so k rounds leave exactly 0..k finite.
  edge_list el;
  el.num_vertices = 40;
  for (vertex_t v = 0; v + 1 < 40; ++v) {
    el.src.push_back(v);
    el.dst.push_back(v + 1);
    el.weights.push_back(1.0);
  }
  csr_build_options u;
  u.kind = graph_kind::undirected;
  auto bg = make_bit_graph(exec, build_csr(exec, el, u), {8});
  test::thinning thin(5);  // reduced mode: every 5th (variant, cap): each variant, caps below and at the fixed point
  for (int variant : {0, 1, 2, 3}) {
    const bool weights = variant == 0 || variant == 3;
    for (int cap : {1, 5, 38, 39, 40, 100}) {
      if (!thin.keep()) continue;
      INFO("variant=" << variant << " cap=" << cap);
      sssp_options o;
      o.use_weights = weights;
      o.method = variant >= 2 ? sssp_method::bellman_ford : sssp_method::automatic;  // 0: near-far, 3: SpMSpV
      o.max_iterations = cap;
      auto r = sssp(exec, bg, 0, o);
      auto d = host(r.dist);
      const int settled = std::min(cap, 39);
      for (vertex_t v = 0; v < 40; ++v) {
        if (int(v) <= settled)
          CHECK(d[v] == double(v));
        else
          CHECK(d[v] == std::numeric_limits<double>::infinity());
      }
      // The last round finds nothing to improve, so only a cap of 40 or more reaches the fixed point.
      CHECK(r.converged == (cap >= 40));
      CHECK(r.iterations == std::min(cap, 40));
    }
  }
  sssp_options bad;
  bad.max_iterations = -1;
  CHECK_THROWS_AS(sssp(exec, bg, 0, bad), invalid_argument_error);
}

TEMPLATE_TEST_CASE("PageRank passes its validator and matches the reference", "[algorithms][pagerank]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  test::thinning thin(5);  // reduced mode: every 5th (graph, dangling, path, product) combination
  for (auto& gcase : suite()) {
    auto bg = make_bit_graph(exec, build_csr(exec, gcase.el, gcase.opts), {32});
    auto h = to_host_csr(bg.csr);
    for (auto dangling : {pagerank_dangling::redistribute, pagerank_dangling::ignore}) {
      for (auto alg : test::kernel_paths<TestType>()) {
        for (auto product : {pagerank_product::automatic, pagerank_product::bits, pagerank_product::csr}) {
          if (!thin.keep()) continue;
          INFO(gcase.name << " dangling=" << int(dangling) << " alg=" << to_string(alg) << " product=" << int(product));
          pagerank_options o;
          o.dangling = dangling;
          o.algorithm = alg;
          o.product = product;
          auto r = pagerank(exec, bg, o);
          reference::pagerank_params p;
          p.dangling = dangling == pagerank_dangling::redistribute ? reference::pagerank_dangling::redistribute
                                                                   : reference::pagerank_dangling::ignore;
          auto v = validate::check_pagerank(h, host(r.rank), p);
          INFO(v.message);
          CHECK(v.ok);
          auto ref = reference::pagerank(h, p);
          CHECK(r.iterations == ref.iterations);
        }
      }
    }
  }
  auto bg = make_bit_graph(exec, build_csr(exec, test::random_edges(10, 20, 1)), {8});
  pagerank_options bad;
  bad.damping = 1.0;
  CHECK_THROWS_AS(pagerank(exec, bg, bad), invalid_argument_error);
}

TEMPLATE_TEST_CASE("l2_resident_scope is only a hint", "[algorithms][pagerank]", BITGRAPH_TEST_SPACES) {
  // Buffers below the threshold, within the CUDA set-aside and beyond any L2: kernels inside and after the scope
  // compute what they compute without it, and scopes nest.
  TestType exec;
  for (std::size_t n : {std::size_t(1000), std::size_t(1) << 20, std::size_t(1) << 25}) {
    INFO("n = " << n);
    Kokkos::View<double*, memory_space_t<TestType>> v("v", n);
    {
      const l2_resident_scope<TestType> keep(exec, v);
      const l2_resident_scope<TestType> inner(exec, Kokkos::subview(v, std::make_pair(std::size_t(0), n / 2)));
      Kokkos::deep_copy(exec, v, 2.0);
#if defined(KOKKOS_ENABLE_CUDA)
      // 8 MiB fits the persisting set-aside of every L2-persistence device (compute capability 8.0+, not MIG).
      if constexpr (std::is_same_v<TestType, Kokkos::Cuda>) {
        int dev = 0, max_persist = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, dev);
        if (n == (std::size_t(1) << 20) && std::size_t(max_persist) >= n * sizeof(double)) CHECK(keep.active());
        if (n == (std::size_t(1) << 25)) CHECK_FALSE(keep.active());  // 256 MiB: no L2 holds half
        if (n == 1000) CHECK_FALSE(keep.active());
      }
#endif
      if constexpr (std::is_same_v<memory_space_t<TestType>, Kokkos::HostSpace>) CHECK_FALSE(keep.active());
    }
    const auto h = host(v);
    CHECK(std::count(h.begin(), h.end(), 2.0) == std::ptrdiff_t(n));
  }
  // PageRank under its own scope: the same ranks on every run, up to the order of floating-point additions (the
  // tile-balanced product adds rows' partial sums atomically: under compute-sanitizer their order changed the last
  // bit).
  csr_build_options u;
  u.kind = graph_kind::undirected;
  auto bg = make_bit_graph(exec, build_csr(exec, gen::kronecker(12), u), {8});
  const auto a = host(pagerank(exec, bg).rank);
  const auto b = host(pagerank(exec, bg).rank);
  REQUIRE(a.size() == b.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) differ += !(std::abs(a[i] - b[i]) <= 1e-9 * std::abs(a[i]) + 1e-18);
  CHECK(differ == 0);
}

TEMPLATE_TEST_CASE("connected components pass their validator", "[algorithms][cc]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& gcase : suite()) {
    for (auto alg : test::kernel_paths<TestType>()) {
      INFO(gcase.name << " alg=" << to_string(alg));
      auto bg = make_bit_graph(exec, build_csr(exec, gcase.el, gcase.opts), {8});
      auto h = to_host_csr(bg.csr);
      components_options o;
      o.algorithm = alg;
      auto r = connected_components(exec, bg, o);
      auto labels = host(r.labels);
      auto v = validate::check_components(h, labels);
      INFO(v.message);
      CHECK(v.ok);
      CHECK(r.count == reference::count_components(h));
      CHECK(labels == reference::components(h));  // FastSV converges to the minimum id
    }
  }
}

TEMPLATE_TEST_CASE("triangle counting is exact", "[algorithms][tc]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  test::thinning thin(2);  // reduced mode: every other (graph, tile size, path) combination
  for (auto& gcase : suite()) {
    if (gcase.opts.kind != graph_kind::undirected) continue;
    for (int t : {4, 8, 16, 32, 64}) {
      for (auto alg : test::kernel_paths<TestType>()) {
        if (!thin.keep()) continue;
        INFO(gcase.name << " T=" << t << " alg=" << to_string(alg));
        auto bg = make_bit_graph(exec, build_csr(exec, gcase.el, gcase.opts), {t});
        auto r = triangle_count(exec, bg, {alg});
        auto v = validate::check_triangles(to_host_csr(bg.csr), r.triangles);
        INFO(v.message);
        CHECK(v.ok);
      }
    }
    // The bitmap variant of the oriented method, from a fresh team scratch per league entry.
    auto bg = make_bit_graph(exec, build_csr(exec, gcase.el, gcase.opts), {8});
    INFO(gcase.name << " method=bitmap");
    auto r = triangle_count(exec, bg, {op_algorithm::automatic, triangles_method::oriented_bitmap});
    CHECK(r.method_used == triangles_method::oriented_bitmap);
    auto v = validate::check_triangles(to_host_csr(bg.csr), r.triangles);
    INFO(v.message);
    CHECK(v.ok);
  }
  {
    // Dense rows (long oriented lists, many bitmap words per team) and vertices in different words.
    csr_build_options u;
    u.kind = graph_kind::undirected;
    u.remove_self_loops = true;
    // Reduced mode: a quarter of the edges, still rows of many bitmap words.
    auto dense =
        make_bit_graph(exec, build_csr(exec, test::random_edges(300, test::reduced() ? 5000 : 20000, 11), u), {8});
    const auto a = triangle_count(exec, dense, {op_algorithm::automatic, triangles_method::oriented_bitmap});
    const auto b = triangle_count(exec, dense, {op_algorithm::automatic, triangles_method::oriented_intersection});
    CHECK(a.triangles == b.triangles);
    CHECK(validate::check_triangles(to_host_csr(dense.csr), a.triangles).ok);
    // n bits beyond any space's level-0 scratch (40 KB on CUDA, 32 KB on host spaces).
    auto wide = make_bit_graph(exec, build_csr(exec, test::random_edges(400000, 10, 3), u), {8});
    CHECK_THROWS_AS(triangle_count(exec, wide, {op_algorithm::automatic, triangles_method::oriented_bitmap}),
                    unsupported_error);
  }
  csr_build_options u;
  u.kind = graph_kind::undirected;
  auto karate = make_bit_graph(exec, build_csr(exec, load_mtx("karate.mtx"), u), {32});
  CHECK(triangle_count(exec, karate).triangles == 45);
  auto myc = make_bit_graph(exec, build_csr(exec, gen::mycielski(9), u), {8});
  CHECK(triangle_count(exec, myc).triangles == 0);
  auto directed = make_bit_graph(exec, build_csr(exec, test::random_edges(10, 30, 2)), {8});
  CHECK_THROWS_AS(triangle_count(exec, directed), invalid_argument_error);
}

TEMPLATE_TEST_CASE("known answers: bcsstk13 and GAP kron 16", "[algorithms][known][slow]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  csr_build_options u;
  u.kind = graph_kind::undirected;
  u.remove_self_loops = true;
  auto bc = make_bit_graph(exec, build_csr(exec, load_mtx("bcsstk13.mtx"), u), {16});
  CHECK(triangle_count(exec, bc).triangles == 342300);
  // GAP -g16: 909,646 edges, 15,656,307 triangles, 18,835 components.
  if (test::reduced()) {
    // Reduced mode: GAP kron 13 (an eighth of the edges) against the host references instead.
    auto kron = make_bit_graph(exec, build_csr(exec, gen::kronecker(13), u), {32});
    const auto h = to_host_csr(kron.csr);
    CHECK(validate::check_triangles(h, triangle_count(exec, kron).triangles).ok);
    CHECK(connected_components(exec, kron).count == reference::count_components(h));
    return;
  }
  auto kron = make_bit_graph(exec, build_csr(exec, gen::kronecker(16), u), {32});
  CHECK(kron.csr.nnz == 2 * 909646);
  CHECK(triangle_count(exec, kron).triangles == 15656307);
  CHECK(connected_components(exec, kron).count == 18835);
}
