// Element-wise add and multiply of valued CSR matrices (ops/ewise_matrix.hpp) against GrB_Matrix_eWiseAdd /
// GrB_Matrix_eWiseMult: the graph's pattern with random values, a random operand of as many entries, a random old
// C, every mask kind (none, structural, complement, replace, both) and accumulators; plus a rectangular trial.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/ewise_matrix.hpp"
#include "compare.hpp"
#include "matrix_ops.hpp"

namespace bitgraph::oracle {

namespace {

using namespace mops;

// Each pairing names a BitGraph binary operator over T and the GraphBLAS operator computing the same thing.
// Values are small integers, so every result is exact.
struct plus_i64 {
  using T = std::int64_t;
  using op = plus_monoid<T>;
  static constexpr const char* name = "PLUS_INT64 (monoid)";
  static GrB_BinaryOp gb_op() { return GrB_PLUS_INT64; }
};
struct minus_i64 {
  using T = std::int64_t;
  using op = minus_op;
  static constexpr const char* name = "MINUS_INT64 (apply(a, b))";
  static GrB_BinaryOp gb_op() { return GrB_MINUS_INT64; }
};
struct times_i64 {
  using T = std::int64_t;
  using op = times_op;
  static constexpr const char* name = "TIMES_INT64 (multiply operator)";
  static GrB_BinaryOp gb_op() { return GrB_TIMES_INT64; }
};
struct first_f64 {
  using T = double;
  using op = first_op;
  static constexpr const char* name = "FIRST_FP64";
  static GrB_BinaryOp gb_op() { return GrB_FIRST_FP64; }
};
struct min_f64 {
  using T = double;
  using op = min_monoid<T>;
  static constexpr const char* name = "MIN_FP64 (monoid)";
  static GrB_BinaryOp gb_op() { return GrB_MIN_FP64; }
};
// A multiply operator is called with the entry's row and column, so SECONDI yields the column: SECONDJ.
struct secondj_i64 {
  using T = std::int64_t;
  using op = secondi_op;
  static constexpr const char* name = "SECONDJ_INT64 (secondi_op, positional)";
  static GrB_BinaryOp gb_op() { return GxB_SECONDJ_INT64; }
};

/// One trial: C<M> = accum(C, A op B) on both sides, compared entry by entry (positions and values).
template <class P>
void trial(context& ctx, planter& plant, std::mt19937_64& rng, bool mult, vertex_t rows, vertex_t cols,
           const pattern_t& a_pattern, const std::string& shape) {
  using T = typename P::T;
  const std::uint64_t nnz = entries(a_pattern);
  const auto ha = with_values<T>(rows, cols, a_pattern, rng);
  const auto hb = with_values<T>(rows, cols, random_pattern(rows, cols, std::max<std::uint64_t>(nnz, 1), rng), rng);
  const auto hc = with_values<T>(rows, cols, random_pattern(rows, cols, nnz / 2 + 1, rng), rng);
  // The mask: none, A's pattern, or a random one; then complement and replace independently.
  const int mask_source = int(rng() % 3);
  const bool complement = rng() % 2, replace = rng() % 2;
  const auto hm = mask_source == 1 ? ha : with_values<T>(rows, cols, random_pattern(rows, cols, nnz + 1, rng), rng);
  const int accum = int(rng() % 3);  // none, PLUS, MINUS
  const char* mask_names[] = {"no mask", "mask A", "random mask"};
  const std::string what = cat(mult ? "mult " : "add ", P::name, ", ", shape, ", ",
                               mask_str(mask_names[mask_source], mask_source, complement, replace), accum_names[accum]);
  const char* kind = mult ? "ewise.matrix_mult" : "ewise.matrix_add";
  gb::triples<T> got, want;
  try {
    // GraphBLAS.
    auto ga = to_graphblas(ha), gbm = to_graphblas(hb), gc = to_graphblas(hc), gm = to_graphblas(hm);
    auto desc = gb::make_descriptor(true, mask_source && complement, mask_source && replace, false);
    GrB_BinaryOp gacc = accum == 0 ? nullptr : gb_accum<T>(accum == 2);
    GrB_Matrix mask = mask_source ? gm.get() : nullptr;
    if (mult)
      gb::check(GrB_Matrix_eWiseMult_BinaryOp(gc.get(), mask, gacc, P::gb_op(), ga.get(), gbm.get(), desc.get()),
                "GrB_Matrix_eWiseMult_BinaryOp");
    else
      gb::check(GrB_Matrix_eWiseAdd_BinaryOp(gc.get(), mask, gacc, P::gb_op(), ga.get(), gbm.get(), desc.get()),
                "GrB_Matrix_eWiseAdd_BinaryOp");
    want = gb::extract<T>(gc.get());
    // BitGraph.
    const auto a = to_bitgraph(ctx.exec, ha), b = to_bitgraph(ctx.exec, hb);
    const auto m = to_bitgraph(ctx.exec, hm);
    auto c = to_bitgraph(ctx.exec, hc);
    const typename P::op op{};
    auto run = [&](const auto& msk, const auto& acc) {
      if (mult)
        ewise_mult(ctx.exec, c, msk, acc, op, a, b);
      else
        ewise_add(ctx.exec, c, msk, acc, op, a, b);
    };
    with_mask_and_accum<T>(mask_source, m, complement, replace, accum, run);
    got = triples_of(c);
  } catch (const std::exception& e) {
    ctx.t.error(kind, what, e.what());
    return;
  }
  compare_matrices(ctx, plant, kind, what, got, want);
  ctx.t.cover(cat("ewise matrix ", mult ? "mult " : "add ", P::name));
}

template <class F>
void pick_pairing(std::uint64_t k, F&& f) {
  switch (k % 6) {
    case 0:
      return f(plus_i64{});
    case 1:
      return f(minus_i64{});
    case 2:
      return f(times_i64{});
    case 3:
      return f(first_f64{});
    case 4:
      return f(min_f64{});
    default:
      return f(secondj_i64{});
  }
}

}  // namespace

void check_ewise_matrix(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0xe81));
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0xe82));
  const pattern_t a_pattern = graph_pattern(g);
  // The pairings rotate with the graph's seed so that every one (add and mult) appears across a run.
  const std::uint64_t first = rng();
  for (int k = 0; k < 4; ++k) {
    pick_pairing(first + std::uint64_t(k),
                 [&](auto p) { trial<decltype(p)>(ctx, plant, rng, k % 2 != 0, g.n, g.n, a_pattern, "the graph"); });
  }
  // A rectangular trial, independent of the graph's shape.
  const vertex_t rows = vertex_t(1 + rng() % 60), cols = vertex_t(1 + rng() % 60);
  const auto r_pattern = random_pattern(rows, cols, rng() % (std::uint64_t(rows) * cols / 3 + 1), rng);
  pick_pairing(first + 4, [&](auto p) {
    trial<decltype(p)>(ctx, plant, rng, rng() % 2 != 0, rows, cols, r_pattern, cat(rows, " x ", cols, " random"));
  });
}

}  // namespace bitgraph::oracle
