// Reader limits of issue 18: declared vertices bounded by the entries, NaN and infinite weights refused
// with file and line, and only regular files read by path (a FIFO must not hang the reader).
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#if __has_include(<sys/stat.h>) && __has_include(<fcntl.h>) && __has_include(<unistd.h>)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define BITGRAPH_TEST_HAVE_MKFIFO 1
#endif

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/edge_list_text.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "bitgraph/io/read_limits.hpp"
#include "support/errors.hpp"

using namespace bitgraph;
using Catch::Matchers::ContainsSubstring;

namespace {

namespace fs = std::filesystem;

struct temp_dir {
  fs::path path;
  temp_dir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("bitgraph-io-limits-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
};

edge_list read_mm(const std::string& text, const io::mm_read_options& opts = {}) {
  std::istringstream in(text);
  return io::read_matrix_market(in, "<mm>", opts);
}

edge_list read_edges(const std::string& text, const io::edge_list_read_options& opts = {}) {
  std::istringstream in(text);
  return io::read_edge_list(in, "<edges>", opts);
}

template <class F>
void expect_parse_error(F&& f, const std::string& source, std::uint64_t line, const std::string& problem) {
  try {
    f();
    FAIL("no parse_error thrown; expected " << source << ":" << line << ": " << problem);
  } catch (const parse_error& e) {
    INFO(e.what());
    CHECK(e.source() == source);
    CHECK(e.line() == line);
    CHECK_THAT(e.problem(), ContainsSubstring(problem));
  }
}

std::string mm_entries(std::uint64_t n, std::uint64_t entries) {
  std::string s = "%%MatrixMarket matrix coordinate pattern general\n" + std::to_string(n) + " " + std::to_string(n) +
                  " " + std::to_string(entries) + "\n";
  for (std::uint64_t k = 0; k < entries; ++k) s += std::to_string(k + 1) + " " + std::to_string(n - k) + "\n";
  return s;
}

}  // namespace

// ------------------------------------------------------------------------------- declared vertices

TEST_CASE("vertex_bound: max(2^20, per_entry x entries), saturating, 0 lifts it", "[io][limits]") {
  CHECK(io::vertex_bound(0, 64) == io::sparse_vertex_floor);
  CHECK(io::vertex_bound(1, 64) == std::uint64_t(1) << 20);
  CHECK(io::vertex_bound(100000, 64) == 6400000);
  CHECK(io::vertex_bound(UINT64_MAX / 2, 64) == UINT64_MAX);
  CHECK(io::vertex_bound(5, 0) == UINT64_MAX);
  CHECK(io::default_vertices_per_entry == 64);
}

TEST_CASE("Matrix Market: a header declaring 4,294,967,294 vertices over one entry is refused at once",
          "[io][limits]") {
  const auto start = std::chrono::steady_clock::now();
  // Issue 18's 77-byte file.
  const std::string hostile = "%%MatrixMarket matrix coordinate pattern general\n4294967294 4294967294 1\n1 1\n";
  const std::string what = test::thrown_text<size_error>([&] { read_mm(hostile); });
  CHECK_THAT(what, ContainsSubstring("<mm>:2:"));
  CHECK_THAT(what, ContainsSubstring("4294967294 vertices for 1 entries"));
  CHECK_THAT(what, ContainsSubstring("max_vertices_per_entry"));
  // The same through a file, and through the header-only reader used by load_graph.
  temp_dir dir;
  const auto file = (dir.path / "huge.mtx").string();
  std::ofstream(file) << hostile;
  CHECK_THAT(test::thrown_text<size_error>([&] { io::read_matrix_market(file); }), ContainsSubstring(file + ":2:"));
  CHECK_THROWS_AS(io::read_matrix_market_header(file), size_error);
  // 200 M vertices (the 3.1 GB case) too.
  CHECK_THROWS_AS(read_mm("%%MatrixMarket matrix coordinate real general\n200000000 200000000 1\n1 2 1.5\n"),
                  size_error);
  // Symmetric and rectangular (padded) files count the same way.
  CHECK_THROWS_AS(read_mm("%%MatrixMarket matrix coordinate pattern symmetric\n3000000 3000000 1\n2 1\n"), size_error);
  io::mm_read_options pad;
  pad.pad_rectangular = true;
  CHECK_THROWS_AS(read_mm("%%MatrixMarket matrix coordinate pattern general\n1 3000000 1\n1 1\n", pad), size_error);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("Matrix Market: the vertex bound's edges and the options that raise it", "[io][limits]") {
  // Up to 2^20 vertices whatever the entries.
  CHECK(read_mm(mm_entries(std::uint64_t(1) << 20, 1)).num_vertices == std::uint64_t(1) << 20);
  CHECK(read_mm(mm_entries(std::uint64_t(1) << 20, 0)).num_vertices == std::uint64_t(1) << 20);
  CHECK_THROWS_AS(read_mm(mm_entries((std::uint64_t(1) << 20) + 1, 1)), size_error);
  // Beyond, 64 vertices per entry.
  const std::uint64_t entries = 20000;
  CHECK(read_mm(mm_entries(64 * entries, entries)).num_vertices == 64 * entries);
  CHECK_THROWS_AS(read_mm(mm_entries(64 * entries + 1, entries)), size_error);
  // A raised or lifted bound reads them.
  io::mm_read_options raised;
  raised.max_vertices_per_entry = 65;
  CHECK(read_mm(mm_entries(64 * entries + 1, entries), raised).num_vertices == 64 * entries + 1);
  io::mm_read_options lifted;
  lifted.max_vertices_per_entry = 0;
  CHECK(read_mm(mm_entries(4294967294ULL, 1), lifted).num_vertices == 4294967294ULL);
  // max_vertices still applies with the bound lifted.
  lifted.max_vertices = 1000;
  CHECK_THROWS_AS(read_mm(mm_entries(1001, 1), lifted), size_error);
  // The bound is part of the options' text form (and so of cache keys).
  CHECK_THAT(io::to_string(raised), ContainsSubstring("vertices_per_entry=65"));
  // Array files list every value: no bound needed, a 2 x 2 array is read.
  CHECK(read_mm("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n").num_vertices == 2);
}

TEST_CASE("Edge lists: ids far beyond the number of edges are refused with the line of the largest id",
          "[io][limits]") {
  const auto start = std::chrono::steady_clock::now();
  const std::string what = test::thrown_text<size_error>([&] { read_edges("0 1\n# c\n4000000000 0\n2 3\n"); });
  CHECK_THAT(what, ContainsSubstring("<edges>:3:"));
  CHECK_THAT(what, ContainsSubstring("4000000001 vertices for 3 edges"));
  CHECK_THAT(what, ContainsSubstring("max_vertices_per_entry"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  // Up to 2^20 vertices whatever the edges; beyond, 64 per edge.
  CHECK(read_edges("1048575 0\n").num_vertices == std::uint64_t(1) << 20);
  CHECK_THROWS_AS(read_edges("1048576 0\n"), size_error);
  io::edge_list_read_options one_based;
  one_based.one_based = true;
  CHECK(read_edges("1048576 1\n", one_based).num_vertices == std::uint64_t(1) << 20);
  // Raised, lifted, or an explicit num_vertices (the caller's choice).
  io::edge_list_read_options lifted;
  lifted.max_vertices_per_entry = 0;
  CHECK(read_edges("4000000000 0\n", lifted).num_vertices == 4000000001ULL);
  io::edge_list_read_options raised;
  raised.max_vertices_per_entry = 3000000;
  CHECK(read_edges("2999999 0\n", raised).num_vertices == 3000000);
  io::edge_list_read_options given;
  given.num_vertices = 3000000;
  CHECK(read_edges("0 1\n", given).num_vertices == 3000000);
  CHECK_THAT(io::to_string(raised), ContainsSubstring("vertices_per_entry=3000000"));
}

// --------------------------------------------------------------------------- NaN and infinite weights

TEST_CASE("Matrix Market: NaN and infinite values are refused at their line unless allowed", "[io][limits]") {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.5\n";
  expect_parse_error([&] { read_mm(head + "2 3 nan\n3 1 1\n"); }, "<mm>", 4, "value 'nan' is NaN");
  expect_parse_error([&] { read_mm(head + "2 3 -nan\n3 1 1\n"); }, "<mm>", 4, "is NaN");
  expect_parse_error([&] { read_mm(head + "2 3 1\n3 1 inf\n"); }, "<mm>", 5, "value 'inf' is infinite");
  expect_parse_error([&] { read_mm(head + "2 3 -Infinity\n3 1 1\n"); }, "<mm>", 4, "infinite");
  // Beyond the double range: parsed as infinity, refused as such.
  expect_parse_error([&] { read_mm(head + "2 3 1e999\n3 1 1\n"); }, "<mm>", 4, "value '1e999' is infinite");
  expect_parse_error([&] { read_mm(head + "2 3 nan\n3 1 1\n"); }, "<mm>", 4, "allow_non_finite");
  // Symmetric storage, a float %%GraphBLAS type over an integer field, array files.
  expect_parse_error([&] { read_mm("%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 1\n2 1 inf\n"); },
                     "<mm>", 4, "infinite");
  expect_parse_error(
      [&] { read_mm("%%MatrixMarket matrix coordinate integer general\n%%GraphBLAS type double\n2 2 1\n1 2 -inf\n"); },
      "<mm>", 4, "infinite");
  expect_parse_error([&] { read_mm("%%MatrixMarket matrix array real general\n2 2\n1\n% c\n2\nnan\n4\n"); }, "<mm>", 6,
                     "value 'nan' is NaN");
  // Through a file, the file is named.
  temp_dir dir;
  const auto file = (dir.path / "nan.mtx").string();
  std::ofstream(file) << head << "2 3 nan\n3 1 1\n";
  expect_parse_error([&] { io::read_matrix_market(file); }, file, 4, "NaN");

  // Allowed explicitly, or not stored as weights (values skipped), they are read.
  io::mm_read_options keep;
  keep.allow_non_finite = true;
  const edge_list el = read_mm(head + "2 3 nan\n3 1 -inf\n", keep);
  REQUIRE(el.weights.size() == 3);
  CHECK(std::isnan(el.weights[1]));
  CHECK(el.weights[2] == -std::numeric_limits<double>::infinity());
  io::mm_read_options structure;
  structure.read_values = false;
  CHECK(read_mm(head + "2 3 nan\n3 1 inf\n", structure).size() == 3);
  // Large finite values stay accepted.
  CHECK(read_mm(head + "2 3 1.7976931348623157e308\n3 1 -1e300\n").weights[1] == 1.7976931348623157e308);
  CHECK_THAT(io::to_string(keep), ContainsSubstring("non_finite=keep"));
  CHECK_THAT(io::to_string(io::mm_read_options{}), ContainsSubstring("non_finite=reject"));
}

TEST_CASE("Edge lists: NaN and infinite weights are refused at their line unless allowed", "[io][limits]") {
  expect_parse_error([] { read_edges("0 1 1\n1 2 NaN\n"); }, "<edges>", 2, "weight 'NaN' is NaN");
  expect_parse_error([] { read_edges("0 1 inf\n1 2 1\n"); }, "<edges>", 1, "weight 'inf' is infinite");
  expect_parse_error([] { read_edges("0 1 1\n# c\n1 2 -1e400\n"); }, "<edges>", 3, "infinite");
  expect_parse_error([] { read_edges("0 1 1\n1 2 nan\n"); }, "<edges>", 2, "allow_non_finite");
  io::edge_list_read_options keep;
  keep.allow_non_finite = true;
  const edge_list el = read_edges("0 1 1\n1 2 nan\n2 0 inf\n", keep);
  REQUIRE(el.weights.size() == 3);
  CHECK(std::isnan(el.weights[1]));
  CHECK(std::isinf(el.weights[2]));
  io::edge_list_read_options structure;
  structure.read_weights = false;
  CHECK(read_edges("0 1 nan\n1 2 inf\n", structure).size() == 2);
  CHECK_THAT(io::to_string(keep), ContainsSubstring("non_finite=keep"));
}

// ------------------------------------------------------------------------------- regular files only

TEST_CASE("Readers refuse directories and devices by path", "[io][limits]") {
  temp_dir dir;
  const auto d = (dir.path / "dir.mtx").string();
  fs::create_directories(d);
  try {
    io::read_matrix_market(d);
    FAIL("no error");
  } catch (const error& e) {
    CHECK_THAT(std::string(e.what()), ContainsSubstring("it is a directory"));
  }
  CHECK_THROWS_AS(io::read_edge_list(d), error);
  CHECK_THROWS_AS(io::read_matrix_market_header(d), error);
  if (fs::exists("/dev/null")) {
    try {
      io::read_matrix_market("/dev/null");
      FAIL("no error");
    } catch (const error& e) {
      CHECK_THAT(std::string(e.what()), ContainsSubstring("character device"));
    }
    CHECK_THROWS_AS(io::read_edge_list("/dev/zero"), error);
  }
  // A missing file is still reported as such.
  try {
    io::read_matrix_market((dir.path / "missing.mtx").string());
    FAIL("no error");
  } catch (const error& e) {
    CHECK_THAT(std::string(e.what()), ContainsSubstring("cannot open"));
  }
}

#ifdef BITGRAPH_TEST_HAVE_MKFIFO
TEST_CASE("Readers refuse a FIFO named x.mtx without blocking", "[io][limits]") {
  temp_dir dir;
  const auto fifo = (dir.path / "x.mtx").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // Should a reader block in open(), this watchdog connects a writer and hangs up after 5 s, so that the
  // test fails (the reader then sees an empty input, not the FIFO error) instead of hanging.
  std::atomic<bool> done{false};
  std::thread watchdog([&] {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    while (!done) {
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0) ::close(fd);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  const auto start = std::chrono::steady_clock::now();
  auto expect_fifo_error = [&](auto&& read) {
    try {
      read();
      FAIL("no error");
    } catch (const parse_error& e) {
      FAIL("the reader opened the FIFO: " << e.what());
    } catch (const error& e) {
      CHECK_THAT(std::string(e.what()), ContainsSubstring("FIFO"));
      CHECK_THAT(std::string(e.what()), ContainsSubstring(fifo));
    }
  };
  expect_fifo_error([&] { io::read_matrix_market(fifo); });
  expect_fifo_error([&] { io::read_matrix_market_header(fifo); });
  expect_fifo_error([&] { io::read_edge_list(fifo); });
  done = true;
  watchdog.join();
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(4));
}
#endif
