// Issue 19: a graph with more than 2^32 stored entries on the device (4,299,161,600: 17 GB of column ids), through
// BFS, connected components and one CSR mxm, each checked against closed forms computed without the graph's arrays.
// The graph: two blocks of B = 2^20 vertices, each a circulant where u is adjacent to u ± 1 .. u ± d (mod B), so
// levels, components and neighbour sums are known exactly. Hidden ([.huge]): ~30 GB of device memory and tens of
// seconds, run on the GPU machine by name (`bitgraph_tests "[huge]"`), never by the regular [gpu] suite.
#include <catch2/catch_test_macros.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/components.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/mxm_csr.hpp"
#include "bitgraph/semirings/semirings.hpp"

using namespace bitgraph;

namespace huge_test {

using mem = Kokkos::CudaSpace;
constexpr vertex_t block_bits = 20;
constexpr vertex_t block = vertex_t(1) << block_bits;  // B
constexpr vertex_t n = 2 * block;
constexpr vertex_t d = 1025;  // half the degree
constexpr offset_t degree = 2 * offset_t(d);
constexpr offset_t nnz = offset_t(n) * degree;  // 4,299,161,600 > 2^32
static_assert(nnz > (offset_t(1) << 32));

/// Column k (0 <= k < 2d) of row v, ascending: the circular interval [u - d, u + d] of v's block without u itself,
/// in the three pieces a wrap around the block's ends splits it into.
KOKKOS_INLINE_FUNCTION vertex_t neighbour(vertex_t v, offset_t k) {
  const vertex_t base = v & ~(block - 1), u = v & (block - 1);
  const auto kk = static_cast<vertex_t>(k);
  vertex_t c;
  if (u < d) {  // [0, u), (u, u + d], [B + u - d, B)
    c = kk < u ? kk : (kk < u + d ? kk + 1 : block + u - d + (kk - u - d));
  } else if (u + d >= block) {  // [0, u + d - B], [u - d, u), (u, B)
    const vertex_t low = u + d - block + 1;
    c = kk < low ? kk : (kk < low + d ? u - d + (kk - low) : u + 1 + (kk - low - d));
  } else {  // [u - d, u), (u, u + d]
    c = kk < d ? u - d + kk : u + 1 + (kk - d);
  }
  return base + c;
}

struct fill_row_ptr {
  Kokkos::View<offset_t*, mem> row_ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const { row_ptr(v) = offset_t(v) * degree; }
};

struct fill_columns {
  Kokkos::View<vertex_t*, mem> col;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t e) const {
    col(e) = neighbour(static_cast<vertex_t>(e / degree), e % degree);
  }
};

/// Levels from source 0: ceil(circular distance / d) in block 0, unreached in block 1.
struct count_wrong_levels {
  Kokkos::View<const level_t*, mem> levels;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, std::uint64_t& wrong) const {
    level_t expect = unreached_level;
    if (v < block) {
      const vertex_t dist = v < block - v ? v : block - v;
      expect = static_cast<level_t>((dist + d - 1) / d);
    }
    wrong += levels(v) != expect;
  }
};

/// Component labels: the smallest id of the block.
struct count_wrong_labels {
  Kokkos::View<const vertex_t*, mem> labels;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, std::uint64_t& wrong) const {
    wrong += labels(v) != (v & ~(block - 1));
  }
};

struct fill_ones {
  Kokkos::View<std::uint8_t*, mem> values;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t e) const { values(e) = 1; }
};

/// B = the n x 1 column of vertex ids: B(k, 0) = k.
struct fill_id_column {
  Kokkos::View<offset_t*, mem> row_ptr;
  Kokkos::View<vertex_t*, mem> col;
  Kokkos::View<std::uint64_t*, mem> values;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t k) const {
    row_ptr(k + 1) = offset_t(k) + 1;
    col(k) = 0;
    values(k) = k;
    if (k == 0) row_ptr(0) = 0;
  }
};

/// (A B)(v, 0) = the sum of v's neighbours' ids, summed here from the circulant's definition (not from col_idx).
struct count_wrong_sums {
  Kokkos::View<const offset_t*, mem> row_ptr;
  Kokkos::View<const vertex_t*, mem> col;
  Kokkos::View<const std::uint64_t*, mem> values;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, std::uint64_t& wrong) const {
    const vertex_t base = v & ~(block - 1), u = v & (block - 1);
    std::uint64_t expect = 0;
    for (vertex_t t = 1; t <= d; ++t)
      expect += std::uint64_t(base + ((u + t) & (block - 1))) + std::uint64_t(base + ((u + block - t) & (block - 1)));
    const bool one = row_ptr(v + 1) - row_ptr(v) == 1;
    wrong += !(one && col(row_ptr(v)) == 0 && values(row_ptr(v)) == expect);
  }
};

}  // namespace huge_test

TEST_CASE("BFS, components and mxm on a graph of more than 2^32 stored entries", "[.huge][cuda]") {
  using namespace huge_test;
  using range = Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<vertex_t>>;
  using entries = Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<offset_t>>;
  Kokkos::Cuda exec;
  Kokkos::View<offset_t*, mem> row_ptr("huge::row_ptr", offset_t(n) + 1);
  Kokkos::View<vertex_t*, mem> col(Kokkos::view_alloc("huge::col_idx", Kokkos::WithoutInitializing), nnz);
  Kokkos::parallel_for("huge::row_ptr", range(exec, 0, n + 1), fill_row_ptr{row_ptr});
  Kokkos::parallel_for("huge::columns", entries(exec, 0, nnz), fill_columns{col});
  // The device checks of make_csr_graph (offsets, ids, ascending rows, symmetry) run over all 4.3 G entries.
  auto csr = make_csr_graph(exec, n, row_ptr, col, graph_kind::undirected);
  REQUIRE(csr.nnz == nnz);
  REQUIRE(csr.col_idx.data() == col.data());  // adopted, not copied
  const auto g = make_bit_graph(exec, csr);
  INFO("B2SR: " << g.b2sr.n_tiles << " tiles of " << g.b2sr.tile_dim << " bits");
  CHECK(g.b2sr.nnz == nnz);

  {  // BFS from 0, default options
    const auto r = bfs(exec, g, 0);
    std::uint64_t wrong = 0;
    Kokkos::parallel_reduce("huge::check_bfs", range(exec, 0, n), count_wrong_levels{r.levels}, wrong);
    CHECK(wrong == 0);
    CHECK(r.reached == block);
  }
  {
    const auto r = connected_components(exec, g);
    std::uint64_t wrong = 0;
    Kokkos::parallel_reduce("huge::check_cc", range(exec, 0, n), count_wrong_labels{r.labels}, wrong);
    CHECK(wrong == 0);
    CHECK(r.count == 2);
  }
  {  // mxm: neighbour id sums, A (4.3 G entries, values shared with nothing) times the id column, PLUS_TIMES
    csr_matrix<std::uint8_t, mem> a;
    a.n_rows = a.n_cols = n;
    a.nnz = nnz;
    a.row_ptr = csr.row_ptr;  // shared with the graph
    a.col_idx = csr.col_idx;
    a.values = Kokkos::View<std::uint8_t*, mem>(Kokkos::view_alloc("huge::values", Kokkos::WithoutInitializing), nnz);
    Kokkos::parallel_for("huge::ones", entries(exec, 0, nnz), fill_ones{a.values});
    csr_matrix<std::uint64_t, mem> b;
    b.n_rows = n;
    b.n_cols = 1;
    b.nnz = n;
    b.row_ptr = Kokkos::View<offset_t*, mem>("huge::b_row_ptr", offset_t(n) + 1);
    b.col_idx = Kokkos::View<vertex_t*, mem>("huge::b_col", n);
    b.values = Kokkos::View<std::uint64_t*, mem>("huge::b_values", n);
    Kokkos::parallel_for("huge::id_column", range(exec, 0, n), fill_id_column{b.row_ptr, b.col_idx, b.values});
    csr_matrix<std::uint64_t, mem> c;
    c.n_rows = n;
    c.n_cols = 1;
    mxm(exec, c, no_mask{}, no_accumulator{}, plus_times<std::uint64_t>{}, a, b);
    REQUIRE(c.nnz == offset_t(n));
    std::uint64_t wrong = 0;
    Kokkos::parallel_reduce("huge::check_mxm", range(exec, 0, n), count_wrong_sums{c.row_ptr, c.col_idx, c.values},
                            wrong);
    CHECK(wrong == 0);
  }
}
