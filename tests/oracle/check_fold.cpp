// fold and unfold (ops/fold.hpp) against their GraphBLAS compositions: fold over the rows (the OR of all rows) is
// GrB_Matrix_reduce with LOR over A^T, fold over the columns the same over A; unfold (every row ANDed with a mask)
// is A * diag(mask) over LOR_LAND. On the graph's B2SR pattern, on its dense bit matrix, and on a random
// rectangular dense bit matrix packed by the oracle from the documented layout.
#include <algorithm>

#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/dense_bit_matrix.hpp"
#include "bitgraph/ops/fold.hpp"
#include "vector_ops.hpp"

namespace bitgraph::oracle {

namespace {

using namespace vops;
using row_lists = std::vector<std::vector<GrB_Index>>;

/// The rows of a dense bit matrix read from its words (bits >= cols reported), without BitGraph's accessors.
row_lists decode_dense(const dense_bit_matrix<mem_space>& m, diffs& d) {
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m.words);
  row_lists out(m.rows);
  if (w.extent(0) != m.rows || w.extent(1) != dense_bit_matrix<mem_space>::words_per_row(m.cols)) {
    d.add("word array ", w.extent(0), " x ", w.extent(1), " for a ", m.rows, " x ", m.cols, " matrix");
    return out;
  }
  for (std::size_t i = 0; i < w.extent(0); ++i)
    for (std::size_t k = 0; k < w.extent(1); ++k)
      for (int b = 0; b < 32; ++b) {
        if (!((w(i, k) >> b) & 1u)) continue;
        const std::size_t j = k * 32 + std::size_t(b);
        if (j >= m.cols)
          d.add("row ", i, ": bit ", j, " set beyond cols = ", m.cols);
        else
          out[i].push_back(j);
      }
  return out;
}

/// Packs rows x cols entries into a dense bit matrix from the documented layout.
dense_bit_matrix<mem_space> pack_dense(const exec_space& exec, vertex_t rows, vertex_t cols, const row_lists& r) {
  auto m = make_dense_bit_matrix(exec, rows, cols);
  auto h = Kokkos::create_mirror_view(m.words);
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t k = 0; k < h.extent(1); ++k) h(i, k) = 0;
  for (std::size_t i = 0; i < r.size(); ++i)
    for (auto j : r[i]) h(i, j / 32) |= std::uint32_t(1) << (j % 32);
  Kokkos::deep_copy(m.words, h);
  return m;
}

row_lists lists_of(const host_pattern& p) {
  row_lists out(p.n);
  for (vertex_t i = 0; i < p.n; ++i)
    out[i].assign(p.idx.begin() + std::ptrdiff_t(p.ptr[i]), p.idx.begin() + std::ptrdiff_t(p.ptr[i + 1]));
  return out;
}

/// Self-test: drops one entry (or adds (0, 0) to an empty matrix with a row and a column).
bool plant_in_rows(planter& p, row_lists& r, vertex_t cols) {
  if (!p.on() || r.empty() || cols == 0) return false;
  std::vector<std::size_t> nonempty;
  for (std::size_t i = 0; i < r.size(); ++i)
    if (!r[i].empty()) nonempty.push_back(i);
  if (nonempty.empty()) {
    r[0].push_back(0);
  } else {
    auto& row = r[nonempty[p.pick(nonempty.size())]];
    row.erase(row.begin() + std::ptrdiff_t(p.pick(row.size())));
  }
  return true;
}

void compare_rows(const row_lists& got, const row_lists& want, diffs& d) {
  if (got.size() != want.size()) {
    d.add("rows: BitGraph ", got.size(), ", GraphBLAS ", want.size());
    return;
  }
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) d.add("row ", i, ": BitGraph ", got[i].size(), " entries, GraphBLAS ", want[i].size());
}

/// fold_rows (over rows: which columns have an entry) and fold_columns (which rows have one) of `a`.
std::vector<char> gb_fold(GrB_Matrix a, bool over_rows) {
  GrB_Index rows = 0, cols = 0;
  gb::check(GrB_Matrix_nrows(&rows, a), "GrB_Matrix_nrows");
  gb::check(GrB_Matrix_ncols(&cols, a), "GrB_Matrix_ncols");
  const GrB_Index len = over_rows ? cols : rows;
  auto w = gb::new_vector<bool>(len);
  gb::check(
      GrB_Matrix_reduce_Monoid(w.get(), nullptr, nullptr, GrB_LOR_MONOID_BOOL, a, over_rows ? GrB_DESC_T0 : nullptr),
      "GrB_Matrix_reduce_Monoid(LOR)");
  return gb_bits(w.get(), vertex_t(len));
}

/// The mask bits as GraphBLAS's diagonal operand: entries only at the set bits.
gb::vector gb_set_bits(const std::vector<char>& bits) {
  std::vector<GrB_Index> idx;
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (bits[i]) idx.push_back(i);
  return gb::make_mask(bits.size(), idx);
}

/// The folds and the unfold of one matrix given to BitGraph as a dense bit matrix (`form` names it).
void dense_forms(context& ctx, planter& plant, const std::string& form, const dense_bit_matrix<mem_space>& m,
                 GrB_Matrix a, std::mt19937_64& rng) {
  for (bool over_rows : {true, false}) {
    const std::string what = cat(form, over_rows ? ", fold_rows" : ", fold_columns");
    try {
      const auto want = gb_fold(a, over_rows);
      bool padding = false;
      const auto got = from_bits(over_rows ? fold_rows(ctx.exec, m) : fold_columns(ctx.exec, m), padding);
      compare_bits(ctx, plant, "fold.dense", what, got, want, padding);
    } catch (const std::exception& e) {
      ctx.t.error("fold.dense", what, e.what());
    }
  }
  const auto mask = random_bits(rng, m.cols);
  const std::string what = cat(form, ", unfold, ", std::count(mask.begin(), mask.end(), 1), " of ", m.cols, " columns");
  try {
    auto keep = gb_set_bits(mask);
    auto want_m = gb::keep_columns(a, keep.get());
    const auto want = gb::rows_of(want_m.get());
    auto r = unfold(ctx.exec, m, to_bits(ctx.exec, mask));
    diffs d;
    auto got = decode_dense(r, d);
    if (r.rows != m.rows || r.cols != m.cols)
      d.add("shape ", r.rows, " x ", r.cols, ", expected ", m.rows, " x ", m.cols);
    const bool planted = plant_in_rows(plant, got, m.cols);
    compare_rows(got, want, d);
    ctx.t.record("unfold.dense", what, d, planted);
  } catch (const std::exception& e) {
    ctx.t.error("unfold.dense", what, e.what());
  }
}

}  // namespace

void check_fold(context& ctx, const graph_under_test& g) {
  std::mt19937_64 rng(mix(g.op_seed, 0xf01d));
  planter plant(ctx.opt.self_test, mix(g.op_seed, 0xf01e));
  const b2sr_config cfg = pick_configs(mix(g.op_seed, 0xf01d), 1)[0];
  b2sr_matrix<mem_space> b;
  try {
    b = to_b2sr(ctx.exec, g.csr, {cfg.tile, cfg.row_major ? bit_order::row_major : bit_order::col_major});
  } catch (const std::exception& e) {
    ctx.t.error("fold.b2sr", cat("operands, ", cfg.str()), e.what());
    return;
  }
  for (bool over_rows : {true, false}) {
    const std::string what = cat(over_rows ? "fold_rows, " : "fold_columns, ", cfg.str());
    try {
      const auto want = gb_fold(g.a.get(), over_rows);
      bool padding = false;
      const auto got = from_bits(over_rows ? fold_rows(ctx.exec, b) : fold_columns(ctx.exec, b), padding);
      compare_bits(ctx, plant, "fold.b2sr", what, got, want, padding);
    } catch (const std::exception& e) {
      ctx.t.error("fold.b2sr", what, e.what());
    }
  }
  {
    const auto mask = random_bits(rng, g.n);
    const std::string what =
        cat("unfold, ", std::count(mask.begin(), mask.end(), 1), " of ", g.n, " columns, ", cfg.str());
    try {
      auto keep = gb_set_bits(mask);
      auto want_m = gb::keep_columns(g.a.get(), keep.get());
      const auto want = host_pattern::of(want_m.get());
      auto r = unfold(ctx.exec, b, to_bits(ctx.exec, mask));
      diffs d;
      auto got = decode_b2sr(r, d);
      if (r.tile_dim != b.tile_dim || r.order != b.order) d.add("tile size or packing order changed");
      if (r.kind != graph_kind::directed) d.add("the result is not directed");
      if (r.nnz != want.idx.size()) d.add("nnz: BitGraph ", r.nnz, ", GraphBLAS ", want.idx.size());
      const bool planted = plant_in_pattern(plant, got);
      compare_patterns(got, want, d);
      ctx.t.record("unfold.b2sr", what, d, planted);
    } catch (const std::exception& e) {
      ctx.t.error("unfold.b2sr", what, e.what());
    }
  }
  // The graph's pattern as a dense bit matrix (n x n words: bounded by the oracle's graph sizes).
  try {
    auto m = to_dense_bit_matrix(ctx.exec, b);
    diffs d;
    auto got = decode_dense(m, d);
    if (m.rows != g.n || m.cols != g.n) d.add("shape ", m.rows, " x ", m.cols, ", n = ", g.n);
    const bool planted = plant_in_rows(plant, got, g.n);
    compare_rows(got, lists_of(g.rows), d);
    ctx.t.record("fold.to_dense", cfg.str(), d, planted);
    dense_forms(ctx, plant, cat("dense of ", cfg.str()), m, g.a.get(), rng);
  } catch (const std::exception& e) {
    ctx.t.error("fold.to_dense", cfg.str(), e.what());
  }
  // A random rectangular matrix (dense bit matrices need not be square), packed by the oracle.
  {
    const vertex_t rows = vertex_t(rng() % 150), cols = vertex_t(rng() % 150);
    const double density = random_density(rng);
    std::vector<GrB_Index> ri, ci;
    row_lists lists(rows);
    for (vertex_t i = 0; i < rows; ++i)
      for (vertex_t j = 0; j < cols; ++j)
        if (coin(rng, density)) {
          ri.push_back(i);
          ci.push_back(j);
          lists[i].push_back(j);
        }
    const std::string form = cat("random ", rows, " x ", cols);
    try {
      auto a = gb::make_bool_matrix(rows, cols, ri, ci);
      dense_forms(ctx, plant, form, pack_dense(ctx.exec, rows, cols, lists), a.get(), rng);
    } catch (const std::exception& e) {
      ctx.t.error("fold.dense", form, e.what());
    }
  }
}

}  // namespace bitgraph::oracle
