// mxv / vxm on B2SR and CSR: every scheme, tile size, packing order, direction, mask form and
// accumulator against a dense host reference.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "bitgraph/ops/mxv.hpp"
#include "support/mxv_cases.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/reference.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

using test::check_pull_case;
using test::host_bits;
using test::hub_edges;
using test::make_bits;
using test::mask_cases;

namespace {

struct graph_case {
  edge_list el;
  graph_kind kind;
};

std::vector<graph_case> graphs() {
  std::vector<graph_case> g;
  g.push_back({test::random_edges(1, 2, 11), graph_kind::directed});
  g.push_back({test::random_edges(45, 180, 12), graph_kind::directed});
  g.push_back({test::random_edges(45, 180, 12), graph_kind::undirected});
  g.push_back({test::random_edges(70, 900, 13), graph_kind::directed});
  g.push_back({hub_edges(613, 14), graph_kind::directed});
  return g;
}

// Both work splits of a pull (pushes ignore the option).
constexpr mxv_balance balances[] = {mxv_balance::by_rows, mxv_balance::by_tiles};

// Runs one dense-output semiring through every tile size, order, direction and mask; XBits picks the
// bitmap input (bin·bin→full) or the dense input (bin·full→full).
template <class Exec, class S, bool XBits, class Accum = no_accumulator>
void check_full_output(const Exec& exec, const char* what, bool check_any = false) {
  std::uint64_t seed = 100;
  // Reduced mode: every 7th (graph, tile size, order) block, and in those every 17th combination; the loops all
  // still run so that the seeds stay those of the full run.
  test::thinning blocks(7), thin(17);
  for (auto& gc : graphs()) {
    csr_build_options o;
    o.kind = gc.kind;
    auto g = build_csr(exec, gc.el, o);
    const vertex_t n = g.n;
    auto A = test::to_dense_matrix(g);
    for (int t : {4, 8, 16, 32, 64}) {
      for (auto order : {bit_order::row_major, bit_order::col_major}) {
        const bool block = blocks.keep();
        std::optional<b2sr_matrix<memory_space_t<Exec>>> b, bt;  // built at the first combination run
        for (bool vx : {false, true}) {
          for (auto dir : {mxv_direction::pull, mxv_direction::push, mxv_direction::automatic}) {
            for (auto alg : test::kernel_paths<Exec>()) {
              // The warp kernels are pull kernels on row-major tiles (vxm pulls over the transpose given):
              // forcing them elsewhere throws.
              if (alg == op_algorithm::cuda_warp && !(dir == mxv_direction::pull && order == bit_order::row_major))
                continue;
              for (auto bal : balances) {
                if (dir == mxv_direction::push && bal == mxv_balance::by_tiles) continue;
                for (const auto& mc : mask_cases) {
                  ++seed;
                  if (!block || !thin.keep()) continue;
                  if (!b) {
                    b = to_b2sr(exec, g, {t, order});
                    bt = transpose(exec, *b);
                  }
                  INFO(what << " n=" << n << " T=" << t << " order=" << to_string(order) << " vxm=" << vx
                            << " dir=" << int(dir) << " alg=" << to_string(alg) << " balance=" << to_string(bal)
                            << " mask=" << mc.use << mc.complement << mc.replace);
                  mxv_options opts;
                  opts.direction = dir;
                  opts.algorithm = alg;
                  opts.balance = bal;
                  check_pull_case<Exec, S, XBits, false, Accum>(
                      exec, A, vx, false, mc, seed,
                      [&](auto& y, const auto& x, const auto& mask) {
                        if (mc.use) {
                          if (vx)
                            vxm(exec, y, mask, Accum{}, S{}, x, *b, opts, &*bt);
                          else
                            mxv(exec, y, mask, Accum{}, S{}, *b, x, opts, &*bt);
                        } else {
                          if (vx)
                            vxm(exec, y, no_mask{}, Accum{}, S{}, x, *b, opts, &*bt);
                          else
                            mxv(exec, y, no_mask{}, Accum{}, S{}, *b, x, opts, &*bt);
                        }
                      },
                      check_any);
                }
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("mxv bin·bin→bin (Boolean) equals the dense reference", "[ops][mxv]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  std::uint64_t seed = 1;
  // Reduced mode: every 3rd (graph, tile size, order) block, and in those every 19th combination; the loops all
  // still run so that the seeds stay those of the full run.
  test::thinning blocks(3), thin(19);
  for (auto& gc : graphs()) {
    csr_build_options o;
    o.kind = gc.kind;
    auto g = build_csr(exec, gc.el, o);
    const vertex_t n = g.n;
    auto A = test::to_dense_matrix(g);
    for (int t : {4, 8, 16, 32, 64}) {
      for (auto order : {bit_order::row_major, bit_order::col_major}) {
        const bool block = blocks.keep();
        std::optional<b2sr_matrix<memory_space_t<TestType>>> b, bt;  // built at the first combination run
        for (bool vx : {false, true}) {
          for (auto dir : {mxv_direction::pull, mxv_direction::push}) {
            for (auto alg : test::kernel_paths<TestType>()) {
              if (alg == op_algorithm::cuda_warp && !(dir == mxv_direction::pull && order == bit_order::row_major))
                continue;
              for (auto bal : balances) {
                if (dir == mxv_direction::push && bal == mxv_balance::by_tiles) continue;
                for (const auto& mc : mask_cases) {
                  for (bool accum : {false, true}) {
                    for (bool early : {false, true}) {
                      ++seed;
                      if (!block || !thin.keep()) continue;
                      if (!b) {
                        b = to_b2sr(exec, g, {t, order});
                        bt = transpose(exec, *b);
                      }
                      INFO("n=" << n << " T=" << t << " vxm=" << vx << " dir=" << int(dir)
                                << " balance=" << to_string(bal) << " mask=" << mc.use << mc.complement << mc.replace
                                << " accum=" << accum << " early=" << early);
                      mxv_options opts;
                      opts.direction = dir;
                      opts.early_exit = early;
                      opts.algorithm = alg;
                      opts.balance = bal;
                      auto one = [&](auto accum_tag) {
                        using Accum = decltype(accum_tag);
                        check_pull_case<TestType, lor_land, true, true, Accum>(
                            exec, A, vx, false, mc, seed, [&](auto& y, const auto& x, const auto& mask) {
                              if (mc.use) {
                                if (vx)
                                  vxm(exec, y, mask, Accum{}, lor_land{}, x, *b, opts, &*bt);
                                else
                                  mxv(exec, y, mask, Accum{}, lor_land{}, *b, x, opts, &*bt);
                              } else {
                                if (vx)
                                  vxm(exec, y, no_mask{}, Accum{}, lor_land{}, x, *b, opts, &*bt);
                                else
                                  mxv(exec, y, no_mask{}, Accum{}, lor_land{}, *b, x, opts, &*bt);
                              }
                            });
                      };
                      if (accum)
                        one(accumulate_with<lor_monoid>{});
                      else
                        one(no_accumulator{});
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("mxv bin·bin→full equals the dense reference", "[ops][mxv]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  check_full_output<TestType, plus_pair<std::int32_t>, true>(exec, "plus_pair");
  check_full_output<TestType, plus_times<float>, true, accumulate_with<plus_monoid<float>>>(exec, "plus_times+accum");
  check_full_output<TestType, min_secondi<vertex_t>, true>(exec, "min_secondi");
}

TEMPLATE_TEST_CASE("mxv bin·full→full equals the dense reference", "[ops][mxv]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  check_full_output<TestType, plus_times<double>, false>(exec, "plus_times");
  check_full_output<TestType, min_plus<std::int32_t>, false, accumulate_with<min_monoid<std::int32_t>>>(exec,
                                                                                                        "min_plus");
  check_full_output<TestType, max_times<float>, false>(exec, "max_times");
  check_full_output<TestType, min_second<vertex_t>, false>(exec, "min_second");
  check_full_output<TestType, any_secondi<vertex_t>, false>(exec, "any_secondi", true);
}

TEMPLATE_TEST_CASE("mxv on CSR with weights equals the dense reference", "[ops][mxv][csr]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  auto g = build_csr(exec, test::random_edges(60, 400, 21, true));
  auto A = test::to_dense_matrix(g);
  std::vector<double> xv(g.n);
  for (vertex_t j = 0; j < g.n; ++j) xv[j] = j % 4 == 0 ? min_plus<double>::identity() : double(j % 7);
  auto x = Kokkos::View<const double*, mem>(test::to_view<mem>(xv));
  auto y = test::to_view<mem>(std::vector<double>(g.n, 0.0));
  mxv(exec, y, no_mask{}, no_accumulator{}, min_plus<double>{}, g, x);
  auto ref = test::product<min_plus<double>>(A, xv, false, true);
  CHECK(test::to_vector(y) == ref);
  auto yb = make_bits(exec, std::vector<std::uint8_t>(g.n, 0));
  auto mb = test::random_bits(g.n, 0.5, 3);
  std::vector<std::uint8_t> xb(g.n);
  for (vertex_t j = 0; j < g.n; ++j) xb[j] = j % 3 == 0;
  mxv(exec, yb, vector_mask<mem>{make_bits(exec, mb), true, true}, no_accumulator{}, lor_land{}, g,
      make_bits(exec, xb));
  auto tb = test::product<lor_land>(A, xb, false);
  auto got = host_bits(yb);
  for (vertex_t i = 0; i < g.n; ++i) CHECK(got[i] == (mb[i] ? 0 : tb[i]));
}

namespace {

// CSR products: every kernel path, balance and early-exit setting, with and without weights, on graphs with a
// hub row longer than a warp's run of entries (it spans runs), many empty rows, and none.
std::vector<graph_case> csr_graphs() {
  auto g = graphs();
  g.push_back({test::random_edges(700, 90, 15), graph_kind::directed});  // mostly empty rows
  g.push_back({test::random_edges(0, 0, 16), graph_kind::directed});
  auto hub = hub_edges(1500, 17);
  for (std::size_t e = 0; e < hub.src.size(); ++e) hub.weights.push_back(double(1 + e % 9));
  g.push_back({hub, graph_kind::directed});
  g.push_back({test::random_edges(300, 3000, 18, true), graph_kind::directed});
  return g;
}

template <class Exec, class S, bool XBits, bool YBits, class Accum = no_accumulator>
void check_csr(const Exec& exec, const char* what, bool check_any = false) {
  std::uint64_t seed = 500;
  // Reduced mode: every 17th (graph, path, balance, early exit, mask) combination.
  test::thinning thin(17);
  for (auto& gc : csr_graphs()) {
    csr_build_options o;
    o.kind = gc.kind;
    auto g = build_csr(exec, gc.el, o);
    const vertex_t n = g.n;
    auto A = test::to_dense_matrix(g);
    for (auto alg : test::kernel_paths<Exec>()) {
      for (auto bal : {mxv_balance::automatic, mxv_balance::by_rows, mxv_balance::by_tiles}) {
        for (bool early : {true, false}) {
          for (const auto& mc : mask_cases) {
            ++seed;
            if (!thin.keep()) continue;
            INFO(what << " n=" << n << " nnz=" << g.nnz << " weighted=" << g.has_weights << " alg=" << to_string(alg)
                      << " balance=" << to_string(bal) << " early_exit=" << early << " mask=" << mc.use << mc.complement
                      << mc.replace);
            mxv_options opts;
            opts.algorithm = alg;
            opts.balance = bal;
            opts.early_exit = early;
            check_pull_case<Exec, S, XBits, YBits, Accum>(
                exec, A, false, g.has_weights, mc, seed,
                [&](auto& y, const auto& x, const auto& mask) {
                  if (mc.use)
                    mxv(exec, y, mask, Accum{}, S{}, g, x, opts);
                  else
                    mxv(exec, y, no_mask{}, Accum{}, S{}, g, x, opts);
                },
                check_any);
          }
        }
      }
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("mxv on CSR: every scheme, path and balance equals the dense reference", "[ops][mxv][csr]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  check_csr<TestType, lor_land, true, true>(exec, "lor_land bin·bin→bin");
  check_csr<TestType, lor_land, true, true, accumulate_with<lor_monoid>>(exec, "lor_land+accum bin·bin→bin");
  check_csr<TestType, plus_pair<std::int32_t>, true, false>(exec, "plus_pair bin·bin→full");
  check_csr<TestType, plus_times<double>, false, false>(exec, "plus_times bin·full→full");
  check_csr<TestType, plus_times<float>, false, false, accumulate_with<plus_monoid<float>>>(exec, "plus_times+accum");
  check_csr<TestType, min_plus<std::int32_t>, false, false, accumulate_with<min_monoid<std::int32_t>>>(exec,
                                                                                                       "min_plus");
  check_csr<TestType, any_secondi<vertex_t>, false, false>(exec, "any_secondi", true);
}

TEST_CASE("the automatic pull balance splits by tiles where rows would hold the kernel up", "[ops][mxv]") {
  using bitgraph::detail::pull_by_tiles;
  constexpr std::int64_t h100 = 132 * 2048;  // resident threads of an H100
  // kron:22 in 4x4 tiles: a 153,731-tile hub row among 128M tiles in 1M tile rows, even with early exit.
  CHECK(pull_by_tiles(153731, 127947228, 1048576, 4, h100, true));
  // urand:22: ~128 tiles per tile row, none much longer: by rows where a row can stop early (the Boolean
  // product), by tiles where it must walk every tile.
  CHECK_FALSE(pull_by_tiles(230, 134209451, 1048576, 4, h100, true));
  CHECK(pull_by_tiles(230, 134209451, 1048576, 4, h100, false));
  // mycielski:16 in 16x16 tiles: 3,072 tile rows cannot fill the GPU by rows.
  CHECK(pull_by_tiles(3072, 850067, 3072, 16, h100, true));
  // grid2d:8192 in 8x8 tiles: four tiles per row; rgg:23: nine.
  CHECK_FALSE(pull_by_tiles(3, 41924608, 8388608, 8, h100, false));
  CHECK_FALSE(pull_by_tiles(40, 9616718, 1048576, 8, h100, false));
  // Two host threads: rows always give each thread half of the work or more, and long rows are fine there.
  CHECK_FALSE(pull_by_tiles(153731, 127947228, 1048576, 4, 2, false));
  CHECK_FALSE(pull_by_tiles(230, 134209451, 1048576, 4, 2, false));
  // Short rows never pay for the atomics; nothing to split.
  CHECK_FALSE(pull_by_tiles(255, 300, 2, 4, h100, true));
  CHECK_FALSE(pull_by_tiles(0, 0, 0, 4, h100, false));
}

TEMPLATE_TEST_CASE("mxv rejects bad arguments", "[ops][mxv][errors]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  auto g = build_csr(exec, test::random_edges(20, 50, 1));
  auto b = to_b2sr(exec, g);
  auto x = make_bitmap(exec, 20);
  auto y = make_bitmap(exec, 20);
  auto small = make_bitmap(exec, 19);
  CHECK_THROWS_AS(mxv(exec, y, no_mask{}, no_accumulator{}, lor_land{}, b, small), invalid_argument_error);
  CHECK_THROWS_AS(mxv(exec, small, no_mask{}, no_accumulator{}, lor_land{}, b, x), invalid_argument_error);
  CHECK_THROWS_AS(mxv(exec, y, vector_mask<mem>{small}, no_accumulator{}, lor_land{}, b, x), invalid_argument_error);
  // A bitmap output needs a Boolean semiring.
  auto yi = make_bitmap(exec, 20);
  CHECK_THROWS_AS(mxv(exec, yi, no_mask{}, no_accumulator{}, plus_pair<std::uint8_t>{}, b, x), invalid_argument_error);
  // A forced push on a directed graph without its transpose.
  mxv_options push;
  push.direction = mxv_direction::push;
  CHECK_THROWS_AS(mxv(exec, y, no_mask{}, no_accumulator{}, lor_land{}, b, x, push), invalid_argument_error);
  // CUDA paths on a host space.
  mxv_options warp;
  warp.algorithm = op_algorithm::cuda_warp;
  if (!is_cuda_space_v<TestType>) {
    CHECK_THROWS_AS(mxv(exec, y, no_mask{}, no_accumulator{}, lor_land{}, b, x, warp), unsupported_error);
  }
  auto yd = Kokkos::View<float*, mem>("yd", 21);
  auto xd = Kokkos::View<const float*, mem>(Kokkos::View<float*, mem>("xd", 20));
  CHECK_THROWS_AS(mxv(exec, yd, no_mask{}, no_accumulator{}, plus_times<float>{}, b, xd), invalid_argument_error);
}
