// assign and apply (ops/assign.hpp) against GrB_assign (scalar to a vector, under a mask, with an accumulator, or
// at listed indices) and GrB_apply (unary operators, a binary operator with its second operand bound, a
// positional operator as GrB_ROWINDEX, and a user positional operator as a composition), on dense vectors and
// bitmaps (GraphBLAS's full Boolean vectors).
#include <algorithm>
#include <limits>

#include "bitgraph/ops/assign.hpp"
#include "vector_ops.hpp"

namespace bitgraph::oracle {

/// A user positional unary operator: x + i. GraphBLAS has no single operator for it: the oracle composes
/// GrB_ROWINDEX (i at u's entries) and an element-wise PLUS with u. At namespace scope, not in an unnamed
/// namespace, as a kernel functor for nvcc.
struct plus_position {
  KOKKOS_INLINE_FUNCTION std::int64_t apply(vertex_t i, std::int64_t x) const { return x + std::int64_t(i); }
};

namespace {

using namespace vops;

// Value types of the dense forms: T with the accumulator both sides use and the absent value (passed
// explicitly where BitGraph's default differs with and without the accumulator).
struct assign_i64 {
  using T = std::int64_t;
  using G = std::int64_t;
  using accum = plus_monoid<T>;
  static constexpr const char* name = "INT64, accum PLUS";
  static constexpr bool explicit_absent = false;  // 0 both ways
  static T absent() { return 0; }
  static GrB_BinaryOp gb_accum() { return GrB_PLUS_INT64; }
  static T value(std::mt19937_64& r) { return T(r() % 9) - 4; }
};

struct assign_f64 {
  using T = double;
  using G = double;
  using accum = min_monoid<T>;
  static constexpr const char* name = "FP64, accum MIN, absent +inf";
  static constexpr bool explicit_absent = true;  // default: 0 without the accumulator, +inf with it
  static T absent() { return std::numeric_limits<double>::infinity(); }
  static GrB_BinaryOp gb_accum() { return GrB_MIN_FP64; }
  static T value(std::mt19937_64& r) { return double(std::int64_t(r() % 101) - 50); }
};

struct assign_u8 {
  using T = std::uint8_t;
  using G = std::uint8_t;
  using accum = lor_monoid;
  static constexpr const char* name = "bytes, accum LOR";
  static constexpr bool explicit_absent = false;
  static T absent() { return 0; }
  static GrB_BinaryOp gb_accum() { return GxB_LOR_UINT8; }
  static T value(std::mt19937_64& r) { return T(r() % 2); }
};

template <class P>
void assign_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant) {
  using T = typename P::T;
  using G = typename P::G;
  const vertex_t n = g.n;
  const T absent = P::absent();
  const auto w0 = random_dense<T>(rng, n, absent, P::value);
  const T s = P::value(rng);  // may be `absent` itself
  const auto m = random_mask(rng, n);
  const bool accumulate = rng() % 2;
  const std::string what = cat(P::name, ", s = ", +s, ", ", m.str(), accumulate ? ", accumulate" : "");
  std::vector<T> want, got;
  try {
    auto gw = gb_sparse<G>(w0, absent);
    auto gm = gb_mask(m);
    auto desc = gb_desc(m);
    const auto all = gb_all(n);
    if (n > 0)
      gb::check(gb::traits<G>::vector_assign(gw.get(), gm.get(), accumulate ? P::gb_accum() : nullptr, to_g<G>(s),
                                             all.data(), n, desc.get()),
                "GrB_Vector_assign");
    for (const auto& x : gb_dense<G>(gw.get(), n, to_g<G>(absent))) want.push_back(from_g<T>(x));

    auto bw = to_view(w0, "oracle::w");
    with_mask(ctx.exec, m, [&](const auto& mask) {
      with_accum<typename P::accum>(accumulate, [&](auto acc_tag) {
        if constexpr (P::explicit_absent)
          assign(ctx.exec, bw, mask, acc_tag, s, absent);
        else
          assign(ctx.exec, bw, mask, acc_tag, s);
      });
    });
    got = host_copy(bw);
  } catch (const std::exception& e) {
    ctx.t.error("assign.dense", what, e.what());
    return;
  }
  compare_dense(ctx, plant, "assign.dense", what, got, want, absent);
  ctx.t.cover(cat("assign dense ", P::name));
}

void assign_bits_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant) {
  const vertex_t n = g.n;
  const auto wb = random_bits(rng, n);
  const bool s = rng() % 2;
  const auto m = random_mask(rng, n);
  const bool accumulate = rng() % 2;
  const std::string what = cat("bitmap, s = ", s, ", ", m.str(), accumulate ? ", accumulate LOR" : "");
  std::vector<char> want, got;
  bool padding = false;
  try {
    auto gw = gb_full_bool(wb);
    auto gm = gb_mask(m);
    auto desc = gb_desc(m);
    const auto all = gb_all(n);
    if (n > 0)
      gb::check(gb::traits<bool>::vector_assign(gw.get(), gm.get(), accumulate ? GrB_LOR : nullptr, s, all.data(), n,
                                                desc.get()),
                "GrB_Vector_assign");
    want = gb_bits(gw.get(), n);
    auto bw = to_bits(ctx.exec, wb);
    with_mask(ctx.exec, m, [&](const auto& mask) {
      with_accum<lor_monoid>(accumulate, [&](auto acc_tag) { assign(ctx.exec, bw, mask, acc_tag, s); });
    });
    got = from_bits(bw, padding);
  } catch (const std::exception& e) {
    ctx.t.error("assign.bitmap", what, e.what());
    return;
  }
  compare_bits(ctx, plant, "assign.bitmap", what, got, want, padding);
}

/// w(I) = s on a dense vector or a bitmap; I has repeats (harmless to BitGraph; GraphBLAS gets each index once,
/// since a repeated index in GrB_assign's list is not defined). With `reject`, I also holds an index >= n:
/// BitGraph must throw before writing anything, and GraphBLAS must refuse too.
void assign_indices_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant, bool bits,
                          bool reject) {
  using T = std::int64_t;
  const vertex_t n = g.n;
  std::vector<vertex_t> idx;
  const std::size_t count = n == 0 ? 0 : rng() % (std::min<std::size_t>(n, 40) + 1);
  for (std::size_t k = 0; k < count; ++k) {
    idx.push_back(vertex_t(rng() % n));
    if (rng() % 4 == 0) idx.push_back(idx.back());  // a repeat
  }
  if (reject) idx.insert(idx.begin() + std::ptrdiff_t(rng() % (idx.size() + 1)), n + vertex_t(rng() % 3));
  std::vector<GrB_Index> unique(idx.begin(), idx.end());
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  const auto wb = random_bits(rng, n);
  const auto w0 = random_dense<T>(rng, n, T(0), [](std::mt19937_64& r) { return T(r() % 9) - 4; });
  const bool sb = rng() % 2;
  const T s = T(rng() % 9) - 4;
  const std::string kind = reject ? "assign.indices.reject" : "assign.indices";
  const std::string what = cat(bits ? "bitmap" : "dense INT64", ", |I| = ", idx.size(), ", s = ", bits ? T(sb) : s);
  try {
    const auto bi = to_view(idx, "oracle::indices");
    const Kokkos::View<const vertex_t*, mem_space> ci = bi;
    if (reject) {
      // Both refuse; BitGraph leaves w as it was. (GraphBLAS's w without the padding position, which is n.)
      auto gw = bits ? gb::new_vector<bool>(n) : gb::new_vector<T>(n);
      const GrB_Info info =
          bits ? gb::traits<bool>::vector_assign(gw.get(), nullptr, nullptr, sb, unique.data(), unique.size(), nullptr)
               : gb::traits<T>::vector_assign(gw.get(), nullptr, nullptr, s, unique.data(), unique.size(), nullptr);
      bool threw = false, unchanged = true;
      try {
        if (bits) {
          auto bw = to_bits(ctx.exec, wb);
          assign(ctx.exec, bw, ci, sb);
          bool pad = false;
          unchanged = from_bits(bw, pad) == wb;
        } else {
          auto bw = to_view(w0, "oracle::w");
          assign(ctx.exec, bw, ci, s);
          unchanged = host_copy(bw) == w0;
        }
      } catch (const invalid_argument_error&) {
        threw = true;
      }
      bool planted = false;
      if (plant.on()) threw = false, planted = true;  // as if BitGraph had accepted the index
      diffs d;
      if (info == GrB_SUCCESS) d.add("GraphBLAS accepted an index >= n");
      if (!threw) d.add("BitGraph did not throw invalid_argument_error for an index >= n = ", n);
      if (!unchanged) d.add("BitGraph changed w before rejecting the indices");
      ctx.t.record(kind, what, d, planted);
      return;
    }
    if (bits) {
      auto gw = gb_full_bool(wb);
      if (!unique.empty())
        gb::check(
            gb::traits<bool>::vector_assign(gw.get(), nullptr, nullptr, sb, unique.data(), unique.size(), nullptr),
            "GrB_Vector_assign(I)");
      const auto want = gb_bits(gw.get(), n);
      auto bw = to_bits(ctx.exec, wb);
      assign(ctx.exec, bw, ci, sb);
      bool padding = false;
      const auto got = from_bits(bw, padding);
      compare_bits(ctx, plant, kind, what, got, want, padding);
    } else {
      auto gw = gb_sparse<T>(w0, T(0));
      if (!unique.empty())
        gb::check(gb::traits<T>::vector_assign(gw.get(), nullptr, nullptr, s, unique.data(), unique.size(), nullptr),
                  "GrB_Vector_assign(I)");
      const auto want = gb_dense<T>(gw.get(), n, T(0));
      auto bw = to_view(w0, "oracle::w");
      assign(ctx.exec, bw, ci, s);
      compare_dense(ctx, plant, kind, what, host_copy(bw), want, T(0));
    }
  } catch (const std::exception& e) {
    ctx.t.error(kind, what, e.what());
  }
}

// ---------------------------------------------------------------------------------------------- apply

/// The unary operators of one value type with their GraphBLAS form: a unary operator, a binary operator with
/// its second operand bound (GrB_apply's BinaryOp2nd), GrB_ROWINDEX, or the composition for plus_position.
enum class unary_kind { identity, abs, ainv, times_scalar, bind_minus, bind_min, bind_secondi, plus_position, count };

const char* unary_name(unary_kind k) {
  static const char* const names[] = {
      "identity",          "abs", "ainv", "times_scalar", "bind(minus, s)", "bind(min, s)", "bind(secondi, s)",
      "user plus_position"};
  return names[int(k)];
}

template <class P>
void apply_trial(context& ctx, const graph_under_test& g, std::mt19937_64& rng, planter& plant) {
  using T = typename P::T;
  using G = typename P::G;
  constexpr bool integral = std::is_integral_v<T>;
  const vertex_t n = g.n;
  const T absent = P::absent();
  const auto u = random_dense<T>(rng, n, absent, P::value);
  const auto w0 = random_dense<T>(rng, n, absent, P::value);
  const auto m = random_mask(rng, n);
  const bool accumulate = rng() % 2;
  // Positional operators are for the integer type (their result is a vertex id).
  const int kinds = integral ? int(unary_kind::count) : int(unary_kind::bind_secondi);
  const auto k = static_cast<unary_kind>(rng() % kinds);
  const T s = T(std::int64_t(rng() % 7) - 3);
  const std::string what =
      cat(unary_name(k), ", s = ", +s, ", ", P::name, ", ", m.str(), accumulate ? ", accumulate" : "");
  std::vector<T> want, got;
  try {
    auto gu = gb_sparse<G>(u, absent), gw = gb_sparse<G>(w0, absent);
    auto gm = gb_mask(m);
    auto desc = gb_desc(m);
    GrB_BinaryOp acc = accumulate ? P::gb_accum() : nullptr;
    const GrB_Type type = gb::traits<G>::type();
    auto unary = [&](GrB_UnaryOp op) {
      gb::check(GrB_Vector_apply(gw.get(), gm.get(), acc, op, gu.get(), desc.get()), "GrB_apply");
    };
    auto second = [&](GrB_BinaryOp op) {
      gb::check(gb::traits<G>::apply_2nd(gw.get(), gm.get(), acc, op, gu.get(), to_g<G>(s), desc.get()),
                "GrB_apply(BinaryOp2nd)");
    };
    switch (k) {
      case unary_kind::identity:
        unary(gb::traits<G>::identity());
        break;
      case unary_kind::abs:
        unary(type == GrB_FP64 ? GrB_ABS_FP64 : GrB_ABS_INT64);
        break;
      case unary_kind::ainv:
        unary(type == GrB_FP64 ? GrB_AINV_FP64 : GrB_AINV_INT64);
        break;
      case unary_kind::times_scalar:
        second(type == GrB_FP64 ? GrB_TIMES_FP64 : GrB_TIMES_INT64);
        break;
      case unary_kind::bind_minus:
        second(type == GrB_FP64 ? GrB_MINUS_FP64 : GrB_MINUS_INT64);
        break;
      case unary_kind::bind_min:
        second(type == GrB_FP64 ? GrB_MIN_FP64 : GrB_MIN_INT64);
        break;
      case unary_kind::bind_secondi:
        // SECONDI at position i with i = j is i: the row index, GrB_ROWINDEX with offset 0.
        gb::check(GrB_Vector_apply_IndexOp_INT64(gw.get(), gm.get(), acc, GrB_ROWINDEX_INT64, gu.get(), 0, desc.get()),
                  "GrB_apply(ROWINDEX)");
        break;
      case unary_kind::plus_position: {
        auto pos = gb_empty<G>(n), sum = gb_empty<G>(n);
        gb::check(GrB_Vector_apply_IndexOp_INT64(pos.get(), nullptr, nullptr, GrB_ROWINDEX_INT64, gu.get(), 0, nullptr),
                  "GrB_apply(ROWINDEX)");
        gb::check(
            GrB_Vector_eWiseMult_BinaryOp(sum.get(), nullptr, nullptr, GrB_PLUS_INT64, gu.get(), pos.get(), nullptr),
            "GrB_eWiseMult(PLUS)");
        gb::check(GrB_Vector_apply(gw.get(), gm.get(), acc, gb::traits<G>::identity(), sum.get(), desc.get()),
                  "GrB_apply(IDENTITY)");
        break;
      }
      default:
        break;
    }
    for (const auto& x : gb_dense<G>(gw.get(), n, to_g<G>(absent))) want.push_back(from_g<T>(x));

    auto bw = to_view(w0, "oracle::w");
    const auto bu = to_view(u, "oracle::u");
    auto run = [&](const auto& f) {
      with_mask(ctx.exec, m, [&](const auto& mask) {
        with_accum<typename P::accum>(accumulate, [&](auto acc_tag) {
          if constexpr (P::explicit_absent)
            apply(ctx.exec, bw, mask, acc_tag, f, bu, absent);
          else
            apply(ctx.exec, bw, mask, acc_tag, f, bu);
        });
      });
    };
    switch (k) {
      case unary_kind::identity:
        run(identity_op{});
        break;
      case unary_kind::abs:
        run(abs_op{});
        break;
      case unary_kind::ainv:
        run(ainv_op{});
        break;
      case unary_kind::times_scalar:
        run(times_scalar<T>{s});
        break;
      case unary_kind::bind_minus:
        run(bind_second_of(minus_op{}, s));
        break;
      case unary_kind::bind_min:
        run(bind_second_of(min_monoid<T>{}, s));
        break;
      case unary_kind::bind_secondi:
        if constexpr (integral) run(bind_second_of(secondi_op{}, s));
        break;
      case unary_kind::plus_position:
        if constexpr (std::is_same_v<T, std::int64_t>) run(plus_position{});
        break;
      default:
        break;
    }
    got = host_copy(bw);
  } catch (const std::exception& e) {
    ctx.t.error("apply.dense", what, e.what());
    return;
  }
  compare_dense(ctx, plant, "apply.dense", what, got, want, absent);
  ctx.t.cover(cat("apply ", unary_name(k)));
}

}  // namespace

void check_assign_apply(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0xa551));
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0xa552));
  const std::uint64_t first = rng();
  for (int k = 0; k < 2; ++k) {
    switch ((first + std::uint64_t(k)) % 3) {
      case 0:
        assign_trial<assign_i64>(ctx, g, rng, plant);
        break;
      case 1:
        assign_trial<assign_f64>(ctx, g, rng, plant);
        break;
      default:
        assign_trial<assign_u8>(ctx, g, rng, plant);
        break;
    }
  }
  assign_bits_trial(ctx, g, rng, plant);
  assign_indices_trial(ctx, g, rng, plant, false, false);
  assign_indices_trial(ctx, g, rng, plant, true, false);
  assign_indices_trial(ctx, g, rng, plant, first % 2 == 0, true);
  apply_trial<assign_i64>(ctx, g, rng, plant);
  apply_trial<assign_i64>(ctx, g, rng, plant);
  apply_trial<assign_f64>(ctx, g, rng, plant);
}

}  // namespace bitgraph::oracle
