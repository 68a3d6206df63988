// The dense reference representation of a valued CSR matrix shared by the CSR mxm and the matrix element-wise
// tests: a dense matrix of optional entries, its upload as a csr_matrix, the read-back that checks the CSR
// invariants on the way, and the GraphBLAS mask / accumulate / replace merge.
#pragma once

#include <catch2/catch_test_macros.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "bitgraph/formats/csr_matrix.hpp"

namespace bitgraph::test {

/// A dense matrix of optional entries: the reference's representation.
template <class T>
struct dense {
  vertex_t rows = 0, cols = 0;
  std::vector<std::optional<T>> d;
  dense(vertex_t r, vertex_t c) : rows(r), cols(c), d(std::size_t(r) * c) {}
  std::optional<T>& at(vertex_t i, vertex_t j) { return d[std::size_t(i) * cols + j]; }
  const std::optional<T>& at(vertex_t i, vertex_t j) const { return d[std::size_t(i) * cols + j]; }
  bool operator==(const dense&) const = default;
};

template <class T, class Exec>
csr_matrix<T, memory_space_t<Exec>> to_device(const Exec& exec, const dense<T>& m) {
  std::vector<offset_t> ptr{0};
  std::vector<vertex_t> col;
  std::vector<T> val;
  for (vertex_t i = 0; i < m.rows; ++i) {
    for (vertex_t j = 0; j < m.cols; ++j)
      if (m.at(i, j)) {
        col.push_back(j);
        val.push_back(*m.at(i, j));
      }
    ptr.push_back(col.size());
  }
  return make_csr_matrix<T>(exec, m.rows, m.cols, ptr, col, val);
}

/// Reads a device matrix back, checking the CSR invariants on the way.
template <class T, class Mem>
dense<T> to_host(const csr_matrix<T, Mem>& m) {
  dense<T> d(m.n_rows, m.n_cols);
  if (m.row_ptr.extent(0) == 0) {
    CHECK(m.nnz == 0);
    return d;
  }
  auto ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.col_idx);
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.values);
  REQUIRE(ptr.extent(0) == std::size_t(m.n_rows) + 1);
  REQUIRE(ptr(0) == 0);
  REQUIRE(ptr(m.n_rows) == m.nnz);
  for (vertex_t i = 0; i < m.n_rows; ++i) {
    REQUIRE(ptr(i) <= ptr(i + 1));
    for (offset_t p = ptr(i); p < ptr(i + 1); ++p) {
      REQUIRE(col(p) < m.n_cols);
      if (p > ptr(i)) REQUIRE(col(p - 1) < col(p));
      d.at(i, col(p)) = val(p);
    }
  }
  return d;
}

/// C<M, replace> = accum(C, T) as the GraphBLAS specification states it: Z = accum(C, T) (or T), then C = Z
/// where the mask allows, C (or nothing under replace) elsewhere. `mask` null means no mask.
template <class V>
dense<V> reference_merge(const dense<V>& c, const dense<V>& t, const dense<std::uint8_t>* mask, bool complement,
                         bool replace, const std::function<V(V, V)>& accum) {
  dense<V> out(c.rows, c.cols);
  for (vertex_t i = 0; i < c.rows; ++i)
    for (vertex_t j = 0; j < c.cols; ++j) {
      std::optional<V> z = t.at(i, j);
      if (accum) {
        if (c.at(i, j) && t.at(i, j))
          z = accum(*c.at(i, j), *t.at(i, j));
        else if (c.at(i, j))
          z = c.at(i, j);
      }
      const bool allowed = !mask || (mask->at(i, j).has_value() != complement);
      if (allowed)
        out.at(i, j) = z;
      else if (!replace)
        out.at(i, j) = c.at(i, j);
    }
  return out;
}

}  // namespace bitgraph::test
