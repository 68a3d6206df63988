// Element-wise add and multiply (ops/ewise.hpp) against GrB_eWiseAdd / GrB_eWiseMult on vectors: dense
// vectors (every operator form: monoids, apply(a, b), semiring multiply operators, a positional one) with
// masks, complement, replace and accumulators; bitmaps (OR, AND, XOR, ANDNOT) as full Boolean vectors; sparse
// vectors, valued or structure-only, masked or not.
#include <limits>

#include "bitgraph/ops/ewise.hpp"
#include "vector_ops.hpp"

namespace bitgraph::oracle {

namespace {

using namespace vops;

// Each pairing names a BitGraph binary operator over T, the GraphBLAS operator computing the same thing over
// G, an accumulator of both sides, and the random values. `absent` is what BitGraph's default gives for this
// operator with and without the accumulator (the op's identity, else the accumulator's, else T{}); where
// those two differ the value is passed explicitly (`explicit_absent`). Values are small integers, so every
// result is exact. GraphBLAS has no `absent`: a BitGraph result equal to it is dropped, GraphBLAS stores it. The
// two agree while `absent` is the accumulator's identity or a value no result takes (SECONDI's -1), as here;
// another `absent` under an accumulator is not comparable.

struct plus_i64 {
  using T = std::int64_t;
  using G = std::int64_t;
  using op = plus_monoid<T>;
  using accum = plus_monoid<T>;
  static constexpr const char* name = "PLUS_INT64 (monoid)";
  static constexpr bool explicit_absent = false;
  static T absent() { return 0; }
  static GrB_BinaryOp gb_op() { return GrB_PLUS_INT64; }
  static GrB_BinaryOp gb_accum() { return GrB_PLUS_INT64; }
  static T value(std::mt19937_64& r) { return T(r() % 9) - 4; }
};

struct min_f64 {
  using T = double;
  using G = double;
  using op = min_monoid<T>;
  using accum = min_monoid<T>;
  static constexpr const char* name = "MIN_FP64 (monoid)";
  static constexpr bool explicit_absent = false;
  static T absent() { return std::numeric_limits<double>::infinity(); }
  static GrB_BinaryOp gb_op() { return GrB_MIN_FP64; }
  static GrB_BinaryOp gb_accum() { return GrB_MIN_FP64; }
  static T value(std::mt19937_64& r) { return double(r() % 101); }
};

struct max_i32 {
  using T = std::int32_t;
  using G = std::int32_t;
  using op = max_monoid<T>;
  using accum = max_monoid<T>;
  static constexpr const char* name = "MAX_INT32 (monoid)";
  static constexpr bool explicit_absent = false;
  static T absent() { return std::numeric_limits<T>::min(); }
  static GrB_BinaryOp gb_op() { return GrB_MAX_INT32; }
  static GrB_BinaryOp gb_accum() { return GrB_MAX_INT32; }
  static T value(std::mt19937_64& r) { return T(r() % 101) - 50; }
};

struct lor_u8 {
  using T = std::uint8_t;
  using G = bool;
  using op = lor_monoid;
  using accum = lor_monoid;
  static constexpr const char* name = "LOR (monoid, bytes)";
  static constexpr bool explicit_absent = false;
  static T absent() { return 0; }
  static GrB_BinaryOp gb_op() { return GrB_LOR; }
  static GrB_BinaryOp gb_accum() { return GrB_LOR; }
  static T value(std::mt19937_64&) { return 1; }
};

struct minus_i64 {
  using T = std::int64_t;
  using G = std::int64_t;
  using op = minus_op;
  using accum = plus_monoid<T>;
  static constexpr const char* name = "MINUS_INT64 (apply(a, b))";
  static constexpr bool explicit_absent = false;
  static T absent() { return 0; }
  static GrB_BinaryOp gb_op() { return GrB_MINUS_INT64; }
  static GrB_BinaryOp gb_accum() { return GrB_PLUS_INT64; }
  static T value(std::mt19937_64& r) { return T(r() % 9) - 4; }
};

struct times_f64 {
  using T = double;
  using G = double;
  using op = times_op;
  using accum = plus_monoid<T>;
  static constexpr const char* name = "TIMES_FP64 (multiply operator)";
  static constexpr bool explicit_absent = false;
  static T absent() { return 0.0; }
  static GrB_BinaryOp gb_op() { return GrB_TIMES_FP64; }
  static GrB_BinaryOp gb_accum() { return GrB_PLUS_FP64; }
  static T value(std::mt19937_64& r) { return double(std::int64_t(r() % 9) - 4); }
};

struct second_u32 {
  using T = std::uint32_t;
  using G = std::uint32_t;
  using op = second_op;
  using accum = min_monoid<T>;
  static constexpr const char* name = "SECOND_UINT32 (multiply operator, absent given)";
  static constexpr bool explicit_absent = true;  // default: 0 without the accumulator, UINT32_MAX with it
  static T absent() { return std::numeric_limits<T>::max(); }
  static GrB_BinaryOp gb_op() { return GrB_SECOND_UINT32; }
  static GrB_BinaryOp gb_accum() { return GrB_MIN_UINT32; }
  static T value(std::mt19937_64& r) { return T(r() % 1001); }
};

struct pair_i64 {
  using T = std::int64_t;
  using G = std::int64_t;
  using op = pair_op;
  using accum = plus_monoid<T>;
  static constexpr const char* name = "PAIR_INT64 (ONEB)";
  static constexpr bool explicit_absent = false;
  static T absent() { return 0; }
  static GrB_BinaryOp gb_op() { return GrB_ONEB_INT64; }
  static GrB_BinaryOp gb_accum() { return GrB_PLUS_INT64; }
  static T value(std::mt19937_64& r) { return T(r() % 7) - 3; }
};

struct secondi_i64 {
  using T = std::int64_t;
  using G = std::int64_t;
  using op = secondi_op;  // positional: sees the position i as both indices
  using accum = min_monoid<T>;
  static constexpr const char* name = "SECONDI_INT64 (positional)";
  static constexpr bool explicit_absent = true;  // -1 is no position
  static T absent() { return -1; }
  static GrB_BinaryOp gb_op() { return GxB_SECONDI_INT64; }
  static GrB_BinaryOp gb_accum() { return GrB_MIN_INT64; }
  static T value(std::mt19937_64& r) { return T(r() % 10); }
};

/// w<m> = accum(w, u op v) by GrB_eWiseMult or GrB_eWiseAdd.
void gb_ewise(bool mult, GrB_Vector w, GrB_Vector m, GrB_BinaryOp accum, GrB_BinaryOp op, GrB_Vector u, GrB_Vector v,
              GrB_Descriptor d) {
  if (mult)
    gb::check(GrB_Vector_eWiseMult_BinaryOp(w, m, accum, op, u, v, d), "GrB_eWiseMult");
  else
    gb::check(GrB_Vector_eWiseAdd_BinaryOp(w, m, accum, op, u, v, d), "GrB_eWiseAdd");
}

template <class P>
void dense_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant, bool mult) {
  using T = typename P::T;
  using G = typename P::G;
  const vertex_t n = g.n;
  const T absent = P::absent();
  const auto u = random_dense<T>(rng, n, absent, P::value);
  const auto v = random_dense<T>(rng, n, absent, P::value);
  const auto w0 = random_dense<T>(rng, n, absent, P::value);
  const auto m = random_mask(rng, n);
  const bool accumulate = rng() % 2;
  const std::string what = cat(mult ? "mult " : "add ", P::name, ", ", m.str(), accumulate ? ", accumulate" : "");
  std::vector<T> want, got;
  try {
    auto gu = gb_sparse<G>(u, absent), gv = gb_sparse<G>(v, absent), gw = gb_sparse<G>(w0, absent);
    auto gm = gb_mask(m);
    auto desc = gb_desc(m);
    gb_ewise(mult, gw.get(), gm.get(), accumulate ? P::gb_accum() : nullptr, P::gb_op(), gu.get(), gv.get(),
             desc.get());
    for (const auto& x : gb_dense<G>(gw.get(), n, to_g<G>(absent))) want.push_back(from_g<T>(x));

    auto bw = to_view(w0, "oracle::w");
    const auto bu = to_view(u, "oracle::u"), bv = to_view(v, "oracle::v");
    with_mask(ctx.exec, m, [&](const auto& mask) {
      with_accum<typename P::accum>(accumulate, [&](auto acc_tag) {
        const typename P::op op{};
        if constexpr (P::explicit_absent) {
          if (mult)
            ewise_mult(ctx.exec, bw, mask, acc_tag, op, bu, bv, absent);
          else
            ewise_add(ctx.exec, bw, mask, acc_tag, op, bu, bv, absent);
        } else {
          if (mult)
            ewise_mult(ctx.exec, bw, mask, acc_tag, op, bu, bv);
          else
            ewise_add(ctx.exec, bw, mask, acc_tag, op, bu, bv);
        }
      });
    });
    got = host_copy(bw);
  } catch (const std::exception& e) {
    ctx.t.error("ewise.dense", what, e.what());
    return;
  }
  compare_dense(ctx, plant, "ewise.dense", what, got, want, absent);
  ctx.t.cover(cat("ewise dense ", mult ? "mult" : "add"));
  ctx.t.cover(cat("ewise op ", P::name));
}

template <class P>
void sparse_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant, bool mult) {
  using T = typename P::T;
  using G = typename P::G;
  const vertex_t n = g.n;
  auto draw = [&](std::vector<vertex_t>& idx, std::vector<T>& val, bool structure_only) {
    const double d = random_density(rng);
    for (vertex_t i = 0; i < n; ++i)
      if (coin(rng, d)) {
        idx.push_back(i);
        if (!structure_only) val.push_back(P::value(rng));  // stored entries are present whatever their value
      }
  };
  const bool u_struct = rng() % 4 == 0, v_struct = rng() % 4 == 0;
  std::vector<vertex_t> ui, vi;
  std::vector<T> uv, vv;
  draw(ui, uv, u_struct);
  draw(vi, vv, v_struct);
  const auto m = random_mask(rng, n, false);  // a new vector has no old entries: replace changes nothing
  const std::string what = cat(mult ? "mult " : "add ", P::name, ", ", m.str(), u_struct ? ", u structure-only" : "",
                               v_struct ? ", v structure-only" : "");
  gb::entries<G> want;
  std::vector<vertex_t> gi;
  std::vector<T> gv;
  try {
    // A structure-only operand's entries count as 1.
    auto to_gb = [&](const std::vector<vertex_t>& idx, const std::vector<T>& val) {
      std::vector<GrB_Index> i(idx.begin(), idx.end());
      std::vector<G> x;
      for (std::size_t k = 0; k < idx.size(); ++k) x.push_back(val.empty() ? to_g<G>(T(1)) : to_g<G>(val[k]));
      return gb::make_vector<G>(gb_length(n), i, x);
    };
    auto gu = to_gb(ui, uv), gvv = to_gb(vi, vv);
    auto gw = gb_empty<G>(n);
    auto gm = gb_mask(m);
    auto desc = gb_desc(m);
    gb_ewise(mult, gw.get(), gm.get(), nullptr, P::gb_op(), gu.get(), gvv.get(), desc.get());
    want = gb::extract<G>(gw.get());

    const auto su = make_sparse_vector<exec_space, T>(ctx.exec, n, ui, uv);
    const auto sv = make_sparse_vector<exec_space, T>(ctx.exec, n, vi, vv);
    const typename P::op op{};
    sparse_vector<T, mem_space> r;
    if (!m.masked()) {  // the face without a mask
      r = mult ? ewise_mult(ctx.exec, op, su, sv) : ewise_add(ctx.exec, op, su, sv);
    } else {
      const vector_mask<mem_space> mask{to_bits(ctx.exec, m.bits), m.complement(), false};
      r = mult ? ewise_mult(ctx.exec, mask, op, su, sv) : ewise_add(ctx.exec, mask, op, su, sv);
    }
    host_sparse(r, gi, gv);
    if (r.n != n) {
      diffs d;
      d.add("result dimension ", r.n, ", n = ", n);
      ctx.t.record("ewise.sparse", what, d);
      return;
    }
  } catch (const std::exception& e) {
    ctx.t.error("ewise.sparse", what, e.what());
    return;
  }
  // The result is structure-only when both operands carry no values: an operand without entries carries none
  // either, whether it was made valued or structure-only (the two are the same object).
  compare_sparse(ctx, plant, "ewise.sparse", what, gi, gv, want, (u_struct || ui.empty()) && (v_struct || vi.empty()),
                 n);
  ctx.t.cover(cat("ewise sparse ", mult ? "mult" : "add"));
  ctx.t.cover(cat("ewise op ", P::name));
}

void bitmap_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant) {
  const vertex_t n = g.n;
  const auto ub = random_bits(rng, n), vb = random_bits(rng, n), wb = random_bits(rng, n);
  const auto m = random_mask(rng, n);
  const bool accumulate = rng() % 2, mult = rng() % 2;
  const bit_op op = static_cast<bit_op>(rng() % 4);
  // A bitmap holds a Boolean at every position: GraphBLAS's full Boolean vectors. ANDNOT (u AND NOT v) is
  // GT on Booleans.
  GrB_BinaryOp gop = op == bit_op::lor    ? GrB_LOR
                     : op == bit_op::land ? GrB_LAND
                     : op == bit_op::lxor ? GrB_LXOR
                                          : GrB_GT_BOOL;
  const std::string what =
      cat(mult ? "mult " : "add ", to_string(op), ", ", m.str(), accumulate ? ", accumulate LOR" : "");
  std::vector<char> want, got;
  bool padding = false;
  try {
    auto gu = gb_full_bool(ub), gv = gb_full_bool(vb), gw = gb_full_bool(wb);
    auto gm = gb_mask(m);
    auto desc = gb_desc(m);
    gb_ewise(mult, gw.get(), gm.get(), accumulate ? GrB_LOR : nullptr, gop, gu.get(), gv.get(), desc.get());
    want = gb_bits(gw.get(), n);

    auto bw = to_bits(ctx.exec, wb);
    const auto bu = to_bits(ctx.exec, ub), bv = to_bits(ctx.exec, vb);
    with_mask(ctx.exec, m, [&](const auto& mask) {
      with_accum<lor_monoid>(accumulate, [&](auto acc_tag) {
        if (mult)
          ewise_mult(ctx.exec, bw, mask, acc_tag, op, bu, bv);
        else
          ewise_add(ctx.exec, bw, mask, acc_tag, op, bu, bv);
      });
    });
    got = from_bits(bw, padding);
  } catch (const std::exception& e) {
    ctx.t.error("ewise.bitmap", what, e.what());
    return;
  }
  compare_bits(ctx, plant, "ewise.bitmap", what, got, want, padding);
  ctx.t.cover(cat("ewise bitmap ", to_string(op)));
}

template <class F>
void pick_pairing(std::uint64_t k, F&& f) {
  switch (k % 9) {
    case 0:
      return f(plus_i64{});
    case 1:
      return f(min_f64{});
    case 2:
      return f(max_i32{});
    case 3:
      return f(lor_u8{});
    case 4:
      return f(minus_i64{});
    case 5:
      return f(times_f64{});
    case 6:
      return f(second_u32{});
    case 7:
      return f(pair_i64{});
    default:
      return f(secondi_i64{});
  }
}

}  // namespace

void check_ewise(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0xe71));
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0xe72));
  // The pairings rotate with the graph's seed so that every one (add and mult) appears across a run.
  const std::uint64_t first = rng();
  for (int k = 0; k < 4; ++k) {
    pick_pairing(first + std::uint64_t(k),
                 [&](auto p) { dense_trial<decltype(p)>(ctx, g, rng, plant, rng() % 2 != 0); });
  }
  for (int k = 0; k < 2; ++k) {
    pick_pairing(first + 4 + std::uint64_t(k),
                 [&](auto p) { sparse_trial<decltype(p)>(ctx, g, rng, plant, rng() % 2 != 0); });
  }
  for (int k = 0; k < 2; ++k) bitmap_trial(ctx, g, rng, plant);
}

}  // namespace bitgraph::oracle
