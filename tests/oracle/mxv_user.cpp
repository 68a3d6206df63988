// A user-defined semiring through mxv / vxm / SpMSpV: the bottleneck (max, min) semiring over doubles, defined
// here and nowhere in the library, against GraphBLAS's built-in GrB_MAX_MIN_SEMIRING_FP64, on every path of
// mxv.hpp (B2SR pull / push / automatic, CSR with byte weights, the hybrid format and its relabelled form).

#include "mxv.hpp"

namespace bitgraph::oracle {

/// (max, -inf): the monoid of the bottleneck semiring. Not terminal: no value stops a row early for the kernels'
/// purposes (+inf would, but a row reaching it is too rare to be worth a test per entry).
struct bottleneck_max {
  using value_type = double;
  static constexpr bool terminal = false;
  KOKKOS_INLINE_FUNCTION static constexpr double identity() { return -Kokkos::Experimental::infinity<double>::value; }
  KOKKOS_INLINE_FUNCTION static constexpr double combine(double a, double b) { return a < b ? b : a; }
  KOKKOS_INLINE_FUNCTION static void atomic_combine(double* p, double v) { Kokkos::atomic_fetch_max(p, v); }
};

/// The bottleneck (widest path) semiring: y(i) = max over j of min(A(i, j), x(j)). Written out member by member
/// (not through bitgraph::semiring<>), as a user outside the library would.
struct bottleneck_semiring {
  using add_monoid = bottleneck_max;
  using value_type = double;
  KOKKOS_INLINE_FUNCTION static constexpr double identity() { return bottleneck_max::identity(); }
  KOKKOS_INLINE_FUNCTION static constexpr double add(double a, double b) { return bottleneck_max::combine(a, b); }
  KOKKOS_INLINE_FUNCTION static constexpr double multiply(double a, double x, vertex_t, vertex_t) {
    return x < a ? x : a;
  }
  KOKKOS_INLINE_FUNCTION static void atomic_add(double* p, double v) { bottleneck_max::atomic_combine(p, v); }
  KOKKOS_INLINE_FUNCTION static constexpr double one() { return 1.0; }
};

namespace {

struct max_min_pair {
  using S = bottleneck_semiring;
  using T = double;
  using G = double;
  using accum = bottleneck_max;
  static constexpr const char* name = "MAX_MIN_FP64_USER";
  static constexpr bool any = false;
  static GrB_Semiring semiring() { return GrB_MAX_MIN_SEMIRING_FP64; }
  static GrB_BinaryOp accum_op() { return GrB_MAX_FP64; }
  // Values on both sides of a pattern entry's 1 and of the byte weights (0..255), so both operands of min win.
  static T value(std::mt19937_64& r) { return double(std::int64_t(r() % 41) - 10) / 2; }
};

}  // namespace

void check_mxv_user(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0x3f1));
  // The operands as check_mxv builds them, in the second of its two B2SR configurations.
  const auto cfg = pick_configs(g.op_seed, 2)[1];
  mxv_operands ops;
  try {
    build_mxv_operands(ctx, g, cfg, rng, ops);
  } catch (const std::exception& e) {
    ctx.t.error(cat("mxv.", max_min_pair::name), cat("operands, ", cfg.str()), e.what());
    return;
  }
  run_pairing<max_min_pair>(ctx, ops, mix(g.op_seed, 0x3f2), 3);
}

}  // namespace bitgraph::oracle
