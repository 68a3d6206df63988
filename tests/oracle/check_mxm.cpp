// Matrix-matrix products on B2SR: Boolean SpGEMM (mxm over LOR_LAND), the popcount sum bmm_sum and the
// masked sum bmm_sum_masked, against GrB_mxm (LOR_LAND / PLUS_PAIR) and GrB_reduce; and the GraphBLAS mxm on
// bits, C<M, replace> = accum(C, A·B) with a Boolean B2SR output (LOR_LAND, LOR accumulator) or a counting CSR
// output (PLUS_PAIR_INT64, PLUS / MINUS accumulators), B2SR or CSR masks (none, S, SC, RS, RSC), optionally Bᵀ.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/mxm.hpp"
#include "compare.hpp"
#include "matrix_ops.hpp"
#include "support/random_graphs.hpp"

namespace bitgraph::oracle {

namespace {

/// One operand on both sides: BitGraph's B2SR and the GraphBLAS pattern it stands for.
struct operand {
  std::string name;
  b2sr_matrix<mem_space> bits;
  gb::matrix pattern;
};

/// A random directed n x n pattern (repeats and loops kept, as one entry each).
operand random_operand(context& ctx, vertex_t n, std::uint64_t m, std::uint64_t seed, const b2sr_options& bo) {
  auto r = mops::random_bits_operand(ctx, n, m, seed, bo, n);
  return {cat("random(", m, ", seed ", seed, ", ", to_string(bo.order), ")"), std::move(r.bits), std::move(r.pattern)};
}

std::uint64_t reduce_sum(GrB_Matrix c) {
  std::int64_t s = 0;
  gb::check(GrB_Matrix_reduce_INT64(&s, nullptr, GrB_PLUS_MONOID_INT64, c, nullptr), "GrB_Matrix_reduce");
  return static_cast<std::uint64_t>(s);
}

/// The descriptor of a trial: structural mask with complement / replace, and Bᵀ.
gb::descriptor mxm_descriptor(bool complement, bool replace, bool transpose_b) {
  auto d = gb::make_descriptor(true, complement, replace, false);
  if (transpose_b) gb::check(GrB_Descriptor_set(d.get(), GrB_INP1, GrB_TRAN), "GrB_Descriptor_set(INP1)");
  return d;
}

/// A random n x n INT64 matrix (about m entries, small values) on both sides.
struct valued_operand {
  csr_matrix<std::int64_t, mem_space> csr;
  gb::matrix gb;
};

/// The values are drawn after the whole pattern, row by row (mops::with_values).
valued_operand random_valued(context& ctx, vertex_t n, std::uint64_t m, std::mt19937_64& rng) {
  const auto h = mops::with_values<std::int64_t>(n, n, mops::random_pattern(n, n, m, rng), rng);
  return {mops::to_bitgraph(ctx.exec, h), mops::to_graphblas(h)};
}

const char* mask_name(int source, bool complement, bool replace) {
  if (source == 0) return "no mask";
  static const char* names[] = {"mask S", "mask SC", "mask RS", "mask RSC"};
  return names[(complement ? 1 : 0) + (replace ? 2 : 0)];
}

}  // namespace

void check_mxm(context& ctx, const graph_under_test& g) {
  // Work of A * A (the largest product here): skip graphs where GraphBLAS and the B2SR SpGEMM would
  // dominate the run.
  std::uint64_t flops = 0;
  for (vertex_t i = 0; i < g.n; ++i)
    for (offset_t k = g.rows.ptr[i]; k < g.rows.ptr[i + 1]; ++k) flops += g.rows.degree(g.rows.idx[k]);
  if (flops > ctx.opt.mxm_work_limit) {
    ctx.t.cover("mxm skipped: A*A work above --mxm-work-limit");
    return;
  }
  std::mt19937_64 rng(mix(g.op_seed, 0x33));
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0x34));
  for (const auto& cfg : pick_configs(mix(g.op_seed, 0x33), 2)) {
    const b2sr_options bo{cfg.tile, cfg.row_major ? bit_order::row_major : bit_order::col_major};
    const b2sr_options other{cfg.tile, rng() % 2 ? bit_order::row_major : bit_order::col_major};
    std::string what = cfg.str();
    try {
      operand a{"A", to_b2sr(ctx.exec, g.csr, bo), gb::dup(g.a.get())};
      // The second operand: A itself, A^T (BitGraph's B2SR transpose, either packing order), or an
      // unrelated random pattern with as many entries.
      operand b;
      switch (rng() % 3) {
        case 0:
          b = operand{"A", a.bits, gb::dup(g.a.get())};
          break;
        case 1: {
          const bool keep = rng() % 2;
          b = operand{keep ? "A^T" : "A^T (flipped order)", transpose(ctx.exec, a.bits, keep),
                      gb::transpose(g.a.get())};
          break;
        }
        default:
          b = random_operand(ctx, g.n, std::max<std::uint64_t>(g.rows.idx.size(), 1), rng(), other);
          break;
      }
      what = cat(cfg.str(), ", B = ", b.name);
      // C = A * B over LOR_LAND.
      {
        auto c = mxm(ctx.exec, lor_land{}, a.bits, b.bits);
        diffs d;
        auto got = decode_b2sr(c, d);
        gb::matrix want;
        gb::check(GrB_Matrix_new(want.out(), GrB_BOOL, g.n, g.n), "GrB_Matrix_new");
        gb::check(GrB_mxm(want.get(), nullptr, nullptr, GrB_LOR_LAND_SEMIRING_BOOL, a.pattern.get(), b.pattern.get(),
                          nullptr),
                  "GrB_mxm");
        const auto wp = host_pattern::of(want.get());
        const bool planted = plant_in_pattern(plant, got);
        if (c.nnz != wp.idx.size()) d.add("nnz: BitGraph ", c.nnz, ", GraphBLAS ", wp.idx.size());
        compare_patterns(got, wp, d);
        ctx.t.record("mxm.lor_land", what, d, planted);
      }
      // Σ (A * B) over (+, AND) = PLUS_PAIR.
      {
        std::uint64_t got = bmm_sum(ctx.exec, a.bits, b.bits);
        gb::matrix c;
        gb::check(GrB_Matrix_new(c.out(), GrB_INT64, g.n, g.n), "GrB_Matrix_new");
        gb::check(GrB_mxm(c.get(), nullptr, nullptr, GxB_PLUS_PAIR_INT64, a.pattern.get(), b.pattern.get(), nullptr),
                  "GrB_mxm");
        const std::uint64_t want = reduce_sum(c.get());
        const bool planted = plant.on();
        if (planted) got += 1;
        diffs d;
        if (got != want) d.add("sum: BitGraph ", got, ", GraphBLAS ", want);
        ctx.t.record("mxm.bmm_sum", what, d, planted);
      }
      // Σ_{(i,j) in M} (A * B)(i, j) with B given as B^T: M and B^T each A or the random operand.
      {
        operand r = random_operand(ctx, g.n, std::max<std::uint64_t>(g.rows.idx.size() / 2, 1), rng(), other);
        const bool m_is_a = rng() % 2, bt_is_a = rng() % 2;
        const operand& m = m_is_a ? a : r;
        const operand& bt = bt_is_a ? a : r;
        const std::string w2 = cat(cfg.str(), ", M = ", m_is_a ? "A" : r.name, ", B^T = ", bt_is_a ? "A" : r.name);
        std::uint64_t got = bmm_sum_masked(ctx.exec, m.bits, a.bits, bt.bits);
        gb::matrix c;
        gb::check(GrB_Matrix_new(c.out(), GrB_INT64, g.n, g.n), "GrB_Matrix_new");
        gb::check(GrB_mxm(c.get(), m.pattern.get(), nullptr, GxB_PLUS_PAIR_INT64, a.pattern.get(), bt.pattern.get(),
                          GrB_DESC_ST1),
                  "GrB_mxm<M>");
        const std::uint64_t want = reduce_sum(c.get());
        const bool planted = plant.on();
        if (planted) got += 1;
        diffs d;
        if (got != want) d.add("masked sum: BitGraph ", got, ", GraphBLAS ", want);
        ctx.t.record("mxm.bmm_sum_masked", w2, d, planted);
      }
      // C<M, replace> = (C LOR) A * B on B2SR: the mask none, A or a random pattern, complement and replace
      // independent, the old C random, B or B^T.
      {
        operand r = random_operand(ctx, g.n, std::max<std::uint64_t>(g.rows.idx.size(), 1), rng(), other);
        operand old = random_operand(ctx, g.n, std::max<std::uint64_t>(g.rows.idx.size() / 2, 1), rng(), bo);
        const int mask_source = int(rng() % 3);
        const bool complement = rng() % 2, replace = rng() % 2, accum = rng() % 2, tb = rng() % 2;
        const operand& m = mask_source == 1 ? a : r;
        const std::string w3 = cat(cfg.str(), ", B = ", b.name, tb ? " (transposed)" : "", ", ",
                                   mask_name(mask_source, complement, replace), accum ? ", accum LOR" : "");
        mxm_options o;
        o.transpose_b = tb;
        auto c = old.bits;
        if (mask_source == 0) {
          if (accum)
            mxm(ctx.exec, c, no_mask{}, accumulate_with<lor_monoid>{}, lor_land{}, a.bits, b.bits, o);
          else
            mxm(ctx.exec, c, no_mask{}, no_accumulator{}, lor_land{}, a.bits, b.bits, o);
        } else {
          const auto mk = mask_of(m.bits, complement, replace);
          if (accum)
            mxm(ctx.exec, c, mk, accumulate_with<lor_monoid>{}, lor_land{}, a.bits, b.bits, o);
          else
            mxm(ctx.exec, c, mk, no_accumulator{}, lor_land{}, a.bits, b.bits, o);
        }
        diffs d;
        auto got = decode_b2sr(c, d);
        auto want = gb::dup(old.pattern.get());
        auto desc = mxm_descriptor(mask_source && complement, mask_source && replace, tb);
        gb::check(GrB_mxm(want.get(), mask_source ? m.pattern.get() : nullptr, accum ? GrB_LOR : nullptr,
                          GrB_LOR_LAND_SEMIRING_BOOL, a.pattern.get(), b.pattern.get(), desc.get()),
                  "GrB_mxm<M>(LOR_LAND)");
        const auto wp = host_pattern::of(want.get());
        const bool planted = plant_in_pattern(plant, got);
        if (c.nnz != wp.idx.size()) d.add("nnz: BitGraph ", c.nnz, ", GraphBLAS ", wp.idx.size());
        compare_patterns(got, wp, d);
        ctx.t.record("mxm.masked_lor_land", w3, d, planted);
        ctx.t.cover(cat("mxm bits ", mask_name(mask_source, complement, replace)));
      }
      // C<M, replace> = accum(C, A +.pair B) counted into CSR: mask none, B2SR or CSR, accumulators none, PLUS,
      // MINUS, the old C random INT64.
      {
        operand r = random_operand(ctx, g.n, std::max<std::uint64_t>(g.rows.idx.size(), 1), rng(), bo);
        const int mask_source = int(rng() % 3);
        const bool complement = rng() % 2, replace = rng() % 2, tb = rng() % 2, csr_mask = rng() % 2;
        const int accum = int(rng() % 3);
        const operand& m = mask_source == 1 ? a : r;
        const char* accum_names[] = {"", ", accum PLUS", ", accum MINUS"};
        const std::string w4 = cat(cfg.str(), ", B = ", b.name, tb ? " (transposed)" : "", ", ",
                                   mask_name(mask_source, complement, replace),
                                   mask_source ? (csr_mask ? " (CSR)" : " (B2SR)") : "", accum_names[accum]);
        auto old = random_valued(ctx, g.n, g.rows.idx.size() / 2 + 1, rng);
        mxm_options o;
        o.transpose_b = tb;
        auto c = old.csr;
        auto with_accum = [&](const auto& mk) {
          if (accum == 0)
            mxm(ctx.exec, c, mk, no_accumulator{}, plus_pair<std::int64_t>{}, a.bits, b.bits, o);
          else if (accum == 1)
            mxm(ctx.exec, c, mk, accumulate_with<plus_monoid<std::int64_t>>{}, plus_pair<std::int64_t>{}, a.bits,
                b.bits, o);
          else
            mxm(ctx.exec, c, mk, minus_op{}, plus_pair<std::int64_t>{}, a.bits, b.bits, o);
        };
        if (mask_source == 0)
          with_accum(no_mask{});
        else if (csr_mask)
          with_accum(mask_of(to_csr(ctx.exec, m.bits), complement, replace));
        else
          with_accum(mask_of(m.bits, complement, replace));
        auto got = mops::triples_of(c);
        auto desc = mxm_descriptor(mask_source && complement, mask_source && replace, tb);
        GrB_BinaryOp gacc = accum == 0 ? nullptr : (accum == 1 ? GrB_PLUS_INT64 : GrB_MINUS_INT64);
        gb::check(GrB_mxm(old.gb.get(), mask_source ? m.pattern.get() : nullptr, gacc, GxB_PLUS_PAIR_INT64,
                          a.pattern.get(), b.pattern.get(), desc.get()),
                  "GrB_mxm<M>(PLUS_PAIR)");
        const auto want = gb::extract<std::int64_t>(old.gb.get());
        mops::compare_matrices(ctx, plant, "mxm.plus_pair", w4, got, want, true);
        ctx.t.cover(cat("mxm counts ", mask_name(mask_source, complement, replace), accum_names[accum]));
      }
    } catch (const std::exception& e) {
      ctx.t.error("mxm.lor_land", what, e.what());
    }
  }
}

}  // namespace bitgraph::oracle
