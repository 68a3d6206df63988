// BMM: popcount sums (plain and masked), Boolean SpGEMM and the GraphBLAS mxm on B2SR operands (Boolean and
// counting outputs, every mask kind, accumulators, transposes) against dense references.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "bitgraph/ops/mxm.hpp"
#include "support/dense_matrix.hpp"
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
  // The masked mxm runs the same kernel with the count and bit sinks: every entry of M gets |A(i,:) ∩ Bᵀ(j,:)|.
  std::vector<std::vector<std::pair<vertex_t, std::int64_t>>> expect_rows(n);
  for (vertex_t i = 0; i < n; ++i)
    for (vertex_t j : rm[i]) {
      std::int64_t c = 0;
      for (vertex_t k : ra[i]) c += rb[j].count(k);
      if (c) expect_rows[i].push_back({j, c});
    }
  for (int t : {8, 32}) {
    for (auto path : test::kernel_paths<TestType>()) {
      if (path == op_algorithm::cuda_warp && t != 32) continue;
      INFO("T=" << t << " path=" << to_string(path));
      const b2sr_options o{t, bit_order::row_major};
      auto mb = to_b2sr(exec, gm, o), a = to_b2sr(exec, ga, o), bt = to_b2sr(exec, gbt, o);
      mxm_options mo;
      mo.algorithm = path;
      CHECK(bmm_sum_masked(exec, mb, a, bt, mo) == expect);
      mo.transpose_b = true;
      csr_matrix<std::int64_t, memory_space_t<TestType>> c;
      c.n_rows = c.n_cols = static_cast<vertex_t>(n);
      mxm(exec, c, mask_of(mb), no_accumulator{}, plus_pair<std::int64_t>{}, a, bt, mo);
      auto h = copy_to<Kokkos::HostSpace>(to_csr_graph(exec, c));
      auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, c.values);
      bool same = h.n == n;
      for (vertex_t i = 0; same && i < n; ++i) {
        same = h.row_ptr(i + 1) - h.row_ptr(i) == expect_rows[i].size();
        for (offset_t p = h.row_ptr(i); same && p < h.row_ptr(i + 1); ++p)
          same = expect_rows[i][p - h.row_ptr(i)] == std::pair<vertex_t, std::int64_t>{h.col_idx(p), hv(p)};
      }
      CHECK(same);
      b2sr_matrix<memory_space_t<TestType>> cb;
      cb.n = static_cast<vertex_t>(n);
      cb.tile_dim = t;
      mxm(exec, cb, mask_of(mb), no_accumulator{}, lor_land{}, a, bt, mo);
      auto hb = copy_to<Kokkos::HostSpace>(to_csr(exec, cb));
      bool same_pattern = hb.n == n;
      for (vertex_t i = 0; same_pattern && i < n; ++i) {
        same_pattern = hb.row_ptr(i + 1) - hb.row_ptr(i) == expect_rows[i].size();
        for (offset_t p = hb.row_ptr(i); same_pattern && p < hb.row_ptr(i + 1); ++p)
          same_pattern = expect_rows[i][p - hb.row_ptr(i)].first == hb.col_idx(p);
      }
      CHECK(same_pattern);
    }
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

// ------------------------------------------------------------------ GraphBLAS mxm on B2SR operands

namespace {

using bits_t = test::dense<std::uint8_t>;
using counts_t = test::dense<std::int64_t>;

/// Random entries, self-loops on every fifth vertex, and three empty rows in the middle.
edge_list pattern_edges(std::uint64_t n, std::uint64_t m, std::uint64_t seed) {
  return test::pattern_edges(n, m, seed, 5, 3);
}

using test::to_bits;

/// T(i, j) = |{k : A'(i, k) ∧ B'(k, j)}| where > 0, with A' = Aᵀ / B' = Bᵀ when asked.
counts_t reference_counts(const bits_t& a, const bits_t& b, bool ta, bool tb) {
  const vertex_t n = a.rows;
  counts_t t(n, n);
  for (vertex_t i = 0; i < n; ++i)
    for (vertex_t j = 0; j < n; ++j) {
      std::int64_t c = 0;
      for (vertex_t k = 0; k < n; ++k)
        c += (ta ? a.at(k, i) : a.at(i, k)).has_value() && (tb ? b.at(j, k) : b.at(k, j)).has_value();
      if (c) t.at(i, j) = c;
    }
  return t;
}

bits_t to_bool(const counts_t& t) {
  bits_t d(t.rows, t.cols);
  for (std::size_t p = 0; p < t.d.size(); ++p)
    if (t.d[p]) d.d[p] = 1;
  return d;
}

/// Reads a B2SR result back as a dense pattern, checking its invariants (tile columns ascend, no empty
/// tile, nnz and longest_tile_row as recorded).
template <class Exec>
bits_t read_bits(const Exec& exec, const b2sr_matrix<memory_space_t<Exec>>& c) {
  auto h = copy_to<Kokkos::HostSpace>(c);
  REQUIRE(h.tile_row_ptr.extent(0) == std::size_t(h.n_tile_rows) + 1);
  offset_t longest = 0;
  for (vertex_t r = 0; r < h.n_tile_rows; ++r) {
    longest = std::max<offset_t>(longest, h.tile_row_ptr(r + 1) - h.tile_row_ptr(r));
    for (offset_t k = h.tile_row_ptr(r); k < h.tile_row_ptr(r + 1); ++k) {
      if (k > h.tile_row_ptr(r)) REQUIRE(h.tile_col_idx(k - 1) < h.tile_col_idx(k));
      bool any = false;
      for (int w = 0; w < h.tile_dim; ++w)
        for (int byte = 0; byte < tile_word_bytes(h.tile_dim); ++byte)
          any |= h.tile_bits((k * h.tile_dim + w) * tile_word_bytes(h.tile_dim) + byte) != 0;
      REQUIRE(any);
    }
  }
  CHECK(h.longest_tile_row == longest);
  auto g = copy_to<Kokkos::HostSpace>(to_csr(exec, c));
  CHECK(g.nnz == c.nnz);
  bits_t d(c.n, c.n);
  for (vertex_t i = 0; i < g.n; ++i)
    for (offset_t p = g.row_ptr(i); p < g.row_ptr(i + 1); ++p) d.at(i, g.col_idx(p)) = 1;
  return d;
}

enum class mask_kind { none, plain, complement, replace, complement_replace };
constexpr mask_kind all_masks[] = {mask_kind::none, mask_kind::plain, mask_kind::complement, mask_kind::replace,
                                   mask_kind::complement_replace};
bool complemented(mask_kind k) { return k == mask_kind::complement || k == mask_kind::complement_replace; }
bool replacing(mask_kind k) { return k == mask_kind::replace || k == mask_kind::complement_replace; }

struct mxm_bits_case {
  std::uint64_t n, m;
};
constexpr mxm_bits_case mxm_bits_cases[] = {{0, 0}, {1, 1}, {37, 150}, {100, 450}};
constexpr std::pair<bool, bool> mxm_transposes[] = {{false, false}, {false, true}, {true, false}};

/// Whether a forced cuda_warp path applies (else the call is skipped for that path).
bool warp_fits(int t, bit_order order, bool dot_runs) { return t == 32 && order == bit_order::row_major && dot_runs; }

}  // namespace

TEMPLATE_TEST_CASE("Boolean mxm on B2SR with masks and accumulators equals the GraphBLAS reference", "[ops][mxm]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  std::uint64_t seed = 500;
  for (auto [n, m] : mxm_bits_cases) {
    const auto ea = pattern_edges(n, m, seed++), eb = pattern_edges(n, m + 30, seed++);
    const auto em = pattern_edges(n, m * 2, seed++), ec = pattern_edges(n, m, seed++);
    const bits_t A = to_bits(ea), B = to_bits(eb), M = to_bits(em), C = to_bits(ec);
    auto ga = build_csr(exec, ea), gb = build_csr(exec, eb), gm = build_csr(exec, em), gc = build_csr(exec, ec);
    for (auto [ta, tb] : mxm_transposes) {
      const bits_t t = to_bool(reference_counts(A, B, ta, tb));
      for (int td : {8, 32, 64}) {
        for (auto order : {bit_order::row_major, bit_order::col_major}) {
          const auto flipped = order == bit_order::row_major ? bit_order::col_major : bit_order::row_major;
          auto a = to_b2sr(exec, ga, {td, order}), b = to_b2sr(exec, gb, {td, order});
          auto mb = to_b2sr(exec, gm, {td, td == 64 ? flipped : order});
          for (auto path : test::kernel_paths<TestType>()) {
            for (auto mk : all_masks) {
              const bool dot_runs = mk == mask_kind::plain || mk == mask_kind::replace;
              if (path == op_algorithm::cuda_warp && !warp_fits(td, order, dot_runs)) continue;
              for (bool acc : {false, true}) {
                INFO("n=" << n << " T=" << td << " order=" << to_string(order) << " mask=" << int(mk)
                          << " accum=" << acc << " ta=" << ta << " tb=" << tb << " path=" << to_string(path));
                mxm_options opts;
                opts.algorithm = path;
                opts.transpose_a = ta;
                opts.transpose_b = tb;
                auto run = [&](const auto& mask, const auto& accum) {
                  auto c = to_b2sr(exec, gc, {td, td == 8 ? flipped : order});
                  mxm(exec, c, mask, accum, lor_land{}, a, b, opts);
                  CHECK(c.tile_dim == td);
                  CHECK(c.order == (td == 8 ? flipped : order));
                  return read_bits(exec, c);
                };
                bits_t got(0, 0);
                if (mk == mask_kind::none)
                  got = acc ? run(no_mask{}, accumulate_with<lor_monoid>{}) : run(no_mask{}, no_accumulator{});
                else {
                  const auto mask = mask_of(mb, complemented(mk), replacing(mk));
                  got = acc ? run(mask, lor_monoid{}) : run(mask, no_accumulator{});
                }
                const std::function<std::uint8_t(std::uint8_t, std::uint8_t)> lor = [](std::uint8_t x, std::uint8_t y) {
                  return std::uint8_t(x | y);
                };
                const auto expect = test::reference_merge<std::uint8_t>(
                    C, t, mk == mask_kind::none ? nullptr : &M, complemented(mk), replacing(mk), acc ? lor : nullptr);
                CHECK(got == expect);
              }
            }
          }
        }
      }
      // The result-returning form with transposes agrees.
      auto a = to_b2sr(exec, ga, {32, bit_order::row_major}), b = to_b2sr(exec, gb, {32, bit_order::col_major});
      mxm_options opts;
      opts.transpose_a = ta;
      opts.transpose_b = tb;
      CHECK(read_bits(exec, mxm(exec, lor_land{}, a, b, opts)) == t);
    }
  }
}

TEMPLATE_TEST_CASE("counting mxm (PLUS_PAIR) of B2SR operands into CSR equals the GraphBLAS reference", "[ops][mxm]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  std::uint64_t seed = 700;
  for (auto [n, m] : mxm_bits_cases) {
    const auto ea = pattern_edges(n, m, seed++), eb = pattern_edges(n, m + 30, seed++);
    const auto em = pattern_edges(n, m * 2, seed++), ec = pattern_edges(n, m, seed++);
    const bits_t A = to_bits(ea), B = to_bits(eb), M = to_bits(em);
    counts_t C(static_cast<vertex_t>(n), static_cast<vertex_t>(n));
    for (std::size_t e = 0; e < ec.size(); ++e) C.at(ec.src[e], ec.dst[e]) = 100 + e % 7;
    auto ga = build_csr(exec, ea), gb = build_csr(exec, eb), gm = build_csr(exec, em);
    const auto c_dev = test::to_device(exec, C);
    for (auto [ta, tb] : mxm_transposes) {
      const counts_t t = reference_counts(A, B, ta, tb);
      for (int td : {8, 32, 64}) {
        for (auto order : {bit_order::row_major, bit_order::col_major}) {
          const auto flipped = order == bit_order::row_major ? bit_order::col_major : bit_order::row_major;
          auto a = to_b2sr(exec, ga, {td, order}), b = to_b2sr(exec, gb, {td, order});
          auto mb = to_b2sr(exec, gm, {td, td == 64 ? flipped : order});
          for (auto path : test::kernel_paths<TestType>()) {
            if (path == op_algorithm::cuda_warp && !warp_fits(td, order, true)) continue;
            for (auto mk : all_masks) {
              for (int mask_format : {0, 1}) {  // B2SR mask, CSR matrix_mask
                if (mk == mask_kind::none && mask_format == 1) continue;
                for (bool acc : {false, true}) {
                  INFO("n=" << n << " T=" << td << " order=" << to_string(order) << " mask=" << int(mk)
                            << " csr_mask=" << mask_format << " accum=" << acc << " ta=" << ta << " tb=" << tb
                            << " path=" << to_string(path));
                  mxm_options opts;
                  opts.algorithm = path;
                  opts.transpose_a = ta;
                  opts.transpose_b = tb;
                  auto run = [&](const auto& mask, const auto& accum) {
                    auto c = c_dev;  // mxm gives C new arrays: c_dev stays as it is
                    mxm(exec, c, mask, accum, plus_pair<std::int64_t>{}, a, b, opts);
                    return test::to_host(c);
                  };
                  using plus_acc = accumulate_with<plus_monoid<std::int64_t>>;
                  counts_t got(0, 0);
                  if (mk == mask_kind::none) {
                    got = acc ? run(no_mask{}, plus_acc{}) : run(no_mask{}, no_accumulator{});
                  } else if (mask_format == 0) {
                    const auto mask = mask_of(mb, complemented(mk), replacing(mk));
                    got = acc ? run(mask, plus_acc{}) : run(mask, no_accumulator{});
                  } else {
                    const auto mask = mask_of(gm, complemented(mk), replacing(mk));
                    got = acc ? run(mask, plus_acc{}) : run(mask, no_accumulator{});
                  }
                  const std::function<std::int64_t(std::int64_t, std::int64_t)> plus =
                      [](std::int64_t x, std::int64_t y) { return x + y; };
                  const auto expect =
                      test::reference_merge<std::int64_t>(C, t, mk == mask_kind::none ? nullptr : &M, complemented(mk),
                                                          replacing(mk), acc ? plus : nullptr);
                  CHECK(got == expect);
                }
              }
            }
          }
          // PLUS_TIMES counts the same on bits; the masked sum is the sum of the masked counts.
          csr_matrix<std::int64_t, memory_space_t<TestType>> c1, c2;
          c1.n_rows = c1.n_cols = c2.n_rows = c2.n_cols = static_cast<vertex_t>(n);
          mxm_options opts;
          opts.transpose_a = ta;
          opts.transpose_b = tb;
          mxm(exec, c1, no_mask{}, no_accumulator{}, plus_times<std::int64_t>{}, a, b, opts);
          CHECK(test::to_host(c1) == t);
          if (!ta) {
            mxm(exec, c2, mask_of(mb), no_accumulator{}, plus_pair<std::int64_t>{}, a, b, opts);
            std::int64_t sum = 0;
            for (auto& v : test::to_host(c2).d) sum += v.value_or(0);
            auto bt = tb ? b : transpose(exec, b);
            CHECK(bmm_sum_masked(exec, mb, a, bt) == std::uint64_t(sum));
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("mxm on B2SR operands rejects bad arguments", "[ops][mxm][errors]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  const test::mismatched_b2sr<TestType> ops(exec);
  const auto &a8 = ops.a8, &a16 = ops.a16, &b8 = ops.b8;
  const auto& h = ops.h;  // a CSR mask of the wrong shape
  b2sr_matrix<mem> c = a8;
  // Shapes: A against B, C against the product, the mask against C.
  CHECK_THROWS_AS(mxm(exec, c, no_mask{}, no_accumulator{}, lor_land{}, a8, b8), invalid_argument_error);
  CHECK_THROWS_AS(mxm(exec, c, no_mask{}, no_accumulator{}, lor_land{}, a8, a16), invalid_argument_error);
  b2sr_matrix<mem> c_wrong = b8;
  CHECK_THROWS_AS(mxm(exec, c_wrong, no_mask{}, no_accumulator{}, lor_land{}, a8, a8), invalid_argument_error);
  b2sr_matrix<mem> c16 = a16;
  CHECK_THROWS_AS(mxm(exec, c16, no_mask{}, no_accumulator{}, lor_land{}, a8, a8), invalid_argument_error);
  CHECK_THROWS_AS(mxm(exec, c, mask_of(b8), no_accumulator{}, lor_land{}, a8, a8), invalid_argument_error);
  CHECK_THROWS_AS(mxm(exec, c, mask_of(a16, true), no_accumulator{}, lor_land{}, a8, a8), invalid_argument_error);
  // An operand whose arrays do not fit its shape.
  auto broken = a8;
  broken.tile_row_ptr = Kokkos::View<offset_t*, mem>("short", 2);
  CHECK_THROWS_AS(mxm(exec, c, no_mask{}, no_accumulator{}, lor_land{}, broken, a8), invalid_argument_error);
  // Semirings the bits cannot carry.
  CHECK_THROWS_AS(mxm(exec, c, no_mask{}, no_accumulator{}, min_plus<int>{}, a8, a8), invalid_argument_error);
  CHECK_THROWS_AS(mxm(exec, c, no_mask{}, no_accumulator{}, plus_pair<int>{}, a8, a8), invalid_argument_error);
  csr_matrix<std::int64_t, mem> cc;
  cc.n_rows = cc.n_cols = 20;
  CHECK_THROWS_AS(mxm(exec, cc, no_mask{}, no_accumulator{}, min_plus<std::int64_t>{}, a8, a8), invalid_argument_error);
  CHECK_THROWS_AS(mxm(exec, cc, no_mask{}, no_accumulator{}, lor_land{}, a8, a8), invalid_argument_error);
  // Counting: C's shape, a CSR mask of the wrong shape, a B2SR mask of the wrong tile dimension.
  csr_matrix<std::int64_t, mem> cw;
  cw.n_rows = 20;
  cw.n_cols = 21;
  CHECK_THROWS_AS(mxm(exec, cw, no_mask{}, no_accumulator{}, plus_pair<std::int64_t>{}, a8, a8),
                  invalid_argument_error);
  CHECK_THROWS_AS(mxm(exec, cc, mask_of(h), no_accumulator{}, plus_pair<std::int64_t>{}, a8, a8),
                  invalid_argument_error);
  CHECK_THROWS_AS(mxm(exec, cc, mask_of(a16), no_accumulator{}, plus_pair<std::int64_t>{}, a8, a8),
                  invalid_argument_error);
  CHECK_THROWS_AS(mxm(exec, cc, no_mask{}, no_accumulator{}, plus_pair<std::int64_t>{}, a8, b8),
                  invalid_argument_error);
  // The sums take no transposes.
  mxm_options t;
  t.transpose_b = true;
  CHECK_THROWS_AS(bmm_sum_masked(exec, a8, a8, a8, t), invalid_argument_error);
  CHECK_THROWS_AS(bmm_sum(exec, a8, a8, t), invalid_argument_error);
  // A forced CUDA path off Cuda, or one the operands do not fit.
  mxm_options mma;
  mma.algorithm = op_algorithm::cuda_mma;
  CHECK_THROWS_AS(mxm(exec, cc, no_mask{}, no_accumulator{}, plus_pair<std::int64_t>{}, a8, a8, mma),
                  unsupported_error);
  // Nothing was changed by the failed calls.
  CHECK(c.tile_row_ptr.data() == a8.tile_row_ptr.data());
}
