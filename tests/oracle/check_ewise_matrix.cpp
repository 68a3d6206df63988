// Element-wise add and multiply of valued CSR matrices (ops/ewise_matrix.hpp) against GrB_Matrix_eWiseAdd /
// GrB_Matrix_eWiseMult: the graph's pattern with random values, a random operand of as many entries, a random old
// C, every mask kind (none, structural, complement, replace, both) and accumulators; plus a rectangular trial.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/ewise_matrix.hpp"
#include "compare.hpp"

namespace bitgraph::oracle {

namespace {

// Each pairing names a BitGraph binary operator over T and the GraphBLAS operator computing the same thing.
// Values are small integers, so every result is exact.
struct plus_i64 {
  using T = std::int64_t;
  using op = plus_monoid<T>;
  static constexpr const char* name = "PLUS_INT64 (monoid)";
  static GrB_BinaryOp gb_op() { return GrB_PLUS_INT64; }
};
struct minus_i64 {
  using T = std::int64_t;
  using op = minus_op;
  static constexpr const char* name = "MINUS_INT64 (apply(a, b))";
  static GrB_BinaryOp gb_op() { return GrB_MINUS_INT64; }
};
struct times_i64 {
  using T = std::int64_t;
  using op = times_op;
  static constexpr const char* name = "TIMES_INT64 (multiply operator)";
  static GrB_BinaryOp gb_op() { return GrB_TIMES_INT64; }
};
struct first_f64 {
  using T = double;
  using op = first_op;
  static constexpr const char* name = "FIRST_FP64";
  static GrB_BinaryOp gb_op() { return GrB_FIRST_FP64; }
};
struct min_f64 {
  using T = double;
  using op = min_monoid<T>;
  static constexpr const char* name = "MIN_FP64 (monoid)";
  static GrB_BinaryOp gb_op() { return GrB_MIN_FP64; }
};
// A multiply operator is called with the entry's row and column, so SECONDI yields the column: SECONDJ.
struct secondj_i64 {
  using T = std::int64_t;
  using op = secondi_op;
  static constexpr const char* name = "SECONDJ_INT64 (secondi_op, positional)";
  static GrB_BinaryOp gb_op() { return GxB_SECONDJ_INT64; }
};

/// A random matrix on both sides: host CSR arrays (sorted, no repeats) and the triples GraphBLAS builds from.
template <class T>
struct host_matrix {
  vertex_t rows = 0, cols = 0;
  std::vector<offset_t> ptr{0};
  std::vector<vertex_t> col;
  std::vector<T> val;
};

/// GraphBLAS's PLUS and MINUS on T, the accumulators of the trials.
template <class T>
GrB_BinaryOp gb_accum(bool minus) {
  if constexpr (std::is_same_v<T, double>)
    return minus ? GrB_MINUS_FP64 : GrB_PLUS_FP64;
  else
    return minus ? GrB_MINUS_INT64 : GrB_PLUS_INT64;
}

template <class T>
T small_value(std::mt19937_64& rng) {
  return static_cast<T>(std::int64_t(rng() % 19) - 9);
}

/// `pattern` (sorted column lists per row) with random values.
template <class T>
host_matrix<T> with_values(vertex_t rows, vertex_t cols, const std::vector<std::vector<vertex_t>>& pattern,
                           std::mt19937_64& rng) {
  host_matrix<T> h;
  h.rows = rows;
  h.cols = cols;
  for (vertex_t i = 0; i < rows; ++i) {
    for (vertex_t j : pattern[i]) {
      h.col.push_back(j);
      h.val.push_back(small_value<T>(rng));
    }
    h.ptr.push_back(h.col.size());
  }
  return h;
}

/// A random rows x cols pattern of about `m` entries.
std::vector<std::vector<vertex_t>> random_pattern(vertex_t rows, vertex_t cols, std::uint64_t m, std::mt19937_64& rng) {
  std::vector<std::vector<vertex_t>> p(rows);
  if (rows == 0 || cols == 0) return p;
  for (std::uint64_t k = 0; k < m; ++k) p[rng() % rows].push_back(vertex_t(rng() % cols));
  for (auto& r : p) {
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  }
  return p;
}

template <class T>
csr_matrix<T, mem_space> to_bitgraph(const exec_space& exec, const host_matrix<T>& h) {
  return make_csr_matrix<T>(exec, h.rows, h.cols, h.ptr, h.col, h.val);
}

template <class T>
gb::matrix to_graphblas(const host_matrix<T>& h) {
  gb::matrix a;
  gb::check(GrB_Matrix_new(a.out(), gb::traits<T>::type(), h.rows, h.cols), "GrB_Matrix_new");
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

/// One trial: C<M> = accum(C, A op B) on both sides, compared entry by entry (positions and values).
template <class P>
void trial(context& ctx, planter& plant, std::mt19937_64& rng, bool mult, vertex_t rows, vertex_t cols,
           const std::vector<std::vector<vertex_t>>& a_pattern, const std::string& shape) {
  using T = typename P::T;
  std::uint64_t nnz = 0;
  for (const auto& r : a_pattern) nnz += r.size();
  const auto ha = with_values<T>(rows, cols, a_pattern, rng);
  const auto hb = with_values<T>(rows, cols, random_pattern(rows, cols, std::max<std::uint64_t>(nnz, 1), rng), rng);
  const auto hc = with_values<T>(rows, cols, random_pattern(rows, cols, nnz / 2 + 1, rng), rng);
  // The mask: none, A's pattern, or a random one; then complement and replace independently.
  const int mask_source = int(rng() % 3);
  const bool complement = rng() % 2, replace = rng() % 2;
  const auto hm = mask_source == 1 ? ha : with_values<T>(rows, cols, random_pattern(rows, cols, nnz + 1, rng), rng);
  const int accum = int(rng() % 3);  // none, PLUS, MINUS
  const char* mask_names[] = {"no mask", "mask A", "random mask"};
  const char* accum_names[] = {"", ", accum PLUS", ", accum MINUS"};
  const std::string what =
      cat(mult ? "mult " : "add ", P::name, ", ", shape, ", ", mask_names[mask_source],
          mask_source ? cat(complement ? " complement" : "", replace ? " replace" : "") : "", accum_names[accum]);
  const char* kind = mult ? "ewise.matrix_mult" : "ewise.matrix_add";
  gb::triples<T> got, want;
  try {
    // GraphBLAS.
    auto ga = to_graphblas(ha), gbm = to_graphblas(hb), gc = to_graphblas(hc), gm = to_graphblas(hm);
    auto desc = gb::make_descriptor(true, mask_source && complement, mask_source && replace, false);
    GrB_BinaryOp gacc = accum == 0 ? nullptr : gb_accum<T>(accum == 2);
    GrB_Matrix mask = mask_source ? gm.get() : nullptr;
    if (mult)
      gb::check(GrB_Matrix_eWiseMult_BinaryOp(gc.get(), mask, gacc, P::gb_op(), ga.get(), gbm.get(), desc.get()),
                "GrB_Matrix_eWiseMult_BinaryOp");
    else
      gb::check(GrB_Matrix_eWiseAdd_BinaryOp(gc.get(), mask, gacc, P::gb_op(), ga.get(), gbm.get(), desc.get()),
                "GrB_Matrix_eWiseAdd_BinaryOp");
    want = gb::extract<T>(gc.get());
    // BitGraph.
    const auto a = to_bitgraph(ctx.exec, ha), b = to_bitgraph(ctx.exec, hb), m = to_bitgraph(ctx.exec, hm);
    auto c = to_bitgraph(ctx.exec, hc);
    const typename P::op op{};
    auto run = [&](const auto& msk, const auto& acc) {
      if (mult)
        ewise_mult(ctx.exec, c, msk, acc, op, a, b);
      else
        ewise_add(ctx.exec, c, msk, acc, op, a, b);
    };
    auto with_accum = [&](const auto& msk) {
      if (accum == 0)
        run(msk, no_accumulator{});
      else if (accum == 1)
        run(msk, accumulate_with<plus_monoid<T>>{});
      else
        run(msk, minus_op{});
    };
    if (mask_source)
      with_accum(mask_of(m, complement, replace));
    else
      with_accum(no_mask{});
    got = triples_of(c);
  } catch (const std::exception& e) {
    ctx.t.error(kind, what, e.what());
    return;
  }
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
    }
  }
  ctx.t.record(kind, what, d, planted);
  ctx.t.cover(cat("ewise matrix ", mult ? "mult " : "add ", P::name));
}

template <class F>
void pick_pairing(std::uint64_t k, F&& f) {
  switch (k % 6) {
    case 0:
      return f(plus_i64{});
    case 1:
      return f(minus_i64{});
    case 2:
      return f(times_i64{});
    case 3:
      return f(first_f64{});
    case 4:
      return f(min_f64{});
    default:
      return f(secondj_i64{});
  }
}

}  // namespace

void check_ewise_matrix(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0xe81));
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0xe82));
  std::vector<std::vector<vertex_t>> a_pattern(g.n);
  for (vertex_t i = 0; i < g.n; ++i)
    a_pattern[i].assign(g.rows.idx.begin() + std::ptrdiff_t(g.rows.ptr[i]),
                        g.rows.idx.begin() + std::ptrdiff_t(g.rows.ptr[i + 1]));
  // The pairings rotate with the graph's seed so that every one (add and mult) appears across a run.
  const std::uint64_t first = rng();
  for (int k = 0; k < 4; ++k) {
    pick_pairing(first + std::uint64_t(k),
                 [&](auto p) { trial<decltype(p)>(ctx, plant, rng, k % 2 != 0, g.n, g.n, a_pattern, "the graph"); });
  }
  // A rectangular trial, independent of the graph's shape.
  const vertex_t rows = vertex_t(1 + rng() % 60), cols = vertex_t(1 + rng() % 60);
  const auto r_pattern = random_pattern(rows, cols, rng() % (std::uint64_t(rows) * cols / 3 + 1), rng);
  pick_pairing(first + 4, [&](auto p) {
    trial<decltype(p)>(ctx, plant, rng, rng() % 2 != 0, rows, cols, r_pattern, cat(rows, " x ", cols, " random"));
  });
}

}  // namespace bitgraph::oracle
