// The BFS plan: the engine it chooses is the faster of the two it timed, and every engine's levels equal the
// reference, on every space.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "bitgraph/algorithms/bfs_plan.hpp"
#include "bitgraph/algorithms/reference.hpp"
#include "bitgraph/generators/generators.hpp"
#include "support/random_graphs.hpp"
#include "support/spaces.hpp"
#include "support/test_data.hpp"

using namespace bitgraph;

TEMPLATE_TEST_CASE("BFS plan: the chosen engine is the faster one and its levels are right", "[bfs][bfs_plan]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  struct plan_case {
    std::string name;
    edge_list el;
    graph_kind kind;
  };
  const std::vector<plan_case> cases = {{"kron:10", gen::kronecker(10), graph_kind::undirected},
                                        {"grid2d:20", gen::grid_2d(20), graph_kind::undirected},
                                        {"random directed", test::random_edges(400, 1600, 9), graph_kind::directed}};
  for (const auto& pc : cases) {
    csr_build_options o;
    o.kind = pc.kind;
    auto g = make_bit_graph(exec, build_csr(exec, pc.el, o), {8});
    const auto h = to_host_csr(g.csr);
    INFO(pc.name);
    // Enough traversals to try both engines; the choice must follow the timings.
    bfs_plan_options po;
    po.traversals = 1000000000;
    auto plan = make_bfs_plan(exec, g, po);
    REQUIRE(plan.blest_built);
    REQUIRE(plan.direction_optimized_seconds > 0);
    REQUIRE(plan.tensor_core_seconds > 0);
    CHECK(plan.engine == (plan.tensor_core_seconds < plan.direction_optimized_seconds
                              ? bfs_engine::tensor_core
                              : bfs_engine::direction_optimized));
    // For one traversal the tensor-core engine is built only when the model says that it can pay.
    bfs_plan_options once;
    once.traversals = 1;
    const auto cheap = make_bfs_plan(exec, g, once);
    CHECK(cheap.estimated_preparation_seconds > 0);
    CHECK(cheap.blest_built == (cheap.direction_optimized_seconds > cheap.estimated_preparation_seconds));
    if (!cheap.blest_built) CHECK(cheap.engine == bfs_engine::direction_optimized);
    for (auto engine : {bfs_engine::automatic, bfs_engine::direction_optimized, bfs_engine::tensor_core}) {
      bfs_plan_options fo = po;
      fo.engine = engine;
      auto p = engine == bfs_engine::automatic ? plan : make_bfs_plan(exec, g, fo);
      for (vertex_t s : {vertex_t(0), vertex_t(g.n() / 2), vertex_t(g.n() - 1)}) {
        INFO("engine " << to_string(p.engine) << " source " << s);
        const auto expect = reference::bfs_levels(h, s);
        const auto r = bfs(exec, p, s);
        CHECK(test::to_vector(r.levels) == expect);
        CHECK(r.depth == *std::max_element(expect.begin(), expect.end()));
      }
    }
    // Parents: only the direction-optimised engine gives them.
    bfs_plan_options withp = po;
    withp.parents = true;
    auto pp = make_bfs_plan(exec, g, withp);
    CHECK(pp.engine == bfs_engine::direction_optimized);
    CHECK(bfs(exec, pp, 0).parents.extent(0) == g.n());
  }
}

TEMPLATE_TEST_CASE("BFS plan rejects bad arguments", "[bfs_plan][errors]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = make_bit_graph(exec, build_csr(exec, test::random_edges(20, 40, 1)), {8});
  bfs_plan_options o;
  o.traversals = 0;
  CHECK_THROWS_AS(make_bfs_plan(exec, g, o), invalid_argument_error);
  o = {};
  o.trials = 0;
  CHECK_THROWS_AS(make_bfs_plan(exec, g, o), invalid_argument_error);
  o = {};
  o.parents = true;
  o.engine = bfs_engine::tensor_core;
  CHECK_THROWS_AS(make_bfs_plan(exec, g, o), invalid_argument_error);
  auto p = make_bfs_plan(exec, g);
  CHECK_THROWS_AS(bfs(exec, p, 20), invalid_argument_error);
  auto empty = make_bit_graph(exec, build_csr(exec, edge_list{}), {8});
  CHECK_THROWS_AS(make_bfs_plan(exec, empty), invalid_argument_error);
}
