// Element-wise add (union) and multiply (intersection) of dense vectors, bitmaps and sparse vectors with
// any binary operator, under the GraphBLAS mask / accumulate / replace rules of mxv; also the helpers the
// other element-wise and utility ops (assign, apply, reduce, select, fold) share.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/mxv.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

// ------------------------------------------------------------------------------------ operators
//
// A binary operator for the element-wise ops is any of
//  - a monoid of semirings.hpp (`plus_monoid<T>`, `min_monoid<T>`, `lor_monoid`, ...): `combine(a, b)`;
//  - a struct with `apply(a, b)` (such as `minus_op` below);
//  - a multiply operator of semirings.hpp (`times_op`, `first_op`, `pair_op`, `secondi_op`, ...):
//    `apply(a, b, i, j)`, called with i = j = the position, so positional operators see it.
// Operators are copied into the kernels, so they may carry state (a bound scalar).

/// a - b (not commutative: ewise ops always pass the first vector's entry first).
struct minus_op {
  static constexpr std::string_view name = "minus";
  template <class T>
  KOKKOS_INLINE_FUNCTION static constexpr T apply(T a, T b) {
    return static_cast<T>(a - b);
  }
};

/// The four word-wise Boolean operators on bitmaps: union, intersection, symmetric difference and
/// difference (u AND NOT v) of the sets of set bits.
enum class bit_op : std::uint8_t { lor, land, lxor, landnot };

/// "or", "and", "xor" or "andnot".
inline std::string_view to_string(bit_op op) {
  switch (op) {
    case bit_op::lor: return "or";
    case bit_op::land: return "and";
    case bit_op::lxor: return "xor";
    case bit_op::landnot: return "andnot";
  }
  return "?";
}

namespace detail::elementwise {

template <class Op, class T, class = void>
struct has_combine : std::false_type {};
template <class Op, class T>
struct has_combine<Op, T, std::void_t<decltype(std::declval<const Op&>().combine(std::declval<T>(), std::declval<T>()))>>
    : std::true_type {};

template <class Op, class T, class = void>
struct has_apply2 : std::false_type {};
template <class Op, class T>
struct has_apply2<Op, T, std::void_t<decltype(std::declval<const Op&>().apply(std::declval<T>(), std::declval<T>()))>>
    : std::true_type {};

template <class Op, class T, class = void>
struct has_apply4 : std::false_type {};
template <class Op, class T>
struct has_apply4<Op, T,
                  std::void_t<decltype(std::declval<const Op&>().apply(std::declval<T>(), std::declval<T>(),
                                                                       std::declval<vertex_t>(), std::declval<vertex_t>()))>>
    : std::true_type {};

template <class Op, class = void>
struct has_identity : std::false_type {};
template <class Op>
struct has_identity<Op, std::void_t<decltype(Op::identity())>> : std::true_type {};

/// True when `Op` can combine two `T` in one of the three forms the element-wise ops accept.
template <class Op, class T>
inline constexpr bool is_binary_op_v = has_combine<Op, T>::value || has_apply2<Op, T>::value || has_apply4<Op, T>::value;

/// op(a, b) at position i in whichever form `Op` provides.
template <class Op, class T>
KOKKOS_FORCEINLINE_FUNCTION T apply_binary(const Op& op, T a, T b, vertex_t i) {
  if constexpr (has_combine<Op, T>::value) {
    return static_cast<T>(op.combine(a, b));
  } else if constexpr (has_apply2<Op, T>::value) {
    return static_cast<T>(op.apply(a, b));
  } else {
    return static_cast<T>(op.apply(a, b, i, i));
  }
}

template <class A>
struct is_accumulator : std::false_type {};
template <>
struct is_accumulator<no_accumulator> : std::true_type {};
template <class M>
struct is_accumulator<accumulate_with<M>> : std::true_type {};

template <class M>
inline constexpr bool is_mask_v = std::is_same_v<M, no_mask> || is_vector_mask_v<M>;

/// The value that marks an absent entry of a dense vector when the caller gives none: the identity of
/// the operator's monoid (as mxv uses its semiring's), else of the accumulator's monoid, else T{}.
template <class T, class Op, class Accum>
constexpr T default_absent() {
  if constexpr (has_identity<Op>::value) {
    return static_cast<T>(Op::identity());
  } else if constexpr (!std::is_same_v<Accum, no_accumulator>) {
    return static_cast<T>(Accum::monoid::identity());
  } else {
    return T{};
  }
}

/// New value of one dense output element: the rule of mxv's `merge_output` with a run-time absent
/// marker. An absent result keeps the old value under an accumulator; an absent old value takes the
/// result as it is (GraphBLAS z = t where w has no entry), which is what mxv computes whenever the
/// accumulator's identity is the marker.
template <class Accum, class T>
KOKKOS_FORCEINLINE_FUNCTION T merge_dense(T old, T t, bool allowed, bool replace, T absent) {
  if (!allowed) return replace ? absent : old;
  if constexpr (std::is_same_v<Accum, no_accumulator>) {
    return t;
  } else {
    if (t == absent) return old;
    if (old == absent) return t;
    return static_cast<T>(Accum::monoid::combine(old, t));
  }
}

/// The bits of 32-bit word `wi` of an n-bit bitmap that lie below n.
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t valid_bits(std::uint64_t wi, std::uint64_t n) {
  const std::uint64_t first = wi * 32;
  if (first >= n) return 0u;
  if (n - first >= 32) return ~std::uint32_t(0);
  return (std::uint32_t(1) << (n - first)) - 1u;
}

/// Mask bits of word `wi` (all ones without a mask), before clipping to n.
template <class MaskWords>
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t allowed_word(const MaskWords& m, bool masked, bool complement, std::uint64_t wi) {
  if (!masked) return ~std::uint32_t(0);
  return complement ? ~m(wi) : m(wi);
}

/// Position of the first entry of `idx[0, n)` (ascending) that is >= key.
template <class Idx>
KOKKOS_INLINE_FUNCTION offset_t lower_bound(const Idx& idx, offset_t n, vertex_t key) {
  offset_t lo = 0, hi = n;
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (idx(mid) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// Checks a mask's length against the output's.
template <class Mask>
void check_mask_length(const char* func, const Mask& mask, std::uint64_t n) {
  static_assert(is_mask_v<Mask>, "the mask must be no_mask or a vector_mask");
  if constexpr (is_vector_mask_v<Mask>) {
    BITGRAPH_CHECK_ARG(mask.bits.n == n, func, "mask has ", mask.bits.n, " bits but the output has ", n, " entries");
    BITGRAPH_CHECK_ARG(mask.bits.words.extent(0) == bitmap<Kokkos::HostSpace>::words_for(mask.bits.n), func,
                       "mask bitmap has ", mask.bits.words.extent(0), " words, expected ",
                       bitmap<Kokkos::HostSpace>::words_for(mask.bits.n));
  }
}

/// Checks that a bitmap's word array matches its length.
template <class Mem>
void check_bitmap(const char* func, const char* what, const bitmap<Mem>& b) {
  BITGRAPH_CHECK_ARG(b.words.extent(0) == bitmap<Kokkos::HostSpace>::words_for(b.n), func, what, " bitmap of ", b.n,
                     " bits has ", b.words.extent(0), " words, expected ", bitmap<Kokkos::HostSpace>::words_for(b.n));
}

/// Checks that a sparse vector's arrays hold its nnz entries.
template <class T, class Mem>
void check_sparse(const char* func, const char* what, const sparse_vector<T, Mem>& s) {
  BITGRAPH_CHECK_ARG(s.indices.extent(0) >= s.nnz, func, what, " has nnz = ", s.nnz, " but only ",
                     s.indices.extent(0), " indices");
  BITGRAPH_CHECK_ARG(s.values.extent(0) == 0 || s.values.extent(0) >= s.nnz, func, what, " has nnz = ", s.nnz,
                     " but only ", s.values.extent(0), " values");
  BITGRAPH_CHECK_ARG(s.nnz <= s.n, func, what, " has nnz = ", s.nnz, " > n = ", s.n);
}

template <class Accum>
void check_accumulator(const char*) {
  static_assert(is_accumulator<Accum>::value, "the accumulator must be no_accumulator or accumulate_with<Monoid>");
}

/// The only accumulator a bitmap output takes is LOR (as for mxv).
template <class Accum>
void check_bitmap_accumulator(const char* func) {
  check_accumulator<Accum>(func);
  if constexpr (!std::is_same_v<Accum, no_accumulator>) {
    if (!std::is_same_v<typename Accum::monoid, lor_monoid>)
      throw invalid_argument_error(concat("bitgraph::", func, ": the only accumulator on a bitmap output is LOR"));
  }
}

}  // namespace detail::elementwise

namespace detail {

// ------------------------------------------------------------------------------------ dense

/// Dense w<mask> = accum(w, u ⊕ v) (union) or accum(w, u ⊗ v) (intersection, `mult`); portable.
template <class ExecSpace, class Accum, class Op, class T, BITGRAPH_TU_LOCAL_PARAM>
struct ewise_dense_impl {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask, const Op& op,
                  const Kokkos::View<const T*, mem>& u, const Kokkos::View<const T*, mem>& v, T absent, bool mult) {
    const auto mbits = mask.bits;
    const bool masked = mask.masked, complement = mask.complement, replace = mask.replace;
    const Op f = op;
    auto out = w;
    auto a = u;
    auto b = v;
    Kokkos::parallel_for(
        "bitgraph::ewise::dense", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, w.extent(0)),
        KOKKOS_LAMBDA(const offset_t i) {
          const bool allowed = mask_allows(mbits, masked, complement, i);
          T t = absent;
          if (allowed) {
            const T x = a(i), y = b(i);
            const bool px = x != absent, py = y != absent;
            if (px && py) t = elementwise::apply_binary(f, x, y, static_cast<vertex_t>(i));
            else if (!mult) t = px ? x : y;
          }
          out(i) = elementwise::merge_dense<Accum>(out(i), t, allowed, replace, absent);
        });
  }
};

// ------------------------------------------------------------------------------------ bitmaps

/// Bitmap w<mask> = accum(w, u OP v), one thread per 32-bit word; portable.
template <class ExecSpace, class Accum, BITGRAPH_TU_LOCAL_PARAM>
struct ewise_bits_impl {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const bitmap<mem>& w, const mask_args<mem>& mask, bit_op op,
                  const bitmap<mem>& u, const bitmap<mem>& v) {
    const auto mbits = mask.bits;
    const bool masked = mask.masked, complement = mask.complement, replace = mask.replace;
    auto out = w.words;
    auto a = u.words;
    auto b = v.words;
    const std::uint64_t n = w.n;
    const int code = static_cast<int>(op);
    Kokkos::parallel_for(
        "bitgraph::ewise::bits", Kokkos::RangePolicy<ExecSpace>(exec, 0, out.extent(0)),
        KOKKOS_LAMBDA(const std::size_t wi) {
          const std::uint32_t x = a(wi), y = b(wi);
          std::uint32_t t;
          switch (code) {
            case 0: t = x | y; break;
            case 1: t = x & y; break;
            case 2: t = x ^ y; break;
            default: t = x & ~y; break;
          }
          const std::uint32_t allowed =
              elementwise::allowed_word(mbits, masked, complement, wi) & elementwise::valid_bits(wi, n);
          out(wi) = merge_output_bits<Accum>(out(wi), t, allowed, replace) & elementwise::valid_bits(wi, n);
        });
  }
};

// ------------------------------------------------------------------------------------ sparse

/// Sparse union / intersection by per-entry binary search: each entry of one operand looks itself up
/// in the other; flags of the entries that survive are scanned into output ranks, then written.
/// Intersections walk the shorter operand. Portable.
template <class ExecSpace, class Op, class T, BITGRAPH_TU_LOCAL_PARAM>
struct ewise_sparse_impl {
  using mem = memory_space_t<ExecSpace>;
  using offsets = Kokkos::View<offset_t*, mem>;

  static sparse_vector<T, mem> run(const ExecSpace& exec, const mask_args<mem>& mask, const Op& op,
                                   const sparse_vector<T, mem>& u, const sparse_vector<T, mem>& v, bool mult) {
    const bool with_values = u.values.extent(0) > 0 || v.values.extent(0) > 0;
    if (mult) return intersect(exec, mask, op, u, v, with_values);
    return unite(exec, mask, op, u, v, with_values);
  }

  static sparse_vector<T, mem> unite(const ExecSpace& exec, const mask_args<mem>& mask, const Op& op,
                                     const sparse_vector<T, mem>& u, const sparse_vector<T, mem>& v, bool with_values) {
    const offset_t nu = u.nnz, nv = v.nnz;
    auto ui = u.indices;
    auto vi = v.indices;
    auto uval = u.values;
    auto vval = v.values;
    const bool uhas = uval.extent(0) > 0, vhas = vval.extent(0) > 0;
    const auto mbits = mask.bits;
    const bool masked = mask.masked, complement = mask.complement;
    auto su = allocate_view<offsets>("bitgraph::ewise_add::keep_u", nu + 1);
    auto sv = allocate_view<offsets>("bitgraph::ewise_add::keep_v", nv + 1);
    auto lbv = allocate_view<offsets>("bitgraph::ewise_add::pos_in_v", nu, false);
    auto lbu = allocate_view<offsets>("bitgraph::ewise_add::pos_in_u", nv, false);
    Kokkos::parallel_for(
        "bitgraph::ewise_add::sparse_flag_u", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nu),
        KOKKOS_LAMBDA(const offset_t p) {
          const vertex_t i = ui(p);
          lbv(p) = elementwise::lower_bound(vi, nv, i);
          su(p) = mask_allows(mbits, masked, complement, i) ? 1 : 0;
        });
    Kokkos::parallel_for(
        "bitgraph::ewise_add::sparse_flag_v", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nv),
        KOKKOS_LAMBDA(const offset_t q) {
          const vertex_t j = vi(q);
          const offset_t lb = elementwise::lower_bound(ui, nu, j);
          lbu(q) = lb;
          const bool in_u = lb < nu && ui(lb) == j;
          sv(q) = (!in_u && mask_allows(mbits, masked, complement, j)) ? 1 : 0;
        });
    const offset_t ku = detail::exclusive_scan(exec, su);
    const offset_t kv = detail::exclusive_scan(exec, sv);
    sparse_vector<T, mem> out = make_output(u.n, ku + kv, with_values);
    auto oi = out.indices;
    auto ov = out.values;
    const Op f = op;
    // Rank of a kept entry = kept entries of u before it + kept entries of v before it.
    Kokkos::parallel_for(
        "bitgraph::ewise_add::sparse_fill_u", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nu),
        KOKKOS_LAMBDA(const offset_t p) {
          if (su(p + 1) == su(p)) return;
          const offset_t lb = lbv(p);
          const offset_t r = su(p) + sv(lb);
          const vertex_t i = ui(p);
          oi(r) = i;
          if (with_values) {
            const T x = uhas ? uval(p) : T(1);
            if (lb < nv && vi(lb) == i) ov(r) = elementwise::apply_binary(f, x, vhas ? T(vval(lb)) : T(1), i);
            else ov(r) = x;
          }
        });
    Kokkos::parallel_for(
        "bitgraph::ewise_add::sparse_fill_v", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nv),
        KOKKOS_LAMBDA(const offset_t q) {
          if (sv(q + 1) == sv(q)) return;
          const offset_t r = sv(q) + su(lbu(q));
          oi(r) = vi(q);
          if (with_values) ov(r) = vhas ? vval(q) : T(1);
        });
    return out;
  }

  static sparse_vector<T, mem> intersect(const ExecSpace& exec, const mask_args<mem>& mask, const Op& op,
                                         const sparse_vector<T, mem>& u, const sparse_vector<T, mem>& v,
                                         bool with_values) {
    // Walk the shorter operand; `swapped` keeps op's argument order (u's entry first).
    const bool swapped = v.nnz < u.nnz;
    const sparse_vector<T, mem>& s = swapped ? v : u;
    const sparse_vector<T, mem>& l = swapped ? u : v;
    const offset_t ns = s.nnz, nl = l.nnz;
    auto si = s.indices;
    auto li = l.indices;
    auto sval = s.values;
    auto lval = l.values;
    const bool shas = sval.extent(0) > 0, lhas = lval.extent(0) > 0;
    const auto mbits = mask.bits;
    const bool masked = mask.masked, complement = mask.complement;
    auto keep = allocate_view<offsets>("bitgraph::ewise_mult::keep", ns + 1);
    auto pos = allocate_view<offsets>("bitgraph::ewise_mult::pos", ns, false);
    Kokkos::parallel_for(
        "bitgraph::ewise_mult::sparse_flag", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, ns),
        KOKKOS_LAMBDA(const offset_t p) {
          const vertex_t i = si(p);
          const offset_t lb = elementwise::lower_bound(li, nl, i);
          pos(p) = lb;
          keep(p) = (lb < nl && li(lb) == i && mask_allows(mbits, masked, complement, i)) ? 1 : 0;
        });
    const offset_t total = detail::exclusive_scan(exec, keep);
    sparse_vector<T, mem> out = make_output(u.n, total, with_values);
    auto oi = out.indices;
    auto ov = out.values;
    const Op f = op;
    Kokkos::parallel_for(
        "bitgraph::ewise_mult::sparse_fill", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, ns),
        KOKKOS_LAMBDA(const offset_t p) {
          if (keep(p + 1) == keep(p)) return;
          const offset_t r = keep(p);
          const vertex_t i = si(p);
          oi(r) = i;
          if (with_values) {
            const T x = shas ? sval(p) : T(1);
            const T y = lhas ? lval(pos(p)) : T(1);
            ov(r) = swapped ? elementwise::apply_binary(f, y, x, i) : elementwise::apply_binary(f, x, y, i);
          }
        });
    return out;
  }

  static sparse_vector<T, mem> make_output(vertex_t n, offset_t nnz, bool with_values) {
    sparse_vector<T, mem> out;
    out.n = n;
    out.nnz = nnz;
    out.indices = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sparse::indices", nnz, false);
    if (with_values) out.values = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", nnz, false);
    return out;
  }
};

template <class ExecSpace, class Mask, class Accum, class Op, class W, class U, class V>
void ewise_dense_entry(const char* func, const ExecSpace& exec, W& w, const Mask& mask, const Op& op, const U& u,
                       const V& v, typename W::non_const_value_type absent, bool mult) {
  using T = typename W::non_const_value_type;
  using mem = memory_space_t<ExecSpace>;
  static_assert(is_dense<U>::value && is_dense<V>::value, "both inputs must be dense vectors (1-D views)");
  static_assert(std::is_same_v<typename U::non_const_value_type, T> && std::is_same_v<typename V::non_const_value_type, T>,
                "the inputs' value type must be the output's");
  static_assert(elementwise::is_binary_op_v<Op, T>, "op needs combine(a, b), apply(a, b) or apply(a, b, i, j)");
  elementwise::check_accumulator<Accum>(func);
  BITGRAPH_CHECK_ARG(u.extent(0) == w.extent(0), func, "first input has ", u.extent(0), " entries but the output has ",
                     w.extent(0));
  BITGRAPH_CHECK_ARG(v.extent(0) == w.extent(0), func, "second input has ", v.extent(0), " entries but the output has ",
                     w.extent(0));
  elementwise::check_mask_length(func, mask, w.extent(0));
  ewise_dense_impl<ExecSpace, Accum, Op, T>::run(exec, Kokkos::View<T*, mem>(w), to_mask_args<mem>(mask), op,
                                                 Kokkos::View<const T*, mem>(u), Kokkos::View<const T*, mem>(v), absent,
                                                 mult);
}

template <class ExecSpace, class Mask, class Accum>
void ewise_bits_entry(const char* func, const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask,
                      bit_op op, const bitmap<memory_space_t<ExecSpace>>& u,
                      const bitmap<memory_space_t<ExecSpace>>& v) {
  using mem = memory_space_t<ExecSpace>;
  elementwise::check_bitmap_accumulator<Accum>(func);
  BITGRAPH_CHECK_ARG(static_cast<int>(op) <= static_cast<int>(bit_op::landnot), func, "unknown bit operator ",
                     static_cast<int>(op));
  elementwise::check_bitmap(func, "output", w);
  elementwise::check_bitmap(func, "first input", u);
  elementwise::check_bitmap(func, "second input", v);
  BITGRAPH_CHECK_ARG(u.n == w.n, func, "first input has ", u.n, " bits but the output has ", w.n);
  BITGRAPH_CHECK_ARG(v.n == w.n, func, "second input has ", v.n, " bits but the output has ", w.n);
  elementwise::check_mask_length(func, mask, w.n);
  ewise_bits_impl<ExecSpace, Accum>::run(exec, w, to_mask_args<mem>(mask), op, u, v);
}

template <class ExecSpace, class Mask, class Op, class T>
sparse_vector<T, memory_space_t<ExecSpace>> ewise_sparse_entry(const char* func, const ExecSpace& exec, const Mask& mask,
                                                               const Op& op,
                                                               const sparse_vector<T, memory_space_t<ExecSpace>>& u,
                                                               const sparse_vector<T, memory_space_t<ExecSpace>>& v,
                                                               bool mult) {
  using mem = memory_space_t<ExecSpace>;
  static_assert(elementwise::is_binary_op_v<Op, T>, "op needs combine(a, b), apply(a, b) or apply(a, b, i, j)");
  elementwise::check_sparse(func, "first input", u);
  elementwise::check_sparse(func, "second input", v);
  BITGRAPH_CHECK_ARG(u.n == v.n, func, "first input has dimension ", u.n, " but the second has ", v.n);
  elementwise::check_mask_length(func, mask, u.n);
  auto out = ewise_sparse_impl<ExecSpace, Op, T>::run(exec, to_mask_args<mem>(mask), op, u, v, mult);
  exec.fence();
  return out;
}

}  // namespace detail

// ------------------------------------------------------------------------------------ public API

/// Dense w<mask> = accum(w, u ⊕ v), the union: at every position the mask allows, t = op(u(i), v(i))
/// when both are present, the present one when only one is, absent otherwise; then GraphBLAS merge
/// (`merge_dense`: excluded positions keep w or become absent under `replace`; an accumulator combines
/// old and new entries). An entry is present when it differs from `absent`, which defaults to op's
/// identity when op is a monoid (else the accumulator's, else T{}); a result equal to `absent` is
/// absent. One thread per entry, O(n). Throws `invalid_argument_error` on length mismatches.
template <class ExecSpace, class W, class Mask, class Accum, class Op, class U, class V>
  requires detail::is_dense<W>::value
void ewise_add(const ExecSpace& exec, W& w, const Mask& mask, const Accum&, const Op& op, const U& u, const V& v,
               typename W::non_const_value_type absent =
                   detail::elementwise::default_absent<typename W::non_const_value_type, Op, Accum>()) {
  detail::ewise_dense_entry<ExecSpace, Mask, Accum>("ewise_add", exec, w, mask, op, u, v, absent, false);
}

/// Dense w<mask> = accum(w, u ⊗ v), the intersection: t = op(u(i), v(i)) where both are present,
/// absent elsewhere; presence, `absent` and the merge as for `ewise_add`.
template <class ExecSpace, class W, class Mask, class Accum, class Op, class U, class V>
  requires detail::is_dense<W>::value
void ewise_mult(const ExecSpace& exec, W& w, const Mask& mask, const Accum&, const Op& op, const U& u, const V& v,
                typename W::non_const_value_type absent =
                    detail::elementwise::default_absent<typename W::non_const_value_type, Op, Accum>()) {
  detail::ewise_dense_entry<ExecSpace, Mask, Accum>("ewise_mult", exec, w, mask, op, u, v, absent, true);
}

/// Bitmap w<mask> = accum(w, u OP v) word by word (32 positions per thread). A bitmap holds a Boolean at
/// every position, so union and intersection coincide and `ewise_add` and `ewise_mult` compute the same
/// thing: OR is the union of the two sets of set bits, AND the intersection, XOR the symmetric
/// difference, ANDNOT the difference u \ v. Mask rules as mxv's bitmap outputs (`merge_output_bits`);
/// the only accumulator is LOR. Bits >= n stay zero.
template <class ExecSpace, class Mask, class Accum>
void ewise_add(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask, const Accum&, bit_op op,
               const bitmap<memory_space_t<ExecSpace>>& u, const bitmap<memory_space_t<ExecSpace>>& v) {
  detail::ewise_bits_entry<ExecSpace, Mask, Accum>("ewise_add", exec, w, mask, op, u, v);
}

/// Bitmap w<mask> = accum(w, u OP v); identical to the bitmap `ewise_add` (see there).
template <class ExecSpace, class Mask, class Accum>
void ewise_mult(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask, const Accum&, bit_op op,
                const bitmap<memory_space_t<ExecSpace>>& u, const bitmap<memory_space_t<ExecSpace>>& v) {
  detail::ewise_bits_entry<ExecSpace, Mask, Accum>("ewise_mult", exec, w, mask, op, u, v);
}

/// Sparse union as a new sparse vector: the indices of u or v the mask allows, with op(u, v) where both
/// have the index and the single value elsewhere. A structure-only operand's entries have value 1; the
/// result is structure-only when both operands are. O((nnz(u) + nnz(v)) log) work: per-entry binary
/// search, scan, fill.
template <class ExecSpace, class Mask, class Op, class T>
  requires detail::elementwise::is_mask_v<Mask>
sparse_vector<T, memory_space_t<ExecSpace>> ewise_add(const ExecSpace& exec, const Mask& mask, const Op& op,
                                                      const sparse_vector<T, memory_space_t<ExecSpace>>& u,
                                                      const sparse_vector<T, memory_space_t<ExecSpace>>& v) {
  return detail::ewise_sparse_entry("ewise_add", exec, mask, op, u, v, false);
}

/// Unmasked sparse union.
template <class ExecSpace, class Op, class T>
sparse_vector<T, memory_space_t<ExecSpace>> ewise_add(const ExecSpace& exec, const Op& op,
                                                      const sparse_vector<T, memory_space_t<ExecSpace>>& u,
                                                      const sparse_vector<T, memory_space_t<ExecSpace>>& v) {
  return detail::ewise_sparse_entry("ewise_add", exec, no_mask{}, op, u, v, false);
}

/// Sparse intersection as a new sparse vector: the indices in both u and v the mask allows, with
/// op(u, v). Walks the shorter operand with binary searches in the longer: O(min · log max).
template <class ExecSpace, class Mask, class Op, class T>
  requires detail::elementwise::is_mask_v<Mask>
sparse_vector<T, memory_space_t<ExecSpace>> ewise_mult(const ExecSpace& exec, const Mask& mask, const Op& op,
                                                       const sparse_vector<T, memory_space_t<ExecSpace>>& u,
                                                       const sparse_vector<T, memory_space_t<ExecSpace>>& v) {
  return detail::ewise_sparse_entry("ewise_mult", exec, mask, op, u, v, true);
}

/// Unmasked sparse intersection.
template <class ExecSpace, class Op, class T>
sparse_vector<T, memory_space_t<ExecSpace>> ewise_mult(const ExecSpace& exec, const Op& op,
                                                       const sparse_vector<T, memory_space_t<ExecSpace>>& u,
                                                       const sparse_vector<T, memory_space_t<ExecSpace>>& v) {
  return detail::ewise_sparse_entry("ewise_mult", exec, no_mask{}, op, u, v, true);
}

}  // namespace bitgraph
