// apply and select on valued CSR matrices (ops/matrix_apply.hpp) against GrB_Matrix_apply (unary operators),
// GrB_Matrix_apply_BinaryOp2nd, GrB_Matrix_apply_IndexOp (GrB_ROWINDEX / COLINDEX / DIAGINDEX) and GrB_Matrix_select
// (GrB_TRIL / TRIU / DIAG / OFFDIAG / VALUE*): the graph's pattern with random values, a random old C, every mask kind
// (none, structural, complement, replace, both), accumulators and the transpose descriptor; plus a rectangular trial.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/matrix_apply.hpp"
#include "compare.hpp"
#include "matrix_ops.hpp"

namespace bitgraph::oracle {

namespace {

using namespace mops;

// Each operation names a BitGraph operator (or predicate) and the GraphBLAS call computing the same thing, with
// A's value type TA and C's TC (GraphBLAS typecasts where they differ). `y` is the bound scalar or thunk, a small
// integer; values are small integers too, so every result is exact.
struct identity_i32_to_f64 {
  using TA = std::int32_t;
  using TC = double;
  static constexpr const char* name = "apply IDENTITY_INT32 (int32 A, FP64 C)";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t, GrB_Descriptor d) {
    return GrB_Matrix_apply(c, m, acc, GrB_IDENTITY_INT32, a, d);
  }
  static identity_op op(std::int64_t) { return {}; }
  static constexpr bool select = false;
};
struct abs_i64 {
  using TA = std::int64_t;
  using TC = std::int64_t;
  static constexpr const char* name = "apply ABS_INT64";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t, GrB_Descriptor d) {
    return GrB_Matrix_apply(c, m, acc, GrB_ABS_INT64, a, d);
  }
  static abs_op op(std::int64_t) { return {}; }
  static constexpr bool select = false;
};
struct ainv_f64 {
  using TA = double;
  using TC = double;
  static constexpr const char* name = "apply AINV_FP64";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t, GrB_Descriptor d) {
    return GrB_Matrix_apply(c, m, acc, GrB_AINV_FP64, a, d);
  }
  static ainv_op op(std::int64_t) { return {}; }
  static constexpr bool select = false;
};
struct minus_2nd_i64 {
  using TA = std::int64_t;
  using TC = std::int64_t;
  static constexpr const char* name = "apply_BinaryOp2nd MINUS_INT64 (bind_second)";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t y, GrB_Descriptor d) {
    return GrB_Matrix_apply_BinaryOp2nd_INT64(c, m, acc, GrB_MINUS_INT64, a, y, d);
  }
  static auto op(std::int64_t y) { return bind_second_of(minus_op{}, y); }
  static constexpr bool select = false;
};
struct times_2nd_f64 {
  using TA = double;
  using TC = double;
  static constexpr const char* name = "apply_BinaryOp2nd TIMES_FP64 (times_scalar)";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t y, GrB_Descriptor d) {
    return GrB_Matrix_apply_BinaryOp2nd_FP64(c, m, acc, GrB_TIMES_FP64, a, double(y), d);
  }
  static times_scalar<double> op(std::int64_t y) { return {double(y)}; }
  static constexpr bool select = false;
};
// The positional operators: FP64 A, INT64 C (the operator's result type).
struct rowindex {
  using TA = double;
  using TC = std::int64_t;
  static constexpr const char* name = "apply_IndexOp ROWINDEX_INT64";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t y, GrB_Descriptor d) {
    return GrB_Matrix_apply_IndexOp_INT64(c, m, acc, GrB_ROWINDEX_INT64, a, y, d);
  }
  static row_index_op op(std::int64_t y) { return {y}; }
  static constexpr bool select = false;
};
struct colindex {
  using TA = double;
  using TC = std::int64_t;
  static constexpr const char* name = "apply_IndexOp COLINDEX_INT64";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t y, GrB_Descriptor d) {
    return GrB_Matrix_apply_IndexOp_INT64(c, m, acc, GrB_COLINDEX_INT64, a, y, d);
  }
  static col_index_op op(std::int64_t y) { return {y}; }
  static constexpr bool select = false;
};
struct diagindex {
  using TA = std::int64_t;
  using TC = std::int64_t;
  static constexpr const char* name = "apply_IndexOp DIAGINDEX_INT64";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t y, GrB_Descriptor d) {
    return GrB_Matrix_apply_IndexOp_INT64(c, m, acc, GrB_DIAGINDEX_INT64, a, y, d);
  }
  static diag_index_op op(std::int64_t y) { return {y}; }
  static constexpr bool select = false;
};
/// The band selections with thunk k (GrB_TRIL: j <= i + k, ...).
template <select_kind S>
struct band {
  using TA = std::int64_t;
  using TC = std::int64_t;
  static constexpr const char* name = S == select_kind::tril   ? "select TRIL"
                                      : S == select_kind::triu ? "select TRIU"
                                      : S == select_kind::diag ? "select DIAG"
                                                               : "select OFFDIAG";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t y, GrB_Descriptor d) {
    GrB_IndexUnaryOp op = S == select_kind::tril   ? GrB_TRIL
                          : S == select_kind::triu ? GrB_TRIU
                          : S == select_kind::diag ? GrB_DIAG
                                                   : GrB_OFFDIAG;
    return GrB_Matrix_select_INT64(c, m, acc, op, a, y, d);
  }
  static band_select op(std::int64_t y) { return {S, y}; }
  static constexpr bool select = true;
};
struct valuegt_i64 {
  using TA = std::int64_t;
  using TC = std::int64_t;
  static constexpr const char* name = "select VALUEGT_INT64";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t y, GrB_Descriptor d) {
    return GrB_Matrix_select_INT64(c, m, acc, GrB_VALUEGT_INT64, a, y, d);
  }
  static value_gt<std::int64_t> op(std::int64_t y) { return {y}; }
  static constexpr bool select = true;
};
struct valuele_f64 {
  using TA = double;
  using TC = double;
  static constexpr const char* name = "select VALUELE_FP64";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t y, GrB_Descriptor d) {
    return GrB_Matrix_select_FP64(c, m, acc, GrB_VALUELE_FP64, a, double(y), d);
  }
  static value_le<double> op(std::int64_t y) { return {double(y)}; }
  static constexpr bool select = true;
};
struct valuene_i32_to_f64 {
  using TA = std::int32_t;
  using TC = double;
  static constexpr const char* name = "select VALUENE_INT32 (int32 A, FP64 C)";
  static GrB_Info gb(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, GrB_Matrix a, std::int64_t y, GrB_Descriptor d) {
    return GrB_Matrix_select_INT32(c, m, acc, GrB_VALUENE_INT32, a, std::int32_t(y), d);
  }
  static value_ne<std::int32_t> op(std::int64_t y) { return {std::int32_t(y)}; }
  static constexpr bool select = true;
};

/// One trial: C<M> = accum(C, op(A or Aᵀ)) on both sides, compared entry by entry (positions and values). A is
/// rows x cols with `a_pattern`; C is A's shape, or Aᵀ's when the trial transposes A.
template <class P>
void trial(context& ctx, planter& plant, std::mt19937_64& rng, vertex_t rows, vertex_t cols, const pattern_t& a_pattern,
           const std::string& shape) {
  using TA = typename P::TA;
  using TC = typename P::TC;
  const std::uint64_t nnz = entries(a_pattern);
  const bool tran = rng() % 3 == 0;
  const vertex_t c_rows = tran ? cols : rows, c_cols = tran ? rows : cols;
  const auto ha = with_values<TA>(rows, cols, a_pattern, rng);
  const auto hc = with_values<TC>(c_rows, c_cols, random_pattern(c_rows, c_cols, nnz / 2 + 1, rng), rng);
  // The mask: none, C's old pattern, or a random one; then complement and replace independently.
  const int mask_source = int(rng() % 3);
  const bool complement = rng() % 2, replace = rng() % 2;
  const auto hm =
      mask_source == 1 ? hc : with_values<TC>(c_rows, c_cols, random_pattern(c_rows, c_cols, nnz + 1, rng), rng);
  const int accum = int(rng() % 3);  // none, PLUS, MINUS
  const std::int64_t y = std::int64_t(rng() % 9) - 4;
  const char* mask_names[] = {"no mask", "mask C", "random mask"};
  const std::string what = cat(P::name, " y=", y, tran ? " (Aᵀ)" : "", ", ", shape, ", ",
                               mask_str(mask_names[mask_source], mask_source, complement, replace), accum_names[accum]);
  const char* kind = P::select ? "select.matrix" : "apply.matrix";
  gb::triples<TC> got, want;
  try {
    // GraphBLAS.
    auto ga = to_graphblas(ha), gc = to_graphblas(hc), gm = to_graphblas(hm);
    auto desc = gb::make_descriptor(true, mask_source && complement, mask_source && replace, tran);
    GrB_BinaryOp gacc = accum == 0 ? nullptr : gb_accum<TC>(accum == 2);
    GrB_Matrix mask = mask_source ? gm.get() : nullptr;
    gb::check(P::gb(gc.get(), mask, gacc, ga.get(), y, desc.get()), P::name);
    want = gb::extract<TC>(gc.get());
    // BitGraph.
    const auto a = to_bitgraph(ctx.exec, ha);
    const auto m = to_bitgraph(ctx.exec, hm);  // nvcc: one declaration may not deduce two types
    auto c = to_bitgraph(ctx.exec, hc);
    const auto op = P::op(y);
    matrix_op_options opts;
    opts.transpose_a = tran;
    auto run = [&](const auto& msk, const auto& acc) {
      if constexpr (P::select)
        select(ctx.exec, c, msk, acc, op, a, opts);
      else
        apply(ctx.exec, c, msk, acc, op, a, opts);
    };
    with_mask_and_accum<TC>(mask_source, m, complement, replace, accum, run);
    got = triples_of(c);
  } catch (const std::exception& e) {
    ctx.t.error(kind, what, e.what());
    return;
  }
  compare_matrices(ctx, plant, kind, what, got, want);
  ctx.t.cover(cat("matrix ", P::name));
}

constexpr int operation_count = 15;

template <class F>
void pick_operation(std::uint64_t k, F&& f) {
  switch (k % operation_count) {
    case 0:
      return f(identity_i32_to_f64{});
    case 1:
      return f(abs_i64{});
    case 2:
      return f(ainv_f64{});
    case 3:
      return f(minus_2nd_i64{});
    case 4:
      return f(times_2nd_f64{});
    case 5:
      return f(rowindex{});
    case 6:
      return f(colindex{});
    case 7:
      return f(diagindex{});
    case 8:
      return f(band<select_kind::tril>{});
    case 9:
      return f(band<select_kind::triu>{});
    case 10:
      return f(band<select_kind::diag>{});
    case 11:
      return f(band<select_kind::offdiag>{});
    case 12:
      return f(valuegt_i64{});
    case 13:
      return f(valuele_f64{});
    default:
      return f(valuene_i32_to_f64{});
  }
}

}  // namespace

void check_matrix_apply(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0xa991));
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0xa992));
  const pattern_t a_pattern = graph_pattern(g);
  // The operations rotate with the graph's seed so that every one appears across a run.
  const std::uint64_t first = rng();
  for (int k = 0; k < 5; ++k) {
    pick_operation(first + std::uint64_t(k),
                   [&](auto p) { trial<decltype(p)>(ctx, plant, rng, g.n, g.n, a_pattern, "the graph"); });
  }
  // A rectangular trial, independent of the graph's shape.
  const vertex_t rows = vertex_t(1 + rng() % 60), cols = vertex_t(1 + rng() % 60);
  const auto r_pattern = random_pattern(rows, cols, rng() % (std::uint64_t(rows) * cols / 3 + 1), rng);
  pick_operation(first + 5, [&](auto p) {
    trial<decltype(p)>(ctx, plant, rng, rows, cols, r_pattern, cat(rows, " x ", cols, " random"));
  });
}

}  // namespace bitgraph::oracle
