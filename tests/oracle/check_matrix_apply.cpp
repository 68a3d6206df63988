// apply and select on valued CSR matrices (ops/matrix_apply.hpp) against GrB_Matrix_apply (unary operators),
// GrB_Matrix_apply_BinaryOp2nd, GrB_Matrix_apply_IndexOp (GrB_ROWINDEX / COLINDEX / DIAGINDEX) and GrB_Matrix_select
// (GrB_TRIL / TRIU / DIAG / OFFDIAG / VALUE*): the graph's pattern with random values, a random old C, every mask kind
// (none, structural, complement, replace, both), accumulators and the transpose descriptor; plus a rectangular trial.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/matrix_apply.hpp"
#include "compare.hpp"

namespace bitgraph::oracle {

namespace {

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

/// A random matrix on both sides: host CSR arrays (sorted, no repeats) and the triples GraphBLAS builds from.
template <class T>
struct host_matrix {
  vertex_t rows = 0, cols = 0;
  std::vector<offset_t> ptr{0};
  std::vector<vertex_t> col;
  std::vector<T> val;
};

/// GraphBLAS's PLUS and MINUS on T, the accumulators of the trials.
template <class T>
GrB_BinaryOp gb_accum(bool minus) {
  if constexpr (std::is_same_v<T, double>)
    return minus ? GrB_MINUS_FP64 : GrB_PLUS_FP64;
  else
    return minus ? GrB_MINUS_INT64 : GrB_PLUS_INT64;
}

template <class T>
T small_value(std::mt19937_64& rng) {
  return static_cast<T>(std::int64_t(rng() % 19) - 9);
}

/// `pattern` (sorted column lists per row) with random values.
template <class T>
host_matrix<T> with_values(vertex_t rows, vertex_t cols, const std::vector<std::vector<vertex_t>>& pattern,
                           std::mt19937_64& rng) {
  host_matrix<T> h;
  h.rows = rows;
  h.cols = cols;
  for (vertex_t i = 0; i < rows; ++i) {
    for (vertex_t j : pattern[i]) {
      h.col.push_back(j);
      h.val.push_back(small_value<T>(rng));
    }
    h.ptr.push_back(h.col.size());
  }
  return h;
}

/// A random rows x cols pattern of about `m` entries.
std::vector<std::vector<vertex_t>> random_pattern(vertex_t rows, vertex_t cols, std::uint64_t m, std::mt19937_64& rng) {
  std::vector<std::vector<vertex_t>> p(rows);
  if (rows == 0 || cols == 0) return p;
  for (std::uint64_t k = 0; k < m; ++k) p[rng() % rows].push_back(vertex_t(rng() % cols));
  for (auto& r : p) {
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  }
  return p;
}

template <class T>
csr_matrix<T, mem_space> to_bitgraph(const exec_space& exec, const host_matrix<T>& h) {
  return make_csr_matrix<T>(exec, h.rows, h.cols, h.ptr, h.col, h.val);
}

template <class T>
gb::matrix to_graphblas(const host_matrix<T>& h) {
  gb::matrix a;
  gb::check(GrB_Matrix_new(a.out(), gb::traits<T>::type(), h.rows, h.cols), "GrB_Matrix_new");
  if (h.col.empty()) return a;  // GraphBLAS rejects the null data() of empty arrays
  std::vector<GrB_Index> r, c;
  for (vertex_t i = 0; i < h.rows; ++i)
    for (offset_t p = h.ptr[i]; p < h.ptr[i + 1]; ++p) {
      r.push_back(i);
      c.push_back(h.col[p]);
    }
  gb::check(gb::traits<T>::matrix_build(a.get(), r.data(), c.data(), h.val.data(), r.size(), nullptr),
            "GrB_Matrix_build");
  return a;
}

/// BitGraph's result as sorted triples (host copy).
template <class T>
gb::triples<T> triples_of(const csr_matrix<T, mem_space>& m) {
  gb::triples<T> t;
  if (m.row_ptr.extent(0) == 0) return t;
  auto ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.col_idx);
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.values);
  for (vertex_t i = 0; i < m.n_rows; ++i)
    for (offset_t p = ptr(i); p < ptr(i + 1); ++p) {
      t.row.push_back(i);
      t.col.push_back(col(p));
      t.value.push_back(val(p));
    }
  return t;
}

/// One trial: C<M> = accum(C, op(A or Aᵀ)) on both sides, compared entry by entry (positions and values). A is
/// rows x cols with `a_pattern`; C is A's shape, or Aᵀ's when the trial transposes A.
template <class P>
void trial(context& ctx, planter& plant, std::mt19937_64& rng, vertex_t rows, vertex_t cols,
           const std::vector<std::vector<vertex_t>>& a_pattern, const std::string& shape) {
  using TA = typename P::TA;
  using TC = typename P::TC;
  std::uint64_t nnz = 0;
  for (const auto& r : a_pattern) nnz += r.size();
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
  const char* accum_names[] = {"", ", accum PLUS", ", accum MINUS"};
  const std::string what =
      cat(P::name, " y=", y, tran ? " (Aᵀ)" : "", ", ", shape, ", ", mask_names[mask_source],
          mask_source ? cat(complement ? " complement" : "", replace ? " replace" : "") : "", accum_names[accum]);
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
    const auto a = to_bitgraph(ctx.exec, ha), m = to_bitgraph(ctx.exec, hm);
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
    auto with_accum = [&](const auto& msk) {
      if (accum == 0)
        run(msk, no_accumulator{});
      else if (accum == 1)
        run(msk, accumulate_with<plus_monoid<TC>>{});
      else
        run(msk, minus_op{});
    };
    if (mask_source)
      with_accum(mask_of(m, complement, replace));
    else
      with_accum(no_mask{});
    got = triples_of(c);
  } catch (const std::exception& e) {
    ctx.t.error(kind, what, e.what());
    return;
  }
  const bool planted = plant.on();
  if (planted) {
    if (got.value.empty()) {  // add an entry where there is none
      got.row.push_back(0);
      got.col.push_back(0);
      got.value.push_back(TC(1));
    } else {
      got.value[plant.pick(got.value.size())] += TC(1);
    }
  }
  diffs d;
  if (got.value.size() != want.value.size())
    d.add("nnz: BitGraph ", got.value.size(), ", GraphBLAS ", want.value.size());
  for (std::size_t k = 0; k < std::min(got.value.size(), want.value.size()); ++k) {
    if (got.row[k] != want.row[k] || got.col[k] != want.col[k] || got.value[k] != want.value[k]) {
      d.add("entry ", k, ": BitGraph (", got.row[k], ", ", got.col[k], ") = ", got.value[k], ", GraphBLAS (",
            want.row[k], ", ", want.col[k], ") = ", want.value[k]);
    }
  }
  ctx.t.record(kind, what, d, planted);
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
  std::vector<std::vector<vertex_t>> a_pattern(g.n);
  for (vertex_t i = 0; i < g.n; ++i)
    a_pattern[i].assign(g.rows.idx.begin() + std::ptrdiff_t(g.rows.ptr[i]),
                        g.rows.idx.begin() + std::ptrdiff_t(g.rows.ptr[i + 1]));
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
