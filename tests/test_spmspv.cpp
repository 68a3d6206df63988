// SpMSpV: every merge strategy and semiring against the dense reference, with masks and structure-only.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <vector>

#include "bitgraph/ops/spmspv.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/reference.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

namespace {

template <class Exec, class S>
void check_semiring(const Exec& exec, bool weighted, bool structure_only, bool any_check = false) {
  using T = typename S::value_type;
  using mem = typename Exec::memory_space;
  std::uint64_t seed = 7;
  test::thinning thin(11);  // reduced mode: every 11th (graph, merge, path, mask, density) combination
  for (auto [n, m] : {std::pair<std::uint64_t, std::uint64_t>{1, 1}, {50, 300}, {300, 4000}}) {
    auto g = build_csr(exec, test::random_edges(n, m, seed++, weighted));
    auto A = test::to_dense_matrix(g);
    for (auto merge :
         {spmspv_merge::no_sort, spmspv_merge::radix_sort, spmspv_merge::merge_sort, spmspv_merge::automatic}) {
      for (auto alg : test::kernel_paths<Exec>()) {
        // The CUDA path is the CUB radix sort; the other merges are portable only.
        if (alg == op_algorithm::cuda_warp && merge != spmspv_merge::radix_sort && merge != spmspv_merge::automatic)
          continue;
        for (int mk = 0; mk < 3; ++mk) {
          for (double density : {0.02, 0.3, 1.0}) {
            ++seed;
            if (!thin.keep()) continue;
            INFO("n=" << n << " merge=" << to_string(merge) << " alg=" << to_string(alg) << " mask=" << mk
                      << " density=" << density);
            auto xb = test::random_bits(g.n, density, seed);
            std::vector<vertex_t> idx;
            std::vector<T> vals;
            std::vector<T> xd(g.n, S::identity());
            for (vertex_t i = 0; i < g.n; ++i)
              if (xb[i]) {
                idx.push_back(i);
                const T v = structure_only ? S::one() : static_cast<T>(1 + (i + seed) % 4);
                vals.push_back(v);
                xd[i] = v;
              }
            auto x = make_sparse_vector<Exec, T>(exec, g.n, idx, structure_only ? std::vector<T>{} : vals);
            auto mb = test::random_bits(g.n, 0.5, seed + 1);
            auto mview = test::to_view<mem>(mb);
            vector_mask<mem> mask{to_bitmap<Exec, std::uint8_t>(exec, mview), mk == 2, false};
            sparse_vector<T, mem> y;
            spmspv_options o;
            o.merge = merge;
            o.structure_only = structure_only;
            o.algorithm = alg;
            if (mk == 0)
              spmspv(exec, y, no_mask{}, S{}, x, g, o);
            else
              spmspv(exec, y, mask, S{}, x, g, o);
            auto ref = test::product<S>(A, xd, true, weighted);
            auto yi = test::to_vector(Kokkos::subview(y.indices, Kokkos::make_pair(offset_t(0), y.nnz)));
            std::vector<T> yv;
            if (!structure_only) yv = test::to_vector(Kokkos::subview(y.values, Kokkos::make_pair(offset_t(0), y.nnz)));
            CHECK(y.n == g.n);
            CHECK(y.structure_only() == (structure_only && y.nnz > 0));
            std::vector<vertex_t> expect_idx;
            std::vector<T> expect_val;
            for (vertex_t j = 0; j < g.n; ++j) {
              bool reached = false;
              for (vertex_t i = 0; i < g.n; ++i) reached |= A(i, j) && xb[i];
              const bool allowed = mk == 0 || ((mb[j] != 0) != (mk == 2));
              if (reached && allowed) {
                expect_idx.push_back(j);
                expect_val.push_back(ref[j]);
              }
            }
            REQUIRE(yi == expect_idx);
            if (!structure_only) {
              for (std::size_t q = 0; q < yi.size(); ++q) {
                if (any_check) {
                  bool ok = false;
                  for (vertex_t i = 0; i < g.n; ++i)
                    ok |= A(i, yi[q]) && xb[i] && S::multiply(S::one(), xd[i], yi[q], i) == yv[q];
                  CHECK(ok);
                } else {
                  CHECK(yv[q] == expect_val[q]);
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

TEMPLATE_TEST_CASE("spmspv equals the dense reference for every merge strategy", "[ops][spmspv]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  check_semiring<TestType, lor_land>(exec, false, true);
  check_semiring<TestType, lor_land>(exec, false, false);
  check_semiring<TestType, plus_times<double>>(exec, true, false);
  check_semiring<TestType, min_plus<std::int64_t>>(exec, true, false);
  check_semiring<TestType, plus_pair<std::int32_t>>(exec, false, false);
  check_semiring<TestType, any_secondi<vertex_t>>(exec, false, false, true);
}

TEMPLATE_TEST_CASE("portable sorts sort", "[ops][sort]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  std::mt19937 rng(5);
  for (offset_t m : {0u, 1u, 31u, 33u, 255u, 257u, 1000u, 70000u}) {
    std::vector<std::uint32_t> k(m);
    std::vector<double> v(m);
    for (offset_t i = 0; i < m; ++i) {
      k[i] = rng() % (m < 100 ? 7 : 1u << 30);
      v[i] = double(i);
    }
    for (int which = 0; which < 2; ++which) {
      auto kv = test::to_view<mem>(k);
      auto vv = test::to_view<mem>(v);
      if (which == 0)
        detail::radix_sort_pairs<TestType, double>(exec, kv, vv, m, 30, true);
      else
        detail::merge_sort_pairs<TestType, double>(exec, kv, vv, m, true);
      auto sk = test::to_vector(kv);
      auto sv = test::to_vector(vv);
      auto ek = k;
      std::stable_sort(ek.begin(), ek.end());
      CHECK(sk == ek);
      for (offset_t i = 0; i < m; ++i) CHECK(k[static_cast<std::size_t>(sv[i])] == sk[i]);
      if (which == 0) {  // radix sort is stable: equal keys keep their input order
        for (offset_t i = 1; i < m; ++i)
          if (sk[i] == sk[i - 1]) CHECK(sv[i - 1] < sv[i]);
      }
    }
  }
}

TEMPLATE_TEST_CASE("spmspv rejects bad arguments", "[ops][spmspv][errors]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  auto g = build_csr(exec, test::random_edges(10, 30, 1));
  sparse_vector<std::uint8_t, mem> y;
  auto x = make_sparse_vector<TestType, std::uint8_t>(exec, 11, {1}, {});
  CHECK_THROWS_AS(spmspv(exec, y, no_mask{}, lor_land{}, x, g), invalid_argument_error);
  sparse_vector<double, mem> yd;
  auto xd = make_sparse_vector<TestType, double>(exec, 10, {1}, {1.0});
  spmspv_options so;
  so.structure_only = true;
  CHECK_THROWS_AS(spmspv(exec, yd, no_mask{}, plus_times<double>{}, xd, g, so), invalid_argument_error);
  // Unsorted indices built by hand.
  sparse_vector<double, mem> bad;
  bad.n = 10;
  bad.nnz = 2;
  bad.indices = test::to_view<mem>(std::vector<vertex_t>{5, 2});
  bad.values = test::to_view<mem>(std::vector<double>{1.0, 1.0});
  CHECK_THROWS_AS(spmspv(exec, yd, no_mask{}, plus_times<double>{}, bad, g), invalid_argument_error);
}
