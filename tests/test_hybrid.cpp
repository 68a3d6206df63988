// Hybrid bit matrices: the split keeps every entry in exactly one part, whole bands at a time, by the bytes
// rule; products over both parts equal the dense reference for every scheme, mask, accumulator, kernel path
// and balance, including splits that put everything in one part.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "bitgraph/formats/hybrid.hpp"
#include "bitgraph/ops/mxv.hpp"
#include "support/mxv_cases.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/reference.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;
using test::pattern_set;
using test::hub_edges;
using test::mask_cases;
using test::pattern;

namespace {

// A dense block (rows and columns 0..95: bits pay) over scattered random entries, about 8 a row (CSR pays:
// rows with under one entry would not pay for CSR's row pointers), n = 300: not a multiple of a band.
edge_list mixed_edges(std::uint64_t seed) {
  auto el = test::random_edges(300, 2400, seed);
  for (vertex_t i = 0; i < 96; ++i)
    for (vertex_t j = 0; j < 96; ++j)
      if ((i * 7 + j * 3) % 5 != 0) {
        el.src.push_back(i);
        el.dst.push_back(j);
      }
  return el;
}

std::vector<edge_list> hybrid_graphs() {
  return {mixed_edges(31),
          hub_edges(1500, 32),
          test::random_edges(45, 600, 33),
          test::random_edges(700, 90, 34),
          test::random_edges(0, 0, 35),
          test::random_edges(1, 1, 36)};
}

constexpr double all_bits = std::numeric_limits<double>::infinity();

/// Options of to_hybrid by position (a braced list that leaves members out trips -Wmissing-field-initializers).
hybrid_options ho(int t, double bias, bool charge, hybrid_split_rule rule,
                  std::optional<hybrid_costs> costs = std::nullopt) {
  hybrid_options o;
  o.tile_dim = t;
  o.bits_bias = bias;
  o.charge_split = charge;
  o.rule = rule;
  o.costs = costs;
  return o;
}

}  // namespace

TEMPLATE_TEST_CASE("to_hybrid splits whole bands by bytes and loses no entry", "[formats][hybrid]",
                   BITGRAPH_TEST_SPACES) {
  constexpr auto by_bytes = hybrid_split_rule::bytes;
  TestType exec;
  test::thinning thin(7);  // reduced mode: every 7th (graph, tile size, bias) split
  for (auto& el : hybrid_graphs()) {
    auto g = build_csr(exec, el);
    const auto want = pattern_set(g);
    const std::uint64_t n_bands = (std::uint64_t(g.n) + 31) / 32;
    for (int t : {0, 4, 8, 16, 32}) {
      for (double bias : {0.0, 1.0, all_bits}) {
        if (!thin.keep()) continue;
        INFO("n=" << g.n << " nnz=" << g.nnz << " T=" << t << " bias=" << bias);
        auto h = to_hybrid(exec, g, ho(t, bias, false, by_bytes));
        CHECK(h.n == g.n);
        CHECK(h.nnz == g.nnz);
        CHECK(h.bits.n == g.n);
        if (t != 0) CHECK(h.bits.tile_dim == t);
        // Reassemble: the bit part's pattern plus the CSR part's rows, mapped back through the band list.
        pattern got = pattern_set(to_csr(exec, h.bits));
        auto bands = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, h.csr_bands);
        auto ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, h.csr_row_ptr);
        auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, h.csr_col_idx);
        REQUIRE(ptr.extent(0) == bands.extent(0) * 32 + 1);
        CHECK(ptr(ptr.extent(0) - 1) == h.csr_nnz);
        std::set<vertex_t> csr_band_set;
        for (std::size_t b = 0; b < bands.extent(0); ++b) {
          if (b > 0) CHECK(bands(b - 1) < bands(b));
          REQUIRE(bands(b) < n_bands);
          csr_band_set.insert(bands(b));
          for (vertex_t r = 0; r < 32; ++r) {
            const std::uint64_t k = b * 32 + r, i = std::uint64_t(bands(b)) * 32 + r;
            for (offset_t p = ptr(k); p < ptr(k + 1); ++p) {
              REQUIRE(i < g.n);
              if (p > ptr(k)) CHECK(col(p - 1) < col(p));
              CHECK(got.insert({static_cast<vertex_t>(i), col(p)}).second);  // in one part only
            }
          }
        }
        CHECK(got == want);
        // Whole bands: no bit-part entry lies in a CSR band.
        for (const auto& [i, j] : pattern_set(to_csr(exec, h.bits))) CHECK(csr_band_set.count(i / 32) == 0);
        if (bias == 0.0) CHECK(h.bits.n_tiles == 0);
        if (bias == all_bits) CHECK(h.csr_band_count() == 0);
        // The bytes rule: no more than all-CSR or all-bits with the same tiles, save the pointers both parts
        // keep whatever the split (the bit part's tile-row pointers, the CSR part's band ids).
        if (bias == 1.0) {
          const int tt = h.bits.tile_dim;
          const auto h0 = to_hybrid(exec, g, ho(tt, 0.0, false, by_bytes));
          const auto hinf = to_hybrid(exec, g, ho(tt, all_bits, false, by_bytes));
          const std::uint64_t ntr = (std::uint64_t(g.n) + tt - 1) / tt;
          const std::uint64_t best = std::min(h0.bits_bytes + h0.csr_bytes, hinf.bits_bytes + hinf.csr_bytes);
          CHECK(h.bits_bytes + h.csr_bytes <= best + 4 * (ntr + 1) + 4 * n_bands + 8);
          CHECK(h.rule == by_bytes);
          CHECK((h.predicted_cost > 0.0) == (g.nnz > 0));
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("to_hybrid picks bits for a dense block and CSR for scattered entries", "[formats][hybrid]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  constexpr auto by_bytes = hybrid_split_rule::bytes;
  auto g = build_csr(exec, mixed_edges(31));
  // The per-band rule alone (300 rows cannot pay for a split's pass over every row: see below).
  auto h = to_hybrid(exec, g, ho(0, 1.0, false, by_bytes));
  auto bands = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, h.csr_bands);
  std::set<vertex_t> csr_bands(bands.data(), bands.data() + bands.extent(0));
  // Bands 0, 1 and 2 (rows 0..95) lie in the dense block; bands 3.. hold about 8 scattered entries per row.
  for (vertex_t b = 0; b < 3; ++b) CHECK(csr_bands.count(b) == 0);
  for (vertex_t b = 3; b < 10; ++b) CHECK(csr_bands.count(b) == 1);
  // A small dense corner (band 0) in a large sparse graph saves a few KiB as bits, less than the pass over
  // every row a split costs products: charged for it, the whole matrix goes to CSR.
  auto corner = test::random_edges(3000, 24000, 39);
  for (vertex_t i = 0; i < 32; ++i)
    for (vertex_t j = 0; j < 32; ++j) {
      corner.src.push_back(i);
      corner.dst.push_back(j);
    }
  auto gc = build_csr(exec, corner);
  CHECK(to_hybrid(exec, gc, ho(4, 1.0, false, by_bytes)).bits.n_tiles > 0);
  CHECK(to_hybrid(exec, gc, ho(4, 1.0, true, by_bytes)).bits.n_tiles == 0);
  CHECK(to_hybrid(exec, gc, ho(4, 1.0, true, by_bytes)).csr_band_count() == 94);
}

TEMPLATE_TEST_CASE("to_hybrid by predicted time weighs each set bit's gather", "[formats][hybrid]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = build_csr(exec, mixed_edges(31));
  auto csr_bands = [&](const hybrid_options& o) {
    auto h = to_hybrid(exec, g, o);
    CHECK(h.rule == hybrid_split_rule::time);
    auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, h.csr_bands);
    return std::set<vertex_t>(b.data(), b.data() + b.extent(0));
  };
  // Bits free to gather (bytes alone, 0.3 per byte against 1 per 4-byte entry): the dense block's bands (0..2) go to
  // bits, the scattered ones (about one entry per tile) to CSR.
  const auto cheap = csr_bands(ho(8, 1.0, false, hybrid_split_rule::time, hybrid_costs{1.0, 0.3, 0.0, 0.0}));
  for (vertex_t b = 0; b < 3; ++b) CHECK(cheap.count(b) == 0);
  for (vertex_t b = 3; b < 10; ++b) CHECK(cheap.count(b) == 1);
  // A set bit costing more than a CSR entry: no band pays as bits, whatever its density.
  CHECK(csr_bands(ho(8, 1.0, false, hybrid_split_rule::time, hybrid_costs{1.0, 0.0, 1.5, 0.0})).size() == 10);
  // The default model of a host space: the host bit kernels decode per bit, so everything stays CSR.
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename TestType::memory_space>::accessible)
    CHECK(csr_bands({}).size() == 10);
  // The GPU model keeps the block's bands (about 9 bits per B2SR-8 tile) as bits, the scattered bands in CSR.
  const auto gpu = csr_bands(ho(8, 1.0, false, hybrid_split_rule::time, hybrid_gpu_costs));
  for (vertex_t b = 0; b < 3; ++b) CHECK(gpu.count(b) == 0);
  for (vertex_t b = 3; b < 10; ++b) CHECK(gpu.count(b) == 1);
  hybrid_options bad;
  bad.costs = hybrid_costs{1.0, -1.0, 0.0, 0.0};
  CHECK_THROWS_AS(to_hybrid(exec, g, bad), invalid_argument_error);
  bad.costs = hybrid_costs{std::numeric_limits<double>::infinity(), 0.0, 0.0, 0.0};
  CHECK_THROWS_AS(to_hybrid(exec, g, bad), invalid_argument_error);
}

TEMPLATE_TEST_CASE("to_hybrid rejects bad options and duplicate entries", "[formats][hybrid][errors]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = build_csr(exec, test::random_edges(40, 100, 37));
  CHECK_THROWS_AS(to_hybrid(exec, g, {64, 1.0}), invalid_argument_error);
  CHECK_THROWS_AS(to_hybrid(exec, g, {3, 1.0}), invalid_argument_error);
  CHECK_THROWS_AS(to_hybrid(exec, g, {8, -1.0}), invalid_argument_error);
  CHECK_THROWS_AS(to_hybrid(exec, g, {8, std::nan("")}), invalid_argument_error);
  csr_build_options keep;
  keep.remove_duplicates = false;
  auto el = test::random_edges(40, 100, 37);
  el.src.push_back(el.src[0]);
  el.dst.push_back(el.dst[0]);
  CHECK_THROWS_AS(to_hybrid(exec, build_csr(exec, el, keep), {}), invalid_argument_error);
}

namespace {

// Reduced mode: `blocks` (shared by the case's semirings) keeps every 11th (graph, tile size, bias) split, and in
// those every 7th combination runs; the loops all still run so that the seeds stay those of the full run.
template <class Exec, class S, bool XBits, bool YBits, class Accum = no_accumulator>
void check_hybrid(const Exec& exec, const char* what, test::thinning& blocks) {
  std::uint64_t seed = 900;
  test::thinning thin(7);
  for (auto& el : hybrid_graphs()) {
    auto g = build_csr(exec, el);
    const vertex_t n = g.n;
    auto A = test::to_dense_matrix(g);
    for (int t : {4, 32}) {
      // The bytes rule at three biases (all CSR, split, all bits), and the time rule with the GPU's model.
      for (double bias : {0.0, 1.0, all_bits, -1.0}) {
        const hybrid_options o = bias >= 0 ? ho(t, bias, false, hybrid_split_rule::bytes)
                                           : ho(t, 1.0, false, hybrid_split_rule::time, hybrid_gpu_costs);
        const bool block = blocks.keep();
        std::optional<decltype(to_hybrid(exec, g, o))> h;  // built at the first combination run
        for (auto alg : test::kernel_paths<Exec>()) {
          for (auto bal : {mxv_balance::automatic, mxv_balance::by_rows, mxv_balance::by_tiles}) {
            for (const auto& mc : mask_cases) {
              ++seed;
              if (!block || !thin.keep()) continue;
              if (!h) h = to_hybrid(exec, g, o);
              INFO(what << " n=" << n << " T=" << t << " bias=" << bias << " csr bands=" << h->csr_band_count()
                        << " tiles=" << h->bits.n_tiles << " alg=" << to_string(alg) << " balance=" << to_string(bal)
                        << " mask=" << mc.use << mc.complement << mc.replace);
              mxv_options opts;
              opts.algorithm = alg;
              opts.balance = bal;
              test::check_pull_case<Exec, S, XBits, YBits, Accum>(
                  exec, A, false, false, mc, seed, [&](auto& y, const auto& x, const auto& mask) {
                    if (mc.use)
                      mxv(exec, y, mask, Accum{}, S{}, *h, x, opts);
                    else
                      mxv(exec, y, no_mask{}, Accum{}, S{}, *h, x, opts);
                  });
            }
          }
        }
      }
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("mxv on a hybrid matrix equals the dense reference", "[ops][mxv][hybrid]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  test::thinning blocks(11);
  check_hybrid<TestType, lor_land, true, true>(exec, "lor_land bin·bin→bin", blocks);
  check_hybrid<TestType, lor_land, true, true, accumulate_with<lor_monoid>>(exec, "lor_land+accum", blocks);
  check_hybrid<TestType, plus_pair<std::int32_t>, true, false>(exec, "plus_pair bin·bin→full", blocks);
  check_hybrid<TestType, plus_times<double>, false, false>(exec, "plus_times bin·full→full", blocks);
  check_hybrid<TestType, min_plus<std::int32_t>, false, false, accumulate_with<min_monoid<std::int32_t>>>(
      exec, "min_plus", blocks);
}

TEMPLATE_TEST_CASE("mxv on a hybrid matrix rejects a push and bad sizes", "[ops][mxv][hybrid][errors]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto h = to_hybrid(exec, build_csr(exec, test::random_edges(40, 100, 38)));
  auto x = make_bitmap(exec, 40);
  auto y = make_bitmap(exec, 40);
  auto small = make_bitmap(exec, 39);
  mxv_options push;
  push.direction = mxv_direction::push;
  CHECK_THROWS_AS(mxv(exec, y, no_mask{}, no_accumulator{}, lor_land{}, h, x, push), invalid_argument_error);
  CHECK_THROWS_AS(mxv(exec, y, no_mask{}, no_accumulator{}, lor_land{}, h, small), invalid_argument_error);
  // Parts that disagree on their sizes (a matrix assembled by hand).
  auto all_csr = to_hybrid(exec, build_csr(exec, test::random_edges(40, 100, 38)), {4, 0.0});
  REQUIRE(all_csr.csr_band_count() == 2);
  auto short_ptr = all_csr;
  short_ptr.csr_row_ptr = Kokkos::subview(all_csr.csr_row_ptr, Kokkos::make_pair(0, 40));
  CHECK_THROWS_AS(mxv(exec, y, no_mask{}, no_accumulator{}, lor_land{}, short_ptr, x), invalid_argument_error);
  auto wrong_nnz = all_csr;
  wrong_nnz.csr_nnz += 1;
  CHECK_THROWS_AS(mxv(exec, y, no_mask{}, no_accumulator{}, lor_land{}, wrong_nnz, x), invalid_argument_error);
  auto wrong_n = all_csr;
  wrong_n.bits.n = 39;
  CHECK_THROWS_AS(mxv(exec, y, no_mask{}, no_accumulator{}, lor_land{}, wrong_n, x), invalid_argument_error);
}
