// mxv / vxm / SpMSpV driver: builds the operands of each B2SR configuration once and runs every
// semiring pairing on them (see mxv.hpp).
#include "mxv.hpp"

namespace bitgraph::oracle {

void check_mxv(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0x3f0));
  for (const auto& cfg : pick_configs(g.op_seed, 2)) {
    mxv_operands ops;
    ops.g = &g;
    ops.cfg = cfg;
    try {
      const b2sr_options bo{cfg.tile, cfg.row_major ? bit_order::row_major : bit_order::col_major};
      ops.a = to_b2sr(ctx.exec, g.csr, bo);
      // A^T either from the CSR transpose (same packing order) or by flipping A's tiles (the other
      // order): the products must not care which.
      ops.at_by_flip = rng() % 2;
      ops.at = ops.at_by_flip ? transpose(ctx.exec, ops.a, false) : to_b2sr(ctx.exec, transpose(ctx.exec, g.csr), bo);
      // CSR products use the weights when every weight converts exactly to every semiring's type
      // (integers 0..255); otherwise the pattern (a copy without weights).
      ops.csr = g.csr;
      ops.weighted = g.csr.has_weights && g.weights && g.byte_weights;
      if (!ops.weighted) {
        ops.csr.has_weights = false;
        ops.csr.weights = decltype(ops.csr.weights)();
      }
    } catch (const std::exception& e) {
      ctx.t.error("mxv.operands", cfg.str(), e.what());
      continue;
    }
    const std::uint64_t seed = mix(g.op_seed, std::uint64_t(cfg.tile) * 2 + cfg.row_major);
    run_pairings_boolean_arithmetic(ctx, ops, seed, 2);
    run_pairings_tropical(ctx, ops, seed, 2);
    run_pairings_positional(ctx, ops, seed, 2);
  }
}

}  // namespace bitgraph::oracle
