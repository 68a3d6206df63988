// Structure: BitGraph's CSR (pattern and weights) and its B2SR forms (and their transposes) against the
// matrices the oracle built itself or LAGraph read.
#include <algorithm>
#include <cmath>

#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "compare.hpp"

namespace bitgraph::oracle {

void check_structure(context& ctx, const graph_under_test& g) {
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0x5700));
  {
    diffs d;
    auto got = pattern_of(g.csr);
    const bool planted = plant_in_pattern(plant, got);
    compare_patterns(got, g.rows, d);
    ctx.t.record("csr.pattern", cat("n=", g.n, " nnz=", g.rows.idx.size()), d, planted);
  }
  if (g.weights || g.csr.has_weights) {
    diffs d;
    bool planted = false;
    if (!g.weights || !g.csr.has_weights) {
      d.add("weighted: BitGraph ", g.csr.has_weights, ", GraphBLAS ", bool(g.weights));
    } else {
      const auto want = gb::extract<double>(g.weights.get());
      auto hw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, g.csr.weights);
      std::vector<double> got(hw.data(), hw.data() + hw.extent(0));
      if (plant.on() && !got.empty()) {
        auto& w = got[plant.pick(got.size())];
        w += std::max(0.5, std::fabs(w));  // relative: +0.5 vanishes in a weight near 2^64
        planted = true;
      }
      if (got.size() != want.value.size() || g.rows.idx.size() != want.value.size()) {
        d.add("weights: BitGraph ", got.size(), ", GraphBLAS ", want.value.size());
      } else {
        // Same pattern (checked above), same (row, column) order: compare position by position.
        for (std::size_t k = 0; k < got.size(); ++k) {
          // LAGraph reads FP32 files as float; BitGraph parses the same text as double.
          const bool same = g.float_weights
                                ? float(got[k]) == float(want.value[k])
                                : (got[k] == want.value[k] || (std::isnan(got[k]) && std::isnan(want.value[k])));
          if (!same)
            d.add("entry (", want.row[k], ", ", want.col[k], "): BitGraph ", got[k], ", GraphBLAS ", want.value[k]);
        }
      }
    }
    ctx.t.record("csr.weights", cat("nnz=", g.rows.idx.size()), d, planted);
  }
  // The B2SR forms the mxv checks use, and their transposes (pattern of A^T) in both packing orders.
  for (const auto& cfg : pick_configs(g.op_seed, 2)) {
    const b2sr_options bo{cfg.tile, cfg.row_major ? bit_order::row_major : bit_order::col_major};
    try {
      auto b = to_b2sr(ctx.exec, g.csr, bo);
      diffs d;
      auto got = decode_b2sr(b, d);
      const bool planted = plant_in_pattern(plant, got);
      if (b.nnz != g.rows.idx.size()) d.add("nnz: BitGraph ", b.nnz, ", GraphBLAS ", g.rows.idx.size());
      compare_patterns(got, g.rows, d);
      ctx.t.record("b2sr.pattern", cfg.str(), d, planted);
      for (bool keep_order : {true, false}) {
        auto t = transpose(ctx.exec, b, keep_order);
        diffs dt;
        auto tp = decode_b2sr(t, dt);
        const bool tplanted = plant_in_pattern(plant, tp);
        if (t.nnz != g.cols.idx.size()) dt.add("nnz: BitGraph ", t.nnz, ", GraphBLAS ", g.cols.idx.size());
        compare_patterns(tp, g.cols, dt);
        ctx.t.record("b2sr.transpose", cat(cfg.str(), keep_order ? " keep-order" : " flip-order"), dt, tplanted);
      }
    } catch (const std::exception& e) {
      ctx.t.error("b2sr.pattern", cfg.str(), e.what());
    }
  }
}

}  // namespace bitgraph::oracle
