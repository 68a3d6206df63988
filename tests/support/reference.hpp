// Dense host references for the ops tests: adjacency as a bool matrix, semiring products computed from
// their definition, and the GraphBLAS mask / accumulate / replace rules.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "bitgraph/formats/csr.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph::test {

/// Dense n x n adjacency (and weights) of a CSR graph, on the host.
struct dense_matrix {
  vertex_t n = 0;
  std::vector<std::uint8_t> a;  // row-major
  std::vector<double> w;        // weight of A(i, j) (1 when unweighted)
  bool operator()(vertex_t i, vertex_t j) const { return a[std::size_t(i) * n + j] != 0; }
  double weight(vertex_t i, vertex_t j) const { return w[std::size_t(i) * n + j]; }
};

template <class Graph>
dense_matrix to_dense_matrix(const Graph& g) {
  auto h = copy_to<Kokkos::HostSpace>(g);
  dense_matrix d;
  d.n = h.n;
  d.a.assign(std::size_t(h.n) * h.n, 0);
  d.w.assign(std::size_t(h.n) * h.n, 1.0);
  for (vertex_t i = 0; i < h.n; ++i)
    for (offset_t p = h.row_ptr(i); p < h.row_ptr(i + 1); ++p) {
      d.a[std::size_t(i) * h.n + h.col_idx(p)] = 1;
      if (h.has_weights) d.w[std::size_t(i) * h.n + h.col_idx(p)] = h.weights(p);
    }
  return d;
}

/// Reference product t = A ⊕.⊗ x (or A^T when `transpose`): x entries equal to the identity are absent;
/// `weighted` uses the stored weights as A's values, else 1.
template <class S>
std::vector<typename S::value_type> product(const dense_matrix& A, const std::vector<typename S::value_type>& x,
                                            bool transpose, bool weighted = false) {
  using T = typename S::value_type;
  std::vector<T> t(A.n, S::identity());
  for (vertex_t i = 0; i < A.n; ++i)
    for (vertex_t j = 0; j < A.n; ++j) {
      const bool e = transpose ? A(j, i) : A(i, j);
      if (!e || x[j] == S::identity()) continue;
      const T a = weighted ? static_cast<T>(transpose ? A.weight(j, i) : A.weight(i, j)) : S::one();
      t[i] = S::add(t[i], S::multiply(a, x[j], i, j));
    }
  return t;
}

/// The GraphBLAS rule for one output element (identity = absent).
template <class S, class Accum>
typename S::value_type merge(typename S::value_type old, typename S::value_type t, bool allowed, bool replace) {
  if (!allowed) return replace ? S::identity() : old;
  if constexpr (std::is_same_v<Accum, no_accumulator>) {
    return t;
  } else {
    if (t == S::identity()) return old;
    return Accum::monoid::combine(old, t);
  }
}

/// Random 0/1 pattern of length n with about `density` ones.
inline std::vector<std::uint8_t> random_bits(vertex_t n, double density, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution d(density);
  std::vector<std::uint8_t> b(n);
  for (auto& v : b) v = d(rng) ? 1 : 0;
  return b;
}

}  // namespace bitgraph::test
