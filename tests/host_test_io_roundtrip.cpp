// Round trips through the library's writers and readers (issue 17: `bitgraph convert`): every generator's edge
// list written as Matrix Market and as an edge list, read back, gives the same entries and weights.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "bitgraph/generators/graph_spec.hpp"
#include "bitgraph/io/edge_list_text.hpp"
#include "bitgraph/io/matrix_market.hpp"

using namespace bitgraph;

namespace {

/// The entries of `el` as sorted (row, col, weight) triples; symmetric entries in the lower triangle, as the Matrix
/// Market writer stores them.
std::vector<std::tuple<vertex_t, vertex_t, double>> entries(const edge_list& el) {
  std::vector<std::tuple<vertex_t, vertex_t, double>> out;
  for (std::size_t k = 0; k < el.size(); ++k) {
    vertex_t u = el.src[k], v = el.dst[k];
    if (el.storage != edge_storage::general && u < v) std::swap(u, v);
    out.emplace_back(u, v, el.weighted() ? el.weights[k] : 1.0);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("round trip: every generator through Matrix Market and edge lists", "[io][roundtrip]") {
  for (const char* text : {"kron:8", "urand:8", "grid2d:12", "grid3d:5", "rgg:8", "mycielski:6", "kron:7:weighted",
                           "urand:7:directed:weighted"}) {
    INFO(text);
    const auto el = gen::generate(gen::parse_graph_spec(text));
    REQUIRE(el.size() > 0);

    std::stringstream mtx;
    io::write_matrix_market(mtx, el);
    io::mm_read_options mo;
    mo.allow_duplicates = true;  // generators may repeat an edge; the CSR builder merges them
    const auto back = io::read_matrix_market(mtx, "<mtx>", mo);
    CHECK(back.num_vertices == el.num_vertices);
    CHECK(back.storage == el.storage);
    CHECK(back.weighted() == el.weighted());
    CHECK(entries(back) == entries(el));

    std::stringstream txt;
    io::write_edge_list(txt, el);
    io::edge_list_read_options eo;
    eo.num_vertices = el.num_vertices;
    eo.storage = el.storage;
    const auto back_el = io::read_edge_list(txt, "<el>", eo);
    CHECK(back_el.src == el.src);
    CHECK(back_el.dst == el.dst);
    CHECK(back_el.weights == el.weights);
  }
}
