// BMM: popcount sums (plain and masked) and Boolean SpGEMM against dense references.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "bitgraph/ops/mxm.hpp"
#include "support/random_graphs.hpp"
#include "support/reference.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

TEMPLATE_TEST_CASE("bmm_sum, bmm_sum_masked and Boolean mxm equal the dense reference", "[ops][mxm]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  std::uint64_t seed = 40;
  for (auto [n, m] : {std::pair<std::uint64_t, std::uint64_t>{1, 1}, {0, 0}, {37, 150}, {90, 700}}) {
    auto ga = build_csr(exec, test::random_edges(n, m, seed++));
    auto gb = build_csr(exec, test::random_edges(n, m + 20, seed++));
    auto gm = build_csr(exec, test::random_edges(n, m / 2 + 1, seed++));
    auto A = test::to_dense_matrix(ga), B = test::to_dense_matrix(gb), M = test::to_dense_matrix(gm);
    std::uint64_t sum = 0, masked = 0;
    std::set<std::pair<vertex_t, vertex_t>> pattern;
    for (vertex_t i = 0; i < ga.n; ++i)
      for (vertex_t j = 0; j < ga.n; ++j) {
        std::uint64_t c = 0;
        for (vertex_t k = 0; k < ga.n; ++k) c += A(i, k) && B(k, j);
        sum += c;
        if (M(i, j)) masked += c;
        if (c) pattern.insert({i, j});
      }
    auto gbt = transpose(exec, gb);
    for (int t : {4, 8, 16, 32, 64}) {
      for (auto order : {bit_order::row_major, bit_order::col_major}) {
        INFO("n=" << n << " T=" << t << " order=" << to_string(order));
        auto a = to_b2sr(exec, ga, {t, order});
        auto b = to_b2sr(exec, gb, {t, order});
        auto bt = to_b2sr(exec, gbt, {t, order == bit_order::row_major ? bit_order::col_major : bit_order::row_major});
        auto mk = to_b2sr(exec, gm, {t, order});
        CHECK(bmm_sum(exec, a, b) == sum);
        CHECK(bmm_sum_masked(exec, mk, a, bt) == masked);
        auto c = mxm(exec, lor_land{}, a, b);
        CHECK(c.order == order);
        auto cc = copy_to<Kokkos::HostSpace>(to_csr(exec, c));
        std::set<std::pair<vertex_t, vertex_t>> got;
        for (vertex_t i = 0; i < cc.n; ++i)
          for (offset_t p = cc.row_ptr(i); p < cc.row_ptr(i + 1); ++p) got.insert({i, cc.col_idx(p)});
        CHECK(got == pattern);
        CHECK(c.nnz == pattern.size());
        auto cp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, c.tile_row_ptr);
        offset_t longest = 0;
        for (vertex_t r = 0; r < c.n_tile_rows; ++r) longest = std::max<offset_t>(longest, cp(r + 1) - cp(r));
        CHECK(c.longest_tile_row == longest);
      }
    }
  }
}

TEMPLATE_TEST_CASE("bmm_sum_masked on hub tile rows equals row intersections", "[ops][mxm]", BITGRAPH_TEST_SPACES) {
  // Tile rows longer than a warp's window of 32 tiles, and pairs of rows of very different lengths: the CUDA kernel
  // merges similar rows window by window and searches the long row for each tile of a short one.
  TestType exec;
  const std::uint64_t n = 3000;
  auto with_hubs = [&](std::uint64_t m, std::uint64_t seed, std::initializer_list<vertex_t> hubs, vertex_t stride) {
    auto el = test::random_edges(n, m, seed);
    for (vertex_t h : hubs)
      for (vertex_t c = h % stride; c < n; c += stride) {
        el.src.push_back(h);
        el.dst.push_back(c);
      }
    return el;
  };
  auto ea = with_hubs(6000, 71, {0, 1500, 2999}, 2);
  auto eb = with_hubs(6000, 72, {0, 1500, 7}, 3);
  auto em = with_hubs(4000, 73, {0, 1500}, 5);
  auto rows = [&](const edge_list& el) {
    std::vector<std::set<vertex_t>> r(n);
    for (std::size_t e = 0; e < el.size(); ++e) r[el.src[e]].insert(el.dst[e]);
    return r;
  };
  const auto ra = rows(ea), rb = rows(eb), rm = rows(em);
  std::uint64_t expect = 0;
  for (vertex_t i = 0; i < n; ++i)
    for (vertex_t j : rm[i])
      for (vertex_t k : ra[i]) expect += rb[j].count(k);
  auto ga = build_csr(exec, ea), gbt = build_csr(exec, eb), gm = build_csr(exec, em);
  for (int t : {8, 32}) {
    INFO("T=" << t);
    const b2sr_options o{t, bit_order::row_major};
    CHECK(bmm_sum_masked(exec, to_b2sr(exec, gm, o), to_b2sr(exec, ga, o), to_b2sr(exec, gbt, o)) == expect);
  }
}

TEMPLATE_TEST_CASE("mxm rejects bad arguments", "[ops][mxm][errors]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = build_csr(exec, test::random_edges(20, 50, 1));
  auto h = build_csr(exec, test::random_edges(21, 50, 1));
  auto a8 = to_b2sr(exec, g, {8, bit_order::row_major});
  auto a16 = to_b2sr(exec, g, {16, bit_order::row_major});
  auto b8 = to_b2sr(exec, h, {8, bit_order::row_major});
  CHECK_THROWS_AS(bmm_sum(exec, a8, a16), invalid_argument_error);
  CHECK_THROWS_AS(bmm_sum(exec, a8, b8), invalid_argument_error);
  CHECK_THROWS_AS(bmm_sum_masked(exec, a8, a8, b8), invalid_argument_error);
  CHECK_THROWS_AS(mxm(exec, plus_times<float>{}, a8, a8), invalid_argument_error);
}
