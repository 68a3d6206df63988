// Issue 16, item 1: `make_csr_graph` adopts a caller's device CSR (any integral index types), zero-copy
// where the types match, and rejects malformed input naming the first bad row.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/csr.hpp"
#include "support/errors.hpp"
#include "support/random_graphs.hpp"
#include "support/spaces.hpp"
#include "support/test_data.hpp"

using namespace bitgraph;
using Catch::Matchers::ContainsSubstring;

namespace {

/// A std::vector converted element-wise to T, as a View in `Mem`.
template <class T, class Mem, class U>
Kokkos::View<T*, Mem> typed_view(const std::vector<U>& v) {
  std::vector<T> t(v.begin(), v.end());
  return test::to_view<Mem>(t);
}

/// A host copy of a graph's arrays, for comparisons.
struct host_arrays {
  std::vector<offset_t> row_ptr;
  std::vector<vertex_t> col_idx;
  std::vector<double> weights;
  bool operator==(const host_arrays&) const = default;
};

template <class Graph>
host_arrays arrays_of(const Graph& g) {
  return {test::to_vector(g.row_ptr), test::to_vector(g.col_idx), test::to_vector(g.weights)};
}

// A small directed graph: 0 -> {1, 2}, 1 -> {2}, 2 -> {0, 3}, 3 -> {}.
const std::vector<long long> small_row_map = {0, 2, 3, 5, 5};
const std::vector<long long> small_entries = {1, 2, 2, 0, 3};

/// Adopts `h`'s arrays as R row map and E entries (weights as double when present) and checks the result
/// against `h`, zero-copy exactly when the types are BitGraph's.
template <class R, class E, class Exec>
void check_round_trip(const Exec& exec, const host_csr& h) {
  using mem = memory_space_t<Exec>;
  auto rm = typed_view<R, mem>(h.row_ptr);
  auto en = typed_view<E, mem>(h.col_idx);
  Kokkos::View<const R*, mem> crm = rm;
  Kokkos::View<const E*, mem> cen = en;
  csr_graph<mem> g;
  Kokkos::View<double*, mem> w;
  if (h.has_weights) {
    w = test::to_view<mem>(h.weights);
    g = make_csr_graph(exec, h.n, crm, cen, Kokkos::View<const double*, mem>(w), h.kind);
    CHECK(g.weights.data() == w.data());
  } else {
    g = make_csr_graph(exec, h.n, crm, cen, h.kind);
  }
  CHECK(g.n == h.n);
  CHECK(g.nnz == h.col_idx.size());
  CHECK(g.kind == h.kind);
  CHECK(g.has_weights == h.has_weights);
  CHECK_FALSE(g.has_duplicates);
  CHECK(arrays_of(g) == host_arrays{h.row_ptr, h.col_idx, h.weights});
  offset_t longest = 0;
  for (vertex_t u = 0; u < h.n; ++u) longest = std::max<offset_t>(longest, h.row_ptr[u + 1] - h.row_ptr[u]);
  CHECK(g.longest_row == longest);
  const bool share_rows = std::is_same_v<R, offset_t>, share_cols = std::is_same_v<E, vertex_t>;
  CHECK((static_cast<const void*>(g.row_ptr.data()) == static_cast<const void*>(rm.data())) == share_rows);
  CHECK((static_cast<const void*>(g.col_idx.data()) == static_cast<const void*>(en.data())) == share_cols);
  // A shared array is a counted reference to the caller's allocation, not a raw pointer.
  if (share_rows) CHECK(g.row_ptr.use_count() == rm.use_count());
}

}  // namespace

TEMPLATE_TEST_CASE("make_csr_graph adopts valid graphs of several index types", "[formats][adopt]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    auto el = test::random_edges(seed * 13 + 1, seed * 40, seed, seed % 2 == 0);
    for (auto kind : {graph_kind::directed, graph_kind::undirected}) {
      csr_build_options o;
      o.kind = kind;
      const host_csr h = to_host_csr(build_csr(exec, el, o));
      check_round_trip<offset_t, vertex_t>(exec, h);
      check_round_trip<std::int32_t, std::int32_t>(exec, h);
      check_round_trip<std::int64_t, std::int64_t>(exec, h);
      check_round_trip<std::uint32_t, std::uint32_t>(exec, h);
      check_round_trip<std::int64_t, vertex_t>(exec, h);
      check_round_trip<offset_t, std::int32_t>(exec, h);
      check_round_trip<std::uint32_t, std::uint64_t>(exec, h);
      check_round_trip<std::int16_t, std::uint16_t>(exec, h);
    }
  }
}

TEMPLATE_TEST_CASE("make_csr_graph: converted weights, strided views and the empty graph", "[formats][adopt]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  auto rm = typed_view<offset_t, mem>(small_row_map);
  auto en = typed_view<vertex_t, mem>(small_entries);
  auto wf = test::to_view<mem>(std::vector<float>{1.5f, 2, 3, 4, 5});
  auto g = make_csr_graph(exec, 4, rm, en, wf, graph_kind::directed);
  CHECK(g.has_weights);
  CHECK(test::to_vector(g.weights) == std::vector<double>{1.5, 2, 3, 4, 5});
  CHECK(g.row_ptr.data() == rm.data());

  // A strided view of the right type is converted (copied), not shared.
  Kokkos::View<vertex_t**, Kokkos::LayoutRight, mem> two("two", 5, 2);
  auto col0 = Kokkos::subview(two, Kokkos::ALL, 0);
  Kokkos::deep_copy(col0, en);
  auto gs = make_csr_graph(exec, 4u, rm, col0, graph_kind::directed);
  CHECK(test::to_vector(gs.col_idx) == test::to_vector(en));
  CHECK(gs.col_idx.data() != col0.data());

  auto g0 = make_csr_graph(exec, 0, typed_view<int, mem>(std::vector<int>{0}), Kokkos::View<int*, mem>("e", 0),
                           graph_kind::undirected);
  CHECK(g0.n == 0);
  CHECK(g0.nnz == 0);
  CHECK(test::thrown_text<invalid_argument_error>([&] {
          make_csr_graph(exec, 0, typed_view<int, mem>(std::vector<int>{1}), Kokkos::View<int*, mem>("e", 0),
                         graph_kind::directed);
        }) == "bitgraph::make_csr_graph: row_map(0) = 1, must be 0");
}

TEMPLATE_TEST_CASE("an adopted graph gives the same BFS levels as build_csr's", "[formats][adopt]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    auto el = test::random_edges(60, 150, seed);
    for (auto kind : {graph_kind::directed, graph_kind::undirected}) {
      csr_build_options o;
      o.kind = kind;
      auto built = build_csr(exec, el, o);
      const host_csr h = to_host_csr(built);
      auto adopted = make_csr_graph(exec, std::int64_t(h.n), typed_view<std::int64_t, mem>(h.row_ptr),
                                    typed_view<std::int32_t, mem>(h.col_idx), kind);
      auto a = make_bit_graph(exec, built, {8});
      auto b = make_bit_graph(exec, adopted, {8});
      for (vertex_t source : {0u, 17u, 59u}) {
        CHECK(test::to_vector(bfs(exec, a, source).levels) == test::to_vector(bfs(exec, b, source).levels));
      }
    }
  }
}

TEMPLATE_TEST_CASE("make_csr_graph rejects malformed input naming the first bad row", "[formats][adopt]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  // Adopts rows `r` and entries `e` (as R and E) of a 4-vertex graph and returns the error text.
  auto reject = [&]<class R = std::int64_t, class E = std::int64_t>(std::vector<long long> r, std::vector<long long> e,
                                                                    graph_kind kind = graph_kind::directed,
                                                                    adopt_options opts = {}) {
    return test::thrown_text<invalid_argument_error>(
        [&] { make_csr_graph(exec, 4, typed_view<R, mem>(r), typed_view<E, mem>(e), kind, opts); });
  };
  const std::string prefix = "bitgraph::make_csr_graph: ";
  CHECK(reject(small_row_map, small_entries) == "no error");  // the base case is valid

  CHECK(reject({1, 2, 3, 5, 5}, small_entries) == prefix + "row 0: row_map(0) = 1, must be 0");
  CHECK(reject({0, 2, 1, 5, 5}, small_entries) ==
        prefix + "row 1: the row map decreases: row_map(1) = 2 > row_map(2) = 1");
  CHECK(reject({0, 2, 3, 5, 6}, small_entries) == prefix + "row 3: row_map(4) = 6 is beyond the 5 entries");
  CHECK_THAT(reject({0, 2, 3, 4, 4}, small_entries), ContainsSubstring("row 3: row_map(n) = 4 but entries has 5"));
  CHECK(reject(small_row_map, {1, 2, 2, 0, 4}) == prefix + "row 2: column id 4 at entry 4 is >= n = 4");
  CHECK(reject(small_row_map, {1, 2, -2, 0, 3}) == prefix + "row 1: column id -2 at entry 2 is negative");
  CHECK(reject({0, 2, -1, 5, 5}, small_entries) ==
        prefix + "row 1: negative row offset: row_map(1) = 2, row_map(2) = -1");
  CHECK(reject(small_row_map, {1, 2, 2, 0, (1ll << 32) + 3}) ==
        prefix + "row 2: column id 4294967299 at entry 4 does not fit the 32-bit vertex type");
  CHECK(reject.template operator()<std::int64_t, std::uint64_t>(small_row_map, {1, 2, 2, 1ll << 40, 3}) ==
        prefix + "row 2: column id 1099511627776 at entry 3 does not fit the 32-bit vertex type");
  CHECK_THAT(reject(small_row_map, {2, 1, 2, 0, 3}),
             ContainsSubstring("row 0: columns are not ascending (1 after 2 at entry 1)"));
  CHECK_THAT(reject(small_row_map, {1, 2, 2, 3, 3}),
             ContainsSubstring("row 2: column 3 is stored more than once (entry 4)"));
  CHECK(reject(small_row_map, small_entries, graph_kind::undirected) ==
        prefix + "row 0: entry (0, 1) has no mirror (1, 0) in an undirected graph");
  // The smallest bad row wins, whatever its problem; fatal problems win over fixable ones.
  CHECK_THAT(reject({0, 2, 1, 5, 5}, {1, 2, 2, 0, 9}), ContainsSubstring("row 1: the row map decreases"));
  adopt_options fix;
  fix.sort_rows = true;
  CHECK_THAT(reject(small_row_map, {2, 1, 2, 0, 7}, graph_kind::directed, fix),
             ContainsSubstring("row 2: column id 7 at entry 4 is >= n = 4"));
  // Sorting reveals duplicates, which are still rejected by default.
  CHECK_THAT(reject({0, 3, 3, 5, 5}, {2, 1, 2, 0, 3}, graph_kind::directed, fix),
             ContainsSubstring("row 0: column 2 is stored more than once"));

  // Sizes and counts, checked before any kernel.
  auto rm = typed_view<std::int32_t, mem>(small_row_map);
  auto en = typed_view<std::int32_t, mem>(small_entries);
  CHECK(test::thrown_text<invalid_argument_error>([&] { make_csr_graph(exec, 5, rm, en, graph_kind::directed); }) ==
        prefix + "row_map has 5 entries, expected n + 1 = 6");
  CHECK(test::thrown_text<invalid_argument_error>([&] { make_csr_graph(exec, -1, rm, en, graph_kind::directed); }) ==
        prefix + "n = -1 is negative");
  CHECK(test::thrown_text<invalid_argument_error>([&] {
          make_csr_graph(exec, 4, rm, en, Kokkos::View<double*, mem>("w", 4), graph_kind::directed);
        }) == prefix + "weights has 4 entries but entries has 5");
  CHECK_THROWS_AS(make_csr_graph(exec, std::uint64_t(1) << 33, rm, en, graph_kind::directed), size_error);
  CHECK_THROWS_AS(make_csr_graph(exec, 4, rm, en, graph_kind::undirected), invalid_argument_error);
}

TEMPLATE_TEST_CASE("make_csr_graph fixes rows and duplicates when asked, never writing the input", "[formats][adopt]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  // Row 0 unsorted with a repeated column of two weights, row 2 sorted with a repeat.
  const std::vector<long long> r = {0, 3, 4, 7, 7};
  const std::vector<long long> e = {2, 1, 2, 2, 0, 3, 3};
  const std::vector<double> wv = {5, 1, 4, 1, 1, 9, 8};
  auto rm = typed_view<std::uint32_t, mem>(r);
  auto en = typed_view<std::uint32_t, mem>(e);
  auto w = test::to_view<mem>(wv);

  adopt_options o;
  o.sort_rows = true;
  o.duplicates = adopt_duplicates::merge;
  auto g = make_csr_graph(exec, 4, rm, en, w, graph_kind::directed, o);
  CHECK(arrays_of(g) == host_arrays{{0, 2, 3, 5, 5}, {1, 2, 2, 0, 3}, {1, 4, 1, 1, 8}});
  CHECK_FALSE(g.has_duplicates);
  CHECK(g.longest_row == 2);
  CHECK(test::to_vector(en) == std::vector<std::uint32_t>(e.begin(), e.end()));  // the input is untouched
  CHECK(test::to_vector(w) == wv);

  o.duplicates = adopt_duplicates::keep;
  auto k = make_csr_graph(exec, 4, rm, en, w, graph_kind::directed, o);
  CHECK(test::to_vector(k.col_idx) == std::vector<vertex_t>{1, 2, 2, 2, 0, 3, 3});
  CHECK(k.has_duplicates);
  CHECK(k.nnz == 7);

  // Sorted rows with duplicates: kept as they are (shared), or merged.
  auto sorted_rm = typed_view<offset_t, mem>(std::vector<long long>{0, 2, 2, 2, 2});
  auto sorted_en = typed_view<vertex_t, mem>(std::vector<long long>{3, 3});
  adopt_options keep;
  keep.duplicates = adopt_duplicates::keep;
  auto ks = make_csr_graph(exec, 4, sorted_rm, sorted_en, graph_kind::directed, keep);
  CHECK(ks.has_duplicates);
  CHECK(ks.col_idx.data() == sorted_en.data());
  CHECK_THROWS_AS(make_bit_graph(exec, ks), invalid_argument_error);
  adopt_options merge;
  merge.duplicates = adopt_duplicates::merge;
  auto ms = make_csr_graph(exec, 4, sorted_rm, sorted_en, graph_kind::directed, merge);
  CHECK(arrays_of(ms) == host_arrays{{0, 1, 1, 1, 1}, {3}, {}});

  // Symmetry: a symmetric pattern passes; an asymmetric one passes only with the check off.
  auto sym = make_csr_graph(exec, 3, typed_view<int, mem>(std::vector<int>{0, 1, 3, 4}),
                            typed_view<int, mem>(std::vector<int>{1, 0, 2, 1}), graph_kind::undirected);
  CHECK(sym.kind == graph_kind::undirected);
  adopt_options unchecked;
  unchecked.check_symmetry = false;
  unchecked.sort_rows = true;
  unchecked.duplicates = adopt_duplicates::merge;
  CHECK(make_csr_graph(exec, 4, rm, en, graph_kind::undirected, unchecked).kind == graph_kind::undirected);
}

// The example of docs/formats.md ("Adopting a CSR from a Kokkos application"), compiled and run here.
TEMPLATE_TEST_CASE("docs: adopting a Kokkos application's CSR", "[formats][adopt]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  using mem = memory_space_t<TestType>;
  Kokkos::View<int*, mem> row_map = typed_view<int, mem>(std::vector<int>{0, 1, 3, 4});
  Kokkos::View<int*, mem> entries = typed_view<int, mem>(std::vector<int>{1, 0, 2, 1});
  // --- docs/formats.md
  bitgraph::adopt_options opts;
  opts.sort_rows = true;  // sort unsorted rows into new arrays instead of rejecting them
  auto g = bitgraph::make_csr_graph(exec, row_map.extent(0) - 1, row_map, entries, bitgraph::graph_kind::undirected,
                                    opts);  // int indices: converted once on the device
  auto bg = bitgraph::make_bit_graph(exec, g);
  auto levels = bitgraph::bfs(exec, bg, 0).levels;  // a View in the same memory space
  // ---
  CHECK(test::to_vector(levels) == std::vector<level_t>{0, 1, 2});
}

// The snippet above and the one in docs/formats.md are the same text (indentation aside).
TEST_CASE("docs/formats.md shows the adoption example the tests compile", "[formats][adopt]") {
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
  };
  const std::string self = read(__FILE__);
  const std::string docs = read(std::string(BITGRAPH_TEST_DATA_DIR) + "/../../docs/formats.md");
  const auto from = self.find("  // --- docs/formats.md\n");
  const auto to = self.find("  // ---\n", from + 1);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  std::istringstream lines(self.substr(from, to - from));
  std::string line, snippet;
  std::getline(lines, line);  // the marker
  while (std::getline(lines, line)) snippet += line.substr(std::min<std::size_t>(2, line.size())) + "\n";
  CHECK_THAT(docs, ContainsSubstring("```cpp\n" + snippet + "```"));
}
