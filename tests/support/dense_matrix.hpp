// The dense reference representation of a valued CSR matrix shared by the CSR mxm and the matrix element-wise,
// apply and assign tests: a dense matrix of optional entries, random ones and their transpose, its upload as a
// csr_matrix, the read-back that checks the CSR invariants on the way, the mask kinds of the trials, and the
// GraphBLAS mask / accumulate / replace merge; and the random bit patterns of the B2SR mxm and ewise tests.
#pragma once

#include <catch2/catch_test_macros.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <random>
#include <vector>

#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/formats/edge_list.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/semirings/semirings.hpp"
#include "support/random_graphs.hpp"

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

/// Random pattern (a row left empty with probability `empty_row`) with values value(rng).
template <class T, class Gen>
dense<T> random_dense_by(vertex_t r, vertex_t c, double density, std::mt19937_64& rng, Gen value, double empty_row) {
  dense<T> m(r, c);
  std::uniform_real_distribution<double> u(0, 1);
  for (vertex_t i = 0; i < r; ++i) {
    if (u(rng) < empty_row) continue;  // empty row
    for (vertex_t j = 0; j < c; ++j)
      if (u(rng) < density) m.at(i, j) = value(rng);
  }
  return m;
}

/// Random pattern (a fifth of the rows forced empty) with small integral values in [lo, hi] (exact in double too).
template <class T>
dense<T> random_dense(vertex_t r, vertex_t c, double density, std::mt19937_64& rng, int lo = -6, int hi = 9) {
  std::uniform_int_distribution<int> v(lo, hi);
  return random_dense_by<T>(
      r, c, density, rng, [&](std::mt19937_64& g) { return static_cast<T>(v(g)); }, 0.2);
}

/// The dense transpose.
template <class T>
dense<T> transposed(const dense<T>& m) {
  dense<T> t(m.cols, m.rows);
  for (vertex_t i = 0; i < m.rows; ++i)
    for (vertex_t j = 0; j < m.cols; ++j) t.at(j, i) = m.at(i, j);
  return t;
}

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

/// A trial's shape and the density of its random operands.
struct shape {
  vertex_t rows, cols;
  double density;
};

/// The mask kinds of a trial: none, plain, complemented, replace, both, and an array-less matrix of C's shape
/// (a mask that stores nothing).
enum class mask_kind { none, plain, complement, replace, complement_replace, empty_pattern };
inline constexpr mask_kind mask_kinds[] = {
    mask_kind::none,         mask_kind::plain, mask_kind::complement, mask_kind::replace, mask_kind::complement_replace,
    mask_kind::empty_pattern};
inline bool complement_of(mask_kind k) { return k == mask_kind::complement || k == mask_kind::complement_replace; }
inline bool replace_of(mask_kind k) { return k == mask_kind::replace || k == mask_kind::complement_replace; }

/// The mask argument of a kind (`m` for plain ones), handed to `f`.
template <class Mem, class F>
void with_mask(mask_kind kind, const csr_matrix<std::uint8_t, Mem>& m, vertex_t rows, vertex_t cols, F&& f) {
  const bool complement = complement_of(kind), replace = replace_of(kind);
  if (kind == mask_kind::none) {
    f(no_mask{});
  } else if (kind == mask_kind::empty_pattern) {
    csr_matrix<std::uint8_t, Mem> nothing;  // no arrays: stores nothing
    nothing.n_rows = rows;
    nothing.n_cols = cols;
    f(mask_of(nothing, complement, replace));
  } else {
    f(mask_of(m, complement, replace));
  }
}

/// The reference's mask of a kind: null without one, `no_entries` for the array-less one, `m` otherwise.
inline const dense<std::uint8_t>* reference_mask(mask_kind kind, const dense<std::uint8_t>& m,
                                                 const dense<std::uint8_t>& no_entries) {
  return kind == mask_kind::none ? nullptr : (kind == mask_kind::empty_pattern ? &no_entries : &m);
}

/// Calls f(accum) when `with_accum`, else f(no_accumulator{}).
template <class Accum, class F>
void with_accum_if(bool with_accum, const Accum& accum, F&& f) {
  if (with_accum)
    f(accum);
  else
    f(no_accumulator{});
}

/// f(kind, with_accum, fresh_c) for every mask kind x accumulator (none, given) x old C (random, array-less)
/// that `thin` keeps.
template <class Thinning, class F>
void for_each_merge_trial(Thinning& thin, F&& f) {
  for (auto kind : mask_kinds)
    for (bool with_accum : {false, true})
      for (bool fresh_c : {false, true})
        if (thin.keep()) f(kind, with_accum, fresh_c);
}

/// One trial of an op computing C<M, replace> = accum(C, T): the old C is `dc`, or an array-less matrix of its
/// shape when `fresh_c`; `run(c, mask, accumulator)` calls the op on the device C with the mask of `kind` (`mk`
/// for the plain kinds, `dm` its reference) and `accum` (`accum_ref` its reference) or none. Checks C against the
/// reference merge and that C's old arrays are untouched; returns whether the expected C differs from the old
/// one (a no-op would fail such a trial).
template <class T, class Exec, class Mem, class Accum, class Run>
bool check_masked_merge(const Exec& exec, const dense<T>& dc, bool fresh_c, const dense<T>& t, mask_kind kind,
                        const dense<std::uint8_t>& dm, const csr_matrix<std::uint8_t, Mem>& mk, bool with_accum,
                        const Accum& accum, const std::function<T(T, T)>& accum_ref, Run&& run) {
  const dense<T> c0 = fresh_c ? dense<T>(dc.rows, dc.cols) : dc;
  const dense<std::uint8_t> no_entries(dc.rows, dc.cols);
  const auto expected = reference_merge<T>(c0, t, reference_mask(kind, dm, no_entries), complement_of(kind),
                                           replace_of(kind), with_accum ? accum_ref : std::function<T(T, T)>{});
  csr_matrix<T, memory_space_t<Exec>> c;
  c.n_rows = dc.rows;
  c.n_cols = dc.cols;
  if (!fresh_c) c = to_device(exec, dc);
  const auto c_before = c;
  with_mask(kind, mk, dc.rows, dc.cols,
            [&](const auto& m) { with_accum_if(with_accum, accum, [&](const auto& acc) { run(c, m, acc); }); });
  CHECK(to_host(c) == expected);
  CHECK(to_host(c_before) == c0);  // the old arrays are untouched
  return !(expected == c0);
}

/// Random entries (repeats merge), a self-loop on every `loop_every`-th vertex and `empty_rows` empty rows from n / 2.
inline edge_list pattern_edges(std::uint64_t n, std::uint64_t m, std::uint64_t seed, vertex_t loop_every,
                               std::uint64_t empty_rows) {
  auto el = random_edges(n, m, seed);
  edge_list out;
  out.num_vertices = n;
  for (std::size_t e = 0; e < el.size(); ++e)
    if (el.src[e] < n / 2 || el.src[e] >= n / 2 + empty_rows) {
      out.src.push_back(el.src[e]);
      out.dst.push_back(el.dst[e]);
    }
  for (vertex_t i = 0; i < n; i += loop_every) {
    out.src.push_back(i);
    out.dst.push_back(i);
  }
  return out;
}

/// The dense 0/1 matrix of an edge list's pattern.
inline dense<std::uint8_t> to_bits(const edge_list& el) {
  const auto n = static_cast<vertex_t>(el.num_vertices);
  dense<std::uint8_t> d(n, n);
  for (std::size_t e = 0; e < el.size(); ++e) d.at(el.src[e], el.dst[e]) = 1;
  return d;
}

/// B2SR operands whose shapes disagree, for the argument checks of the B2SR ops: `a8` and `a16` hold one random
/// 20-vertex pattern at tile dimensions 8 and 16, `b8` a 21-vertex one at 8 (all row-major), `h` that 21-vertex
/// pattern as CSR.
template <class ExecSpace>
struct mismatched_b2sr {
  csr_graph<memory_space_t<ExecSpace>> h;
  b2sr_matrix<memory_space_t<ExecSpace>> a8, a16, b8;
  explicit mismatched_b2sr(const ExecSpace& exec) : h(build_csr(exec, random_edges(21, 50, 2))) {
    auto g = build_csr(exec, random_edges(20, 50, 1));
    a8 = to_b2sr(exec, g, {8, bit_order::row_major});
    a16 = to_b2sr(exec, g, {16, bit_order::row_major});
    b8 = to_b2sr(exec, h, {8, bit_order::row_major});
  }
};

}  // namespace bitgraph::test
