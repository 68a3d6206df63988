// Reductions with a monoid: a dense vector, a sparse vector's values or a bitmap to a scalar, and a
// matrix to a vector: row and column reductions of a B2SR pattern (popcounts: out- and in-degrees) and
// row reductions of a CSR graph over its weights.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "bitgraph/backends/reduce.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

// All reductions return or write monoid values; the vector forms read the result back (they fence
// `exec`), the matrix forms are asynchronous. Bad lengths throw `invalid_argument_error`.

/// The monoid sum of a dense vector's entries; entries equal to the identity are absent (skipped).
/// Returns the identity for an empty vector. O(n), a parallel reduction.
template <class ExecSpace, class M, class V>
requires detail::is_dense<V>::value typename M::value_type reduce(const ExecSpace& exec, const M&, const V& u);

/// The monoid sum of a sparse vector's stored values (each 1 in a structure-only vector, so PLUS counts
/// the entries). O(nnz).
template <class ExecSpace, class M>
typename M::value_type reduce(const ExecSpace& exec, const M&,
                              const sparse_vector<typename M::value_type, memory_space_t<ExecSpace>>& u);

/// The monoid sum of a bitmap read as a vector of ones at its set bits: with PLUS the number of set bits
/// (per-word popcounts), with LOR (or MAX) whether any bit is set. One thread per 32-bit word.
template <class ExecSpace, class M>
typename M::value_type reduce(const ExecSpace& exec, const M&, const bitmap<memory_space_t<ExecSpace>>& b);

/// w<mask> = accum(w, ⊕_j A(i, j)) for a B2SR pattern (every entry is 1): PLUS gives row popcounts
/// (out-degrees), LOR "row non-empty", MIN/MAX 1 or the identity. Empty rows yield the identity, which is
/// absent in the merge (rules of `ewise_add` with absent = the monoid's identity). O(tiles · T + n).
template <class ExecSpace, class W, class Mask, class Accum, class M>
requires detail::is_dense<W>::value void reduce_rows(const ExecSpace& exec, W& w, const Mask& mask, const Accum&,
                                                     const M&, const b2sr_matrix<memory_space_t<ExecSpace>>& a);

/// w<mask> = accum(w, ⊕_i A(i, j)) for a B2SR pattern: column reductions (PLUS: in-degrees), from every
/// tile's column counts added atomically. Rules as `reduce_rows`.
template <class ExecSpace, class W, class Mask, class Accum, class M>
requires detail::is_dense<W>::value void reduce_columns(const ExecSpace& exec, W& w, const Mask& mask, const Accum&,
                                                        const M&, const b2sr_matrix<memory_space_t<ExecSpace>>& a);

/// w<mask> = accum(w, ⊕_j A(i, j)) for a CSR graph, over the edge weights (converted to the monoid's
/// type) or 1 for an unweighted graph; duplicates, if kept, each contribute. One thread per row, O(nnz).
template <class ExecSpace, class W, class Mask, class Accum, class M>
requires detail::is_dense<W>::value void reduce_rows(const ExecSpace& exec, W& w, const Mask& mask, const Accum&,
                                                     const M&, const csr_graph<memory_space_t<ExecSpace>>& g);

/// Out-degree (row popcount) of every vertex of a B2SR pattern, as a new view. Fences `exec`.
template <class ExecSpace>
Kokkos::View<offset_t*, memory_space_t<ExecSpace>> out_degrees(const ExecSpace& exec,
                                                               const b2sr_matrix<memory_space_t<ExecSpace>>& a);

/// In-degree (column popcount) of every vertex of a B2SR pattern, as a new view. Fences `exec`.
template <class ExecSpace>
Kokkos::View<offset_t*, memory_space_t<ExecSpace>> in_degrees(const ExecSpace& exec,
                                                              const b2sr_matrix<memory_space_t<ExecSpace>>& a);

namespace detail {

template <class M>
void check_monoid() {
  static_assert(elementwise::has_identity<M>::value && elementwise::has_combine<M, typename M::value_type>::value,
                "a reduction needs a monoid: value_type, identity() and combine(a, b)");
}

template <class W, class Mask, class Accum, class M>
void check_matrix_reduce(const char* func, const W& w, const Mask& mask, std::uint64_t n) {
  static_assert(std::is_same_v<typename W::non_const_value_type, typename M::value_type>,
                "the output's value type must be the monoid's");
  check_monoid<M>();
  check_accumulator<Accum>(func);
  BITGRAPH_CHECK_ARG(w.extent(0) == n, func, "output has ", w.extent(0), " entries but the matrix has ", n);
  check_mask_length(func, mask, n);
}

template <class ExecSpace, class M, class Source>
typename M::value_type reduce_vector(const ExecSpace& exec, const Source& src, offset_t count) {
  profiling_region region("bitgraph::reduce");
  return reduce_vector_impl<ExecSpace, M, Source>::run(exec, src, count);
}

template <class ExecSpace, class W, class Mask, class Accum, class M>
void b2sr_reduce(const char* func, const ExecSpace& exec, W& w, const Mask& mask,
                 const b2sr_matrix<memory_space_t<ExecSpace>>& a, bool rows) {
  using mem = memory_space_t<ExecSpace>;
  check_matrix_reduce<W, Mask, Accum, M>(func, w, mask, a.n);
  profiling_region region(rows ? "bitgraph::reduce_rows" : "bitgraph::reduce_columns");
  b2sr_reduce_impl<ExecSpace, M, Accum>::run(exec, Kokkos::View<typename M::value_type*, mem>(w),
                                             to_mask_args<mem>(mask), a, rows);
}

template <class ExecSpace>
Kokkos::View<offset_t*, memory_space_t<ExecSpace>> b2sr_degrees(const ExecSpace& exec,
                                                                const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                                bool rows) {
  profiling_region region(rows ? "bitgraph::out_degrees" : "bitgraph::in_degrees");
  auto d = b2sr_degrees_impl<ExecSpace>::run(exec, a, rows);
  exec.fence();
  return d;
}

}  // namespace detail

template <class ExecSpace, class M, class V>
requires detail::is_dense<V>::value typename M::value_type reduce(const ExecSpace& exec, const M&, const V& u) {
  using T = typename M::value_type;
  using mem = memory_space_t<ExecSpace>;
  detail::check_monoid<M>();
  static_assert(std::is_same_v<typename V::non_const_value_type, T>, "the vector's value type must be the monoid's");
  detail::elementwise::dense_source<M, mem> src{Kokkos::View<const T*, mem>(u)};
  return detail::reduce_vector<ExecSpace, M>(exec, src, u.extent(0));
}

template <class ExecSpace, class M>
typename M::value_type reduce(const ExecSpace& exec, const M&,
                              const sparse_vector<typename M::value_type, memory_space_t<ExecSpace>>& u) {
  using T = typename M::value_type;
  using mem = memory_space_t<ExecSpace>;
  detail::check_monoid<M>();
  detail::check_sparse("reduce", "input", u);
  detail::elementwise::sparse_source<M, mem> src{Kokkos::View<const T*, mem>(u.values), u.values.extent(0) > 0};
  return detail::reduce_vector<ExecSpace, M>(exec, src, u.nnz);
}

template <class ExecSpace, class M>
typename M::value_type reduce(const ExecSpace& exec, const M&, const bitmap<memory_space_t<ExecSpace>>& b) {
  using mem = memory_space_t<ExecSpace>;
  detail::check_monoid<M>();
  detail::check_bitmap("reduce", "input", b);
  detail::elementwise::bitmap_source<M, mem> src{b.words};
  return detail::reduce_vector<ExecSpace, M>(exec, src, b.words.extent(0));
}

template <class ExecSpace, class W, class Mask, class Accum, class M>
requires detail::is_dense<W>::value void reduce_rows(const ExecSpace& exec, W& w, const Mask& mask, const Accum&,
                                                     const M&, const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  detail::b2sr_reduce<ExecSpace, W, Mask, Accum, M>("reduce_rows", exec, w, mask, a, true);
}

template <class ExecSpace, class W, class Mask, class Accum, class M>
requires detail::is_dense<W>::value void reduce_columns(const ExecSpace& exec, W& w, const Mask& mask, const Accum&,
                                                        const M&, const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  detail::b2sr_reduce<ExecSpace, W, Mask, Accum, M>("reduce_columns", exec, w, mask, a, false);
}

template <class ExecSpace, class W, class Mask, class Accum, class M>
requires detail::is_dense<W>::value void reduce_rows(const ExecSpace& exec, W& w, const Mask& mask, const Accum&,
                                                     const M&, const csr_graph<memory_space_t<ExecSpace>>& g) {
  using mem = memory_space_t<ExecSpace>;
  detail::check_matrix_reduce<W, Mask, Accum, M>("reduce_rows", w, mask, g.n);
  detail::profiling_region region("bitgraph::reduce_rows");
  detail::csr_reduce_rows_impl<ExecSpace, M, Accum>::run(exec, Kokkos::View<typename M::value_type*, mem>(w),
                                                         detail::to_mask_args<mem>(mask), g);
}

template <class ExecSpace>
Kokkos::View<offset_t*, memory_space_t<ExecSpace>> out_degrees(const ExecSpace& exec,
                                                               const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  return detail::b2sr_degrees(exec, a, true);
}

template <class ExecSpace>
Kokkos::View<offset_t*, memory_space_t<ExecSpace>> in_degrees(const ExecSpace& exec,
                                                              const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  return detail::b2sr_degrees(exec, a, false);
}

}  // namespace bitgraph
