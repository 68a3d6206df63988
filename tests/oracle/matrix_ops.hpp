// What the valued-matrix checks share (ewise_matrix, matrix_apply, matrix_assign, mxm): random host matrices with
// small integer values, their BitGraph and GraphBLAS forms, BitGraph's result read back as triples, masks and
// accumulators chosen at run time, and the comparison of two matrices with the self-test's planting.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/semirings/semirings.hpp"
#include "compare.hpp"
#include "support/random_graphs.hpp"

namespace bitgraph::oracle::mops {

/// Sorted column lists per row.
using pattern_t = std::vector<std::vector<vertex_t>>;

/// A matrix on the host: CSR arrays with sorted rows, no repeats (GraphBLAS builds its side from the same).
template <class T>
struct host_matrix {
  vertex_t rows = 0, cols = 0;
  std::vector<offset_t> ptr{0};
  std::vector<vertex_t> col;
  std::vector<T> val;
};

/// GraphBLAS's PLUS and MINUS on T (FP64 or INT64), the accumulators of the trials.
template <class T>
GrB_BinaryOp gb_accum(bool minus) {
  if constexpr (std::is_same_v<T, double>)
    return minus ? GrB_MINUS_FP64 : GrB_PLUS_FP64;
  else
    return minus ? GrB_MINUS_INT64 : GrB_PLUS_INT64;
}

/// A small integer in [-9, 9], so that every result of the trials is exact.
template <class T>
T small_value(std::mt19937_64& rng) {
  return static_cast<T>(std::int64_t(rng() % 19) - 9);
}

/// `pattern` with random values value(rng), drawn row by row.
template <class T, class Gen>
host_matrix<T> with_values_by(vertex_t rows, vertex_t cols, const pattern_t& pattern, std::mt19937_64& rng, Gen value) {
  host_matrix<T> h;
  h.rows = rows;
  h.cols = cols;
  for (vertex_t i = 0; i < rows; ++i) {
    for (vertex_t j : pattern[i]) {
      h.col.push_back(j);
      h.val.push_back(value(rng));
    }
    h.ptr.push_back(h.col.size());
  }
  return h;
}

/// `pattern` with random small values.
template <class T>
host_matrix<T> with_values(vertex_t rows, vertex_t cols, const pattern_t& pattern, std::mt19937_64& rng) {
  return with_values_by<T>(rows, cols, pattern, rng, small_value<T>);
}

/// A random rows x cols pattern of about `m` entries.
inline pattern_t random_pattern(vertex_t rows, vertex_t cols, std::uint64_t m, std::mt19937_64& rng) {
  pattern_t p(rows);
  if (rows == 0 || cols == 0) return p;
  for (std::uint64_t k = 0; k < m; ++k) p[rng() % rows].push_back(vertex_t(rng() % cols));
  for (auto& r : p) {
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  }
  return p;
}

/// The graph's pattern (the rows of A).
inline pattern_t graph_pattern(const graph_under_test& g) {
  pattern_t p(g.n);
  for (vertex_t i = 0; i < g.n; ++i)
    p[i].assign(g.rows.idx.begin() + std::ptrdiff_t(g.rows.ptr[i]),
                g.rows.idx.begin() + std::ptrdiff_t(g.rows.ptr[i + 1]));
  return p;
}

inline std::uint64_t entries(const pattern_t& p) {
  std::uint64_t n = 0;
  for (const auto& r : p) n += r.size();
  return n;
}

template <class T>
csr_matrix<T, mem_space> to_bitgraph(const exec_space& exec, const host_matrix<T>& h) {
  return make_csr_matrix<T>(exec, h.rows, h.cols, h.ptr, h.col, h.val);
}

/// `h` as a GraphBLAS matrix of `type`, `pad` rows and columns larger: the padding never holds an entry, so no
/// output is ever full (SuiteSparse 7.4 mishandles full iso outputs; see vector_ops.hpp).
template <class T>
gb::matrix to_graphblas(const host_matrix<T>& h, GrB_Type type = gb::traits<T>::type(), GrB_Index pad = 0) {
  gb::matrix a;
  gb::check(GrB_Matrix_new(a.out(), type, h.rows + pad, h.cols + pad), "GrB_Matrix_new");
  if (h.col.empty()) return a;  // GraphBLAS rejects the null data() of empty arrays
  std::vector<GrB_Index> r, c;
  for (vertex_t i = 0; i < h.rows; ++i)
    for (offset_t p = h.ptr[i]; p < h.ptr[i + 1]; ++p) {
      r.push_back(i);
      c.push_back(h.col[p]);
    }
  gb::check(gb::traits<T>::matrix_build(a.get(), r.data(), c.data(), h.val.data(), r.size(), nullptr),
            "GrB_Matrix_build");
  return a;
}

/// BitGraph's result as sorted triples (host copy).
template <class T>
gb::triples<T> triples_of(const csr_matrix<T, mem_space>& m) {
  gb::triples<T> t;
  if (m.row_ptr.extent(0) == 0) return t;
  auto ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.row_ptr);
  auto col = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.col_idx);
  auto val = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.values);
  for (vertex_t i = 0; i < m.n_rows; ++i)
    for (offset_t p = ptr(i); p < ptr(i + 1); ++p) {
      t.row.push_back(i);
      t.col.push_back(col(p));
      t.value.push_back(val(p));
    }
  return t;
}

/// Calls f(no_accumulator{}), f(accumulate_with<PLUS>{}) or f(minus_op{}) (a binary operator) by `accum` (0, 1, 2).
template <class T, class F>
void with_matrix_accum(int accum, F&& f) {
  if (accum == 0)
    f(no_accumulator{});
  else if (accum == 1)
    f(accumulate_with<plus_monoid<T>>{});
  else
    f(minus_op{});
}
inline const char* const accum_names[] = {"", ", accum PLUS", ", accum MINUS"};

/// Calls f(mask, accumulator): no_mask{} or mask_of(m, complement, replace), and the accumulator of `accum`.
template <class T, class M, class F>
void with_mask_and_accum(bool masked, const M& m, bool complement, bool replace, int accum, F&& f) {
  auto with_accum = [&](const auto& msk) { with_matrix_accum<T>(accum, [&](const auto& acc) { f(msk, acc); }); };
  if (masked)
    with_accum(mask_of(m, complement, replace));
  else
    with_accum(no_mask{});
}

/// A trial's mask in words: `name`, then complement and replace where masked (`source` not 0).
inline std::string mask_str(const char* name, int source, bool complement, bool replace) {
  return cat(name, source ? cat(complement ? " complement" : "", replace ? " replace" : "") : "");
}

/// Positions and values of two matrices, recorded as one comparison of `kind`; self-test: one value is moved off,
/// or an entry added to an empty result. `first_entry_only` reports only the first differing entry.
template <class T>
void compare_matrices(context& ctx, planter& plant, const std::string& kind, const std::string& what,
                      gb::triples<T> got, const gb::triples<T>& want, bool first_entry_only = false) {
  const bool planted = plant.on();
  if (planted) {
    if (got.value.empty()) {  // add an entry where there is none
      got.row.push_back(0);
      got.col.push_back(0);
      got.value.push_back(T(1));
    } else {
      got.value[plant.pick(got.value.size())] += T(1);
    }
  }
  diffs d;
  if (got.value.size() != want.value.size())
    d.add("nnz: BitGraph ", got.value.size(), ", GraphBLAS ", want.value.size());
  for (std::size_t k = 0; k < std::min(got.value.size(), want.value.size()); ++k) {
    if (got.row[k] != want.row[k] || got.col[k] != want.col[k] || got.value[k] != want.value[k]) {
      d.add("entry ", k, ": BitGraph (", got.row[k], ", ", got.col[k], ") = ", got.value[k], ", GraphBLAS (",
            want.row[k], ", ", want.col[k], ") = ", want.value[k]);
      if (first_entry_only) break;
    }
  }
  ctx.t.record(kind, what, d, planted);
}

/// A random directed n x n pattern of about m entries (repeats merged, loops kept) on both sides: BitGraph's B2SR
/// and the Boolean GraphBLAS matrix of `gb_dim` x `gb_dim` (n, or more to pad) that it stands for.
struct bits_operand {
  b2sr_matrix<mem_space> bits;
  gb::matrix pattern;
};

inline bits_operand random_bits_operand(context& ctx, vertex_t n, std::uint64_t m, std::uint64_t seed,
                                        const b2sr_options& bo, GrB_Index gb_dim) {
  const auto el = test::random_edges(n, m, seed);
  gb::triples<bool> t;
  for (std::size_t k = 0; k < el.src.size(); ++k) {
    t.row.push_back(el.src[k]);
    t.col.push_back(el.dst[k]);
    t.value.push_back(true);
  }
  csr_build_options b;
  b.kind = graph_kind::directed;
  b.remove_self_loops = false;
  return {to_b2sr(ctx.exec, build_csr(ctx.exec, el, b), bo), gb::make_matrix<bool>(gb_dim, t, GrB_LOR)};
}

}  // namespace bitgraph::oracle::mops
