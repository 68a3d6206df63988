// mxv / vxm / SpMSpV driver: builds the operands of each B2SR configuration once and runs every
// semiring pairing on them (see mxv.hpp).
#include <limits>

#include "bitgraph/reorder/orderings.hpp"
#include "mxv.hpp"

namespace bitgraph::oracle {

void build_mxv_operands(context& ctx, const graph_under_test& g, const b2sr_config& cfg, std::mt19937_64& rng,
                        mxv_operands& ops) {
  ops.g = &g;
  ops.cfg = cfg;
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
  // The hybrid of A's pattern with a random split rule (all CSR, by bytes, all bits), and the same of
  // P A P^T for a random ordering P (a CSR that keeps repeats has no hybrid: to_hybrid refuses it).
  static constexpr double biases[] = {0.0, 1.0, std::numeric_limits<double>::infinity()};
  ops.has_hybrid = !g.csr.has_duplicates;
  hybrid_options ho;
  ho.tile_dim = cfg.tile <= 32 ? cfg.tile : 0;
  ho.bits_bias = biases[rng() % 3];
  if (ops.has_hybrid) ops.hy = to_hybrid(ctx.exec, g.csr, ho);
  static const char* const orders[] = {"degree", "cluster", "random"};
  const int which = int(rng() % 3);
  ops.order = which == 0   ? reorder::degree_order(ctx.exec, g.csr)
              : which == 1 ? reorder::cluster_order(ctx.exec, g.csr)
                           : reorder::to_vertex_order(ctx.exec, reorder::random_order(g.n, rng()));
  if (ops.has_hybrid) ops.hy_r = to_hybrid(ctx.exec, reorder::relabel(ctx.exec, g.csr, ops.order), ho);
  auto inv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, ops.order.old_of_new);
  ops.old_of_new.assign(inv.data(), inv.data() + inv.extent(0));
  ops.hybrid_what = cat("hybrid T", ho.tile_dim, " bias ", ho.bits_bias, ", ", ops.hy.csr_band_count(),
                        " CSR bands, order ", orders[which]);
}

void check_mxv(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0x3f0));
  for (const auto& cfg : pick_configs(g.op_seed, 2)) {
    mxv_operands ops;
    try {
      build_mxv_operands(ctx, g, cfg, rng, ops);
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
