#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <random>
#include <vector>

#include "bitgraph/formats/vectors.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

TEMPLATE_TEST_CASE("bitmap, sparse and dense vector conversions", "[formats][vectors]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  std::mt19937 rng(3);
  for (vertex_t n : {0u, 1u, 31u, 32u, 33u, 64u, 100u, 1000u}) {
    std::vector<float> dense(n, 0.0f);
    std::vector<vertex_t> idx;
    std::vector<float> vals;
    for (vertex_t i = 0; i < n; ++i)
      if (rng() % 3 == 0) {
        dense[i] = float(1 + rng() % 7);
        idx.push_back(i);
        vals.push_back(dense[i]);
      }
    auto x = test::to_view<mem>(dense);
    auto bm = to_bitmap<TestType, float>(exec, x);
    CHECK(bm.words.extent(0) == bitmap<mem>::words_for(n));
    CHECK(count(exec, bm) == idx.size());
    auto sv = to_sparse<TestType, float>(exec, x);
    CHECK(sv.nnz == idx.size());
    CHECK(test::to_vector(sv.indices) == idx);
    CHECK(test::to_vector(sv.values) == vals);
    CHECK(test::to_vector(to_dense(exec, sv, 0.0f)) == dense);
    auto pat = to_sparse(exec, bm);
    CHECK(pat.structure_only() == !idx.empty());
    CHECK(test::to_vector(pat.indices) == idx);
    auto back = to_bitmap(exec, sv);
    CHECK(test::to_vector(back.words) == test::to_vector(bm.words));
    std::vector<int> ones(n, 0);
    for (auto i : idx) ones[i] = 1;
    CHECK(test::to_vector(to_dense<int>(exec, bm)) == ones);
    // Segments of every tile width read the same bits.
    auto hw = test::to_vector(bm.words);
    Kokkos::View<std::uint32_t*, Kokkos::HostSpace> w("w", hw.size());
    for (std::size_t i = 0; i < hw.size(); ++i) w(i) = hw[i];
    for (vertex_t j = 0; j * 4 < n; ++j) {
      std::uint64_t s4 = bitmap_segment<4>(w, j), s64 = bitmap_segment<64>(w, j / 16);
      for (int b = 0; b < 4; ++b) {
        const vertex_t i = j * 4 + b;
        const bool set = i < n && dense[i] != 0.0f;
        CHECK(((s4 >> b) & 1) == set);
        CHECK(((s64 >> (i % 64)) & 1) == set);
        CHECK(((bitmap_segment<8>(w, i / 8) >> (i % 8)) & 1) == set);
        CHECK(((bitmap_segment<16>(w, i / 16) >> (i % 16)) & 1) == set);
        CHECK(((bitmap_segment<32>(w, i / 32) >> (i % 32)) & 1) == set);
      }
    }
  }
}

TEMPLATE_TEST_CASE("vector constructors reject bad input", "[formats][vectors][errors]", BITGRAPH_TEST_SPACES) {
  using mem = typename TestType::memory_space;
  TestType exec;
  CHECK_THROWS_AS((make_sparse_vector<TestType, float>(exec, 5, {1, 1}, {})), invalid_argument_error);
  CHECK_THROWS_AS((make_sparse_vector<TestType, float>(exec, 5, {1, 7}, {})), invalid_argument_error);
  CHECK_THROWS_AS((make_sparse_vector<TestType, float>(exec, 5, {1, 2}, {1.0f})), invalid_argument_error);
  auto bad = test::to_view<mem>(std::vector<vertex_t>{0, 9});
  CHECK_THROWS_AS(bitmap_from_indices<TestType>(exec, 5, bad), invalid_argument_error);
  auto ok = make_sparse_vector<TestType, float>(exec, 5, {0, 4}, {2.0f, 3.0f});
  CHECK(ok.nnz == 2);
}
