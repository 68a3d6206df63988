// What the product tests share: graphs with a hub row, mask cases, bitmap helpers, and one checked run of a
// pull product on random operands against the dense reference.
#pragma once

#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/mask.hpp"
#include "support/random_graphs.hpp"
#include "support/reference.hpp"
#include "support/spaces.hpp"

namespace bitgraph::test {

/// The set of (row, column) entries of a CSR graph, read on the host.
using pattern = std::set<std::pair<vertex_t, vertex_t>>;

template <class Graph>
pattern pattern_set(const Graph& g) {
  auto h = copy_to<Kokkos::HostSpace>(g);
  pattern out;
  for (vertex_t u = 0; u < h.n; ++u)
    for (offset_t p = h.row_ptr(u); p < h.row_ptr(u + 1); ++p) out.insert({u, h.col_idx(p)});
  return out;
}

/// A hub (vertex 5, in and out edges to every vertex) over sparse random edges: its row is longer than the
/// runs of tiles or entries the balanced pulls give a warp or thread, so they split it and combine partial rows.
inline edge_list hub_edges(vertex_t n, std::uint64_t seed) {
  auto el = random_edges(n, 2 * n, seed);
  for (vertex_t j = 0; j < n; ++j) {
    el.src.push_back(5);
    el.dst.push_back(j);
    el.src.push_back(j);
    el.dst.push_back(5);
  }
  return el;
}

struct mask_case {
  bool use = false, complement = false, replace = false;
};
inline const mask_case mask_cases[] = {
    {false, false, false}, {true, false, false}, {true, true, false}, {true, true, true}};

template <class Exec>
bitmap<typename Exec::memory_space> make_bits(const Exec& exec, const std::vector<std::uint8_t>& b) {
  return to_bitmap<Exec, std::uint8_t>(exec, to_view<typename Exec::memory_space>(b));
}

template <class B>
std::vector<std::uint8_t> host_bits(const B& b) {
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, b.words);
  std::vector<std::uint8_t> out(b.n);
  for (vertex_t i = 0; i < b.n; ++i) out[i] = bitmap_test(w, i);
  return out;
}

/// Whether `got` is a valid ANY result for row i: one of the candidates, or the identity when there is none.
template <class S>
bool any_ok(const dense_matrix& A, const std::vector<typename S::value_type>& x, bool transpose, vertex_t i,
            typename S::value_type got) {
  bool some = false;
  for (vertex_t j = 0; j < A.n; ++j) {
    const bool e = transpose ? A(j, i) : A(i, j);
    if (!e || x[j] == S::identity()) continue;
    some = true;
    if (S::multiply(S::one(), x[j], i, j) == got) return true;
  }
  return !some && got == S::identity();
}

/// One product on random operands drawn from `seed`: x (a bitmap or dense vector, 30 % present), a mask
/// (50 %, used as `mc` says), an old y; `run(y, x, mask)` computes into y (it chooses between the mask and
/// no_mask by `mc.use`); y must equal the reference A x (or A^T x with `transpose`; A's weights with
/// `weighted`) merged into the old y under the mask case. ANY semirings (`check_any`) accept any candidate.
template <class Exec, class S, bool XBits, bool YBits, class Accum, class Run>
void check_pull_case(const Exec& exec, const dense_matrix& A, bool transpose, bool weighted, const mask_case& mc,
                     std::uint64_t seed, Run&& run, bool check_any = false) {
  using T = typename S::value_type;
  using mem = typename Exec::memory_space;
  const vertex_t n = A.n;
  auto xb = random_bits(n, 0.3, seed);
  std::vector<T> xv(n, S::identity());
  for (vertex_t j = 0; j < n; ++j)
    if (xb[j]) xv[j] = XBits ? S::one() : static_cast<T>(1 + (seed + j) % 5);
  auto mb = random_bits(n, 0.5, seed + 7);
  vector_mask<mem> mask{make_bits(exec, mb), mc.complement, mc.replace};
  const auto t_ref = product<S>(A, xv, transpose, weighted);
  auto allowed = [&](vertex_t i) { return !mc.use || ((mb[i] != 0) != mc.complement); };
  if constexpr (YBits) {
    auto y0 = random_bits(n, 0.5, seed + 3);
    auto y = make_bits(exec, y0);
    run(y, make_bits(exec, xb), mask);
    auto got = host_bits(y);
    for (vertex_t i = 0; i < n; ++i) {
      const bool old = y0[i] != 0, t = t_ref[i] != S::identity();
      CHECK(bool(got[i]) == (allowed(i) ? merge<S, Accum>(old, t, true, mc.replace) != 0 : (mc.replace ? false : old)));
    }
  } else {
    std::vector<T> y0(n);
    for (vertex_t i = 0; i < n; ++i) y0[i] = (i % 3 == 0) ? S::identity() : static_cast<T>(2 + i % 4);
    auto y = to_view<mem>(y0);
    if constexpr (XBits)
      run(y, make_bits(exec, xb), mask);
    else
      run(y, Kokkos::View<const T*, mem>(to_view<mem>(xv)), mask);
    auto got = to_vector(y);
    for (vertex_t i = 0; i < n; ++i) {
      if (check_any && allowed(i)) {
        if (std::is_same_v<Accum, no_accumulator>) CHECK(any_ok<S>(A, xv, transpose, i, got[i]));
      } else {
        CHECK(got[i] == merge<S, Accum>(y0[i], t_ref[i], allowed(i), mc.replace));
      }
    }
  }
}

}  // namespace bitgraph::test
