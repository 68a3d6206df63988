// reduce and select (ops/reduce.hpp, ops/select.hpp) against GraphBLAS: GrB_reduce of a dense, sparse or bitmap
// vector to a scalar; GrB_Matrix_reduce (rows, and columns through the transpose descriptor) of a B2SR pattern or a
// CSR graph's weights into a masked, accumulated vector, and the B2SR degrees; GrB_select with GrB_TRIL / TRIU /
// DIAG / OFFDIAG on CSR (weights kept) and B2SR; GrB_select with GrB_VALUE* and GrB_ROWLE / ROWGT on dense and
// sparse vectors (valued or structure-only).
#include <cmath>
#include <limits>

#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/ops/reduce.hpp"
#include "bitgraph/ops/select.hpp"
#include "vector_ops.hpp"

namespace bitgraph::oracle {

/// User positional predicates: i <= k and i > k (GraphBLAS's GrB_ROWLE and GrB_ROWGT on a vector). At namespace
/// scope, not in an unnamed namespace, as kernel functors for nvcc.
struct row_le {
  std::int64_t k = 0;
  template <class T>
  KOKKOS_INLINE_FUNCTION bool apply(vertex_t i, T) const {
    return std::int64_t(i) <= k;
  }
};
struct row_gt {
  std::int64_t k = 0;
  template <class T>
  KOKKOS_INLINE_FUNCTION bool apply(vertex_t i, T) const {
    return std::int64_t(i) > k;
  }
};

namespace {

using namespace vops;

// ----------------------------------------------------------------------------------------- monoids

struct plus_i64_m {
  using M = plus_monoid<std::int64_t>;
  using T = std::int64_t;
  using G = std::int64_t;
  static constexpr const char* name = "PLUS_INT64";
  static GrB_Monoid monoid() { return GrB_PLUS_MONOID_INT64; }
  static GrB_BinaryOp accum() { return GrB_PLUS_INT64; }
  static T value(std::mt19937_64& r) { return T(r() % 9) - 4; }
};
struct plus_f64_m {
  using M = plus_monoid<double>;
  using T = double;
  using G = double;
  static constexpr const char* name = "PLUS_FP64";
  static GrB_Monoid monoid() { return GrB_PLUS_MONOID_FP64; }
  static GrB_BinaryOp accum() { return GrB_PLUS_FP64; }
  static T value(std::mt19937_64& r) { return double(std::int64_t(r() % 9) - 4); }  // integers: sums are exact
};
struct min_f64_m {
  using M = min_monoid<double>;
  using T = double;
  using G = double;
  static constexpr const char* name = "MIN_FP64";
  static GrB_Monoid monoid() { return GrB_MIN_MONOID_FP64; }
  static GrB_BinaryOp accum() { return GrB_MIN_FP64; }
  static T value(std::mt19937_64& r) { return double(std::int64_t(r() % 201) - 100) / 4; }
};
struct min_i64_m {
  using M = min_monoid<std::int64_t>;
  using T = std::int64_t;
  using G = std::int64_t;
  static constexpr const char* name = "MIN_INT64";
  static GrB_Monoid monoid() { return GrB_MIN_MONOID_INT64; }
  static GrB_BinaryOp accum() { return GrB_MIN_INT64; }
  static T value(std::mt19937_64& r) { return T(r() % 101) - 50; }
};
struct max_i32_m {
  using M = max_monoid<std::int32_t>;
  using T = std::int32_t;
  using G = std::int32_t;
  static constexpr const char* name = "MAX_INT32";
  static GrB_Monoid monoid() { return GrB_MAX_MONOID_INT32; }
  static GrB_BinaryOp accum() { return GrB_MAX_INT32; }
  static T value(std::mt19937_64& r) { return T(r() % 101) - 50; }
};
struct lor_m {
  using M = lor_monoid;
  using T = std::uint8_t;
  using G = bool;
  static constexpr const char* name = "LOR";
  static GrB_Monoid monoid() { return GrB_LOR_MONOID_BOOL; }
  static GrB_BinaryOp accum() { return GrB_LOR; }
  static T value(std::mt19937_64&) { return 1; }
};

template <class F>
void pick_monoid(std::uint64_t k, F&& f) {
  switch (k % 6) {
    case 0:
      return f(plus_i64_m{});
    case 1:
      return f(plus_f64_m{});
    case 2:
      return f(min_f64_m{});
    case 3:
      return f(min_i64_m{});
    case 4:
      return f(max_i32_m{});
    default:
      return f(lor_m{});
  }
}

/// A reduction's scalar result against GraphBLAS's; self-test: the result is moved off.
template <class T>
void compare_scalar(context& ctx, planter& plant, const std::string& kind, const std::string& what, T got, T want) {
  bool planted = false;
  if (plant.on()) {
    got = std::is_same_v<T, std::uint8_t> ? T(!got) : T(got == T(1) ? 2 : 1);
    planted = true;
  }
  diffs d;
  if (!(got == want)) d.add("BitGraph ", +got, ", GraphBLAS ", +want);
  ctx.t.record(kind, what, d, planted);
}

// ----------------------------------------------------------------------------------- vector reduce

template <class P>
void reduce_vector_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant, int form) {
  using T = typename P::T;
  using G = typename P::G;
  using M = typename P::M;
  const vertex_t n = g.n;
  static const char* const forms[] = {"dense", "sparse", "sparse structure-only", "bitmap"};
  const std::string what = cat(forms[form], ", ", P::name);
  T got{}, want{};
  try {
    // The entries the reduction sees, as GraphBLAS holds them: a dense vector's non-identity entries, a sparse
    // vector's stored values (1 when structure-only), a 1 at each set bit.
    gb::vector gu;
    if (form == 0) {
      const auto u = random_dense<T>(rng, n, M::identity(), P::value);
      gu = gb_sparse<G>(u, M::identity());
      got = reduce(ctx.exec, M{}, to_view(u, "oracle::u"));
    } else if (form == 3) {
      const auto b = random_bits(rng, n);
      std::vector<T> ones(n, M::identity());
      for (vertex_t i = 0; i < n; ++i)
        if (b[i]) ones[i] = T(1);
      gu = gb_sparse<G>(ones, M::identity());
      got = reduce(ctx.exec, M{}, to_bits(ctx.exec, b));
    } else {
      std::vector<vertex_t> idx;
      std::vector<T> val;
      std::vector<GrB_Index> gi;
      std::vector<G> gv;
      const double d = random_density(rng);
      for (vertex_t i = 0; i < n; ++i)
        if (coin(rng, d)) {
          const T x = form == 2 ? T(1) : P::value(rng);
          idx.push_back(i);
          if (form == 1) val.push_back(x);
          gi.push_back(i);
          gv.push_back(to_g<G>(x));
        }
      gu = gb::make_vector<G>(gb_length(n), gi, gv);
      got = reduce(ctx.exec, M{}, make_sparse_vector<exec_space, T>(ctx.exec, n, idx, val));
    }
    G s{};
    gb::check(gb::traits<G>::vector_reduce(&s, P::monoid(), gu.get()), "GrB_Vector_reduce");
    want = from_g<T>(s);
  } catch (const std::exception& e) {
    ctx.t.error("reduce.vector", what, e.what());
    return;
  }
  compare_scalar(ctx, plant, "reduce.vector", what, got, want);
  ctx.t.cover(cat("reduce ", forms[form]));
  ctx.t.cover(cat("reduce monoid ", P::name));
}

// ----------------------------------------------------------------------------------- matrix reduce

/// w<mask> = accum(w, reduce(A)) by rows or columns of the B2SR pattern, or by rows of the CSR graph (its
/// weights when they convert exactly, else ones), against GrB_Matrix_reduce_Monoid.
template <class P>
void reduce_matrix_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant,
                         const b2sr_matrix<mem_space>& b, const b2sr_config& cfg, const csr_graph<mem_space>& csr,
                         bool weighted, int form) {
  using T = typename P::T;
  using G = typename P::G;
  using M = typename P::M;
  const vertex_t n = g.n;
  const T absent = M::identity();
  const auto w0 = random_dense<T>(rng, n, absent, P::value);
  const auto m = random_mask(rng, n);
  const bool accumulate = rng() % 2;
  static const char* const forms[] = {"B2SR rows", "B2SR columns", "CSR rows"};
  const std::string what = cat(forms[form], ", ", P::name, ", ", m.str(), accumulate ? ", accumulate" : "",
                               form < 2 ? cat(", ", cfg.str()) : std::string(weighted ? ", weights" : ", pattern"));
  std::vector<T> want, got;
  try {
    const GrB_Type type = gb::traits<G>::type();
    auto a = gb_padded(form == 2 && weighted ? g.weights.get() : g.a.get(), type);
    auto gw = gb_sparse<G>(w0, absent);
    auto gm = gb_mask(m);
    auto desc = gb_desc(m, form == 1);
    gb::check(GrB_Matrix_reduce_Monoid(gw.get(), gm.get(), accumulate ? P::accum() : nullptr, P::monoid(), a.get(),
                                       desc.get()),
              "GrB_Matrix_reduce_Monoid");
    for (const auto& x : gb_dense<G>(gw.get(), n, to_g<G>(absent))) want.push_back(from_g<T>(x));

    auto bw = to_view(w0, "oracle::w");
    with_mask(ctx.exec, m, [&](const auto& mask) {
      with_accum<M>(accumulate, [&](auto acc_tag) {
        if (form == 0)
          reduce_rows(ctx.exec, bw, mask, acc_tag, M{}, b);
        else if (form == 1)
          reduce_columns(ctx.exec, bw, mask, acc_tag, M{}, b);
        else
          reduce_rows(ctx.exec, bw, mask, acc_tag, M{}, csr);
      });
    });
    got = host_copy(bw);
  } catch (const std::exception& e) {
    ctx.t.error("reduce.matrix", what, e.what());
    return;
  }
  compare_dense(ctx, plant, "reduce.matrix", what, got, want, absent);
  ctx.t.cover(cat("reduce ", forms[form]));
  ctx.t.cover(cat("reduce monoid ", P::name));
}

/// out_degrees / in_degrees of the B2SR pattern against PLUS row / column reductions of A.
void degrees_trial(context& ctx, const graph_under_test& g, planter& plant, const b2sr_matrix<mem_space>& b,
                   const b2sr_config& cfg, bool in) {
  const vertex_t n = g.n;
  const std::string what = cat(in ? "in_degrees" : "out_degrees", ", ", cfg.str());
  std::vector<std::int64_t> want, got;
  try {
    auto a = gb_padded(g.a.get(), GrB_INT64);
    auto gw = gb_empty<std::int64_t>(n);
    gb::check(GrB_Matrix_reduce_Monoid(gw.get(), nullptr, nullptr, GrB_PLUS_MONOID_INT64, a.get(),
                                       in ? GrB_DESC_T0 : nullptr),
              "GrB_Matrix_reduce_Monoid");
    want = gb_dense<std::int64_t>(gw.get(), n, 0);
    const auto d = in ? in_degrees(ctx.exec, b) : out_degrees(ctx.exec, b);
    for (auto x : host_copy(d)) got.push_back(std::int64_t(x));
  } catch (const std::exception& e) {
    ctx.t.error("reduce.degrees", what, e.what());
    return;
  }
  compare_dense(ctx, plant, "reduce.degrees", what, got, want, std::int64_t(0));
}

// ----------------------------------------------------------------------------------- matrix select

GrB_IndexUnaryOp band_op(select_kind s) {
  switch (s) {
    case select_kind::tril:
      return GrB_TRIL;
    case select_kind::triu:
      return GrB_TRIU;
    case select_kind::diag:
      return GrB_DIAG;
    default:
      return GrB_OFFDIAG;
  }
}

/// A band offset: small, around n, or far beyond it (clamped by BitGraph; GraphBLAS selects the same).
std::int64_t random_offset(std::mt19937_64& rng, vertex_t n) {
  const std::int64_t sign = rng() % 2 ? 1 : -1;
  switch (rng() % 5) {
    case 0:
      return 0;
    case 1:
      return sign;
    case 2:
      return sign * std::int64_t(n == 0 ? 0 : rng() % n);
    case 3:
      return sign * (std::int64_t(n) + std::int64_t(rng() % 3));
    default:
      return sign * (std::int64_t(1) << 40);
  }
}

void select_matrix_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant,
                         const b2sr_matrix<mem_space>& b, const b2sr_config& cfg, bool on_b2sr) {
  const select_kind s = static_cast<select_kind>(rng() % 4);
  const std::int64_t k = random_offset(rng, g.n);
  const bool weighted = !on_b2sr && g.csr.has_weights && g.weights;
  const std::string what = cat(on_b2sr ? "B2SR " : "CSR ", to_string(s), ", k = ", k,
                               on_b2sr ? cat(", ", cfg.str()) : std::string(weighted ? ", weighted" : ""));
  const char* kind = on_b2sr ? "select.b2sr" : "select.csr";
  try {
    GrB_Matrix a = weighted ? g.weights.get() : g.a.get();
    gb::matrix want;
    GrB_Type type = nullptr;
    gb::check(GxB_Matrix_type(&type, a), "GxB_Matrix_type");
    gb::check(GrB_Matrix_new(want.out(), type, g.n, g.n), "GrB_Matrix_new");
    gb::check(GrB_Matrix_select_INT64(want.get(), nullptr, nullptr, band_op(s), a, k, nullptr), "GrB_select");
    const auto want_pattern = host_pattern::of(want.get());
    // Only a symmetric selection of a symmetric pattern stays undirected (select.hpp).
    const graph_kind input_kind = on_b2sr ? b.kind : g.csr.kind;
    const bool undirected =
        input_kind == graph_kind::undirected && (s == select_kind::diag || s == select_kind::offdiag) && k == 0;
    diffs d;
    host_pattern got;
    graph_kind got_kind;
    if (on_b2sr) {
      auto r = select(ctx.exec, b, s, k);
      got = decode_b2sr(r, d);
      got_kind = r.kind;
      if (r.tile_dim != b.tile_dim || r.order != b.order) d.add("tile size or packing order changed");
      if (r.nnz != want_pattern.idx.size()) d.add("nnz: BitGraph ", r.nnz, ", GraphBLAS ", want_pattern.idx.size());
    } else {
      auto r = select(ctx.exec, g.csr, s, k);
      got = pattern_of(r);
      got_kind = r.kind;
      if (weighted) {
        // Same pattern, same (row, column) order: the kept weights position by position.
        const auto wv = gb::extract<double>(want.get());
        const auto hw = host_copy(r.weights);
        if (!r.has_weights || hw.size() != wv.value.size()) {
          d.add("weights: BitGraph ", r.has_weights ? hw.size() : 0, ", GraphBLAS ", wv.value.size());
        } else {
          for (std::size_t e = 0; e < hw.size(); ++e) {
            const bool same = g.float_weights
                                  ? float(hw[e]) == float(wv.value[e])
                                  : (hw[e] == wv.value[e] || (std::isnan(hw[e]) && std::isnan(wv.value[e])));
            if (!same)
              d.add("weight (", wv.row[e], ", ", wv.col[e], "): BitGraph ", hw[e], ", GraphBLAS ", wv.value[e]);
          }
        }
      }
    }
    const bool planted = plant_in_pattern(plant, got);
    compare_patterns(got, want_pattern, d);
    if ((got_kind == graph_kind::undirected) != undirected)
      d.add("result kind ", got_kind == graph_kind::undirected ? "undirected" : "directed", ", expected ",
            undirected ? "undirected" : "directed");
    ctx.t.record(kind, what, d, planted);
    ctx.t.cover(cat(kind, " ", to_string(s)));
  } catch (const std::exception& e) {
    ctx.t.error(kind, what, e.what());
  }
}

// ----------------------------------------------------------------------------------- vector select

enum class pred_kind { eq, ne, gt, ge, lt, le, rowle, rowgt, count };

template <class T>
GrB_IndexUnaryOp value_op(pred_kind p) {
  constexpr bool fp = std::is_floating_point_v<T>;
  switch (p) {
    case pred_kind::eq:
      return fp ? GrB_VALUEEQ_FP64 : GrB_VALUEEQ_INT64;
    case pred_kind::ne:
      return fp ? GrB_VALUENE_FP64 : GrB_VALUENE_INT64;
    case pred_kind::gt:
      return fp ? GrB_VALUEGT_FP64 : GrB_VALUEGT_INT64;
    case pred_kind::ge:
      return fp ? GrB_VALUEGE_FP64 : GrB_VALUEGE_INT64;
    case pred_kind::lt:
      return fp ? GrB_VALUELT_FP64 : GrB_VALUELT_INT64;
    case pred_kind::le:
      return fp ? GrB_VALUELE_FP64 : GrB_VALUELE_INT64;
    case pred_kind::rowle:
      return GrB_ROWLE;
    default:
      return GrB_ROWGT;
  }
}

/// Dense (absent: the default T{} or given) or sparse (valued or structure-only) input; T is INT64 or FP64.
template <class T>
void select_vector_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant, int form) {
  const vertex_t n = g.n;
  const auto p = static_cast<pred_kind>(rng() % int(pred_kind::count));
  auto value = [](std::mt19937_64& r) { return T(std::int64_t(r() % 11) - 5); };
  const T thunk = value(rng);
  const std::int64_t k = n == 0 ? 0 : std::int64_t(rng() % (n + 2)) - 1;
  const bool positional = p == pred_kind::rowle || p == pred_kind::rowgt;
  // The dense form's absent value: the default T{} (0) or, for FP64, a value given (+inf).
  const bool given_absent = std::is_floating_point_v<T> && rng() % 2;
  const T absent = given_absent ? std::numeric_limits<T>::infinity() : T{};
  static const char* const forms[] = {"dense", "sparse", "sparse structure-only"};
  static const char* const preds[] = {"value_eq", "value_ne", "value_gt",    "value_ge",
                                      "value_lt", "value_le", "user row_le", "user row_gt"};
  const std::string what = cat(forms[form], std::is_floating_point_v<T> ? " FP64" : " INT64", ", ", preds[int(p)],
                               positional ? cat(" k = ", k) : cat(" ", +thunk), given_absent ? ", absent +inf" : "");
  gb::entries<T> want;
  std::vector<vertex_t> gi;
  std::vector<T> gv;
  try {
    gb::vector gu;
    std::vector<T> dense;
    std::vector<vertex_t> idx;
    std::vector<T> val;
    if (form == 0) {
      dense = random_dense<T>(rng, n, absent, value);
      gu = gb_sparse<T>(dense, absent);
    } else {
      std::vector<GrB_Index> ui;
      std::vector<T> uv;
      const double d = random_density(rng);
      for (vertex_t i = 0; i < n; ++i)
        if (coin(rng, d)) {
          const T x = form == 2 ? T(1) : value(rng);
          idx.push_back(i);
          if (form == 1) val.push_back(x);
          ui.push_back(i);
          uv.push_back(x);
        }
      gu = gb::make_vector<T>(gb_length(n), ui, uv);
    }
    auto gw = gb_empty<T>(n);
    if (positional)
      gb::check(GrB_Vector_select_INT64(gw.get(), nullptr, nullptr, value_op<T>(p), gu.get(), k, nullptr),
                "GrB_select(ROW)");
    else
      gb::check(gb::traits<T>::vector_select(gw.get(), nullptr, nullptr, value_op<T>(p), gu.get(), thunk, nullptr),
                "GrB_select(VALUE)");
    want = gb::extract<T>(gw.get());

    sparse_vector<T, mem_space> r;
    auto run = [&](const auto& pred) {
      if (form == 0) {
        const auto bu = to_view(dense, "oracle::u");
        r = given_absent ? select(ctx.exec, bu, pred, absent) : select(ctx.exec, bu, pred);
      } else {
        r = select(ctx.exec, make_sparse_vector<exec_space, T>(ctx.exec, n, idx, val), pred);
      }
    };
    switch (p) {
      case pred_kind::eq:
        run(value_eq<T>{thunk});
        break;
      case pred_kind::ne:
        run(value_ne<T>{thunk});
        break;
      case pred_kind::gt:
        run(value_gt<T>{thunk});
        break;
      case pred_kind::ge:
        run(value_ge<T>{thunk});
        break;
      case pred_kind::lt:
        run(value_lt<T>{thunk});
        break;
      case pred_kind::le:
        run(value_le<T>{thunk});
        break;
      case pred_kind::rowle:
        run(row_le{k});
        break;
      default:
        run(row_gt{k});
        break;
    }
    host_sparse(r, gi, gv);
  } catch (const std::exception& e) {
    ctx.t.error("select.vector", what, e.what());
    return;
  }
  compare_sparse(ctx, plant, "select.vector", what, gi, gv, want, form == 2, n);
  ctx.t.cover(cat("select vector ", forms[form]));
  ctx.t.cover(cat("select predicate ", preds[int(p)]));
}

}  // namespace

void check_reduce_select(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0x4ed));
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0x4ee));
  const std::uint64_t first = rng();
  for (int form = 0; form < 4; ++form)
    pick_monoid(first + std::uint64_t(form),
                [&](auto p) { reduce_vector_trial<decltype(p)>(ctx, g, rng, plant, form); });

  const b2sr_config cfg = pick_configs(mix(g.op_seed, 0x4ef), 1)[0];
  b2sr_matrix<mem_space> b;
  csr_graph<mem_space> csr = g.csr;
  // The CSR reduction uses the weights when every weight converts exactly to every monoid's type (integers
  // 0..255), the pattern otherwise.
  const bool weighted = g.csr.has_weights && g.weights && g.byte_weights;
  try {
    b = to_b2sr(ctx.exec, g.csr, {cfg.tile, cfg.row_major ? bit_order::row_major : bit_order::col_major});
    if (!weighted) {
      csr.has_weights = false;
      csr.weights = decltype(csr.weights)();
    }
  } catch (const std::exception& e) {
    ctx.t.error("reduce.matrix", cat("operands, ", cfg.str()), e.what());
    return;
  }
  for (int form = 0; form < 3; ++form)
    pick_monoid(first + 4 + std::uint64_t(form),
                [&](auto p) { reduce_matrix_trial<decltype(p)>(ctx, g, rng, plant, b, cfg, csr, weighted, form); });
  degrees_trial(ctx, g, plant, b, cfg, first % 2 == 0);
  select_matrix_trial(ctx, g, rng, plant, b, cfg, false);
  select_matrix_trial(ctx, g, rng, plant, b, cfg, true);
  select_vector_trial<std::int64_t>(ctx, g, rng, plant, int(first % 3));
  select_vector_trial<double>(ctx, g, rng, plant, int((first + 1) % 3));
}

}  // namespace bitgraph::oracle
