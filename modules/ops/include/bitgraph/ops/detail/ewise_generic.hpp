// The portable element-wise kernels, primary templates of the ewise dispatch: dense union / intersection
// (one thread per entry), bitmap word operators (one thread per word) and sparse union / intersection by
// per-entry binary search, scan and fill.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph::detail {

/// Position of the first entry of `idx[0, n)` (ascending) that is >= key.
template <class Idx>
KOKKOS_INLINE_FUNCTION offset_t lower_bound(const Idx& idx, offset_t n, vertex_t key) {
  offset_t lo = 0, hi = n;
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (idx(mid) < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// ------------------------------------------------------------------------------------ dense

template <class Mem, class Accum, class Op, class T>
struct ewise_dense_functor {
  Kokkos::View<T*, Mem> out;
  Kokkos::View<const T*, Mem> a, b;
  mask_args<Mem> mask;
  Op op;
  T absent;
  bool mult;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i) const {
    const bool allowed = mask.allows(i);
    T t = absent;
    if (allowed) {
      const T x = a(i), y = b(i);
      const bool px = x != absent, py = y != absent;
      if (px && py)
        t = elementwise::apply_binary(op, x, y, static_cast<vertex_t>(i));
      else if (!mult)
        t = px ? x : y;
    }
    out(i) = merge_value<Accum>(out(i), t, allowed, mask.replace, absent);
  }
};

/// Dense w<mask> = accum(w, u ⊕ v) (union) or accum(w, u ⊗ v) (intersection, `mult`).
template <class ExecSpace, class Accum, class Op, class T>
struct ewise_dense_generic {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask, const Op& op,
                  const Kokkos::View<const T*, mem>& u, const Kokkos::View<const T*, mem>& v, T absent, bool mult) {
    Kokkos::parallel_for("bitgraph::ewise::dense",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, w.extent(0)),
                         ewise_dense_functor<mem, Accum, Op, T>{w, u, v, mask, op, absent, mult});
  }
};

template <class ExecSpace, class Accum, class Op, class T>
struct ewise_dense_impl : ewise_dense_generic<ExecSpace, Accum, Op, T> {};

// ------------------------------------------------------------------------------------ bitmaps

template <class Mem, class Accum>
struct ewise_bits_functor {
  Kokkos::View<std::uint32_t*, Mem> out;
  Kokkos::View<const std::uint32_t*, Mem> a, b;
  mask_args<Mem> mask;
  std::uint64_t n;
  bit_op op;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t wi) const {
    const std::uint32_t x = a(wi), y = b(wi);
    std::uint32_t t;
    switch (op) {
      case bit_op::lor:
        t = x | y;
        break;
      case bit_op::land:
        t = x & y;
        break;
      case bit_op::lxor:
        t = x ^ y;
        break;
      default:
        t = x & ~y;
        break;
    }
    out(wi) = merge_bits<Accum>(out(wi), t, mask.allowed_word(wi), valid_bits(wi, n), mask.replace);
  }
};

/// Bitmap w<mask> = accum(w, u OP v), one thread per 32-bit word.
template <class ExecSpace, class Accum>
struct ewise_bits_generic {
  using mem = memory_space_t<ExecSpace>;
  static void run(const ExecSpace& exec, const bitmap<mem>& w, const mask_args<mem>& mask, bit_op op,
                  const bitmap<mem>& u, const bitmap<mem>& v) {
    Kokkos::parallel_for("bitgraph::ewise::bits", Kokkos::RangePolicy<ExecSpace>(exec, 0, w.words.extent(0)),
                         ewise_bits_functor<mem, Accum>{w.words, u.words, v.words, mask, w.n, op});
  }
};

template <class ExecSpace, class Accum>
struct ewise_bits_impl : ewise_bits_generic<ExecSpace, Accum> {};

// ------------------------------------------------------------------------------------ sparse

/// Union, step 1 for the entries of u: where each lands in v, and whether the mask keeps it.
template <class Mem>
struct unite_flag_u {
  Kokkos::View<const vertex_t*, Mem> ui, vi;
  offset_t nv;
  Kokkos::View<offset_t*, Mem> keep_u, pos_in_v;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const {
    const vertex_t i = ui(p);
    pos_in_v(p) = lower_bound(vi, nv, i);
    keep_u(p) = mask.allows(i) ? 1 : 0;
  }
};

/// Union, step 1 for the entries of v: kept when u lacks the index and the mask allows it.
template <class Mem>
struct unite_flag_v {
  Kokkos::View<const vertex_t*, Mem> ui, vi;
  offset_t nu;
  Kokkos::View<offset_t*, Mem> keep_v, pos_in_u;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    const vertex_t j = vi(q);
    const offset_t lb = lower_bound(ui, nu, j);
    pos_in_u(q) = lb;
    const bool in_u = lb < nu && ui(lb) == j;
    keep_v(q) = (!in_u && mask.allows(j)) ? 1 : 0;
  }
};

/// Union, step 3 for the kept entries of u: rank = kept entries of u before it + kept entries of v before
/// it; the value is op(u, v) where v has the index too.
template <class Mem, class Op, class T>
struct unite_fill_u {
  Kokkos::View<const vertex_t*, Mem> ui, vi;
  Kokkos::View<const T*, Mem> uval, vval;
  offset_t nv;
  Kokkos::View<const offset_t*, Mem> keep_u, keep_v, pos_in_v;
  Kokkos::View<vertex_t*, Mem> oi;
  Kokkos::View<T*, Mem> ov;
  Op op;
  bool with_values, uhas, vhas;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const {
    if (keep_u(p + 1) == keep_u(p)) return;
    const offset_t lb = pos_in_v(p);
    const offset_t r = keep_u(p) + keep_v(lb);
    const vertex_t i = ui(p);
    oi(r) = i;
    if (with_values) {
      const T x = uhas ? uval(p) : T(1);
      if (lb < nv && vi(lb) == i)
        ov(r) = elementwise::apply_binary(op, x, vhas ? T(vval(lb)) : T(1), i);
      else
        ov(r) = x;
    }
  }
};

/// Union, step 3 for the kept entries of v (those u lacks).
template <class Mem, class T>
struct unite_fill_v {
  Kokkos::View<const vertex_t*, Mem> vi;
  Kokkos::View<const T*, Mem> vval;
  Kokkos::View<const offset_t*, Mem> keep_u, keep_v, pos_in_u;
  Kokkos::View<vertex_t*, Mem> oi;
  Kokkos::View<T*, Mem> ov;
  bool with_values, vhas;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    if (keep_v(q + 1) == keep_v(q)) return;
    const offset_t r = keep_v(q) + keep_u(pos_in_u(q));
    oi(r) = vi(q);
    if (with_values) ov(r) = vhas ? vval(q) : T(1);
  }
};

/// Intersection, step 1: each entry of the shorter operand looks itself up in the longer one.
template <class Mem>
struct intersect_flag {
  Kokkos::View<const vertex_t*, Mem> si, li;
  offset_t nl;
  Kokkos::View<offset_t*, Mem> keep, pos;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const {
    const vertex_t i = si(p);
    const offset_t lb = lower_bound(li, nl, i);
    pos(p) = lb;
    keep(p) = (lb < nl && li(lb) == i && mask.allows(i)) ? 1 : 0;
  }
};

/// Intersection, step 3: writes the kept entries; `swapped` keeps op's argument order (u's entry first).
template <class Mem, class Op, class T>
struct intersect_fill {
  Kokkos::View<const vertex_t*, Mem> si;
  Kokkos::View<const T*, Mem> sval, lval;
  Kokkos::View<const offset_t*, Mem> keep, pos;
  Kokkos::View<vertex_t*, Mem> oi;
  Kokkos::View<T*, Mem> ov;
  Op op;
  bool with_values, shas, lhas, swapped;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const {
    if (keep(p + 1) == keep(p)) return;
    const offset_t r = keep(p);
    const vertex_t i = si(p);
    oi(r) = i;
    if (with_values) {
      const T x = shas ? sval(p) : T(1);
      const T y = lhas ? lval(pos(p)) : T(1);
      ov(r) = swapped ? elementwise::apply_binary(op, y, x, i) : elementwise::apply_binary(op, x, y, i);
    }
  }
};

/// Sparse union / intersection by per-entry binary search: each entry of one operand looks itself up
/// in the other; flags of the entries that survive are scanned into output ranks, then written.
/// Intersections walk the shorter operand.
template <class ExecSpace, class Op, class T>
struct ewise_sparse_generic {
  using mem = memory_space_t<ExecSpace>;
  using offsets = Kokkos::View<offset_t*, mem>;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;

  static sparse_vector<T, mem> run(const ExecSpace& exec, const mask_args<mem>& mask, const Op& op,
                                   const sparse_vector<T, mem>& u, const sparse_vector<T, mem>& v, bool mult) {
    const bool with_values = u.values.extent(0) > 0 || v.values.extent(0) > 0;
    if (mult) return intersect(exec, mask, op, u, v, with_values);
    return unite(exec, mask, op, u, v, with_values);
  }

  static sparse_vector<T, mem> unite(const ExecSpace& exec, const mask_args<mem>& mask, const Op& op,
                                     const sparse_vector<T, mem>& u, const sparse_vector<T, mem>& v, bool with_values) {
    const offset_t nu = u.nnz, nv = v.nnz;
    auto keep_u = allocate_view<offsets>("bitgraph::ewise_add::keep_u", nu + 1);
    auto keep_v = allocate_view<offsets>("bitgraph::ewise_add::keep_v", nv + 1);
    auto pos_in_v = allocate_view<offsets>("bitgraph::ewise_add::pos_in_v", nu, false);
    auto pos_in_u = allocate_view<offsets>("bitgraph::ewise_add::pos_in_u", nv, false);
    Kokkos::parallel_for("bitgraph::ewise_add::sparse_flag_u", policy(exec, 0, nu),
                         unite_flag_u<mem>{u.indices, v.indices, nv, keep_u, pos_in_v, mask});
    Kokkos::parallel_for("bitgraph::ewise_add::sparse_flag_v", policy(exec, 0, nv),
                         unite_flag_v<mem>{u.indices, v.indices, nu, keep_v, pos_in_u, mask});
    const offset_t ku = exclusive_scan(exec, keep_u);
    const offset_t kv = exclusive_scan(exec, keep_v);
    sparse_vector<T, mem> out = make_output(u.n, ku + kv, with_values);
    const bool uhas = u.values.extent(0) > 0, vhas = v.values.extent(0) > 0;
    Kokkos::parallel_for("bitgraph::ewise_add::sparse_fill_u", policy(exec, 0, nu),
                         unite_fill_u<mem, Op, T>{u.indices, v.indices, u.values, v.values, nv, keep_u, keep_v,
                                                  pos_in_v, out.indices, out.values, op, with_values, uhas, vhas});
    Kokkos::parallel_for("bitgraph::ewise_add::sparse_fill_v", policy(exec, 0, nv),
                         unite_fill_v<mem, T>{v.indices, v.values, keep_u, keep_v, pos_in_u, out.indices, out.values,
                                              with_values, vhas});
    return out;
  }

  static sparse_vector<T, mem> intersect(const ExecSpace& exec, const mask_args<mem>& mask, const Op& op,
                                         const sparse_vector<T, mem>& u, const sparse_vector<T, mem>& v,
                                         bool with_values) {
    // Walk the shorter operand; `swapped` keeps op's argument order (u's entry first).
    const bool swapped = v.nnz < u.nnz;
    const sparse_vector<T, mem>& s = swapped ? v : u;
    const sparse_vector<T, mem>& l = swapped ? u : v;
    const offset_t ns = s.nnz;
    auto keep = allocate_view<offsets>("bitgraph::ewise_mult::keep", ns + 1);
    auto pos = allocate_view<offsets>("bitgraph::ewise_mult::pos", ns, false);
    Kokkos::parallel_for("bitgraph::ewise_mult::sparse_flag", policy(exec, 0, ns),
                         intersect_flag<mem>{s.indices, l.indices, l.nnz, keep, pos, mask});
    const offset_t total = exclusive_scan(exec, keep);
    sparse_vector<T, mem> out = make_output(u.n, total, with_values);
    Kokkos::parallel_for(
        "bitgraph::ewise_mult::sparse_fill", policy(exec, 0, ns),
        intersect_fill<mem, Op, T>{s.indices, s.values, l.values, keep, pos, out.indices, out.values, op, with_values,
                                   s.values.extent(0) > 0, l.values.extent(0) > 0, swapped});
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

template <class ExecSpace, class Op, class T>
struct ewise_sparse_impl : ewise_sparse_generic<ExecSpace, Op, T> {};

}  // namespace bitgraph::detail
