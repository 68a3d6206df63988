// Element-wise add and multiply of valued CSR matrices (ops/ewise_matrix.hpp) against GrB_Matrix_eWiseAdd /
// GrB_Matrix_eWiseMult: the graph's pattern with random values, a random operand of as many entries, a random old
// C, every mask kind (none, structural, complement, replace, both) and accumulators; plus a rectangular trial. And
// the same on B2SR bit matrices (GrB_BOOL patterns): union / intersection with LOR, LAND, FIRST or TIMES, a
// structural B2SR mask, the LOR accumulator and transposes.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/ewise_matrix.hpp"
#include "compare.hpp"
#include "matrix_ops.hpp"
#include "support/random_graphs.hpp"

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

// ------------------------------------------------------------------------------------ B2SR bit matrices

/// The GraphBLAS side of a B2SR operand is one row and column larger, so that no output is ever full
/// (SuiteSparse 7.4 mishandles full iso outputs of eWiseAdd / eWiseMult: see vector_ops.hpp).
gb::matrix padded(GrB_Matrix a, vertex_t n) {
  auto p = gb::dup(a);
  gb::check(GrB_Matrix_resize(p.get(), GrB_Index(n) + 1, GrB_Index(n) + 1), "GrB_Matrix_resize");
  return p;
}

/// A random directed n x n pattern of about m entries on both sides, the GraphBLAS one padded by a row and column.
bits_operand random_bits(context& ctx, vertex_t n, std::uint64_t m, std::uint64_t seed, const b2sr_options& bo) {
  return mops::random_bits_operand(ctx, n, m, seed, bo, GrB_Index(n) + 1);
}

/// Calls f(BitGraph op, GraphBLAS op, name) for the k-th pairing: on two set bits each gives true.
template <class F>
void pick_bits_op(std::uint64_t k, F&& f) {
  switch (k % 4) {
    case 0:
      return f(lor_monoid{}, GrB_LOR, "LOR");
    case 1:
      return f(land_op{}, GrB_LAND, "LAND");
    case 2:
      return f(first_op{}, GrB_FIRST_BOOL, "FIRST_BOOL");
    default:
      return f(times_op{}, GrB_TIMES_BOOL, "TIMES_BOOL");
  }
}

/// C<M, replace> = (C LOR) A op B on bits, add then mult: A the graph, B and the old C random patterns, the mask none,
/// A or random with complement and replace, Aᵀ / Bᵀ, each side in a random bit order.
void check_ewise_bits(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0xeb1));
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0xeb2));
  const b2sr_config cfg = pick_configs(mix(g.op_seed, 0xeb3), 1)[0];
  const auto order = [&] { return rng() % 2 ? bit_order::row_major : bit_order::col_major; };
  const vertex_t n = g.n;
  const std::uint64_t m = std::max<std::uint64_t>(g.rows.idx.size(), 1);
  std::string what = cfg.str(), kind = "ewise.bits_add";
  try {
    const bits_operand a{
        to_b2sr(ctx.exec, g.csr, {cfg.tile, cfg.row_major ? bit_order::row_major : bit_order::col_major}),
        padded(g.a.get(), n)};
    const auto b = random_bits(ctx, n, m, rng(), {cfg.tile, order()});
    const auto old = random_bits(ctx, n, m / 2 + 1, rng(), {cfg.tile, order()});
    const auto r = random_bits(ctx, n, m, rng(), {cfg.tile, order()});
    const std::uint64_t first_op_k = rng();
    for (bool mult : {false, true}) {
      const int mask_source = int(rng() % 3);
      const bool complement = rng() % 2, replace = rng() % 2, accum = rng() % 2;
      matrix_op_options o;
      o.transpose_a = rng() % 2;
      o.transpose_b = rng() % 2;
      const bits_operand& mk = mask_source == 1 ? a : r;
      const char* mask_names[] = {"no mask", "mask A", "random mask"};
      kind = mult ? "ewise.bits_mult" : "ewise.bits_add";
      pick_bits_op(first_op_k + (mult ? 1 : 0), [&](const auto& op, GrB_BinaryOp gop, const char* name) {
        what = cat(mult ? "mult " : "add ", name, ", ", cfg.str(), o.transpose_a ? ", A^T" : "",
                   o.transpose_b ? ", B^T" : "", ", ",
                   mask_str(mask_names[mask_source], mask_source, complement, replace), accum ? ", accum LOR" : "");
        auto c = old.bits;
        auto run = [&](const auto& msk) {
          if (mult) {
            if (accum)
              ewise_mult(ctx.exec, c, msk, lor_monoid{}, op, a.bits, b.bits, o);
            else
              ewise_mult(ctx.exec, c, msk, no_accumulator{}, op, a.bits, b.bits, o);
          } else {
            if (accum)
              ewise_add(ctx.exec, c, msk, accumulate_with<lor_monoid>{}, op, a.bits, b.bits, o);
            else
              ewise_add(ctx.exec, c, msk, no_accumulator{}, op, a.bits, b.bits, o);
          }
        };
        if (mask_source == 0)
          run(no_mask{});
        else
          run(mask_of(mk.bits, complement, replace));
        diffs d;
        auto got = decode_b2sr(c, d);
        auto want = gb::dup(old.pattern.get());
        auto desc = gb::make_descriptor(true, mask_source && complement, mask_source && replace, o.transpose_a);
        if (o.transpose_b) gb::check(GrB_Descriptor_set(desc.get(), GrB_INP1, GrB_TRAN), "GrB_Descriptor_set(INP1)");
        GrB_Matrix gm = mask_source ? mk.pattern.get() : nullptr;
        GrB_BinaryOp gacc = accum ? GrB_LOR : nullptr;
        if (mult)
          gb::check(
              GrB_Matrix_eWiseMult_BinaryOp(want.get(), gm, gacc, gop, a.pattern.get(), b.pattern.get(), desc.get()),
              "GrB_Matrix_eWiseMult_BinaryOp");
        else
          gb::check(
              GrB_Matrix_eWiseAdd_BinaryOp(want.get(), gm, gacc, gop, a.pattern.get(), b.pattern.get(), desc.get()),
              "GrB_Matrix_eWiseAdd_BinaryOp");
        // The padding row and column stay empty; then the n x n part.
        auto wp = host_pattern::of(want.get());
        if (wp.ptr[n + 1] != wp.ptr[n]) d.add("GraphBLAS stored ", wp.ptr[n + 1] - wp.ptr[n], " entries in row n");
        if (std::find(wp.idx.begin(), wp.idx.end(), n) != wp.idx.end()) d.add("GraphBLAS stored an entry in column n");
        wp.n = n;
        wp.ptr.resize(std::size_t(n) + 1);
        wp.idx.resize(wp.ptr[n]);
        const bool planted = plant_in_pattern(plant, got);
        if (c.nnz != wp.idx.size()) d.add("nnz: BitGraph ", c.nnz, ", GraphBLAS ", wp.idx.size());
        compare_patterns(got, wp, d);
        ctx.t.record(kind, what, d, planted);
        ctx.t.cover(cat("ewise bits ", mult ? "mult, " : "add, ",
                        mask_str(mask_names[mask_source], mask_source, complement, replace)));
      });
    }
  } catch (const std::exception& e) {
    ctx.t.error(kind, what, e.what());
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
  check_ewise_bits(ctx, g);
}

}  // namespace bitgraph::oracle
