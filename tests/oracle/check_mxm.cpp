// Matrix-matrix products on B2SR: Boolean SpGEMM (mxm over LOR_LAND), the popcount sum bmm_sum and the
// masked sum bmm_sum_masked, against GrB_mxm (LOR_LAND / PLUS_PAIR) and GrB_reduce.
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/ops/mxm.hpp"
#include "compare.hpp"
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
  auto el = test::random_edges(n, m, seed);
  gb::triples<bool> t;
  for (std::size_t k = 0; k < el.src.size(); ++k) {
    t.row.push_back(el.src[k]);
    t.col.push_back(el.dst[k]);
    t.value.push_back(true);
  }
  csr_build_options b;
  b.kind = graph_kind::directed;
  b.remove_self_loops = false;
  operand o;
  o.name = cat("random(", m, ", seed ", seed, ", ", to_string(bo.order), ")");
  o.bits = to_b2sr(ctx.exec, build_csr(ctx.exec, el, b), bo);
  o.pattern = gb::make_matrix<bool>(n, t, GrB_LOR);
  return o;
}

std::uint64_t reduce_sum(GrB_Matrix c) {
  std::int64_t s = 0;
  gb::check(GrB_Matrix_reduce_INT64(&s, nullptr, GrB_PLUS_MONOID_INT64, c, nullptr), "GrB_Matrix_reduce");
  return static_cast<std::uint64_t>(s);
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
    } catch (const std::exception& e) {
      ctx.t.error("mxm.lor_land", what, e.what());
    }
  }
}

}  // namespace bitgraph::oracle
