// DIMACS .gr files, gzip-compressed inputs and the detection of a file's format: accepted syntax and hostile
// inputs (issue 17: new readers keep the guarantees of the others).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/dimacs.hpp"
#include "bitgraph/io/edge_list_text.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "support/test_data.hpp"

using namespace bitgraph;
using Catch::Matchers::ContainsSubstring;

namespace {

edge_list read_text(const std::string& text, const io::dimacs_read_options& opts = {}) {
  std::istringstream in(text);
  return io::read_dimacs(in, "<gr>", opts);
}

void expect_error(const std::string& text, std::uint64_t line, const std::string& problem) {
  INFO("input: " << text);
  try {
    read_text(text);
    FAIL("no parse_error thrown; expected line " << line << ": " << problem);
  } catch (const parse_error& e) {
    INFO(e.what());
    CHECK(e.line() == line);
    CHECK_THAT(e.problem(), ContainsSubstring(problem));
  }
}

/// A scratch file under the system's temporary directory, removed at the end of the test.
struct scratch_file {
  std::filesystem::path path;
  scratch_file(const std::string& name, const std::string& bytes)
      : path(std::filesystem::temp_directory_path() / ("bitgraph-test-" + name)) {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~scratch_file() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

/// gzip of "# gz\n0 1\n1 2\n2 0\n" (Python's gzip.compress, mtime 0).
const unsigned char edges_gz[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x53, 0x56, 0x48,
                                  0xaf, 0xe2, 0x32, 0x50, 0x30, 0xe4, 0x32, 0x54, 0x30, 0xe2, 0x32, 0x52, 0x30,
                                  0xe0, 0x02, 0x00, 0xab, 0x01, 0x5f, 0x20, 0x11, 0x00, 0x00, 0x00};
std::string gz_bytes(std::size_t keep = sizeof edges_gz) {
  return std::string(reinterpret_cast<const char*>(edges_gz), keep);
}

}  // namespace

TEST_CASE("dimacs: a shortest-path file", "[io][dimacs]") {
  const auto el = read_text("c a comment\n\np sp 4 3\nc another\na 1 2 5\na 2 3 1.5\na 4 1 2\n");
  CHECK(el.num_vertices == 4);
  CHECK(el.storage == edge_storage::general);
  CHECK(el.src == std::vector<vertex_t>{0, 1, 3});
  CHECK(el.dst == std::vector<vertex_t>{1, 2, 0});
  CHECK(el.weights == std::vector<double>{5, 1.5, 2});
  io::dimacs_read_options no_weights;
  no_weights.read_weights = false;
  CHECK_FALSE(read_text("p sp 2 1\na 1 2 7\n", no_weights).weighted());
  CHECK(read_text("p sp 3 0\n").num_vertices == 3);
}

TEST_CASE("dimacs: hostile inputs are refused at their line", "[io][dimacs]") {
  expect_error("a 1 2 5\np sp 4 1\n", 1, "an arc before the problem line");
  expect_error("p sp 4\n", 1, "no arc count");
  expect_error("p max 4 1\n", 1, "not a shortest-path problem");
  expect_error("p sp 4 x\n", 1, "invalid arc count");
  expect_error("p sp 4 1 9\n", 1, "unexpected '9'");
  expect_error("p sp 4 1\np sp 4 1\n", 2, "a second problem line");
  expect_error("p sp 4 1\na 0 2 5\n", 2, "source vertex id '0' is out of the range 1..4");
  expect_error("p sp 4 1\na 1 5 5\n", 2, "target vertex id '5' is out of the range 1..4");
  expect_error("p sp 4 1\na 1 -2 5\n", 2, "negative target vertex id");
  expect_error("p sp 4 1\na 1 2\n", 2, "the arc has no weight");
  expect_error("p sp 4 1\na 1 2 nan\n", 2, "NaN");
  expect_error("p sp 4 1\na 1 2 1e999\n", 2, "infinite");
  expect_error("p sp 4 1\na 1 2 3 4\n", 2, "unexpected '4'");
  expect_error("p sp 4 1\ne 1 2\n", 2, "unknown line type 'e'");
  expect_error("p sp 4 1\nabc 1 2 3\n", 2, "unknown line");
  expect_error("p sp 4 2\na 1 2 5\n", 1, "declares 2 arcs but the file has 1");
  expect_error("p sp 4 1\na 1 2 5\na 2 3 5\n", 3, "more arcs than the 1");
  expect_error("c only comments\n", 0, "no problem line");
  expect_error("p sp 4 1\na 1 2 \x01\n", 2, "invalid weight");
}

TEST_CASE("dimacs: declared vertices are bounded by the arcs", "[io][dimacs]") {
  CHECK_THROWS_AS(read_text("p sp 4000000000 1\na 1 2 5\n"), size_error);
  CHECK_THROWS_AS(read_text("p sp 99999999999 1\na 1 2 5\n"), size_error);
  io::dimacs_read_options unbounded;
  unbounded.max_vertices_per_entry = 0;
  unbounded.max_vertices = 100;
  CHECK_THROWS_AS(read_text("p sp 101 1\na 1 2 5\n", unbounded), size_error);
  // A huge declared arc count allocates nothing before the arcs are there.
  expect_error("p sp 4 1152921504606846976\na 1 2 5\n", 1, "declares 1152921504606846976 arcs");
}

TEST_CASE("dimacs: files are regular files only", "[io][dimacs]") {
  CHECK_THROWS_AS(io::read_dimacs("/dev/null"), error);
  CHECK_THROWS_AS(io::read_dimacs("/nonexistent/g.gr"), error);
}

TEST_CASE("gzip: every text format is read compressed, detected by its bytes", "[io][gzip]") {
  const scratch_file gz("edges.el.gz", gz_bytes());
  if (!io::gzip_input_supported()) {
    CHECK_THROWS_WITH(io::read_edge_list(gz.path.string()), ContainsSubstring("built without zlib"));
    return;
  }
  const auto el = io::read_edge_list(gz.path.string());
  CHECK(el.num_vertices == 3);
  CHECK(el.src == std::vector<vertex_t>{0, 1, 2});
  CHECK(el.dst == std::vector<vertex_t>{1, 2, 0});
  // Two members one after another (`cat a.gz b.gz`) read as one text.
  const scratch_file twice("twice.el.gz", gz_bytes() + gz_bytes());
  CHECK(io::read_edge_list(twice.path.string()).size() == 6);
  // The name does not matter: the magic bytes do.
  const scratch_file unnamed("edges-no-suffix", gz_bytes());
  CHECK(io::read_edge_list(unnamed.path.string()).size() == 3);
  CHECK(io::detect_input_format(gz.path.string()) == io::input_format::edge_list);
}

TEST_CASE("gzip: truncated and corrupt data are parse errors", "[io][gzip]") {
  if (!io::gzip_input_supported()) return;
  for (std::size_t keep : {std::size_t(2), std::size_t(10), std::size_t(20), sizeof edges_gz - 4}) {
    const scratch_file cut("cut.el.gz", gz_bytes(keep));
    INFO("first " << keep << " bytes");
    CHECK_THROWS_WITH(io::read_edge_list(cut.path.string()), ContainsSubstring("truncated"));
  }
  std::string bad = gz_bytes();
  bad[sizeof edges_gz - 6] ^= 0x5a;  // the CRC no longer matches
  const scratch_file corrupt("corrupt.el.gz", bad);
  CHECK_THROWS_AS(io::read_edge_list(corrupt.path.string()), parse_error);
  std::string garbage = gz_bytes(10) + std::string(30, '\x7f');
  const scratch_file junk("junk.mtx.gz", garbage);
  CHECK_THROWS_WITH(io::read_matrix_market(junk.path.string()), ContainsSubstring("corrupt gzip data"));
}

TEST_CASE("input format: the content before the extension", "[io][format]") {
  const scratch_file banner("banner.txt", "%%matrixmarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  CHECK(io::detect_input_format(banner.path.string()) == io::input_format::matrix_market);
  const scratch_file gr("g.gr", "p sp 2 1\na 1 2 3\n");
  CHECK(io::detect_input_format(gr.path.string()) == io::input_format::dimacs);
  const scratch_file el("g.el", "0 1\n");
  CHECK(io::detect_input_format(el.path.string()) == io::input_format::edge_list);
  const scratch_file wel("g.wel", "0 1 2.5\n");
  CHECK(io::detect_input_format(wel.path.string()) == io::input_format::edge_list);
  CHECK(io::read_edge_list(wel.path.string()).weights == std::vector<double>{2.5});
  CHECK(io::detect_input_format(std::string(BITGRAPH_TEST_DATA_DIR) + "/karate.mtx") ==
        io::input_format::matrix_market);
  const scratch_file cache("g.bin", "BGCSR\r\n\x1a");
  CHECK(io::detect_input_format(cache.path.string()) == io::input_format::graph_cache);
}
