// Device-only check of the binary tensor-core wrapper against popcounts on random 8x128 tiles.
#include <catch2/catch_test_macros.hpp>

#include <Kokkos_Core.hpp>

#include <bit>
#include <cstdint>
#include <random>

#include "bitgraph/backends/cuda/ptx/mma_b1.hpp"

TEST_CASE("mma m8n8k128 b1 and.popc equals popcount of A AND B", "[gpu][cuda][mma]") {
  constexpr int tiles = 64;
  // A: tiles x 8 rows x 4 words; B: tiles x 8 columns x 4 words (column-major 128-bit columns).
  Kokkos::View<std::uint32_t***, Kokkos::LayoutRight, Kokkos::CudaSpace> a("a", tiles, 8, 4), b("b", tiles, 8, 4);
  Kokkos::View<std::int32_t***, Kokkos::LayoutRight, Kokkos::CudaSpace> d("d", tiles, 8, 8);
  auto ha = Kokkos::create_mirror_view(a);
  auto hb = Kokkos::create_mirror_view(b);
  std::mt19937 rng(12345);
  for (int t = 0; t < tiles; ++t)
    for (int r = 0; r < 8; ++r)
      for (int w = 0; w < 4; ++w) {
        // Mix dense, sparse and empty words so popcounts span their range.
        const std::uint32_t x = rng(), y = rng();
        ha(t, r, w) = t % 3 == 0 ? x : (t % 3 == 1 ? (x & rng() & rng()) : 0u);
        hb(t, r, w) = y;
      }
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);

  using policy = Kokkos::TeamPolicy<Kokkos::Cuda>;
  Kokkos::parallel_for(
      "test::mma", policy(tiles, 32), KOKKOS_LAMBDA(const policy::member_type& m) {
        using mma = bitgraph::cuda::sm80_mma_m8n8k128_b1_and_popc;
        const int t = m.league_rank();
        const int lane = m.team_rank();
        const int row = mma::fragment_row(lane);
        const int kw = mma::fragment_kword(lane);
        const std::int32_t c[2] = {0, 0};
        std::int32_t out[2] = {0, 0};
        mma::fma(out, a(t, row, kw), b(t, row, kw), c);
        const int col = mma::fragment_col(lane);
        d(t, row, col) = out[0];
        d(t, row, col + 1) = out[1];
      });
  auto hd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, d);
  int mismatches = 0;
  for (int t = 0; t < tiles; ++t)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) {
        int expect = 0;
        for (int w = 0; w < 4; ++w) expect += std::popcount(ha(t, r, w) & hb(t, c, w));
        mismatches += hd(t, r, c) != expect;
      }
  CHECK(mismatches == 0);
}
