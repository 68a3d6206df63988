// Selections: the entries of a CSR graph or a B2SR pattern in a band of diagonals (tril, triu, diag,
// offdiag around offset k), and the entries of a dense or sparse vector that satisfy a predicate
// (ops/operators.hpp).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/backends/select.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph {

// Every selection returns a new object and fences `exec`; an unknown selection or inconsistent input
// throws `invalid_argument_error`.

/// The entries of a CSR graph selected by their diagonal offset (see `select_kind`), weights kept, as a
/// new CSR (rows stay sorted). The result is directed unless the input is undirected and the selection
/// symmetric (diag / offdiag with k = 0). O(n + nnz): count, scan, fill. A malformed CSR throws
/// `invalid_argument_error` (`check_csr_graph`: extents always, the device pass unless `g.validated`).
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> select(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                            select_kind s, std::int64_t k = 0);

/// The same selection on a B2SR pattern: every tile is masked bitwise (a band of each word), tiles left
/// empty are dropped and the tile rows rebuilt (count, scan, fill); tile size and packing order are kept.
/// O(tiles · T).
template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> select(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                              select_kind s, std::int64_t k = 0);

/// The present entries of a dense vector (those that differ from `absent`, default T{}) for which
/// `pred.apply(i, x)` holds, as a new sparse vector with their values. O(n): flag, scan, fill. Throws
/// `size_error` for a vector longer than the vertex limit.
template <class ExecSpace, class V, class P>
requires detail::is_dense<V>::value sparse_vector<typename V::non_const_value_type, memory_space_t<ExecSpace>> select(
    const ExecSpace& exec, const V& u, const P& pred, typename V::non_const_value_type absent = {});

/// The entries of a sparse vector for which `pred.apply(i, x)` holds (x = 1 in a structure-only vector,
/// whose result is structure-only too), as a new sparse vector. O(nnz).
template <class ExecSpace, class T, class P>
sparse_vector<T, memory_space_t<ExecSpace>> select(const ExecSpace& exec,
                                                   const sparse_vector<T, memory_space_t<ExecSpace>>& u, const P& pred);

namespace detail {
inline void check_select_kind(select_kind s) {
  BITGRAPH_CHECK_ARG(static_cast<int>(s) <= static_cast<int>(select_kind::offdiag), "select", "unknown selection ",
                     static_cast<int>(s));
}
}  // namespace detail

template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> select(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                            select_kind s, std::int64_t k) {
  detail::check_select_kind(s);
  check_csr_graph(exec, g, "select");
  detail::profiling_region region("bitgraph::select");
  auto out = detail::csr_select_impl<ExecSpace>::run(exec, g, s, detail::elementwise::clamp_offset(k, g.n));
  exec.fence();
  return out;
}

template <class ExecSpace>
b2sr_matrix<memory_space_t<ExecSpace>> select(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                              select_kind s, std::int64_t k) {
  detail::check_select_kind(s);
  BITGRAPH_CHECK_ARG(valid_tile_dim(a.tile_dim), "select", "tile dimension ", a.tile_dim,
                     " is not one of 4, 8, 16, 32, 64");
  detail::profiling_region region("bitgraph::select");
  auto out = detail::b2sr_select_impl<ExecSpace>::run(exec, a, s, detail::elementwise::clamp_offset(k, a.n));
  exec.fence();
  return out;
}

template <class ExecSpace, class V, class P>
requires detail::is_dense<V>::value sparse_vector<typename V::non_const_value_type, memory_space_t<ExecSpace>> select(
    const ExecSpace& exec, const V& u, const P& pred, typename V::non_const_value_type absent) {
  using T = typename V::non_const_value_type;
  using mem = memory_space_t<ExecSpace>;
  static_assert(detail::elementwise::is_predicate<P, T>::value, "the predicate needs apply(i, x) returning bool");
  BITGRAPH_REQUIRE(u.extent(0) < max_vertices, size_error, "select", "vector of ", u.extent(0),
                   " entries exceeds the vertex limit");
  detail::profiling_region region("bitgraph::select");
  auto out = detail::select_vector_impl<ExecSpace, P, T>::run_dense(exec, pred, Kokkos::View<const T*, mem>(u), absent);
  exec.fence();
  return out;
}

template <class ExecSpace, class T, class P>
sparse_vector<T, memory_space_t<ExecSpace>> select(const ExecSpace& exec,
                                                   const sparse_vector<T, memory_space_t<ExecSpace>>& u,
                                                   const P& pred) {
  static_assert(detail::elementwise::is_predicate<P, T>::value, "the predicate needs apply(i, x) returning bool");
  detail::check_sparse("select", "input", u);
  detail::profiling_region region("bitgraph::select");
  auto out = detail::select_vector_impl<ExecSpace, P, T>::run_sparse(exec, pred, u);
  exec.fence();
  return out;
}

}  // namespace bitgraph
