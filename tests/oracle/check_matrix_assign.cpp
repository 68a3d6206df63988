// Matrix assign, reduce, transpose (ops/matrix_assign.hpp), extract (ops/matrix_extract.hpp) and kronecker
// (ops/kronecker.hpp) against
// GraphBLAS: GrB_Matrix_assign (A given as is or transposed) and GrB_Matrix_assign_INT64 / _FP64 (a scalar) at
// random index lists (all, unsorted subsets, permutations, empty); GrB_Matrix_reduce_Monoid into a vector (rows,
// columns through GrB_DESC_T0); GrB_transpose; GrB_Matrix_extract (index lists that may repeat, A as is or
// transposed); GrB_Matrix_kronecker_BinaryOp (TIMES or MINUS, either operand transposed).
// Operands come from the graph's pattern with random values, plus rectangular random trials; every mask kind
// (none, structural, complement, replace, both) and accumulators (none, PLUS, MINUS).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/kronecker.hpp"
#include "bitgraph/ops/matrix_assign.hpp"
#include "bitgraph/ops/matrix_extract.hpp"
#include "compare.hpp"
#include "matrix_ops.hpp"
#include "vector_ops.hpp"

namespace bitgraph::oracle {

namespace {

using namespace mops;

// Value types of the matrix trials, with GraphBLAS's PLUS and MINUS on them (the accumulators) and TIMES.
struct int64_values {
  using T = std::int64_t;
  static constexpr const char* name = "INT64";
  static GrB_Type type() { return GrB_INT64; }
  static GrB_BinaryOp plus() { return GrB_PLUS_INT64; }
  static GrB_BinaryOp minus() { return GrB_MINUS_INT64; }
  static GrB_BinaryOp times() { return GrB_TIMES_INT64; }
  static GrB_Info assign_scalar(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, T s, const GrB_Index* i, GrB_Index ni,
                                const GrB_Index* j, GrB_Index nj, GrB_Descriptor d) {
    return GrB_Matrix_assign_INT64(c, m, acc, s, i, ni, j, nj, d);
  }
};
struct fp64_values {
  using T = double;
  static constexpr const char* name = "FP64";
  static GrB_Type type() { return GrB_FP64; }
  static GrB_BinaryOp plus() { return GrB_PLUS_FP64; }
  static GrB_BinaryOp minus() { return GrB_MINUS_FP64; }
  static GrB_BinaryOp times() { return GrB_TIMES_FP64; }
  static GrB_Info assign_scalar(GrB_Matrix c, GrB_Matrix m, GrB_BinaryOp acc, T s, const GrB_Index* i, GrB_Index ni,
                                const GrB_Index* j, GrB_Index nj, GrB_Descriptor d) {
    return GrB_Matrix_assign_FP64(c, m, acc, s, i, ni, j, nj, d);
  }
};

// The monoids of the reduce trials. Values are small integers (or quarters), so every result is exact.
struct plus_i64_r {
  using M = plus_monoid<std::int64_t>;
  using T = std::int64_t;
  static constexpr const char* name = "PLUS_INT64";
  static GrB_Type type() { return GrB_INT64; }
  static GrB_Monoid monoid() { return GrB_PLUS_MONOID_INT64; }
  static GrB_BinaryOp plus() { return GrB_PLUS_INT64; }
  static GrB_BinaryOp minus() { return GrB_MINUS_INT64; }
  static T value(std::mt19937_64& r) { return T(r() % 19) - 9; }
};
struct plus_f64_r {
  using M = plus_monoid<double>;
  using T = double;
  static constexpr const char* name = "PLUS_FP64";
  static GrB_Type type() { return GrB_FP64; }
  static GrB_Monoid monoid() { return GrB_PLUS_MONOID_FP64; }
  static GrB_BinaryOp plus() { return GrB_PLUS_FP64; }
  static GrB_BinaryOp minus() { return GrB_MINUS_FP64; }
  static T value(std::mt19937_64& r) { return double(std::int64_t(r() % 19) - 9); }
};
struct min_f64_r {
  using M = min_monoid<double>;
  using T = double;
  static constexpr const char* name = "MIN_FP64";
  static GrB_Type type() { return GrB_FP64; }
  static GrB_Monoid monoid() { return GrB_MIN_MONOID_FP64; }
  static GrB_BinaryOp plus() { return GrB_PLUS_FP64; }
  static GrB_BinaryOp minus() { return GrB_MINUS_FP64; }
  static T value(std::mt19937_64& r) { return double(std::int64_t(r() % 201) - 100) / 4; }
};
struct max_i32_r {
  using M = max_monoid<std::int32_t>;
  using T = std::int32_t;
  static constexpr const char* name = "MAX_INT32";
  static GrB_Type type() { return GrB_INT32; }
  static GrB_Monoid monoid() { return GrB_MAX_MONOID_INT32; }
  static GrB_BinaryOp plus() { return GrB_PLUS_INT32; }
  static GrB_BinaryOp minus() { return GrB_MINUS_INT32; }
  static T value(std::mt19937_64& r) { return T(r() % 101) - 50; }
};

template <class T>
host_matrix<T> transposed(const host_matrix<T>& h) {
  std::vector<std::vector<std::pair<vertex_t, T>>> rows(h.cols);
  for (vertex_t i = 0; i < h.rows; ++i)
    for (offset_t p = h.ptr[i]; p < h.ptr[i + 1]; ++p) rows[h.col[p]].push_back({i, h.val[p]});
  host_matrix<T> t;
  t.rows = h.cols;
  t.cols = h.rows;
  for (const auto& r : rows) {
    for (const auto& [j, v] : r) {
      t.col.push_back(j);
      t.val.push_back(v);
    }
    t.ptr.push_back(t.col.size());
  }
  return t;
}

/// A matrix mask: none, a given pattern or a random one; complement and replace.
struct matrix_mask_spec {
  int source = 0;  ///< 0 none, 1 the given pattern, 2 random
  bool complement = false, replace = false;
  pattern_t pattern;
  std::string str() const {
    static const char* const names[] = {"no mask", "mask G", "random mask"};
    return mask_str(names[source], source, complement, replace);
  }
};

matrix_mask_spec random_matrix_mask(std::mt19937_64& rng, vertex_t rows, vertex_t cols, const pattern_t* given,
                                    std::uint64_t m) {
  matrix_mask_spec s;
  s.source = int(rng() % 3);
  if (s.source == 1 && given == nullptr) s.source = 2;
  s.complement = rng() % 2;
  s.replace = rng() % 2;
  if (s.source == 1) s.pattern = *given;
  if (s.source == 2) s.pattern = random_pattern(rows, cols, m, rng);
  return s;
}

/// The mask's GraphBLAS form (padded by `pad` rows and columns, as C is), or an empty handle.
gb::matrix gb_matrix_mask(const matrix_mask_spec& s, vertex_t rows, vertex_t cols, GrB_Index pad = 1) {
  if (s.source == 0) return {};
  std::vector<GrB_Index> r, c;
  for (vertex_t i = 0; i < rows; ++i)
    for (vertex_t j : s.pattern[i]) {
      r.push_back(i);
      c.push_back(j);
    }
  return gb::make_bool_matrix(GrB_Index(rows) + pad, GrB_Index(cols) + pad, r, c);
}

/// Calls f(no_mask{}) or f(mask_of(pattern matrix, complement, replace)).
template <class F>
void with_matrix_mask(const exec_space& exec, const matrix_mask_spec& s, vertex_t rows, vertex_t cols, F&& f) {
  if (s.source == 0) return f(no_mask{});
  host_matrix<std::uint8_t> h;
  h.rows = rows;
  h.cols = cols;
  for (vertex_t i = 0; i < rows; ++i) {
    for (vertex_t j : s.pattern[i]) {
      h.col.push_back(j);
      h.val.push_back(1);
    }
    h.ptr.push_back(h.col.size());
  }
  const auto m = to_bitgraph(exec, h);
  f(mask_of(m, s.complement, s.replace));
}

/// An index list of dimension n: all, a random subset in random order (at most `cap` long), a permutation, empty;
/// with `repeats` (extract) also random indices that may repeat (at most min(cap, 2 n + 1) of them).
struct index_choice {
  bool all = false;
  std::vector<vertex_t> list;  ///< the indices (0 .. n-1 for all)
  std::string str() const { return all ? "all" : cat(list.size()); }
};

index_choice random_index_choice(std::mt19937_64& rng, vertex_t n, std::size_t cap, bool repeats = false) {
  index_choice c;
  c.list.resize(n);
  std::iota(c.list.begin(), c.list.end(), vertex_t(0));
  const int kind = int(rng() % 8);
  if (kind < 2 && n <= cap) {
    c.all = true;
    return c;
  }
  if (kind == 7) {
    c.list.clear();
    return c;
  }
  if (repeats && kind == 5 && n > 0) {
    c.list.resize(rng() % (std::min<std::size_t>(cap, 2 * std::size_t(n) + 1) + 1));
    for (auto& x : c.list) x = vertex_t(rng() % n);
    return c;
  }
  std::shuffle(c.list.begin(), c.list.end(), rng);
  if (kind != 6 || n > cap) c.list.resize(n == 0 ? 0 : std::min<std::size_t>(cap, rng() % (n + 1)));
  return c;
}

index_list<mem_space> to_index_list(const index_choice& c) {
  if (c.all) return all_indices{};
  return Kokkos::View<const vertex_t*, mem_space>(to_view(c.list, "oracle::indices"));
}

/// GraphBLAS's form of an index list: explicit indices (GrB_ALL would reach the padding).
std::vector<GrB_Index> gb_indices(const index_choice& c) { return {c.list.begin(), c.list.end()}; }

/// The frame of a trial that merges into a matrix C (from `hc`; GraphBLAS's copy and its mask padded by `pad`) under
/// `mask` with accumulator `accum` (0 none, 1 PLUS, 2 MINUS) on both sides. `gb_call(c, mask, accum, desc)` makes
/// the GraphBLAS call with a descriptor of the mask's flags and GrB_INP0 = `transpose_a`; `bg_call(c, mask, accum)`
/// makes BitGraph's. A throw on either side is the trial's error; else the results are compared and `cover` counted.
template <class P, class GbCall, class BgCall>
void merge_trial(context& ctx, planter& plant, const char* kind, const std::string& what, const std::string& cover,
                 const host_matrix<typename P::T>& hc, const matrix_mask_spec& mask, int accum, bool transpose_a,
                 GrB_Index pad, GbCall&& gb_call, BgCall&& bg_call) {
  using T = typename P::T;
  gb::triples<T> got, want;
  try {
    auto gc = to_graphblas(hc, P::type(), pad);
    auto gm = gb_matrix_mask(mask, hc.rows, hc.cols, pad);
    auto desc = gb::make_descriptor(true, mask.source && mask.complement, mask.source && mask.replace, transpose_a);
    GrB_BinaryOp gacc = accum == 0 ? nullptr : (accum == 1 ? P::plus() : P::minus());
    gb_call(gc.get(), gm.get(), gacc, desc.get());
    want = gb::extract<T>(gc.get());

    auto c = to_bitgraph(ctx.exec, hc);
    with_matrix_mask(ctx.exec, mask, hc.rows, hc.cols, [&](const auto& msk) {
      with_matrix_accum<T>(accum, [&](const auto& acc) { bg_call(c, msk, acc); });
    });
    got = triples_of(c);
  } catch (const std::exception& e) {
    ctx.t.error(kind, what, e.what());
    return;
  }
  compare_matrices(ctx, plant, kind, what, got, want);
  ctx.t.cover(cover);
}

/// One assign trial: C<M>(I, J) = accum(C(I, J), A or s) on both sides. `g` (when given, square n x n) is the
/// graph's pattern, the source of A (the submatrix G(I, J)) and of a mask; else everything is random.
template <class P>
void assign_trial(context& ctx, planter& plant, std::mt19937_64& rng, vertex_t rows, vertex_t cols, const pattern_t* g,
                  bool scalar, const std::string& shape) {
  using T = typename P::T;
  const std::uint64_t m = g ? entries(*g) : std::uint64_t(rows) * cols / 4 + 1;
  // A scalar fills |I| x |J|: keep the lists short on large graphs.
  const std::size_t cap = scalar ? 150 : std::size_t(-1);
  const auto ic = random_index_choice(rng, rows, cap), jc = random_index_choice(rng, cols, cap);
  const vertex_t ni = vertex_t(ic.list.size()), nj = vertex_t(jc.list.size());
  // A = G(I, J) with random values (or a random |I| x |J| pattern).
  pattern_t a_pattern(ni);
  if (g) {
    std::vector<vertex_t> col_pos(cols, invalid_vertex);
    for (vertex_t b = 0; b < nj; ++b) col_pos[jc.list[b]] = b;
    for (vertex_t a = 0; a < ni; ++a) {
      for (vertex_t j : (*g)[ic.list[a]])
        if (col_pos[j] != invalid_vertex) a_pattern[a].push_back(col_pos[j]);
      std::sort(a_pattern[a].begin(), a_pattern[a].end());
    }
  } else {
    a_pattern = random_pattern(ni, nj, std::uint64_t(ni) * nj / 3 + 1, rng);
  }
  auto ha = with_values<T>(ni, nj, a_pattern, rng);
  const bool transpose_a = !scalar && rng() % 3 == 0;
  if (transpose_a) ha = transposed(ha);
  const auto hc = with_values<T>(rows, cols, random_pattern(rows, cols, m / 2 + 1, rng), rng);
  const auto mask = random_matrix_mask(rng, rows, cols, g, m + 1);
  const int accum = int(rng() % 3);
  const T s = small_value<T>(rng);
  const std::string what = cat(scalar ? "scalar " : "matrix ", P::name, ", ", shape, ", I ", ic.str(), ", J ", jc.str(),
                               transpose_a ? ", A^T" : "", ", ", mask.str(), accum_names[accum]);
  const char* kind = scalar ? "assign.matrix_scalar" : "assign.matrix";
  const auto gb_call = [&](GrB_Matrix gc, GrB_Matrix gm, GrB_BinaryOp gacc, GrB_Descriptor desc) {
    const auto gi = gb_indices(ic), gj = gb_indices(jc);
    const GrB_Index none = 0;  // GraphBLAS rejects a null list even when it is empty
    const GrB_Index* ip = gi.empty() ? &none : gi.data();
    const GrB_Index* jp = gj.empty() ? &none : gj.data();
    if (scalar) {
      gb::check(P::assign_scalar(gc, gm, gacc, s, ip, gi.size(), jp, gj.size(), desc), "GrB_Matrix_assign_<scalar>");
    } else {
      auto ga = to_graphblas(ha, P::type(), 0);
      gb::check(GrB_Matrix_assign(gc, gm, gacc, ga.get(), ip, gi.size(), jp, gj.size(), desc), "GrB_Matrix_assign");
    }
  };
  const auto bg_call = [&](auto& c, const auto& msk, const auto& acc) {
    const auto il = to_index_list(ic), jl = to_index_list(jc);
    if (scalar) {
      assign(ctx.exec, c, msk, acc, s, il, jl);
    } else {
      matrix_op_options opts;
      opts.transpose_a = transpose_a;
      assign(ctx.exec, c, msk, acc, to_bitgraph(ctx.exec, ha), il, jl, opts);
    }
  };
  merge_trial<P>(ctx, plant, kind, what, cat(kind, " ", P::name, mask.source ? " masked" : ""), hc, mask, accum,
                 transpose_a, 1, gb_call, bg_call);
}

/// One transpose trial: C<M> = accum(C, Aᵀ) (or A with GrB_DESC_T0) on both sides; A is the graph (when given)
/// with random values, or random rows x cols.
template <class P>
void transpose_trial(context& ctx, planter& plant, std::mt19937_64& rng, vertex_t rows, vertex_t cols,
                     const pattern_t* g, const std::string& shape) {
  using T = typename P::T;
  const std::uint64_t m = g ? entries(*g) : std::uint64_t(rows) * cols / 4 + 1;
  const auto ha = with_values<T>(rows, cols, g ? *g : random_pattern(rows, cols, m, rng), rng);
  const bool transpose_a = rng() % 4 == 0;
  const vertex_t cr = transpose_a ? rows : cols, cc = transpose_a ? cols : rows;
  const auto hc = with_values<T>(cr, cc, random_pattern(cr, cc, m / 2 + 1, rng), rng);
  // The graph's pattern is a mask of C's shape only when square.
  const auto mask = random_matrix_mask(rng, cr, cc, g && cr == cc ? g : nullptr, m + 1);
  const int accum = int(rng() % 3);
  const std::string what =
      cat(P::name, ", ", shape, transpose_a ? ", DESC_T0" : "", ", ", mask.str(), accum_names[accum]);
  merge_trial<P>(
      ctx, plant, "transpose.matrix", what, cat("transpose.matrix ", P::name), hc, mask, accum, transpose_a, 1,
      [&](GrB_Matrix gc, GrB_Matrix gm, GrB_BinaryOp gacc, GrB_Descriptor desc) {
        auto ga = to_graphblas(ha, P::type(), 1);
        gb::check(GrB_transpose(gc, gm, gacc, ga.get(), desc), "GrB_transpose");
      },
      [&](auto& c, const auto& msk, const auto& acc) {
        matrix_op_options opts;
        opts.transpose_a = transpose_a;
        transpose(ctx.exec, c, msk, acc, to_bitgraph(ctx.exec, ha), opts);
      });
}

/// One extract trial: C<M> = accum(C, A(I, J)) (Aᵀ(I, J) with GrB_INP0 transposed) on both sides; A is the graph
/// (when given) with random values, or random rows x cols; I and J may repeat indices. C and its mask are not
/// padded: GraphBLAS wants C to be |I| x |J|.
template <class P>
void extract_trial(context& ctx, planter& plant, std::mt19937_64& rng, vertex_t rows, vertex_t cols, const pattern_t* g,
                   const std::string& shape) {
  using T = typename P::T;
  const std::uint64_t m = g ? entries(*g) : std::uint64_t(rows) * cols / 4 + 1;
  const auto ha = with_values<T>(rows, cols, g ? *g : random_pattern(rows, cols, m, rng), rng);
  const bool transpose_a = rng() % 4 == 0;
  const vertex_t ar = transpose_a ? cols : rows, ac = transpose_a ? rows : cols;
  const auto ic = random_index_choice(rng, ar, 400, true), jc = random_index_choice(rng, ac, 400, true);
  const vertex_t cr = vertex_t(ic.list.size()), cc = vertex_t(jc.list.size());
  const std::uint64_t cm = std::min<std::uint64_t>(std::uint64_t(cr) * cc / 4, m) + 1;
  const auto hc = with_values<T>(cr, cc, random_pattern(cr, cc, cm, rng), rng);
  const auto mask = random_matrix_mask(rng, cr, cc, nullptr, cm);
  const int accum = int(rng() % 3);
  const std::string what = cat(P::name, ", ", shape, ", I ", ic.str(), ", J ", jc.str(), transpose_a ? ", A^T" : "",
                               ", ", mask.str(), accum_names[accum]);
  merge_trial<P>(
      ctx, plant, "extract.matrix", what, cat("extract.matrix ", P::name, mask.source ? " masked" : ""), hc, mask,
      accum, transpose_a, 0,
      [&](GrB_Matrix gc, GrB_Matrix gm, GrB_BinaryOp gacc, GrB_Descriptor desc) {
        auto ga = to_graphblas(ha, P::type(), 1);
        const auto gi = gb_indices(ic), gj = gb_indices(jc);
        const GrB_Index none = 0;  // GraphBLAS rejects a null list even when it is empty
        gb::check(GrB_Matrix_extract(gc, gm, gacc, ga.get(), gi.empty() ? &none : gi.data(), gi.size(),
                                     gj.empty() ? &none : gj.data(), gj.size(), desc),
                  "GrB_Matrix_extract");
      },
      [&](auto& c, const auto& msk, const auto& acc) {
        matrix_op_options opts;
        opts.transpose_a = transpose_a;
        extract(ctx.exec, c, msk, acc, to_bitgraph(ctx.exec, ha), to_index_list(ic), to_index_list(jc), opts);
      });
}

/// One Kronecker trial: C<M> = accum(C, kron(A, B)) with TIMES or MINUS (A's value first) on both sides, either
/// operand transposed by the descriptor; A is the graph (when given) with random values, or random rows x cols; B
/// is random, 1-4 x 1-4. Nothing is padded: GraphBLAS wants C to be the product's shape.
template <class P>
void kronecker_trial(context& ctx, planter& plant, std::mt19937_64& rng, vertex_t rows, vertex_t cols,
                     const pattern_t* g, const std::string& shape) {
  using T = typename P::T;
  const std::uint64_t m = g ? entries(*g) : std::uint64_t(rows) * cols / 4 + 1;
  const auto ha = with_values<T>(rows, cols, g ? *g : random_pattern(rows, cols, m, rng), rng);
  const vertex_t br = vertex_t(1 + rng() % 4), bc = vertex_t(1 + rng() % 4);
  const auto hb = with_values<T>(br, bc, random_pattern(br, bc, 1 + rng() % (std::uint64_t(br) * bc), rng), rng);
  const bool ta = rng() % 4 == 0, tb = rng() % 3 == 0, minus = rng() % 2 != 0;
  const vertex_t cr = (ta ? cols : rows) * (tb ? bc : br), cc = (ta ? rows : cols) * (tb ? br : bc);
  const std::uint64_t cm = std::min<std::uint64_t>(std::uint64_t(cr) * cc / 4, m) + 1;
  const auto hc = with_values<T>(cr, cc, random_pattern(cr, cc, cm, rng), rng);
  const auto mask = random_matrix_mask(rng, cr, cc, nullptr, cm);
  const int accum = int(rng() % 3);
  const std::string what = cat(P::name, minus ? " MINUS, " : " TIMES, ", shape, ta ? " transposed" : "", " with ", br,
                               " x ", bc, tb ? " transposed" : "", ", ", mask.str(), accum_names[accum]);
  merge_trial<P>(
      ctx, plant, "kronecker.matrix", what, cat("kronecker.matrix ", P::name, mask.source ? " masked" : ""), hc, mask,
      accum, ta, 0,
      [&](GrB_Matrix gc, GrB_Matrix gm, GrB_BinaryOp gacc, GrB_Descriptor desc) {
        auto ga = to_graphblas(ha, P::type(), 0);
        auto gbm = to_graphblas(hb, P::type(), 0);
        if (tb) gb::check(GrB_Descriptor_set(desc, GrB_INP1, GrB_TRAN), "GrB_Descriptor_set(INP1)");
        gb::check(
            GrB_Matrix_kronecker_BinaryOp(gc, gm, gacc, minus ? P::minus() : P::times(), ga.get(), gbm.get(), desc),
            "GrB_Matrix_kronecker_BinaryOp");
      },
      [&](auto& c, const auto& msk, const auto& acc) {
        const auto a = to_bitgraph(ctx.exec, ha);
        const auto b = to_bitgraph(ctx.exec, hb);
        matrix_op_options opts;
        opts.transpose_a = ta;
        opts.transpose_b = tb;
        if (minus)
          kronecker(ctx.exec, c, msk, acc, minus_op{}, a, b, opts);
        else
          kronecker(ctx.exec, c, msk, acc, times_op{}, a, b, opts);
      });
}

/// One reduce trial: w<m> = accum(w, ⊕ of A's rows or columns) into a dense vector (the identity marks absence)
/// against GrB_Matrix_reduce_Monoid into a padded GrB_Vector.
template <class P>
void reduce_trial(context& ctx, planter& plant, std::mt19937_64& rng, vertex_t rows, vertex_t cols,
                  const pattern_t& pattern, bool columns, const std::string& shape) {
  using T = typename P::T;
  using M = typename P::M;
  const T absent = M::identity();
  const auto ha = with_values_by<T>(rows, cols, pattern, rng, P::value);
  const vertex_t n = columns ? cols : rows;
  const auto w0 = vops::random_dense<T>(rng, n, absent, P::value);
  const auto m = vops::random_mask(rng, n);
  const int accum = int(rng() % 3);
  const bool by_option = rng() % 2;  // the other face with transpose_a
  const std::string what = cat(columns ? "columns " : "rows ", P::name, ", ", shape, by_option ? " (option)" : "", ", ",
                               m.str(), accum_names[accum]);
  std::vector<T> got, want;
  try {
    auto ga = to_graphblas(ha, P::type(), 1);
    auto gw = vops::gb_sparse<T>(w0, absent);
    auto gm = vops::gb_mask(m);
    auto desc = vops::gb_desc(m, columns);
    GrB_BinaryOp gacc = accum == 0 ? nullptr : (accum == 1 ? P::plus() : P::minus());
    gb::check(GrB_Matrix_reduce_Monoid(gw.get(), gm.get(), gacc, P::monoid(), ga.get(), desc.get()),
              "GrB_Matrix_reduce_Monoid");
    want = vops::gb_dense<T>(gw.get(), n, absent);

    auto w = to_view(w0, "oracle::w");
    const auto a = to_bitgraph(ctx.exec, ha);
    matrix_op_options opts;
    opts.transpose_a = by_option;
    vops::with_mask(ctx.exec, m, [&](const auto& msk) {
      with_matrix_accum<T>(accum, [&](const auto& acc) {
        if (columns != by_option)
          reduce_columns(ctx.exec, w, msk, acc, M{}, a, opts);
        else
          reduce_rows(ctx.exec, w, msk, acc, M{}, a, opts);
      });
    });
    got = vops::host_copy(w);
  } catch (const std::exception& e) {
    ctx.t.error("reduce.matrix_csr", what, e.what());
    return;
  }
  vops::compare_dense(ctx, plant, "reduce.matrix_csr", what, got, want, absent);
  ctx.t.cover(cat("reduce.matrix_csr ", P::name, columns ? " columns" : " rows"));
}

template <class F>
void pick_values(std::uint64_t k, F&& f) {
  if (k % 2)
    f(fp64_values{});
  else
    f(int64_values{});
}

template <class F>
void pick_monoid(std::uint64_t k, F&& f) {
  switch (k % 4) {
    case 0:
      return f(plus_i64_r{});
    case 1:
      return f(min_f64_r{});
    case 2:
      return f(max_i32_r{});
    default:
      return f(plus_f64_r{});
  }
}

}  // namespace

void check_matrix_assign(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0xa551));
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0xa552));
  const pattern_t gp = graph_pattern(g);
  const std::uint64_t first = rng();
  // On the graph: matrix and scalar assign, transpose, row and column reductions.
  for (int k = 0; k < 2; ++k) {
    pick_values(first + k, [&](auto p) {
      using P = decltype(p);
      assign_trial<P>(ctx, plant, rng, g.n, g.n, &gp, k == 1, "the graph");
      transpose_trial<P>(ctx, plant, rng, g.n, g.n, &gp, "the graph");
      extract_trial<P>(ctx, plant, rng, g.n, g.n, &gp, "the graph");
      kronecker_trial<P>(ctx, plant, rng, g.n, g.n, &gp, "the graph");
    });
    pick_monoid(first + k,
                [&](auto p) { reduce_trial<decltype(p)>(ctx, plant, rng, g.n, g.n, gp, k == 1, "the graph"); });
  }
  // Rectangular trials, independent of the graph's shape.
  const vertex_t rows = vertex_t(1 + rng() % 60), cols = vertex_t(1 + rng() % 60);
  const std::string shape = cat(rows, " x ", cols, " random");
  pick_values(first + 2, [&](auto p) {
    using P = decltype(p);
    assign_trial<P>(ctx, plant, rng, rows, cols, nullptr, rng() % 2 != 0, shape);
    transpose_trial<P>(ctx, plant, rng, rows, cols, nullptr, shape);
    extract_trial<P>(ctx, plant, rng, rows, cols, nullptr, shape);
    kronecker_trial<P>(ctx, plant, rng, rows, cols, nullptr, shape);
  });
  const auto rp = random_pattern(rows, cols, rng() % (std::uint64_t(rows) * cols / 3 + 1), rng);
  pick_monoid(first + 2,
              [&](auto p) { reduce_trial<decltype(p)>(ctx, plant, rng, rows, cols, rp, rng() % 2 != 0, shape); });
}

}  // namespace bitgraph::oracle
