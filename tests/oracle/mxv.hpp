// mxv / vxm / SpMSpV on every BitGraph semiring against GrB_mxv with the matching built-in semiring:
// random inputs (dense or bitmap), old outputs (dense or bitmap), masks (plain, complemented, with and
// without replace), accumulators, on B2SR (pull, push, automatic; several tile sizes, both packing
// orders), on CSR (weighted or not) and on the hybrid format, also of a relabelled graph whose results
// come back in the caller's ids.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/hybrid.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/mxv.hpp"
#include "bitgraph/ops/spmspv.hpp"
#include "bitgraph/reorder/device_order.hpp"
#include "bitgraph/semirings/semirings.hpp"
#include "compare.hpp"

namespace bitgraph::oracle {

// ------------------------------------------------------------------------------ semiring pairings
//
// Each pairing names a BitGraph semiring (S, value type T), the GraphBLAS built-in semiring computing
// the same thing (value type G), the accumulator of both sides, and the random input values. Values
// are small integers so that every result is exact in either order of summation. `any` marks ANY
// monoids, whose result is any of the candidates: the oracle checks it is one (validity), not which.

struct lor_land_pair {
  using S = lor_land;
  using T = std::uint8_t;
  using G = bool;
  using accum = lor_monoid;
  static constexpr const char* name = "LOR_LAND";
  static constexpr bool any = false;
  static GrB_Semiring semiring() { return GrB_LOR_LAND_SEMIRING_BOOL; }
  static GrB_BinaryOp accum_op() { return GrB_LOR; }
  static T value(std::mt19937_64&) { return 1; }
};

struct plus_times_pair {
  using S = plus_times<double>;
  using T = double;
  using G = double;
  using accum = plus_monoid<double>;
  static constexpr const char* name = "PLUS_TIMES_FP64";
  static constexpr bool any = false;
  static GrB_Semiring semiring() { return GrB_PLUS_TIMES_SEMIRING_FP64; }
  static GrB_BinaryOp accum_op() { return GrB_PLUS_FP64; }
  static T value(std::mt19937_64& r) { return double(std::int64_t(r() % 9) - 4); }  // -4..4; 0 is absent
};

struct min_plus_i64_pair {
  using S = min_plus<std::int64_t>;
  using T = std::int64_t;
  using G = std::int64_t;
  using accum = min_monoid<std::int64_t>;
  static constexpr const char* name = "MIN_PLUS_INT64";
  static constexpr bool any = false;
  static GrB_Semiring semiring() { return GrB_MIN_PLUS_SEMIRING_INT64; }
  static GrB_BinaryOp accum_op() { return GrB_MIN_INT64; }
  static T value(std::mt19937_64& r) { return std::int64_t(r() % 101) - 50; }
};

struct min_plus_f64_pair {
  using S = min_plus<double>;  // SSSP's semiring
  using T = double;
  using G = double;
  using accum = min_monoid<double>;
  static constexpr const char* name = "MIN_PLUS_FP64";
  static constexpr bool any = false;
  static GrB_Semiring semiring() { return GrB_MIN_PLUS_SEMIRING_FP64; }
  static GrB_BinaryOp accum_op() { return GrB_MIN_FP64; }
  static T value(std::mt19937_64& r) { return double(r() % 101); }
};

struct max_times_pair {
  using S = max_times<double>;
  using T = double;
  using G = double;
  using accum = max_monoid<double>;
  static constexpr const char* name = "MAX_TIMES_FP64";
  static constexpr bool any = false;
  static GrB_Semiring semiring() { return GrB_MAX_TIMES_SEMIRING_FP64; }
  static GrB_BinaryOp accum_op() { return GrB_MAX_FP64; }
  static T value(std::mt19937_64& r) { return double(std::int64_t(r() % 11) - 5); }  // 0 is a value here
};

struct plus_pair_pair {
  using S = plus_pair<std::int64_t>;
  using T = std::int64_t;
  using G = std::int64_t;
  using accum = plus_monoid<std::int64_t>;
  static constexpr const char* name = "PLUS_PAIR_INT64";
  static constexpr bool any = false;
  static GrB_Semiring semiring() { return GxB_PLUS_PAIR_INT64; }
  static GrB_BinaryOp accum_op() { return GrB_PLUS_INT64; }
  static T value(std::mt19937_64& r) { return std::int64_t(r() % 7) - 3; }
};

struct min_second_pair {
  using S = min_second<std::uint32_t>;  // FastSV's semiring
  using T = std::uint32_t;
  using G = std::uint32_t;
  using accum = min_monoid<std::uint32_t>;
  static constexpr const char* name = "MIN_SECOND_UINT32";
  static constexpr bool any = false;
  static GrB_Semiring semiring() { return GrB_MIN_SECOND_SEMIRING_UINT32; }
  static GrB_BinaryOp accum_op() { return GrB_MIN_UINT32; }
  static T value(std::mt19937_64& r) { return std::uint32_t(r() % 1001); }
};

struct any_secondi_pair {
  using S = any_secondi<vertex_t>;  // BFS's parent semiring
  using T = vertex_t;
  using G = std::int64_t;
  using accum = void;  // ANY accumulates nondeterministically on both sides: not compared
  static constexpr const char* name = "ANY_SECONDI";
  static constexpr bool any = true;
  static GrB_Semiring semiring() { return GxB_ANY_SECONDI_INT64; }
  static GrB_BinaryOp accum_op() { return nullptr; }
  static T value(std::mt19937_64& r) { return vertex_t(r() % 10); }
};

struct min_secondi_pair {
  using S = min_secondi<std::int64_t>;
  using T = std::int64_t;
  using G = std::int64_t;
  using accum = min_monoid<std::int64_t>;
  static constexpr const char* name = "MIN_SECONDI_INT64";
  static constexpr bool any = false;
  static GrB_Semiring semiring() { return GxB_MIN_SECONDI_INT64; }
  static GrB_BinaryOp accum_op() { return GrB_MIN_INT64; }
  static T value(std::mt19937_64& r) { return std::int64_t(r() % 10); }
};

// ------------------------------------------------------------------------------------- operands

/// How a product is computed. mxv_* compute y = A x, vxm_* and spmspv y = A^T x (BitGraph keeps the
/// operand order (A entry, x entry) in both, so the reference for the vxm forms is GrB_mxv with A
/// transposed, not GrB_vxm, whose multiply sees the vector entry first). hybrid_* pull over the hybrid
/// format: of A itself, or of P A P^T with x, y and the mask moved into the new ids and y moved back.
enum class mxv_path : int {
  mxv_pull,
  mxv_push,
  mxv_auto,
  vxm_push,
  vxm_pull,
  vxm_auto,
  csr_mxv,
  hybrid_mxv,
  hybrid_reordered,
  count
};

inline const char* path_name(mxv_path p) {
  switch (p) {
    case mxv_path::mxv_pull:
      return "b2sr-mxv-pull";
    case mxv_path::mxv_push:
      return "b2sr-mxv-push";
    case mxv_path::mxv_auto:
      return "b2sr-mxv-auto";
    case mxv_path::vxm_push:
      return "b2sr-vxm-push";
    case mxv_path::vxm_pull:
      return "b2sr-vxm-pull";
    case mxv_path::vxm_auto:
      return "b2sr-vxm-auto";
    case mxv_path::csr_mxv:
      return "csr-mxv";
    case mxv_path::hybrid_mxv:
      return "hybrid-mxv";
    case mxv_path::hybrid_reordered:
      return "hybrid-mxv-reordered";
    default:
      return "?";
  }
}
inline bool transposed(mxv_path p) {
  return p == mxv_path::vxm_push || p == mxv_path::vxm_pull || p == mxv_path::vxm_auto;
}
inline bool on_hybrid(mxv_path p) { return p == mxv_path::hybrid_mxv || p == mxv_path::hybrid_reordered; }

/// The matrices of one graph in one B2SR configuration, on both sides.
struct mxv_operands {
  const graph_under_test* g = nullptr;
  b2sr_config cfg;
  b2sr_matrix<mem_space> a;                ///< B2SR of A
  b2sr_matrix<mem_space> at;               ///< B2SR of A^T (built from the CSR transpose, or by flipping `a`)
  bool at_by_flip = false;                 ///< `at` is transpose(a, keep_order = false): the other packing order
  csr_graph<mem_space> csr;                ///< A as CSR: with weights when they cast exactly to every type
  bool weighted = false;                   ///< csr carries weights (and the GraphBLAS side uses them)
  bool has_hybrid = false;                 ///< false where A keeps repeats (no hybrid form)
  hybrid_matrix<mem_space> hy;             ///< hybrid of A's pattern
  hybrid_matrix<mem_space> hy_r;           ///< hybrid of P A P^T (same options)
  reorder::vertex_order<mem_space> order;  ///< P
  std::vector<vertex_t> old_of_new;        ///< P^-1 on the host: translates vertex-valued results
  std::string hybrid_what;                 ///< the hybrids' options and the ordering, for reports
  std::map<GrB_Type, gb::matrix> pattern_cache, weight_cache;

  /// A's pattern with value 1 of type t (what a B2SR product multiplies with).
  GrB_Matrix pattern_as(GrB_Type t) {
    auto& m = pattern_cache[t];
    if (!m) m = gb::cast(g->a.get(), t);
    return m.get();
  }
  /// A as the CSR products see it: the weights cast to t, or the pattern.
  GrB_Matrix csr_as(GrB_Type t) {
    if (!weighted) return pattern_as(t);
    auto& m = weight_cache[t];
    if (!m) m = gb::cast(g->weights.get(), t);
    return m.get();
  }
};

/// One random trial of a semiring.
template <class P>
struct mxv_trial {
  using T = typename P::T;
  mxv_path path = mxv_path::mxv_pull;
  bool x_bits = false, y_bits = false;
  int mask_state = 0;  ///< 0 none, 1 mask, 2 complement, 3 mask + replace, 4 complement + replace
  bool accumulate = false;
  mxv_options opts;
  bool pass_at = false;           ///< give the transpose to the op
  std::vector<T> x, y0;           ///< dense input / old output (identity = absent)
  std::vector<char> xb, yb0, mb;  ///< bitmap input / old output / mask bits

  bool masked() const { return mask_state != 0; }
  bool complement() const { return mask_state == 2 || mask_state == 4; }
  bool replace() const { return mask_state >= 3; }
  bool allows(vertex_t i) const { return !masked() || ((mb[i] != 0) != complement()); }
  std::string describe() const {
    static const char* const masks[] = {"no mask", "mask", "~mask", "mask+replace", "~mask+replace"};
    return cat(path_name(path), ", x ", x_bits ? "bitmap" : "dense", ", y ", y_bits ? "bitmap" : "dense", ", ",
               masks[mask_state], accumulate ? ", accumulate" : "", opts.early_exit ? "" : ", no early exit",
               pass_at ? ", with A^T" : "", ", switch ", opts.switch_ratio);
  }
};

// --------------------------------------------------------------------------------- host helpers

template <class T>
Kokkos::View<T*, mem_space> to_view(const std::vector<T>& v, const char* label) {
  Kokkos::View<T*, mem_space> out(std::string(label), v.size());
  auto h = Kokkos::create_mirror_view(out);
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::deep_copy(out, h);
  return out;
}

inline bitmap<mem_space> to_bits(const exec_space& exec, const std::vector<char>& b) {
  auto out = make_bitmap(exec, static_cast<vertex_t>(b.size()));
  auto h = Kokkos::create_mirror_view(out.words);
  for (std::size_t k = 0; k < h.extent(0); ++k) h(k) = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b[i]) h(i >> 5) |= std::uint32_t(1) << (i & 31);
  Kokkos::deep_copy(out.words, h);
  return out;
}

/// The bits of a bitmap, and whether any bit at or beyond n (the padding) is set.
inline std::vector<char> from_bits(const bitmap<mem_space>& b, bool& padding_set) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, b.words);
  std::vector<char> out(b.n);
  padding_set = false;
  for (std::size_t i = 0; i < h.extent(0) * 32; ++i) {
    const bool bit = (h(i >> 5) >> (i & 31)) & 1u;
    if (i < b.n)
      out[i] = bit;
    else if (bit)
      padding_set = true;
  }
  return out;
}

template <class G, class T>
G to_g(T v) {
  if constexpr (std::is_same_v<G, bool>)
    return v != T(0);
  else
    return static_cast<G>(v);
}

template <class T, class G>
T from_g(G v) {
  if constexpr (std::is_same_v<G, bool>)
    return v ? T(1) : T(0);
  else
    return static_cast<T>(v);
}

// ---------------------------------------------------------------------------------------- mxv

/// Runs the trial on BitGraph; returns the dense or bitmap output (and the padding flag).
template <class P, bool XB, bool YB, bool Masked, bool Acc>
void run_bitgraph_mxv(const exec_space& exec, mxv_operands& ops, const mxv_trial<P>& tr,
                      std::vector<typename P::T>& y_out, std::vector<char>& yb_out, bool& padding_set) {
  using S = typename P::S;
  using T = typename P::T;
  using Mask = std::conditional_t<Masked, vector_mask<mem_space>, no_mask>;
  using Accum =
      std::conditional_t<Acc, accumulate_with<std::conditional_t<Acc, typename P::accum, lor_monoid>>, no_accumulator>;
  Mask mask{};
  if constexpr (Masked) mask = vector_mask<mem_space>{to_bits(exec, tr.mb), tr.complement(), tr.replace()};
  auto x = [&] {
    if constexpr (XB)
      return to_bits(exec, tr.xb);
    else
      return Kokkos::View<const T*, mem_space>(to_view(tr.x, "oracle::x"));
  }();
  auto y = [&] {
    if constexpr (YB)
      return to_bits(exec, tr.yb0);
    else
      return to_view(tr.y0, "oracle::y");
  }();
  const b2sr_matrix<mem_space>* at = tr.pass_at ? &ops.at : nullptr;
  switch (tr.path) {
    case mxv_path::mxv_pull:
    case mxv_path::mxv_push:
    case mxv_path::mxv_auto:
      mxv(exec, y, mask, Accum{}, S{}, ops.a, x, tr.opts, at);
      break;
    case mxv_path::vxm_push:
    case mxv_path::vxm_pull:
    case mxv_path::vxm_auto:
      vxm(exec, y, mask, Accum{}, S{}, x, ops.a, tr.opts, at);
      break;
    case mxv_path::csr_mxv:
      mxv(exec, y, mask, Accum{}, S{}, ops.csr, x, tr.opts);
      break;
    case mxv_path::hybrid_mxv:
      mxv(exec, y, mask, Accum{}, S{}, ops.hy, x, tr.opts);
      break;
    case mxv_path::hybrid_reordered: {
      const vertex_t n = ops.hy_r.n;
      auto moved = [&](const auto& v) {  // v in the new ids
        if constexpr (detail::is_bitmap<std::decay_t<decltype(v)>>::value) {
          auto b = make_bitmap(exec, n);
          reorder::to_reordered_ids(exec, ops.order, v, b);
          return b;
        } else {
          Kokkos::View<T*, mem_space> out("oracle::reordered", n);
          reorder::to_reordered_ids(exec, ops.order, v, out);
          return out;
        }
      };
      auto xr = moved(x);
      auto yr = moved(y);
      Mask mr{};
      if constexpr (Masked) mr = vector_mask<mem_space>{moved(mask.bits), tr.complement(), tr.replace()};
      if constexpr (XB)
        mxv(exec, yr, mr, Accum{}, S{}, ops.hy_r, xr, tr.opts);
      else
        mxv(exec, yr, mr, Accum{}, S{}, ops.hy_r, Kokkos::View<const T*, mem_space>(xr), tr.opts);
      reorder::to_caller_ids(exec, ops.order, yr, y);
      break;
    }
    default:
      break;
  }
  exec.fence();
  if constexpr (YB) {
    yb_out = from_bits(y, padding_set);
  } else {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, y);
    y_out.assign(h.data(), h.data() + h.extent(0));
    // A positional result is a vertex id: computed in the new ids, it names P^-1 of itself. Only where the
    // product wrote (the mask allows; ANY has no accumulator): elsewhere y keeps its old values.
    if (tr.path == mxv_path::hybrid_reordered && std::string_view(P::name).find("SECONDI") != std::string_view::npos)
      for (std::size_t i = 0; i < y_out.size(); ++i) {
        auto& v = y_out[i];
        if (tr.allows(vertex_t(i)) && v != S::identity() && std::uint64_t(v) < ops.old_of_new.size())
          v = static_cast<T>(ops.old_of_new[v]);
      }
  }
}

template <class P>
void dispatch_bitgraph_mxv(const exec_space& exec, mxv_operands& ops, const mxv_trial<P>& tr,
                           std::vector<typename P::T>& y, std::vector<char>& yb, bool& padding) {
  constexpr bool boolean = is_boolean_semiring_v<typename P::S>;
  constexpr bool has_accum = !std::is_void_v<typename P::accum>;
  auto go = [&](auto xb, auto yb_, auto m, auto a) {
    constexpr bool XB = decltype(xb)::value, YB = decltype(yb_)::value, M = decltype(m)::value, A = decltype(a)::value;
    if constexpr ((!YB || boolean) && (!A || has_accum))
      run_bitgraph_mxv<P, XB, YB, M, A>(exec, ops, tr, y, yb, padding);
  };
  using t = std::true_type;
  using f = std::false_type;
  auto with_acc = [&](auto xb, auto yb_, auto m) { tr.accumulate ? go(xb, yb_, m, t{}) : go(xb, yb_, m, f{}); };
  auto with_mask = [&](auto xb, auto yb_) { tr.masked() ? with_acc(xb, yb_, t{}) : with_acc(xb, yb_, f{}); };
  auto with_y = [&](auto xb) { tr.y_bits ? with_mask(xb, t{}) : with_mask(xb, f{}); };
  tr.x_bits ? with_y(t{}) : with_y(f{});
}

/// The GraphBLAS reference of the trial: the output's entries after GrB_mxv.
template <class P>
gb::entries<typename P::G> run_graphblas_mxv(mxv_operands& ops, const mxv_trial<P>& tr) {
  using T = typename P::T;
  using G = typename P::G;
  const vertex_t n = ops.g->n;
  const T id = P::S::identity();
  std::vector<GrB_Index> ui, wi, mi;
  std::vector<G> uv, wv;
  for (vertex_t j = 0; j < n; ++j) {
    if (tr.x_bits ? tr.xb[j] != 0 : tr.x[j] != id) {
      ui.push_back(j);
      uv.push_back(tr.x_bits ? G(1) : to_g<G>(tr.x[j]));
    }
    if (tr.y_bits ? tr.yb0[j] != 0 : tr.y0[j] != id) {
      wi.push_back(j);
      wv.push_back(tr.y_bits ? G(1) : to_g<G>(tr.y0[j]));
    }
    if (tr.masked() && tr.mb[j]) mi.push_back(j);
  }
  auto u = gb::make_vector<G>(n, ui, uv);
  auto w = gb::make_vector<G>(n, wi, wv);
  gb::vector m;
  if (tr.masked()) m = gb::make_mask(n, mi);
  auto desc = gb::make_descriptor(tr.masked(), tr.complement(), tr.replace(), transposed(tr.path));
  const GrB_Type type = gb::traits<G>::type();
  GrB_Matrix a = tr.path == mxv_path::csr_mxv ? ops.csr_as(type) : ops.pattern_as(type);
  gb::check(GrB_mxv(w.get(), m.get(), tr.accumulate ? P::accum_op() : nullptr, P::semiring(), a, u.get(), desc.get()),
            "GrB_mxv");
  return gb::extract<G>(w.get());
}

/// Random trial of pairing P for the operands (direction, operand kinds, mask, accumulator, densities).
template <class P>
mxv_trial<P> random_trial(std::mt19937_64& rng, const mxv_operands& ops) {
  using T = typename P::T;
  constexpr bool boolean = is_boolean_semiring_v<typename P::S>;
  const vertex_t n = ops.g->n;
  mxv_trial<P> tr;
  tr.path = static_cast<mxv_path>(rng() % int(mxv_path::count));
  // MIN over positions depends on the ids: only ANY positional products are comparable after relabelling.
  if (tr.path == mxv_path::hybrid_reordered && !P::any &&
      std::string_view(P::name).find("SECONDI") != std::string_view::npos)
    tr.path = mxv_path::hybrid_mxv;
  if (on_hybrid(tr.path) && !ops.has_hybrid) tr.path = mxv_path::mxv_pull;
  tr.x_bits = rng() % 2;
  tr.y_bits = boolean && rng() % 2;
  tr.mask_state = int(rng() % 5);
  tr.accumulate = !std::is_void_v<typename P::accum> && rng() % 2;
  tr.opts.early_exit = rng() % 4 != 0;
  static constexpr double ratios[] = {0.01, 0.2};
  tr.opts.switch_ratio = ratios[rng() % 2];
  switch (tr.path) {
    case mxv_path::mxv_pull:
    case mxv_path::vxm_pull:
      tr.opts.direction = mxv_direction::pull;
      break;
    case mxv_path::mxv_push:
    case mxv_path::vxm_push:
      tr.opts.direction = mxv_direction::push;
      break;
    case mxv_path::hybrid_mxv:
    case mxv_path::hybrid_reordered:
      tr.opts.direction = rng() % 2 ? mxv_direction::pull : mxv_direction::automatic;
      break;
    default:
      tr.opts.direction = mxv_direction::automatic;
      break;
  }
  // The transpose is required where the direction is the "other" one on a directed graph (mxv push,
  // vxm pull); elsewhere it is passed at random, which lets the automatic direction use it.
  const bool needs_at = ops.g->directed && (tr.path == mxv_path::mxv_push || tr.path == mxv_path::vxm_pull);
  tr.pass_at = tr.path != mxv_path::csr_mxv && !on_hybrid(tr.path) && (needs_at || rng() % 2);
  static constexpr double densities[] = {0.0, 0.005, 0.05, 0.3, 0.8, 1.0};
  auto density = [&] { return densities[rng() % 6]; };
  auto coin = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  const double dx = density(), dy = density(), dm = density();
  const T id = P::S::identity();
  tr.x.assign(n, id);
  tr.y0.assign(n, id);
  tr.xb.assign(n, 0);
  tr.yb0.assign(n, 0);
  tr.mb.assign(n, 0);
  for (vertex_t i = 0; i < n; ++i) {
    if (coin(dx)) {
      tr.x[i] = P::value(rng);  // may be the identity: then absent, as BitGraph's convention says
      tr.xb[i] = 1;
    }
    if (coin(dy)) {
      tr.y0[i] = P::value(rng);
      tr.yb0[i] = 1;
    }
    tr.mb[i] = coin(dm);
  }
  return tr;
}

/// Compares BitGraph's output of a trial with GraphBLAS's, recording one comparison.
template <class P>
void compare_mxv(context& ctx, mxv_operands& ops, const mxv_trial<P>& tr, planter& plant) {
  using T = typename P::T;
  using G = typename P::G;
  const vertex_t n = ops.g->n;
  const std::string kind = cat("mxv.", P::name);
  const std::string what = cat(tr.describe(), ", ", ops.cfg.str(), ops.at_by_flip ? " (A^T by flip)" : "",
                               tr.path == mxv_path::csr_mxv && ops.weighted ? ", weighted" : "",
                               on_hybrid(tr.path) ? cat(", ", ops.hybrid_what) : std::string());
  std::vector<T> y;
  std::vector<char> yb;
  bool padding = false;
  gb::entries<G> want;
  try {
    want = run_graphblas_mxv(ops, tr);
    dispatch_bitgraph_mxv(ctx.exec, ops, tr, y, yb, padding);
  } catch (const std::exception& e) {
    ctx.t.error(kind, what, e.what());
    return;
  }
  const T id = P::S::identity();
  // Expected dense output: GraphBLAS's entry where it has one, the identity (absent) elsewhere.
  std::vector<T> expect(n, id);
  std::vector<char> present(n, 0);
  for (std::size_t k = 0; k < want.index.size(); ++k) {
    expect[want.index[k]] = from_g<T>(want.value[k]);
    present[want.index[k]] = 1;
  }
  bool planted = false;
  if (plant.on() && n > 0) {
    const std::size_t i = plant.pick(n);
    if (tr.y_bits)
      yb[i] = !yb[i];
    else
      y[i] = y[i] == id ? (id == T(1) ? T(2) : T(1)) : id;
    planted = true;
  }
  diffs d;
  if (tr.y_bits) {
    if (padding) d.add("output bitmap has bits set at or beyond n = ", n);
    for (vertex_t i = 0; i < n; ++i) {
      // A present false (a zero weight under LAND) is no bit.
      const bool want_bit = present[i] && expect[i] != T(0);
      if (bool(yb[i]) != want_bit) d.add("y(", i, "): BitGraph bit ", int(yb[i]), ", GraphBLAS ", want_bit);
    }
  } else if (y.size() != n) {
    d.add("output has ", y.size(), " entries, n = ", n);
  } else if constexpr (!P::any) {
    for (vertex_t i = 0; i < n; ++i)
      if (!(y[i] == expect[i]))
        d.add("y(", i, "): BitGraph ", +y[i], ", GraphBLAS ", +expect[i], present[i] ? "" : " (absent)");
  } else {
    // ANY: the same positions must hold a result; a different value must be a valid choice: an index
    // j with A(i, j) (A(j, i) for the transposed forms) and x(j) present; positions the mask keeps
    // hold their old value.
    const bool tp = transposed(tr.path);
    for (vertex_t i = 0; i < n; ++i) {
      if ((y[i] == id) != (expect[i] == id)) {
        d.add("y(", i, "): BitGraph ", y[i] == id ? "absent" : cat(+y[i]), ", GraphBLAS ",
              expect[i] == id ? "absent" : cat(+expect[i]));
        continue;
      }
      if (y[i] == id || y[i] == expect[i]) continue;
      if (!tr.allows(i)) {
        d.add("y(", i, "): masked out, kept ", +expect[i], " in GraphBLAS but BitGraph has ", +y[i]);
        continue;
      }
      const auto j = static_cast<std::uint64_t>(y[i]);
      const bool edge = j < n && (tp ? ops.g->rows.has(vertex_t(j), i) : ops.g->rows.has(i, vertex_t(j)));
      const bool input = j < n && (tr.x_bits ? tr.xb[j] != 0 : tr.x[j] != id);
      if (!edge || !input)
        d.add("y(", i, "): BitGraph chose ", j, ", not a valid ", tp ? "in" : "out", "-neighbour in x");
    }
  }
  ctx.t.record(kind, what, d, planted);
  static const char* const masks[] = {"no mask", "mask", "complemented mask", "mask + replace",
                                      "complemented mask + replace"};
  ctx.t.cover(cat("mxv path ", path_name(tr.path)));
  ctx.t.cover(cat("mxv ", masks[tr.mask_state]));
  ctx.t.cover(tr.accumulate ? "mxv accumulate" : "mxv no accumulator");
  ctx.t.cover(cat("mxv x ", tr.x_bits ? "bitmap" : "dense", ", y ", tr.y_bits ? "bitmap" : "dense"));
}

// ------------------------------------------------------------------------------------- SpMSpV

/// y<mask> = x ⊕.⊗ A by SpMSpV against GrB_mxv(w, M, -, S, A^T, u) with an empty w (SpMSpV's output
/// replaces y and leaves masked-out positions empty).
template <class P>
void spmspv_trial(context& ctx, mxv_operands& ops, std::mt19937_64& rng, planter& plant) {
  using S = typename P::S;
  using T = typename P::T;
  using G = typename P::G;
  constexpr bool boolean = is_boolean_semiring_v<S>;
  const vertex_t n = ops.g->n;
  static constexpr double densities[] = {0.0, 0.005, 0.05, 0.3, 1.0};
  const double dx = densities[rng() % 5], dm = densities[rng() % 5];
  const int mask_state = int(rng() % 3);  // none, mask, complement
  const bool structure_x = rng() % 4 == 0;
  spmspv_options so;
  static constexpr spmspv_merge merges[] = {spmspv_merge::automatic, spmspv_merge::no_sort, spmspv_merge::radix_sort,
                                            spmspv_merge::merge_sort};
  so.merge = merges[rng() % 4];
  so.structure_only = boolean && rng() % 2;
  const T id = S::identity();
  std::vector<vertex_t> xi;
  std::vector<T> xv;
  std::vector<char> mb(n, 0);
  std::uniform_real_distribution<double> coin(0, 1);
  for (vertex_t i = 0; i < n; ++i) {
    if (coin(rng) < dx) {
      xi.push_back(i);
      // Stored entries of a sparse vector are present whatever their value; the identity is avoided
      // so that the saturating integer PLUS of MIN_PLUS never meets it.
      T v = P::value(rng);
      while (v == id) v = P::value(rng);
      xv.push_back(v);
    }
    mb[i] = coin(rng) < dm;
  }
  if (structure_x || so.structure_only) xv.clear();
  static const char* const masks[] = {"no mask", "mask", "~mask"};
  const std::string kind = cat("spmspv.", P::name);
  const std::string what =
      cat("merge ", int(so.merge), so.structure_only ? ", structure only" : "", xv.empty() ? ", structure-only x" : "",
          ", ", masks[mask_state], ", nnz(x)=", xi.size(), ops.weighted ? ", weighted" : "");
  sparse_vector<T, mem_space> y;
  gb::entries<G> want;
  try {
    auto x = make_sparse_vector<exec_space, T>(ctx.exec, n, xi, xv);
    if (mask_state == 0) {
      spmspv(ctx.exec, y, no_mask{}, S{}, x, ops.csr, so);
    } else {
      spmspv(ctx.exec, y, mask_of(to_bits(ctx.exec, mb), mask_state == 2), S{}, x, ops.csr, so);
    }
    ctx.exec.fence();
    std::vector<GrB_Index> ui(xi.begin(), xi.end()), mi;
    std::vector<G> uv;
    for (std::size_t k = 0; k < xi.size(); ++k) uv.push_back(xv.empty() ? G(1) : to_g<G>(xv[k]));
    for (vertex_t i = 0; i < n; ++i)
      if (mb[i]) mi.push_back(i);
    auto u = gb::make_vector<G>(n, ui, uv);
    gb::vector w;
    gb::check(GrB_Vector_new(w.out(), gb::traits<G>::type(), n), "GrB_Vector_new");
    gb::vector m;
    if (mask_state != 0) m = gb::make_mask(n, mi);
    auto desc = gb::make_descriptor(mask_state != 0, mask_state == 2, false, true);
    gb::check(GrB_mxv(w.get(), m.get(), nullptr, P::semiring(), ops.csr_as(gb::traits<G>::type()), u.get(), desc.get()),
              "GrB_mxv");
    want = gb::extract<G>(w.get());
  } catch (const std::exception& e) {
    ctx.t.error(kind, what, e.what());
    return;
  }
  auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, y.indices);
  auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, y.values);
  std::vector<vertex_t> gi(hi.data(), hi.data() + std::min<std::size_t>(y.nnz, hi.extent(0)));
  std::vector<T> gv(hv.data(), hv.data() + std::min<std::size_t>(y.nnz, hv.extent(0)));
  const bool with_values = !so.structure_only;
  bool planted = false;
  if (plant.on() && n > 0) {
    if (gi.empty()) {
      gi.push_back(0);
      if (with_values) gv.push_back(T(1));
    } else {
      const std::size_t k = plant.pick(gi.size());
      gi.erase(gi.begin() + std::ptrdiff_t(k));
      if (with_values && k < gv.size()) gv.erase(gv.begin() + std::ptrdiff_t(k));
    }
    planted = true;
  }
  diffs d;
  if (y.n != n) d.add("output dimension ", y.n, ", n = ", n);
  if (with_values && gv.size() != gi.size()) d.add("output has ", gi.size(), " indices but ", gv.size(), " values");
  std::size_t a = 0, b = 0;
  while (a < gi.size() || b < want.index.size()) {
    if (b == want.index.size() || (a < gi.size() && gi[a] < want.index[b])) {
      d.add("y(", gi[a], "): BitGraph has an entry, GraphBLAS none");
      ++a;
    } else if (a == gi.size() || want.index[b] < gi[a]) {
      d.add("y(", want.index[b], "): GraphBLAS has ", +want.value[b], ", BitGraph no entry");
      ++b;
    } else {
      if (with_values && a < gv.size()) {
        const T expect = from_g<T>(want.value[b]);
        if constexpr (P::any) {
          const auto j = static_cast<std::uint64_t>(gv[a]);
          const bool ok =
              j < n && ops.g->rows.has(vertex_t(j), gi[a]) && std::binary_search(xi.begin(), xi.end(), vertex_t(j));
          if (!ok) d.add("y(", gi[a], "): BitGraph chose ", j, ", not a valid in-neighbour in x");
        } else if (!(gv[a] == expect)) {
          d.add("y(", gi[a], "): BitGraph ", +gv[a], ", GraphBLAS ", +expect);
        }
      }
      ++a;
      ++b;
    }
  }
  ctx.t.record(kind, what, d, planted);
  ctx.t.cover(cat("spmspv merge ", int(so.merge), so.structure_only ? ", structure only" : ""));
}

/// All trials of pairing P on the operands: `trials` mxv / vxm products and `trials` SpMSpV products.
template <class P>
void run_pairing(context& ctx, mxv_operands& ops, std::uint64_t seed, int trials) {
  std::mt19937_64 rng(mix(seed, fnv1a(P::name)));
  planter plant(ctx.opt.self_test, mix(seed, 0x3a));
  for (int k = 0; k < trials; ++k) {
    const auto tr = random_trial<P>(rng, ops);
    compare_mxv(ctx, ops, tr, plant);
    spmspv_trial<P>(ctx, ops, rng, plant);
  }
}

// The pairings are split over translation units to bound each one's compile time.
/// Fills `ops` for one B2SR configuration of `g`: A and A^T as B2SR (A^T from the CSR transpose or by flipping A's
/// tiles, as `rng` picks), the CSR (with weights where they cast exactly to every type), the hybrid of A's pattern
/// with a random split rule and that of P A P^T for a random ordering P. Throws what the builders throw.
void build_mxv_operands(context& ctx, const graph_under_test& g, const b2sr_config& cfg, std::mt19937_64& rng,
                        mxv_operands& ops);

void run_pairings_boolean_arithmetic(context& ctx, mxv_operands& ops, std::uint64_t seed, int trials);
void run_pairings_tropical(context& ctx, mxv_operands& ops, std::uint64_t seed, int trials);
void run_pairings_positional(context& ctx, mxv_operands& ops, std::uint64_t seed, int trials);

}  // namespace bitgraph::oracle
