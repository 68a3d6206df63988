#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/b2sr_profile.hpp"
#include "bitgraph/formats/csr.hpp"
#include "support/mxv_cases.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

namespace {

using test::pattern_set;
using test::pattern;

// Reads A(r, c) of a B2SR matrix straight from its arrays, independently of the library's decoder.
template <class Matrix>
pattern b2sr_pattern(const Matrix& b) {
  auto h = copy_to<Kokkos::HostSpace>(b);
  pattern out;
  const int T = h.tile_dim;
  const int wb = tile_word_bytes(T);
  for (vertex_t tr = 0; tr < h.n_tile_rows; ++tr) {
    for (offset_t k = h.tile_row_ptr(tr); k < h.tile_row_ptr(tr + 1); ++k) {
      if (k > h.tile_row_ptr(tr)) REQUIRE(h.tile_col_idx(k - 1) < h.tile_col_idx(k));
      bool any = false;
      for (int w = 0; w < T; ++w) {
        std::uint64_t word = 0;
        for (int byte = 0; byte < wb; ++byte) word |= std::uint64_t(h.tile_bits((k * T + w) * wb + byte)) << (8 * byte);
        REQUIRE((T == 64 || (word >> T) == 0));  // no bits beyond the tile width
        for (int bit = 0; bit < T; ++bit) {
          if (!((word >> bit) & 1)) continue;
          any = true;
          const vertex_t r = tr * T + (h.order == bit_order::row_major ? w : bit);
          const vertex_t c = h.tile_col_idx(k) * T + (h.order == bit_order::row_major ? bit : w);
          REQUIRE(r < h.n);  // padding bits stay zero
          REQUIRE(c < h.n);
          out.insert({r, c});
        }
      }
      REQUIRE(any);  // only non-empty tiles are stored
    }
  }
  REQUIRE(out.size() == h.nnz);
  return out;
}

std::vector<edge_list> test_graphs() {
  std::vector<edge_list> gs;
  gs.push_back(test::random_edges(0, 0, 1));       // empty graph
  gs.push_back(test::random_edges(1, 3, 2));       // n = 1 with self-loops
  gs.push_back(test::random_edges(5, 0, 3));       // no edges
  gs.push_back(test::random_edges(37, 150, 4));    // n not a multiple of any tile
  gs.push_back(test::random_edges(64, 600, 5));    // multiple of every tile
  gs.push_back(test::random_edges(131, 40, 6));    // many empty rows
  gs.push_back(test::random_edges(200, 6000, 7));  // dense-ish
  edge_list band;                                  // banded: locality, full tiles
  band.num_vertices = 100;
  for (vertex_t u = 0; u < 100; ++u)
    for (vertex_t v = u; v < std::min<vertex_t>(100, u + 9); ++v) {
      band.src.push_back(u);
      band.dst.push_back(v);
    }
  gs.push_back(band);
  return gs;
}

}  // namespace

/// Tiles in the longest tile row, counted on the host from the tile row pointers.
template <class Mem>
offset_t longest_row_of(const b2sr_matrix<Mem>& b) {
  auto ptr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, b.tile_row_ptr);
  offset_t m = 0;
  for (vertex_t r = 0; r < b.n_tile_rows; ++r) m = std::max<offset_t>(m, ptr(r + 1) - ptr(r));
  return m;
}

TEMPLATE_TEST_CASE("B2SR bits equal the adjacency and round-trip to CSR", "[formats][b2sr]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  test::thinning thin(3);  // reduced mode: every 3rd (graph, kind, tile size, order) combination
  for (auto& el : test_graphs()) {
    for (auto kind : {graph_kind::directed, graph_kind::undirected}) {
      csr_build_options o;
      o.kind = kind;
      auto g = build_csr(exec, el, o);
      const auto ref = pattern_set(g);
      for (int t : {4, 8, 16, 32, 64}) {
        for (auto order : {bit_order::row_major, bit_order::col_major}) {
          if (!thin.keep()) continue;
          INFO("n=" << g.n << " T=" << t << " order=" << to_string(order));
          auto b = to_b2sr(exec, g, {t, order});
          CHECK(b.n == g.n);
          CHECK(b.nnz == g.nnz);
          CHECK(b.kind == kind);
          CHECK(b2sr_pattern(b) == ref);
          CHECK(pattern_set(to_csr(exec, b)) == ref);
          auto t1 = transpose(exec, b);
          auto t2 = transpose(exec, b, false);
          pattern tref;
          for (auto [u, v] : ref) tref.insert({v, u});
          CHECK(t1.order == order);
          CHECK(t2.order != order);
          CHECK(b2sr_pattern(t1) == tref);
          CHECK(b2sr_pattern(t2) == tref);
          // Every builder records its longest tile row (products choose their balance by it).
          CHECK(b.longest_tile_row == longest_row_of(b));
          CHECK(t1.longest_tile_row == longest_row_of(t1));
          CHECK(t2.longest_tile_row == longest_row_of(t2));
          CHECK(copy_to<Kokkos::HostSpace>(b).longest_tile_row == b.longest_tile_row);
          auto rep = storage_report(b);
          auto exact = exact_storage_report(exec, g, t);
          CHECK(rep.n_tiles == b.n_tiles);
          CHECK(exact.n_tiles == b.n_tiles);
          CHECK(exact.b2sr_bytes == rep.b2sr_bytes);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("B2SR storage report and sampling profile", "[formats][b2sr][profile]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  // A banded graph: every tile size compresses; the full sample makes the estimate exact.
  edge_list band;
  band.num_vertices = 1000;
  for (vertex_t u = 0; u < 1000; ++u)
    for (vertex_t v = u > 3 ? u - 3 : 0; v < std::min<vertex_t>(1000, u + 4); ++v) {
      band.src.push_back(u);
      band.dst.push_back(v);
    }
  auto g = build_csr(exec, band);
  profile_options po;
  po.sample_rows = 1 << 20;  // more than n: every row and tile row is sampled
  auto prof = profile_tile_sizes(exec, g, po);
  REQUIRE(prof.estimates.size() == 5);
  std::uint64_t best = ~0ull;
  int best_t = 0;
  for (auto& e : prof.estimates) {
    auto exact = exact_storage_report(exec, g, e.tile_dim);
    CHECK(e.estimated.n_tiles == exact.n_tiles);
    CHECK(e.estimated.b2sr_bytes == exact.b2sr_bytes);
    if (exact.b2sr_bytes < best) {
      best = exact.b2sr_bytes;
      best_t = e.tile_dim;
    }
    // Entries per bit-row of width T on a band of width 7 lie between 7/2 and 7.
    CHECK(e.entries_per_bit_row >= 1.0);
    CHECK(e.entries_per_bit_row <= 7.0);
  }
  CHECK(prof.chosen_tile_dim == best_t);
  auto r8 = exact_storage_report(exec, g, 8);
  CHECK(r8.csr_fp32_bytes == 1001 * 4 + g.nnz * 8);
  CHECK(r8.csr_pattern_bytes == 1001 * 4 + g.nnz * 4);
  CHECK(r8.compression_ratio < 1.0);
  // A sample estimate on a random graph stays within a factor of the exact figure.
  auto rg = build_csr(exec, test::random_edges(5000, 40000, 9));
  po.sample_rows = 512;
  auto rp = profile_tile_sizes(exec, rg, po);
  for (auto& e : rp.estimates) {
    auto exact = exact_storage_report(exec, rg, e.tile_dim);
    CHECK(e.estimated_tiles > 0.7 * double(exact.n_tiles));
    CHECK(e.estimated_tiles < 1.3 * double(exact.n_tiles));
  }
}

TEMPLATE_TEST_CASE("B2SR rejects bad tile sizes", "[formats][b2sr][errors]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = build_csr(exec, test::random_edges(10, 20, 1));
  CHECK_THROWS_AS(to_b2sr(exec, g, {12, bit_order::row_major}), invalid_argument_error);
  CHECK_THROWS_AS(exact_storage_report(exec, g, 3), invalid_argument_error);
  csr_build_options keep;
  keep.remove_duplicates = false;
  auto d = build_csr(exec, test::random_edges(10, 50, 1), keep);
  CHECK_THROWS_AS(profile_tile_sizes(exec, d), invalid_argument_error);
}
