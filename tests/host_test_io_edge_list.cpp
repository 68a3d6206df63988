// Plain-text edge lists: accepted syntax, options, hostile inputs, round trips.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdint>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/edge_list_text.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "support/test_data.hpp"

using namespace bitgraph;
using namespace std::string_literals;
using Catch::Matchers::ContainsSubstring;

namespace {

edge_list read_text(const std::string& text, const io::edge_list_read_options& opts = {}) {
  std::istringstream in(text);
  return io::read_edge_list(in, "<edges>", opts);
}

void expect_error(const std::string& text, std::uint64_t line, const std::string& problem,
                  const io::edge_list_read_options& opts = {}) {
  INFO("input: " << text);
  try {
    read_text(text, opts);
    FAIL("no parse_error thrown; expected line " << line << ": " << problem);
  } catch (const parse_error& e) {
    INFO(e.what());
    CHECK(e.line() == line);
    CHECK(e.source() == "<edges>");
    CHECK_THAT(e.problem(), ContainsSubstring(problem));
  }
}

}  // namespace

TEST_CASE("edge list: unweighted and weighted lists with comments and blank lines", "[io]") {
  const edge_list el = read_text("# a comment\n% another\n\n0 1\n  1\t2  \r\n\n2 0\n# end");
  CHECK(el.num_vertices == 3);
  CHECK(el.src == std::vector<vertex_t>{0, 1, 2});
  CHECK(el.dst == std::vector<vertex_t>{1, 2, 0});
  CHECK_FALSE(el.weighted());
  CHECK(el.storage == edge_storage::general);
  CHECK(el.name == "<edges>");

  const edge_list w = read_text("0 1 0.5\n1 1 -2e3\n3 0 0\n");
  CHECK(w.num_vertices == 4);
  CHECK(w.weights == std::vector<double>{0.5, -2000.0, 0.0});

  io::edge_list_read_options skip;
  skip.read_weights = false;
  CHECK_FALSE(read_text("0 1 0.5\n1 1 -2e3\n", skip).weighted());
  expect_error("0 1 0.5\n1 1 oops\n", 2, "invalid weight 'oops'", skip);  // still checked

  CHECK(read_text("").num_vertices == 0);
  CHECK(read_text("# nothing\n\n").size() == 0);
}

TEST_CASE("edge list: one-based ids, explicit vertex counts and storage", "[io]") {
  io::edge_list_read_options one;
  one.one_based = true;
  const edge_list el = read_text("1 2\n3 1\n", one);
  CHECK(el.num_vertices == 3);
  CHECK(el.src == std::vector<vertex_t>{0, 2});
  CHECK(el.dst == std::vector<vertex_t>{1, 0});
  expect_error("1 2\n0 1\n", 2, "source vertex id 0 in a 1-based edge list", one);

  io::edge_list_read_options counted;
  counted.num_vertices = 10;  // isolated vertices at the end survive
  CHECK(read_text("0 1\n", counted).num_vertices == 10);
  expect_error("0 1\n2 10\n", 2, "target vertex id 10 is out of the range 0..9", counted);
  counted.one_based = true;
  expect_error("1 2\n2 11\n", 2, "target vertex id 11 is out of the range 1..10", counted);
  CHECK(read_text("10 10\n", counted).src == std::vector<vertex_t>{9});

  io::edge_list_read_options sym;
  sym.storage = edge_storage::symmetric;
  CHECK(read_text("0 1\n", sym).storage == edge_storage::symmetric);
}

TEST_CASE("edge list: malformed lines name the line and the problem", "[io]") {
  expect_error("0 1\n2\n", 2, "no target vertex id");
  expect_error("0 1\n2 3 4 5\n", 2, "unexpected '5' after the weight");
  expect_error("0 1\n-2 3\n", 2, "negative source vertex id '-2'");
  expect_error("0 1\n2 -3\n", 2, "negative target vertex id '-3'");
  expect_error("0 1\nx 3\n", 2, "invalid source vertex id 'x'");
  expect_error("0 1\n2 3.5\n", 2, "invalid target vertex id '3.5'");
  expect_error("0 1\n2 3,\n", 2, "invalid target vertex id '3,'");
  expect_error("0 1\n2 3 # trailing comment\n", 2, "invalid weight '#'");
  expect_error("0 1\n2 99999999999999999999999\n", 2, "is too large");
  expect_error("0 1 1\n\n# c\n2 3\n", 4, "this edge has no weight but the first edge (line 1) has one");
  expect_error("0 1\n2 3 1\n", 2, "this edge has a weight but the first edge (line 1) has none");
  expect_error("0 1\n2 3\0\n"s, 2, "NUL byte");
  expect_error("0 1\n" + std::string(17u << 20, '1'), 2, "longer than 16 MiB");
  // Ids that need more than 2^32 - 2 vertices.
  try {
    read_text("0 1\n4294967294 0\n");
    FAIL("no size_error");
  } catch (const size_error& e) {
    CHECK_THAT(std::string(e.what()), ContainsSubstring("<edges>:2:"));
    CHECK_THAT(std::string(e.what()), ContainsSubstring("4294967295 vertices"));
  }
  io::edge_list_read_options sparse;
  sparse.max_vertices_per_entry = 0;
  CHECK(read_text("4294967293 0\n", sparse).num_vertices == 4294967294ULL);
  CHECK_THROWS_AS(read_text("4294967293 0\n"), size_error);
  io::edge_list_read_options too_many;
  too_many.num_vertices = 4294967295ULL;
  CHECK_THROWS_AS(read_text("0 1\n", too_many), size_error);
  io::edge_list_read_options capped;
  capped.max_vertices = 100;
  CHECK_THROWS_AS(read_text("0 100\n", capped), size_error);
  CHECK(read_text("0 99\n", capped).num_vertices == 100);

  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 200; ++trial) {
    std::string junk(std::size_t(rng() % 2048) + 1, '\0');
    for (char& c : junk) c = char(rng());
    // Garbage that happens to be only comment or blank lines is a valid empty list; force a data line.
    junk[0] = 'z';
    CHECK_THROWS_AS(read_text(junk), parse_error);
  }
}

TEST_CASE("edge list: writers round trip edge lists and CSR graphs", "[io]") {
  edge_list el;
  el.num_vertices = 5;
  el.src = {0, 4, 2, 2};
  el.dst = {1, 0, 2, 2};
  el.weights = {0.1, -3.5, 1e300, 0.0};
  for (const bool one_based : {false, true}) {
    io::edge_list_write_options wopts;
    wopts.one_based = one_based;
    std::ostringstream out;
    io::write_edge_list(out, el, wopts);
    CHECK_THAT(out.str(), ContainsSubstring("# BitGraph edge list: 5 vertices, 4 edges"));
    io::edge_list_read_options ropts;
    ropts.one_based = one_based;
    const edge_list back = read_text(out.str(), ropts);
    CHECK(back.src == el.src);
    CHECK(back.dst == el.dst);
    CHECK(back.weights == el.weights);
    CHECK(back.num_vertices == 5);
  }
  io::edge_list_write_options plain;
  plain.header = false;
  plain.write_weights = false;
  std::ostringstream out;
  io::write_edge_list(out, el, plain);
  CHECK(out.str() == "0 1\n4 0\n2 2\n2 2\n");

  host_csr g;
  g.n = 3;
  g.kind = graph_kind::undirected;
  g.has_weights = true;
  g.row_ptr = {0, 1, 2, 2};
  g.col_idx = {1, 0};
  g.weights = {2.5, 2.5};
  std::ostringstream csr_out;
  io::write_edge_list(csr_out, g, plain);
  CHECK(csr_out.str() == "0 1\n1 0\n");
  io::edge_list_write_options with_w;
  with_w.header = false;
  std::ostringstream csr_w;
  io::write_edge_list(csr_w, g, with_w);
  CHECK(csr_w.str() == "0 1 2.5\n1 0 2.5\n");

  // A file on disk, read back with its vertex count.
  const auto file =
      std::filesystem::temp_directory_path() / ("bitgraph-io-el-" + std::to_string(std::random_device{}()) + ".txt");
  io::write_edge_list(file.string(), g);
  io::edge_list_read_options ropts;
  ropts.num_vertices = 3;
  const edge_list back = io::read_edge_list(file.string(), ropts);
  std::filesystem::remove(file);
  CHECK(back.num_vertices == 3);
  CHECK(back.weights == g.weights);

  g.col_idx = {1, 3};
  CHECK_THROWS_AS(io::write_edge_list(csr_out, g), invalid_argument_error);
  el.dst[0] = 7;
  CHECK_THROWS_AS(io::write_edge_list(out, el), invalid_argument_error);
}

TEST_CASE("edge list: Matrix Market and edge-list readers agree on converted data", "[io]") {
  const edge_list mm = io::read_matrix_market(std::string(BITGRAPH_TEST_DATA_DIR) + "/west0067.mtx");
  std::ostringstream out;
  io::write_edge_list(out, mm);
  io::edge_list_read_options opts;
  opts.num_vertices = mm.num_vertices;
  const edge_list back = read_text(out.str(), opts);
  CHECK(back.src == mm.src);
  CHECK(back.dst == mm.dst);
  CHECK(back.weights == mm.weights);
}

TEST_CASE("edge list: reader options have a canonical text form", "[io]") {
  io::edge_list_read_options a;
  io::edge_list_read_options b;
  CHECK(io::to_string(a) == io::to_string(b));
  b.one_based = true;
  CHECK(io::to_string(a) != io::to_string(b));
  b = a;
  b.num_vertices = 0;
  CHECK(io::to_string(a) != io::to_string(b));
  b = a;
  b.storage = edge_storage::symmetric;
  CHECK(io::to_string(a) != io::to_string(b));
  b = a;
  b.read_weights = false;
  CHECK(io::to_string(a) != io::to_string(b));
  b = a;
  b.max_vertices = 7;
  CHECK(io::to_string(a) != io::to_string(b));
}
