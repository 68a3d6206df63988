// Element-wise add (union) and multiply (intersection) of dense vectors, bitmaps and sparse vectors with
// any binary operator (ops/operators.hpp), under the GraphBLAS mask / accumulate / replace rules.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "bitgraph/backends/ewise.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/ops/options.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// Dense w<mask> = accum(w, u ⊕ v), the union: at every position the mask allows, t = op(u(i), v(i))
/// when both are present, the present one when only one is, absent otherwise; then the GraphBLAS merge
/// (excluded positions keep w or become absent under `replace`; an accumulator combines old and new
/// entries). An entry is present when it differs from `absent`, which defaults to op's identity when op is
/// a monoid (else the accumulator's, else T{}); a result equal to `absent` is absent. One thread per
/// entry, O(n). Throws `invalid_argument_error` on length mismatches. Asynchronous on `exec`.
template <class ExecSpace, class W, class Mask, class Accum, class Op, class U, class V>
requires detail::is_dense<W>::value void ewise_add(
    const ExecSpace& exec, W& w, const Mask& mask, const Accum&, const Op& op, const U& u, const V& v,
    typename W::non_const_value_type absent = detail::default_absent<typename W::non_const_value_type, Op, Accum>());

/// Dense w<mask> = accum(w, u ⊗ v), the intersection: t = op(u(i), v(i)) where both are present, absent
/// elsewhere; presence, `absent`, the merge, errors and fencing as for `ewise_add`.
template <class ExecSpace, class W, class Mask, class Accum, class Op, class U, class V>
requires detail::is_dense<W>::value void ewise_mult(
    const ExecSpace& exec, W& w, const Mask& mask, const Accum&, const Op& op, const U& u, const V& v,
    typename W::non_const_value_type absent = detail::default_absent<typename W::non_const_value_type, Op, Accum>());

/// Bitmap w<mask> = accum(w, u OP v) word by word (32 positions per thread). A bitmap holds a Boolean at
/// every position, so union and intersection coincide and `ewise_add` and `ewise_mult` compute the same
/// thing: OR is the union of the two sets of set bits, AND the intersection, XOR the symmetric difference,
/// ANDNOT the difference u \ v. The only accumulator is LOR; bits >= n stay zero. O(n / 32). Throws
/// `invalid_argument_error` on length mismatches or an unknown operator. Asynchronous on `exec`.
template <class ExecSpace, class Mask, class Accum>
void ewise_add(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask, const Accum&, bit_op op,
               const bitmap<memory_space_t<ExecSpace>>& u, const bitmap<memory_space_t<ExecSpace>>& v);

/// Bitmap w<mask> = accum(w, u OP v); identical to the bitmap `ewise_add` (see there).
template <class ExecSpace, class Mask, class Accum>
void ewise_mult(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask, const Accum&, bit_op op,
                const bitmap<memory_space_t<ExecSpace>>& u, const bitmap<memory_space_t<ExecSpace>>& v);

/// Sparse union as a new sparse vector: the indices of u or v the mask allows, with op(u, v) where both
/// have the index and the single value elsewhere. A structure-only operand's entries have value 1; the
/// result is structure-only when both operands are. O((nnz(u) + nnz(v)) log) work: per-entry binary
/// search, scan, fill. Throws `invalid_argument_error` on inconsistent operands. Fences `exec`.
template <class ExecSpace, class Mask, class Op, class T>
requires detail::is_mask_v<Mask> sparse_vector<T, memory_space_t<ExecSpace>> ewise_add(
    const ExecSpace& exec, const Mask& mask, const Op& op, const sparse_vector<T, memory_space_t<ExecSpace>>& u,
    const sparse_vector<T, memory_space_t<ExecSpace>>& v);

/// Sparse intersection as a new sparse vector: the indices in both u and v the mask allows, with
/// op(u, v). Walks the shorter operand with binary searches in the longer: O(min · log max). Fences `exec`.
template <class ExecSpace, class Mask, class Op, class T>
requires detail::is_mask_v<Mask> sparse_vector<T, memory_space_t<ExecSpace>> ewise_mult(
    const ExecSpace& exec, const Mask& mask, const Op& op, const sparse_vector<T, memory_space_t<ExecSpace>>& u,
    const sparse_vector<T, memory_space_t<ExecSpace>>& v);

/// Unmasked sparse union.
template <class ExecSpace, class Op, class T>
sparse_vector<T, memory_space_t<ExecSpace>> ewise_add(const ExecSpace& exec, const Op& op,
                                                      const sparse_vector<T, memory_space_t<ExecSpace>>& u,
                                                      const sparse_vector<T, memory_space_t<ExecSpace>>& v) {
  return ewise_add(exec, no_mask{}, op, u, v);
}

/// Unmasked sparse intersection.
template <class ExecSpace, class Op, class T>
sparse_vector<T, memory_space_t<ExecSpace>> ewise_mult(const ExecSpace& exec, const Op& op,
                                                       const sparse_vector<T, memory_space_t<ExecSpace>>& u,
                                                       const sparse_vector<T, memory_space_t<ExecSpace>>& v) {
  return ewise_mult(exec, no_mask{}, op, u, v);
}

namespace detail {

/// The names of the two faces, for errors and profiling regions.
inline const char* ewise_name(bool mult) { return mult ? "ewise_mult" : "ewise_add"; }
inline const char* ewise_region(bool mult) { return mult ? "bitgraph::ewise_mult" : "bitgraph::ewise_add"; }

template <class ExecSpace, class Mask, class Accum, class Op, class W, class U, class V>
void ewise_dense(bool mult, const ExecSpace& exec, W& w, const Mask& mask, const Op& op, const U& u, const V& v,
                 typename W::non_const_value_type absent) {
  const char* func = ewise_name(mult);
  using T = typename W::non_const_value_type;
  using mem = memory_space_t<ExecSpace>;
  static_assert(is_dense<U>::value && is_dense<V>::value, "both inputs must be dense vectors (1-D views)");
  static_assert(
      std::is_same_v<typename U::non_const_value_type, T> && std::is_same_v<typename V::non_const_value_type, T>,
      "the inputs' value type must be the output's");
  static_assert(elementwise::is_binary_op_v<Op, T>, "op needs combine(a, b), apply(a, b) or apply(a, b, i, j)");
  check_accumulator<Accum>(func);
  BITGRAPH_CHECK_ARG(u.extent(0) == w.extent(0), func, "first input has ", u.extent(0), " entries but the output has ",
                     w.extent(0));
  BITGRAPH_CHECK_ARG(v.extent(0) == w.extent(0), func, "second input has ", v.extent(0), " entries but the output has ",
                     w.extent(0));
  check_mask_length(func, mask, w.extent(0));
  profiling_region region(ewise_region(mult));
  ewise_dense_impl<ExecSpace, Accum, Op, T>::run(exec, Kokkos::View<T*, mem>(w), to_mask_args<mem>(mask), op,
                                                 Kokkos::View<const T*, mem>(u), Kokkos::View<const T*, mem>(v), absent,
                                                 mult);
}

template <class ExecSpace, class Mask, class Accum>
void ewise_bits(bool mult, const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask, bit_op op,
                const bitmap<memory_space_t<ExecSpace>>& u, const bitmap<memory_space_t<ExecSpace>>& v) {
  const char* func = ewise_name(mult);
  using mem = memory_space_t<ExecSpace>;
  check_bitmap_accumulator<Accum>(func);
  BITGRAPH_CHECK_ARG(static_cast<int>(op) <= static_cast<int>(bit_op::landnot), func, "unknown bit operator ",
                     static_cast<int>(op));
  check_bitmap(func, "output", w);
  check_bitmap(func, "first input", u);
  check_bitmap(func, "second input", v);
  BITGRAPH_CHECK_ARG(u.n == w.n, func, "first input has ", u.n, " bits but the output has ", w.n);
  BITGRAPH_CHECK_ARG(v.n == w.n, func, "second input has ", v.n, " bits but the output has ", w.n);
  check_mask_length(func, mask, w.n);
  profiling_region region(ewise_region(mult));
  ewise_bits_impl<ExecSpace, Accum>::run(exec, w, to_mask_args<mem>(mask), op, u, v);
}

template <class ExecSpace, class Mask, class Op, class T>
sparse_vector<T, memory_space_t<ExecSpace>> ewise_sparse(bool mult, const ExecSpace& exec, const Mask& mask,
                                                         const Op& op,
                                                         const sparse_vector<T, memory_space_t<ExecSpace>>& u,
                                                         const sparse_vector<T, memory_space_t<ExecSpace>>& v) {
  const char* func = ewise_name(mult);
  using mem = memory_space_t<ExecSpace>;
  static_assert(elementwise::is_binary_op_v<Op, T>, "op needs combine(a, b), apply(a, b) or apply(a, b, i, j)");
  check_sparse(func, "first input", u);
  check_sparse(func, "second input", v);
  BITGRAPH_CHECK_ARG(u.n == v.n, func, "first input has dimension ", u.n, " but the second has ", v.n);
  check_mask_length(func, mask, u.n);
  profiling_region region(ewise_region(mult));
  auto out = ewise_sparse_impl<ExecSpace, Op, T>::run(exec, to_mask_args<mem>(mask), op, u, v, mult);
  exec.fence();
  return out;
}

}  // namespace detail

template <class ExecSpace, class W, class Mask, class Accum, class Op, class U, class V>
requires detail::is_dense<W>::value void ewise_add(const ExecSpace& exec, W& w, const Mask& mask, const Accum&,
                                                   const Op& op, const U& u, const V& v,
                                                   typename W::non_const_value_type absent) {
  detail::ewise_dense<ExecSpace, Mask, Accum>(false, exec, w, mask, op, u, v, absent);
}

template <class ExecSpace, class W, class Mask, class Accum, class Op, class U, class V>
requires detail::is_dense<W>::value void ewise_mult(const ExecSpace& exec, W& w, const Mask& mask, const Accum&,
                                                    const Op& op, const U& u, const V& v,
                                                    typename W::non_const_value_type absent) {
  detail::ewise_dense<ExecSpace, Mask, Accum>(true, exec, w, mask, op, u, v, absent);
}

template <class ExecSpace, class Mask, class Accum>
void ewise_add(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask, const Accum&, bit_op op,
               const bitmap<memory_space_t<ExecSpace>>& u, const bitmap<memory_space_t<ExecSpace>>& v) {
  detail::ewise_bits<ExecSpace, Mask, Accum>(false, exec, w, mask, op, u, v);
}

template <class ExecSpace, class Mask, class Accum>
void ewise_mult(const ExecSpace& exec, bitmap<memory_space_t<ExecSpace>>& w, const Mask& mask, const Accum&, bit_op op,
                const bitmap<memory_space_t<ExecSpace>>& u, const bitmap<memory_space_t<ExecSpace>>& v) {
  detail::ewise_bits<ExecSpace, Mask, Accum>(true, exec, w, mask, op, u, v);
}

template <class ExecSpace, class Mask, class Op, class T>
requires detail::is_mask_v<Mask> sparse_vector<T, memory_space_t<ExecSpace>> ewise_add(
    const ExecSpace& exec, const Mask& mask, const Op& op, const sparse_vector<T, memory_space_t<ExecSpace>>& u,
    const sparse_vector<T, memory_space_t<ExecSpace>>& v) {
  return detail::ewise_sparse(false, exec, mask, op, u, v);
}

template <class ExecSpace, class Mask, class Op, class T>
requires detail::is_mask_v<Mask> sparse_vector<T, memory_space_t<ExecSpace>> ewise_mult(
    const ExecSpace& exec, const Mask& mask, const Op& op, const sparse_vector<T, memory_space_t<ExecSpace>>& u,
    const sparse_vector<T, memory_space_t<ExecSpace>>& v) {
  return detail::ewise_sparse(true, exec, mask, op, u, v);
}

}  // namespace bitgraph
