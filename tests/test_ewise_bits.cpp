// Element-wise add / mult of B2SR bit matrices (ops/ewise_matrix.hpp) against a dense Boolean reference: the
// union / intersection of the patterns merged into C by the GraphBLAS mask / accumulate / replace rule, over every
// tile dimension, mixed bit orders, transposes, aliasing and edge cases; and the argument errors.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>

#include "bitgraph/ops/ewise_matrix.hpp"
#include "support/dense_matrix.hpp"
#include "support/errors.hpp"
#include "support/random_graphs.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

namespace {

using bits_t = test::dense<std::uint8_t>;

/// Random entries (repeats merge), a self-loop on every seventh vertex and two empty rows in the middle.
edge_list pattern_edges(std::uint64_t n, std::uint64_t m, std::uint64_t seed) {
  return test::pattern_edges(n, m, seed, 7, 2);
}

using test::to_bits;

/// A' ∪ B' or A' ∩ B' (A' = Aᵀ, B' = Bᵀ when asked).
bits_t reference_combine(const bits_t& a, const bits_t& b, bool mult, bool ta, bool tb) {
  const bits_t at = ta ? test::transposed(a) : a, bt = tb ? test::transposed(b) : b;
  bits_t t(a.rows, a.cols);
  for (std::size_t p = 0; p < t.d.size(); ++p) {
    const bool x = at.d[p].has_value(), y = bt.d[p].has_value();
    if (mult ? (x && y) : (x || y)) t.d[p] = 1;
  }
  return t;
}

/// Reads a B2SR result from its layout, checking what it records: tile columns ascend, no tile is empty, no bit
/// lies at or beyond n, nnz / n_tiles / longest_tile_row agree with the arrays.
template <class Mem>
bits_t read_bits(const b2sr_matrix<Mem>& c) {
  auto h = copy_to<Kokkos::HostSpace>(c);
  const int t = h.tile_dim;
  REQUIRE(h.n_tile_rows == (h.n + t - 1) / t);
  REQUIRE(h.tile_row_ptr.extent(0) == std::size_t(h.n_tile_rows) + 1);
  CHECK(h.tile_row_ptr(h.n_tile_rows) == h.n_tiles);
  bits_t d(h.n, h.n);
  offset_t longest = 0, nnz = 0;
  bool beyond = false;
  for (vertex_t tr = 0; tr < h.n_tile_rows; ++tr) {
    longest = std::max<offset_t>(longest, h.tile_row_ptr(tr + 1) - h.tile_row_ptr(tr));
    for (offset_t k = h.tile_row_ptr(tr); k < h.tile_row_ptr(tr + 1); ++k) {
      if (k > h.tile_row_ptr(tr)) REQUIRE(h.tile_col_idx(k - 1) < h.tile_col_idx(k));
      bool any = false;
      for (int w = 0; w < t; ++w) {
        std::uint64_t word = 0;
        for (int byte = 0; byte < tile_word_bytes(t); ++byte)
          word |= std::uint64_t(h.tile_bits((k * t + w) * tile_word_bytes(t) + byte)) << (8 * byte);
        any |= word != 0;
        for (int bit = 0; bit < t; ++bit) {
          if (!((word >> bit) & 1u)) continue;
          const bool row = h.order == bit_order::row_major;
          const std::uint64_t i = std::uint64_t(tr) * t + (row ? w : bit);
          const std::uint64_t j = std::uint64_t(h.tile_col_idx(k)) * t + (row ? bit : w);
          if (i >= h.n || j >= h.n) {
            beyond = true;
            continue;
          }
          d.at(vertex_t(i), vertex_t(j)) = 1;
          ++nnz;
        }
      }
      REQUIRE(any);
    }
  }
  CHECK_FALSE(beyond);
  CHECK(h.nnz == nnz);
  CHECK(h.longest_tile_row == longest);
  return d;
}

enum class mask_kind { none, plain, complement, replace, complement_replace };
constexpr mask_kind all_masks[] = {mask_kind::none, mask_kind::plain, mask_kind::complement, mask_kind::replace,
                                   mask_kind::complement_replace};
bool complemented(mask_kind k) { return k == mask_kind::complement || k == mask_kind::complement_replace; }
bool replacing(mask_kind k) { return k == mask_kind::replace || k == mask_kind::complement_replace; }

/// An op that yields 0 on (true, true): LXOR.
struct lxor_op {
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T a, T b) {
    return T((a != 0) != (b != 0));
  }
};

/// Calls f(op) for the k-th of the ops that keep two set bits set (monoids, apply(a, b) and multiply operators).
template <class F>
void with_op(int k, F&& f) {
  switch (k % 9) {
    case 0:
      return f(lor_monoid{});
    case 1:
      return f(land_op{});
    case 2:
      return f(pair_op{});
    case 3:
      return f(first_op{});
    case 4:
      return f(second_op{});
    case 5:
      return f(min_monoid<int>{});
    case 6:
      return f(times_op{});
    case 7:
      return f(plus_monoid<std::uint8_t>{});
    default:
      return f(max_monoid<double>{});
  }
}

/// C<M, replace> = (C OR) op(A, B) through the face, with the mask kind and accumulator asked for.
template <class Exec, class Op>
void run_ewise(const Exec& exec, bool mult, b2sr_matrix<memory_space_t<Exec>>& c, mask_kind mk,
               const b2sr_matrix<memory_space_t<Exec>>& m, bool acc, const Op& op,
               const b2sr_matrix<memory_space_t<Exec>>& a, const b2sr_matrix<memory_space_t<Exec>>& b,
               const matrix_op_options& opts) {
  auto go = [&](const auto& mask, const auto& accum) {
    if (mult)
      ewise_mult(exec, c, mask, accum, op, a, b, opts);
    else
      ewise_add(exec, c, mask, accum, op, a, b, opts);
  };
  if (mk == mask_kind::none) {
    if (acc)
      go(no_mask{}, accumulate_with<lor_monoid>{});
    else
      go(no_mask{}, no_accumulator{});
  } else {
    const auto mask = mask_of(m, complemented(mk), replacing(mk));
    if (acc)
      go(mask, lor_monoid{});
    else
      go(mask, no_accumulator{});
  }
}

bits_t expected(const bits_t& c, const bits_t& t, mask_kind mk, const bits_t& m, bool acc) {
  const std::function<std::uint8_t(std::uint8_t, std::uint8_t)> lor = [](std::uint8_t x, std::uint8_t y) {
    return std::uint8_t(x | y);
  };
  return test::reference_merge<std::uint8_t>(c, t, mk == mask_kind::none ? nullptr : &m, complemented(mk),
                                             replacing(mk), acc ? lor : nullptr);
}

bit_order flip(bit_order o) { return o == bit_order::row_major ? bit_order::col_major : bit_order::row_major; }

struct ewise_case {
  std::uint64_t n, m;
};
// Empty, one vertex, n not a multiple of any tile, and several tiles of 64.
constexpr ewise_case ewise_cases[] = {{0, 0}, {1, 1}, {37, 120}, {150, 700}};

}  // namespace

TEMPLATE_TEST_CASE("B2SR ewise_add / ewise_mult equal the dense Boolean reference", "[ops][ewise_bits]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  std::uint64_t seed = 900;
  int trial = 0;
  for (auto [n, m] : ewise_cases) {
    const auto ea = pattern_edges(n, m, seed++), eb = pattern_edges(n, m + 20, seed++);
    const auto em = pattern_edges(n, 2 * m, seed++), ec = pattern_edges(n, m / 2, seed++);
    const bits_t A = to_bits(ea), B = to_bits(eb), M = to_bits(em), C = to_bits(ec);
    auto ga = build_csr(exec, ea), gb = build_csr(exec, eb), gm = build_csr(exec, em), gc = build_csr(exec, ec);
    for (int td : {4, 8, 16, 32, 64}) {
      for (auto order : {bit_order::row_major, bit_order::col_major}) {
        // B, C and the mask in either order too, varying with the tile dimension: mixed orders meet.
        const auto b_order = td % 16 == 0 ? flip(order) : order, c_order = td == 8 || td == 64 ? flip(order) : order;
        const auto m_order = td == 4 || td == 32 ? flip(order) : order;
        auto a = to_b2sr(exec, ga, {td, order}), b = to_b2sr(exec, gb, {td, b_order});
        auto mb = to_b2sr(exec, gm, {td, m_order});
        for (auto mk : all_masks) {
          for (bool acc : {false, true}) {
            for (bool mult : {false, true}) {
              // Transposes and ops rotate with the trial so that every pairing meets every tile dimension.
              const int tr = trial++;
              matrix_op_options opts;
              opts.transpose_a = tr % 3 == 1;
              opts.transpose_b = tr % 3 == 2 || tr % 7 == 0;
              const bits_t t = reference_combine(A, B, mult, opts.transpose_a, opts.transpose_b);
              with_op(tr, [&](const auto& op) {
                INFO("n=" << n << " T=" << td << " order=" << to_string(order) << " mask=" << int(mk)
                          << " accum=" << acc << " mult=" << mult << " ta=" << opts.transpose_a
                          << " tb=" << opts.transpose_b << " op=" << tr % 9);
                auto c = to_b2sr(exec, gc, {td, c_order});
                run_ewise(exec, mult, c, mk, mb, acc, op, a, b, opts);
                CHECK(c.tile_dim == td);
                CHECK(c.order == c_order);
                CHECK(read_bits(c) == expected(C, t, mk, M, acc));
              });
            }
          }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("B2SR ewise ops: aliasing, array-less C, short forms and empty operands", "[ops][ewise_bits]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  const auto ea = pattern_edges(70, 300, 11), eb = pattern_edges(70, 250, 12), em = pattern_edges(70, 900, 13);
  const bits_t A = to_bits(ea), B = to_bits(eb), M = to_bits(em);
  const bits_t none(70, 70);
  auto ga = build_csr(exec, ea), gb = build_csr(exec, eb), gm = build_csr(exec, em);
  for (int td : {8, 32}) {
    INFO("T=" << td);
    const auto a = to_b2sr(exec, ga, {td, bit_order::row_major}), b = to_b2sr(exec, gb, {td, bit_order::col_major});
    const auto mb = to_b2sr(exec, gm, {td, bit_order::row_major});
    // C = A: C ∩= B under a complemented mask with LOR keeps A outside the mask.
    {
      auto c = a;
      ewise_mult(exec, c, mask_of(mb, true), lor_monoid{}, land_op{}, c, b);
      CHECK(read_bits(c) == expected(A, reference_combine(A, B, true, false, false), mask_kind::complement, M, true));
      CHECK(read_bits(a) == A);  // A's arrays are not touched
    }
    // C = B, transposed operands, replace.
    {
      auto c = b;
      matrix_op_options opts;
      opts.transpose_a = true;
      ewise_add(exec, c, mask_of(mb, false, true), no_accumulator{}, pair_op{}, a, c, opts);
      CHECK(read_bits(c) == expected(B, reference_combine(A, B, false, true, false), mask_kind::replace, M, false));
    }
    // C = A = B: A ∪ A and A ∩ A are A.
    {
      auto c = a;
      ewise_add(exec, c, no_mask{}, no_accumulator{}, lor_monoid{}, c, c);
      CHECK(read_bits(c) == A);
      ewise_mult(exec, c, no_mask{}, no_accumulator{}, land_op{}, c, c);
      CHECK(read_bits(c) == A);
    }
    // An array-less C (n and tile set, as the short forms make it) counts as empty, with a mask and LOR.
    for (auto mk : all_masks) {
      INFO("mask=" << int(mk));
      b2sr_matrix<mem> c;
      c.n = 70;
      c.tile_dim = td;
      c.order = bit_order::col_major;
      run_ewise(exec, false, c, mk, mb, true, first_op{}, a, b, {});
      CHECK(c.order == bit_order::col_major);
      CHECK(read_bits(c) == expected(none, reference_combine(A, B, false, false, false), mk, M, true));
    }
    // The short forms: A's order and tile.
    {
      auto s = ewise_add(exec, lor_monoid{}, a, b);
      CHECK(s.order == bit_order::row_major);
      CHECK(s.tile_dim == td);
      CHECK(read_bits(s) == reference_combine(A, B, false, false, false));
      auto p = ewise_mult(exec, times_op{}, b, a);
      CHECK(p.order == bit_order::col_major);
      CHECK(read_bits(p) == reference_combine(A, B, true, false, false));
    }
    // An operand without entries: the union is the other one, the intersection is empty (no tile stored).
    {
      auto e = to_b2sr(exec, build_csr(exec, pattern_edges(0, 0, 0)), {td, bit_order::row_major});
      edge_list el;
      el.num_vertices = 70;
      auto z = to_b2sr(exec, build_csr(exec, el), {td, bit_order::col_major});
      CHECK(e.n == 0);
      CHECK(read_bits(ewise_add(exec, lor_monoid{}, e, e)).rows == 0);
      CHECK(read_bits(ewise_add(exec, lor_monoid{}, z, a)) == A);
      auto p = ewise_mult(exec, land_op{}, a, z);
      CHECK(p.n_tiles == 0);
      CHECK(p.nnz == 0);
      CHECK(read_bits(p) == none);
    }
  }
}

TEMPLATE_TEST_CASE("B2SR ewise ops reject bad arguments", "[ops][ewise_bits][errors]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  const test::mismatched_b2sr<TestType> ops(exec);
  const auto &a8 = ops.a8, &a16 = ops.a16, &b8 = ops.b8;
  b2sr_matrix<mem> c = a8;
  // n and tile dimension: A against B, C against A, the mask against A.
  CHECK_THROWS_AS(ewise_add(exec, c, no_mask{}, no_accumulator{}, lor_monoid{}, a8, b8), invalid_argument_error);
  CHECK_THROWS_AS(ewise_mult(exec, c, no_mask{}, no_accumulator{}, land_op{}, a8, a16), invalid_argument_error);
  b2sr_matrix<mem> c_wrong = b8, c16 = a16;
  CHECK_THROWS_AS(ewise_add(exec, c_wrong, no_mask{}, no_accumulator{}, lor_monoid{}, a8, a8), invalid_argument_error);
  CHECK_THROWS_AS(ewise_mult(exec, c16, no_mask{}, no_accumulator{}, land_op{}, a8, a8), invalid_argument_error);
  CHECK_THROWS_AS(ewise_add(exec, c, mask_of(b8), no_accumulator{}, lor_monoid{}, a8, a8), invalid_argument_error);
  CHECK_THROWS_AS(ewise_mult(exec, c, mask_of(a16, true), lor_monoid{}, land_op{}, a8, a8), invalid_argument_error);
  // An operand whose arrays do not fit its shape.
  auto broken = a8;
  broken.n_tile_rows += 1;
  CHECK_THROWS_AS(ewise_add(exec, c, no_mask{}, no_accumulator{}, lor_monoid{}, broken, a8), invalid_argument_error);
  // Ops whose value on two set bits is not a set bit: an explicit false, or a positional value.
  const auto minus = test::thrown_text<invalid_argument_error>(
      [&] { ewise_add(exec, c, no_mask{}, no_accumulator{}, minus_op{}, a8, a8); });
  CHECK(minus.find("ewise_add") != std::string::npos);
  CHECK(minus.find("minus") != std::string::npos);
  const auto lxor = test::thrown_text<invalid_argument_error>(
      [&] { ewise_mult(exec, c, no_mask{}, no_accumulator{}, lxor_op{}, a8, a8); });
  CHECK(lxor.find("ewise_mult") != std::string::npos);
  const auto positional = test::thrown_text<invalid_argument_error>(
      [&] { ewise_mult(exec, c, no_mask{}, no_accumulator{}, secondi_op{}, a8, a8); });
  CHECK(positional.find("positional") != std::string::npos);
  const auto shape = test::thrown_text<invalid_argument_error>(
      [&] { ewise_mult(exec, c, no_mask{}, no_accumulator{}, land_op{}, a8, b8); });
  CHECK(shape.find("ewise_mult") != std::string::npos);
  // C is left as it was by a rejected call.
  CHECK(read_bits(c) == read_bits(a8));
  // No CUDA kernel: a forced CUDA path is refused.
  matrix_op_options warp;
  warp.algorithm = op_algorithm::cuda_warp;
  CHECK_THROWS_AS(ewise_add(exec, c, no_mask{}, no_accumulator{}, lor_monoid{}, a8, a8, warp), unsupported_error);
}
