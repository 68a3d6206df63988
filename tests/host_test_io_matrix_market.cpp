// Matrix Market reader and writer: LAGraph's data files (accepted and mangled), hostile inputs, options,
// round trips.
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "support/test_data.hpp"

using namespace bitgraph;
using namespace std::string_literals;
using Catch::Matchers::ContainsSubstring;

namespace {

std::string data(const std::string& name) { return std::string(BITGRAPH_TEST_DATA_DIR) + "/" + name; }

edge_list read_text(const std::string& text, const io::mm_read_options& opts = {}, io::mm_header* h = nullptr) {
  std::istringstream in(text);
  return io::read_matrix_market(in, "<text>", opts, h);
}

// Runs `f`, which must throw parse_error at `line` with `problem` in its message.
template <class F>
void expect_parse_error(F&& f, std::uint64_t line, const std::string& problem) {
  try {
    f();
    FAIL("no parse_error thrown; expected line " << line << ": " << problem);
  } catch (const parse_error& e) {
    INFO(e.what());
    CHECK(e.line() == line);
    CHECK_THAT(e.problem(), ContainsSubstring(problem));
    if (line > 0) CHECK_THAT(std::string(e.what()), ContainsSubstring(":" + std::to_string(line) + ":"));
  }
}

void expect_text_error(const std::string& text, std::uint64_t line, const std::string& problem,
                       const io::mm_read_options& opts = {}) {
  INFO("input: " << text);
  expect_parse_error([&] { read_text(text, opts); }, line, problem);
}

struct triple {
  vertex_t u, v;
  double w;
  bool operator<(const triple& o) const {
    if (u != o.u) return u < o.u;
    if (v != o.v) return v < o.v;
    // NaN sorts last so that equal sets compare equal.
    if (std::isnan(w) || std::isnan(o.w)) return !std::isnan(w) && std::isnan(o.w);
    return w < o.w;
  }
  bool operator==(const triple& o) const {
    return u == o.u && v == o.v && (w == o.w || (std::isnan(w) && std::isnan(o.w)));
  }
};

// The directed entries an edge list stands for (mirrors added per its storage), sorted; weight 1 when
// unweighted.
std::vector<triple> expand(const edge_list& el) {
  std::vector<triple> out;
  for (std::size_t k = 0; k < el.size(); ++k) {
    const double w = el.weighted() ? el.weights[k] : 1.0;
    out.push_back({el.src[k], el.dst[k], w});
    if (el.storage != edge_storage::general && el.src[k] != el.dst[k]) {
      out.push_back({el.dst[k], el.src[k], el.storage == edge_storage::skew_symmetric ? -w : w});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

host_csr to_csr(const std::vector<triple>& sorted, vertex_t n, graph_kind kind, bool weighted) {
  host_csr g;
  g.n = n;
  g.kind = kind;
  g.has_weights = weighted;
  g.row_ptr.assign(std::size_t(n) + 1, 0);
  for (const auto& t : sorted) {
    ++g.row_ptr[t.u + 1];
    g.col_idx.push_back(t.v);
    if (weighted) g.weights.push_back(t.w);
  }
  for (vertex_t u = 0; u < n; ++u) g.row_ptr[u + 1] += g.row_ptr[u];
  return g;
}

struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() / ("bitgraph-io-mm-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

TEST_CASE("Matrix Market: LAGraph's data files read with LAGraph's sizes and value ranges", "[io]") {
  // Expected values from LAGraph's own tests (test_MMRead.c: nrows, nvals after expanding symmetric
  // storage; test_minmax.c: smallest and largest value).
  struct expected {
    const char* name;
    std::uint64_t n;
    std::uint64_t nvals;
    double min, max;
    bool pad;
  };
  constexpr double inf = std::numeric_limits<double>::infinity();
  const expected files[] = {
      {"A.mtx", 7, 30, 1, 1, false},
      {"cover.mtx", 7, 12, 1, 9, false},
      {"jagmesh7.mtx", 1138, 7450, 1, 1, false},
      {"ldbc-cdlp-directed-example.mtx", 8, 18, 1, 1, false},
      {"ldbc-cdlp-undirected-example.mtx", 8, 24, 1, 1, false},
      {"ldbc-directed-example-bool.mtx", 10, 17, 1, 1, false},
      {"ldbc-directed-example.mtx", 10, 17, 0.1, 0.83, false},
      {"ldbc-directed-example-unweighted.mtx", 10, 17, 1, 1, false},
      {"ldbc-undirected-example-bool.mtx", 9, 24, 1, 1, false},
      {"ldbc-undirected-example.mtx", 9, 24, 0.12, 0.9, false},
      {"ldbc-undirected-example-unweighted.mtx", 9, 24, 1, 1, false},
      {"ldbc-wcc-example.mtx", 10, 30, 1, 1, false},
      {"LFAT5.mtx", 14, 46, -6283200, 12566400, false},
      {"LFAT5_two.mtx", 28, 92, -6283200, 12566400, false},
      {"olm1000.mtx", 1000, 3996, -45777.0931, 22888.5466, false},
      {"bcsstk13.mtx", 2003, 83883, -583929119292, 1191785641270, false},
      {"cryg2500.mtx", 2500, 12349, -5679.837539484813, 4615.532487504805, false},
      {"tree-example.mtx", 6, 10, 1, 1, false},
      {"west0067.mtx", 67, 294, -1.863354, 1.863354, false},
      {"west0067_jumbled.mtx", 67, 294, -1.863354, 1.863354, false},
      {"karate.mtx", 34, 156, 1, 1, false},
      {"matrix_fp32_structure.mtx", 7, 12, 1, 1, false},
      {"skew_fp64.mtx", 6, 20, -inf, inf, false},
      {"skew_int8.mtx", 6, 20, -125, 125, false},
      {"structure.mtx", 7, 12, 1, 1, false},
      {"full.mtx", 3, 9, 0.118, 0.754, false},
      {"full_symmetric.mtx", 4, 16, 3.9635860919952393, 28.239410400390625, false},
      {"comments_full.mtx", 3, 9, 0.118, 0.754, false},
      {"comments_cover.mtx", 7, 12, 1, 9, false},
      {"pushpull.mtx", 4000, 0, 1, 1, false},           // nvals not in LAGraph's table
      {"zenios.mtx", 2873, 0, 0, 1.4055985944, false},  // nvals not in LAGraph's table
      {"sources_7.mtx", 64, 64, 1, 7, true},
      {"empty.mtx", 4, 0, 0, 0, true},
  };
  for (const auto& f : files) {
    INFO(f.name);
    io::mm_read_options opts;
    opts.pad_rectangular = f.pad;
    opts.allow_non_finite = true;  // skew_fp64.mtx holds inf, as LAGraph reads it
    const edge_list el = io::read_matrix_market(data(f.name), opts);
    CHECK(el.num_vertices == f.n);
    CHECK(el.name == data(f.name));
    const auto all = expand(el);
    if (f.nvals > 0 || std::string(f.name) == "empty.mtx") CHECK(all.size() == f.nvals);
    if (!all.empty()) {
      double lo = inf, hi = -inf;
      for (const auto& t : all) {
        if (std::isnan(t.w)) continue;
        lo = std::min(lo, t.w);
        hi = std::max(hi, t.w);
      }
      CHECK(lo == f.min);
      CHECK(hi == f.max);
    }
  }
}

TEST_CASE("Matrix Market: karate is a 34-vertex pattern symmetric graph with 78 edges", "[io]") {
  io::mm_header h;
  const edge_list el = io::read_matrix_market(data("karate.mtx"), {}, &h);
  CHECK(h.has_banner);
  CHECK(h.format == io::mm_format::coordinate);
  CHECK(h.field == io::mm_field::pattern);
  CHECK(h.symmetry == io::mm_symmetry::symmetric);
  CHECK(h.rows == 34);
  CHECK(h.cols == 34);
  CHECK(h.entries == 78);
  CHECK(el.num_vertices == 34);
  CHECK(el.size() == 78);
  CHECK(el.storage == edge_storage::symmetric);
  CHECK_FALSE(el.weighted());
  for (std::size_t k = 0; k < el.size(); ++k) CHECK(el.src[k] != el.dst[k]);
  // Zachary's club: the instructor (vertex 1) has 16 friends, the administrator (vertex 34) 17.
  std::vector<int> degree(34, 0);
  for (const auto& t : expand(el)) ++degree[t.u];
  CHECK(degree[0] == 16);
  CHECK(degree[33] == 17);
}

TEST_CASE("Matrix Market: headers of the larger LAGraph files", "[io]") {
  const auto west = io::read_matrix_market_header(data("west0067.mtx"));
  CHECK(west.field == io::mm_field::real);
  CHECK(west.symmetry == io::mm_symmetry::general);
  CHECK(west.rows == 67);
  CHECK(west.entries == 294);
  const auto zenios = io::read_matrix_market_header(data("zenios.mtx"));
  CHECK(zenios.rows == 2873);
  CHECK(zenios.field == io::mm_field::real);
  CHECK(zenios.symmetry == io::mm_symmetry::symmetric);
  CHECK(io::read_matrix_market_header(data("jagmesh7.mtx")).rows == 1138);
  CHECK(io::read_matrix_market_header(data("bcsstk13.mtx")).rows == 2003);
  const auto ldbc = io::read_matrix_market_header(data("ldbc-directed-example-bool.mtx"));
  CHECK(ldbc.graphblas_type == "bool");
  CHECK(ldbc.field == io::mm_field::integer);
  CHECK(ldbc.size_line == 3);
  const auto full = io::read_matrix_market_header(data("full_symmetric.mtx"));
  CHECK(full.format == io::mm_format::array);
  CHECK(full.entries == 10);
}

TEST_CASE("Matrix Market: explicit zeros are edges", "[io]") {
  const edge_list el = io::read_matrix_market(data("zenios.mtx"));
  CHECK(el.num_vertices == 2873);
  CHECK(el.storage == edge_storage::symmetric);
  REQUIRE(el.weighted());
  const auto zeros = std::count(el.weights.begin(), el.weights.end(), 0.0);
  CHECK(zeros > 0);
  CHECK(std::size_t(zeros) < el.size());
  // The structure does not depend on whether values are kept.
  io::mm_read_options no_values;
  no_values.read_values = false;
  const edge_list pattern = io::read_matrix_market(data("zenios.mtx"), no_values);
  CHECK_FALSE(pattern.weighted());
  CHECK(pattern.src == el.src);
  CHECK(pattern.dst == el.dst);
}

TEST_CASE("Matrix Market: jumbled, header-less and commented variants hold the same matrix", "[io]") {
  const auto west = expand(io::read_matrix_market(data("west0067.mtx")));
  CHECK(expand(io::read_matrix_market(data("west0067_jumbled.mtx"))) == west);

  // LAGraph's header-less extension is an option; by default the banner is required.
  expect_parse_error([] { io::read_matrix_market(data("west0067_noheader.mtx")); }, 1, "missing banner");
  io::mm_read_options lenient;
  lenient.allow_missing_banner = true;
  io::mm_header h;
  CHECK(expand(io::read_matrix_market(data("west0067_noheader.mtx"), lenient, &h)) == west);
  CHECK_FALSE(h.has_banner);
  CHECK(h.format == io::mm_format::coordinate);
  const auto full = expand(io::read_matrix_market(data("full.mtx")));
  CHECK(expand(io::read_matrix_market(data("full_noheader.mtx"), lenient, &h)) == full);
  CHECK(h.format == io::mm_format::array);
  CHECK(expand(io::read_matrix_market(data("comments_full.mtx"))) == full);

  // LAGraph's writer test stored west0067 with A(1,1) = NaN added (refused unless NaN is allowed).
  CHECK_THROWS_AS(io::read_matrix_market(data("comments_west0067.mtx")), parse_error);
  io::mm_read_options keep_nan;
  keep_nan.allow_non_finite = true;
  auto with_nan = expand(io::read_matrix_market(data("comments_west0067.mtx"), keep_nan));
  REQUIRE(with_nan.size() == west.size() + 1);
  const auto nan_entry =
      std::find_if(with_nan.begin(), with_nan.end(), [](const triple& t) { return std::isnan(t.w); });
  REQUIRE(nan_entry != with_nan.end());
  CHECK(nan_entry->u == 0);
  CHECK(nan_entry->v == 0);
  with_nan.erase(nan_entry);
  CHECK(with_nan == west);
}

TEST_CASE("Matrix Market: LFAT5 variants hold the blocks their comments describe", "[io]") {
  const auto lfat5 = expand(io::read_matrix_market(data("LFAT5.mtx")));
  // "A hypersparse matrix with the leading 14-by-14 submatrix the same as LFAT5".
  const edge_list hyper = io::read_matrix_market(data("LFAT5_hypersparse.mtx"));
  CHECK(hyper.num_vertices == 2000);
  CHECK(expand(hyper) == lfat5);
  // "This is [A 0 ; 0 A] if A is the LFAT5 matrix".
  auto two = lfat5;
  for (const auto& t : lfat5) two.push_back({t.u + 14, t.v + 14, t.w});
  std::sort(two.begin(), two.end());
  CHECK(expand(io::read_matrix_market(data("LFAT5_two.mtx"))) == two);
}

TEST_CASE("Matrix Market: dense arrays list every entry column by column", "[io]") {
  const edge_list full = io::read_matrix_market(data("full.mtx"));
  REQUIRE(full.size() == 9);
  CHECK(full.storage == edge_storage::general);
  // Column-major: the second value is row 2, column 1.
  CHECK(full.src[1] == 1);
  CHECK(full.dst[1] == 0);
  CHECK(full.weights[1] == 0.709);
  CHECK(full.src[3] == 0);
  CHECK(full.dst[3] == 1);

  const edge_list sym = io::read_matrix_market(data("full_symmetric.mtx"));
  CHECK(sym.storage == edge_storage::symmetric);
  REQUIRE(sym.size() == 10);
  for (std::size_t k = 0; k < sym.size(); ++k) CHECK(sym.src[k] >= sym.dst[k]);

  // Skew-symmetric arrays store the strict lower triangle (the diagonal is zero).
  const edge_list skew = read_text("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n");
  CHECK(skew.storage == edge_storage::skew_symmetric);
  REQUIRE(skew.size() == 3);
  CHECK(std::vector<vertex_t>(skew.src) == std::vector<vertex_t>{1, 2, 2});
  CHECK(std::vector<vertex_t>(skew.dst) == std::vector<vertex_t>{0, 0, 1});
  expect_text_error("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n4\n", 6, "more values");
  expect_text_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 6, "3 of the 4 values");
  expect_text_error("%%MatrixMarket matrix array real general\n2 2\n1\n2 5\n3\n4\n", 4, "one value");
  expect_text_error("%%MatrixMarket matrix array real general\n2 2 4\n1\n2\n3\n4\n", 2, "'rows columns'");
  expect_text_error("%%MatrixMarket matrix array integer general\n1 1\n1.5\n", 3, "not an integer");
}

TEST_CASE("Matrix Market: every mangled LAGraph file is rejected with its line and problem", "[io]") {
  struct mangled {
    const char* name;
    std::uint64_t line;
    const char* problem;
  };
  const mangled files[] = {
      {"mangled1.mtx", 1, "unsupported object 'mangled'"},
      {"mangled2.mtx", 1, "unknown format 'mangled'"},
      {"mangled3.mtx", 1, "unknown field 'mangled'"},
      {"mangled4.mtx", 1, "unknown symmetry 'mangled'"},
      {"mangled5.mtx", 5, "pattern entries have no value"},
      {"mangled6.mtx", 5, "unexpected '1' after the value"},
      {"mangled7.mtx", 2, "unknown %%GraphBLAS type 'gunk'"},
      {"mangled8.mtx", 4, "'rows columns entries'"},
      {"mangled9.mtx", 4, "symmetric matrix must be square"},
      {"mangled10.mtx", 4, "square"},
      {"mangled11.mtx", 4, "square"},
      {"mangled12.mtx", 4, "square"},
      {"mangled13.mtx", 4, "square"},
      {"mangled14.mtx", 5, "square"},
      {"mangled15.mtx", 2, "complex matrices are not supported"},
      {"mangled16.mtx", 2, "complex matrices are not supported"},
      {"mangled_bool.mtx", 10, "value 2 is out of the range 0..1 of %%GraphBLAS type bool"},
      {"mangled_int8.mtx", 8, "value -129 is out of the range -128..127"},
      {"mangled_int16.mtx", 8, "value -32769 is out of the range"},
      {"mangled_int32.mtx", 8, "value -2147483649 is out of the range"},
      {"mangled_uint8.mtx", 9, "value 256 is out of the range 0..255"},
      {"mangled_uint16.mtx", 9, "value 65536 is out of the range 0..65535"},
      {"mangled_uint32.mtx", 9, "value 4294967296 is out of the range 0..4294967295"},
      {"mangled_skew.mtx", 2, "skew-symmetric matrix cannot have the unsigned %%GraphBLAS type uint8_t"},
      {"mangled_format.mtx", 1, "'array' format cannot have the 'pattern' field"},
      {"complex.mtx", 1, "complex matrices are not supported"},
  };
  for (const auto& f : files) {
    INFO(f.name);
    expect_parse_error([&] { io::read_matrix_market(data(f.name)); }, f.line, f.problem);
  }
  // mangled10..14 are 3 x 4; read as 4-vertex graphs the damage LAGraph tests for is found.
  io::mm_read_options pad;
  pad.pad_rectangular = true;
  const mangled padded[] = {
      {"mangled10.mtx", 7, "unexpected end of input: 2 of the 3 entries declared on line 4"},
      {"mangled11.mtx", 5, "invalid column index 'zero'"},
      {"mangled12.mtx", 5, "the entry has no value"},
      {"mangled13.mtx", 7, "column index 9999 is out of the range 1..4"},
      {"mangled14.mtx", 8, "duplicate entry (2, 2): the entry on line 7"},
  };
  for (const auto& f : padded) {
    INFO(f.name);
    expect_parse_error([&] { io::read_matrix_market(data(f.name), pad); }, f.line, f.problem);
  }
}

TEST_CASE("Matrix Market: rectangular matrices are rejected unless padded", "[io]") {
  expect_parse_error([] { io::read_matrix_market(data("sources_7.mtx")); }, 3, "64 x 1");
  io::mm_read_options pad;
  pad.pad_rectangular = true;
  io::mm_header h;
  const edge_list el = io::read_matrix_market(data("sources_7.mtx"), pad, &h);
  CHECK(h.rows == 64);
  CHECK(h.cols == 1);
  CHECK(el.num_vertices == 64);
  CHECK(el.size() == 64);
  for (vertex_t d : el.dst) CHECK(d == 0);
  // LAGraph: 27 x 51 with 102 entries.
  const edge_list afiro = io::read_matrix_market(data("lp_afiro_structure.mtx"), pad, &h);
  CHECK(h.rows == 27);
  CHECK(h.cols == 51);
  CHECK(afiro.num_vertices == 51);
  CHECK(afiro.size() == 102);
  for (vertex_t s : afiro.src) CHECK(s < 27);
  const edge_list empty = io::read_matrix_market(data("empty.mtx"), pad);
  CHECK(empty.num_vertices == 4);
  CHECK(empty.size() == 0);
  expect_text_error("%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 0\n", 1, "pattern");
  expect_text_error("%%MatrixMarket matrix array real symmetric\n2 3\n", 2, "must be square", pad);
}

TEST_CASE("Matrix Market: syntax the format allows is accepted", "[io]") {
  const std::string plain = "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.5\n2 3 -1e3\n3 1 7\n";
  const auto expected = expand(read_text(plain));
  REQUIRE(expected.size() == 3);
  CHECK(expected[0] == triple{0, 1, 0.5});
  CHECK(expected[1] == triple{1, 2, -1000.0});
  CHECK(expected[2] == triple{2, 0, 7.0});

  SECTION("case-insensitive banner keywords") {
    CHECK(expand(read_text("%%matrixmarket MATRIX Coordinate REAL General\n3 3 3\n1 2 0.5\n2 3 -1e3\n3 1 7\n")) ==
          expected);
  }
  SECTION("CRLF line endings, no final newline") {
    CHECK(expand(read_text("%%MatrixMarket matrix coordinate real general\r\n3 3 3\r\n1 2 0.5\r\n2 3 -1e3\r\n3 1 7")) ==
          expected);
  }
  SECTION("comments and blank lines before the size line, between and after entries") {
    CHECK(expand(read_text("%%MatrixMarket matrix coordinate real general\n% c\n\n  % indented\n%%GraphBLAS "
                           "comment\n3 3 3\n\n1 2 0.5\n% between\n   \t\n2 3 -1e3\n3 1 7\n% trailing\n\n")) ==
          expected);
  }
  SECTION("tabs and extra spaces, a '+' sign, a UTF-8 byte-order mark") {
    CHECK(expand(read_text("\xEF\xBB\xBF%%MatrixMarket  matrix\tcoordinate real general  \n 3\t3 3 \n\t1  2 "
                           "+0.5\n2 3 -1E+3 \n +3 1 7.0\n")) == expected);
  }
  SECTION("inf, nan and out-of-range magnitudes") {
    io::mm_read_options keep;
    keep.allow_non_finite = true;
    const edge_list el = read_text(
        "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 inf\n1 2 -Infinity\n2 1 nan\n2 2 1e999\n", keep);
    REQUIRE(el.weights.size() == 4);
    CHECK(el.weights[0] == std::numeric_limits<double>::infinity());
    CHECK(el.weights[1] == -std::numeric_limits<double>::infinity());
    CHECK(std::isnan(el.weights[2]));
    CHECK(el.weights[3] == std::numeric_limits<double>::infinity());
  }
  SECTION("hermitian real and pattern matrices are symmetric") {
    CHECK(read_text("%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n2 1 3\n").storage ==
          edge_storage::symmetric);
    CHECK(read_text("%%MatrixMarket matrix coordinate pattern hermitian\n2 2 1\n2 1\n").storage ==
          edge_storage::symmetric);
  }
  SECTION("entries of symmetric matrices in either triangle") {
    const edge_list el = read_text("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n1 2\n3 2\n");
    CHECK(expand(el).size() == 4);
  }
  SECTION("an empty matrix") {
    const edge_list el = read_text("%%MatrixMarket matrix coordinate pattern general\n0 0 0\n");
    CHECK(el.num_vertices == 0);
    CHECK(el.size() == 0);
  }
  SECTION("a float or double %%GraphBLAS type accepts any real value in an integer field, as LAGraph") {
    io::mm_read_options keep;
    keep.allow_non_finite = true;
    const edge_list el = read_text(
        "%%MatrixMarket matrix coordinate integer general\n%%GraphBLAS type float\n2 2 2\n1 2 -inf\n2 1 0.5\n", keep);
    REQUIRE(el.weighted());
    CHECK(expand(el) == std::vector<triple>{{0, 1, -std::numeric_limits<double>::infinity()}, {1, 0, 0.5}});
    expect_text_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 -inf\n", 3,
                      "value '-inf' is not an integer (the 'integer' field)");
  }
  SECTION("skew-symmetric diagonal entries equal to zero") {
    const edge_list el = read_text("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 2\n2 1 5\n2 2 0\n");
    CHECK(expand(el) == std::vector<triple>{{0, 1, -5.0}, {1, 0, 5.0}, {1, 1, 0.0}});
  }
}

TEST_CASE("Matrix Market: malformed headers name the line and the problem", "[io]") {
  expect_text_error("", 1, "empty input");
  expect_text_error("\n\n", 1, "missing banner");
  expect_text_error("3 3 1\n1 1 1\n", 1, "missing banner");
  expect_text_error("% just a comment\n3 3 1\n1 1 1\n", 1, "missing banner");
  expect_text_error("%%MatrixMarketmatrix coordinate real general\n1 1 0\n", 1, "invalid banner");
  expect_text_error("%%MatrixMarket matrix coordinate real\n1 1 0\n", 1, "incomplete banner");
  expect_text_error("%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", 1, "unexpected 'extra'");
  expect_text_error("%%MatrixMarket vector coordinate real general\n1 1 0\n", 1, "unsupported object 'vector'");
  expect_text_error("%%MatrixMarket matrix coordinate complex general\n1 1 0\n", 1,
                    "complex matrices are not supported");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n", 2, "size line is missing");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n% only comments\n\n", 4, "size line is missing");
  expect_text_error(
      "%%MatrixMarket matrix coordinate real general\n%%MatrixMarket matrix coordinate real general\n1 1 0\n", 2,
      "must be the first line");
  expect_text_error(
      "%%MatrixMarket matrix coordinate real general\n%%GraphBLAS type double\n%%GraphBLAS type float\n1 1 0\n", 3,
      "a second '%%GraphBLAS type' line");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n%%GraphBLAS type\n1 1 0\n", 2, "names no type");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n3 3\n", 2, "'rows columns entries'");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n3 3 1 1\n", 2, "'rows columns entries'");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n3 x 1\n", 2, "invalid number of columns 'x'");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n3 3 -1\n", 2, "negative number of entries");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n-3 3 1\n", 2, "negative number of rows");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n3 3 1.5\n", 2, "invalid number of entries");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n99999999999999999999999 3 1\n", 2, "too large");
  // More entries than positions can only be duplicates.
  expect_text_error("%%MatrixMarket matrix coordinate real general\n2 2 5\n", 2, "only 4 distinct positions");
  expect_text_error("%%MatrixMarket matrix coordinate real symmetric\n2 2 4\n", 2, "only 3 distinct positions");
}

TEST_CASE("Matrix Market: malformed entries name the line and the problem", "[io]") {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n% comment\n3 3 2\n";  // entries from line 4
  expect_text_error(head + "1 1 1\n0 1 1\n", 5, "row index 0 is out of the range 1..3");
  expect_text_error(head + "1 1 1\n1 4 1\n", 5, "column index 4 is out of the range 1..3");
  expect_text_error(head + "-1 1 1\n1 1 1\n", 4, "negative row index '-1'");
  expect_text_error(head + "1 -2 1\n1 1 1\n", 4, "negative column index '-2'");
  expect_text_error(head + "a 1 1\n1 1 1\n", 4, "invalid row index 'a'");
  expect_text_error(head + "1 1.0 1\n1 1 1\n", 4, "invalid column index '1.0'");
  expect_text_error(head + "1 1 1\n1\n", 5, "the entry has no column index");
  expect_text_error(head + "1 1 1\n2 2\n", 5, "the entry has no value");
  expect_text_error(head + "1 1 1\n2 2 x\n", 5, "invalid value 'x'");
  expect_text_error(head + "1 1 1\n2 2 1.0d5\n", 5, "invalid value '1.0d5'");
  expect_text_error(head + "1 1 1\n2 2 1 1\n", 5, "unexpected '1' after the value");
  expect_text_error(head + "1 1 1 % no trailing comments\n2 2 1\n", 4, "unexpected '%'");
  expect_text_error(head + "1 1 1\n2 2 1\n3 3 1\n", 6, "more entries than the 2 declared on line 3");
  expect_text_error(head + "1 1 1\n", 5, "unexpected end of input: 1 of the 2 entries declared on line 3");
  expect_text_error(head + "1 1 1\n\n% c\n", 7, "unexpected end of input");
  expect_text_error(head + "1 1 1\n99999999999999999999999 1 1\n", 5,
                    "row index '99999999999999999999999' is out of range");
  expect_text_error(head + "1 1 1\n2\t2\x01 1\n", 5, "invalid column index '2\\x01'");
  expect_text_error(head + "1 1 1\n2 2 1\0\n"s, 5, "NUL byte");
  expect_text_error("%%MatrixMarket matrix coordinate real general\n% com\0ment\n1 1 0\n"s, 2, "NUL byte");
  expect_text_error("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", 3,
                    "pattern entries have no value");
  expect_text_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", 3, "not an integer");
  expect_text_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 9223372036854775808\n", 3,
                    "out of the range");
  expect_text_error("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 2\n", 3,
                    "diagonal entry (1, 1) of a skew-symmetric matrix must be zero");
}

TEST_CASE("Matrix Market: duplicate entries are rejected unless allowed", "[io]") {
  const std::string general = "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1\n% c\n\n2 1 1\n% c\n1 2 5\n";
  expect_text_error(general, 8, "duplicate entry (1, 2): the entry on line 3 has the same position");
  // In symmetric storage (i, j) and (j, i) are one entry.
  const std::string sym = "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n1 2\n";
  expect_text_error(sym, 4, "symmetric");
  io::mm_read_options keep;
  keep.allow_duplicates = true;
  CHECK(read_text(general, keep).size() == 3);
  CHECK(read_text(sym, keep).size() == 2);
  // Many distinct entries in a large order stay accepted (the check must not report false positives).
  std::string big = "%%MatrixMarket matrix coordinate pattern general\n3000 3000 20000\n";
  std::mt19937 rng(7);
  std::vector<std::uint64_t> keys;
  for (std::uint64_t k = 0; k < 20000; ++k) keys.push_back((k * 2654435761ULL) % 9000000ULL);
  std::shuffle(keys.begin(), keys.end(), rng);
  for (const auto key : keys) big += std::to_string(key / 3000 + 1) + " " + std::to_string(key % 3000 + 1) + "\n";
  CHECK(read_text(big).size() == 20000);
  big.replace(big.rfind('\n', big.size() - 2) + 1, std::string::npos,
              std::to_string(keys[123] / 3000 + 1) + " " + std::to_string(keys[123] % 3000 + 1) + "\n");
  expect_text_error(big, 2 + 20000, "duplicate entry");
}

TEST_CASE("Matrix Market: sizes beyond the index types and lying headers", "[io]") {
  const auto start = std::chrono::steady_clock::now();
  // 2^32 - 1 vertices do not fit (vertex_t reserves its largest value).
  try {
    read_text("%%MatrixMarket matrix coordinate pattern general\n4294967295 4294967295 1\n1 1\n");
    FAIL("no size_error");
  } catch (const size_error& e) {
    CHECK_THAT(std::string(e.what()), ContainsSubstring("<text>:2:"));
    CHECK_THAT(std::string(e.what()), ContainsSubstring("4294967295 rows"));
  }
  CHECK_THROWS_AS(read_text("%%MatrixMarket matrix coordinate pattern general\n18446744073709551615 1 0\n"),
                  size_error);
  // 2^31 and 2^32 - 2 vertices over one or no entry are refused by default (the CSR would need n + 1
  // offsets), and read with the bound lifted.
  io::mm_read_options sparse;
  sparse.max_vertices_per_entry = 0;
  CHECK(read_text("%%MatrixMarket matrix coordinate pattern general\n2147483648 2147483648 1\n2147483648 1\n", sparse)
            .num_vertices == 2147483648ULL);
  CHECK(read_text("%%MatrixMarket matrix coordinate pattern general\n4294967294 4294967294 0\n", sparse).num_vertices ==
        4294967294ULL);
  CHECK_THROWS_AS(read_text("%%MatrixMarket matrix coordinate pattern general\n4294967294 4294967294 0\n"), size_error);
  io::mm_read_options small;
  small.max_vertices = 1000;
  CHECK_THROWS_AS(read_text("%%MatrixMarket matrix coordinate pattern general\n1001 1001 0\n", small), size_error);
  // Entry counts at and beyond 2^63.
  expect_text_error("%%MatrixMarket matrix coordinate pattern general\n4294967294 4294967294 9223372036854775808\n", 2,
                    "exceeds 2^63 - 1");
  io::mm_read_options dups;
  dups.allow_duplicates = true;
  // Headers promising billions of entries or values over a tiny input fail at the end of the input
  // without allocating for the promise.
  expect_text_error(
      "%%MatrixMarket matrix coordinate pattern general\n4294967294 4294967294 9223372036854775807\n1 1\n", 4,
      "1 of the 9223372036854775807 entries", dups);
  expect_text_error("%%MatrixMarket matrix coordinate real general\n4000000000 4000000000 4000000000000000000\n1 1 1\n",
                    4, "unexpected end of input");
  expect_text_error("%%MatrixMarket matrix array real general\n4294967294 4294967294\n1\n2\n", 5,
                    "2 of the 18446744056529682436 values");
  // The header lies the other way round.
  expect_text_error("%%MatrixMarket matrix coordinate pattern general\n3 3 0\n1 1\n", 3, "more entries than the 0");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
}

TEST_CASE("Matrix Market: binary garbage and very long lines are rejected", "[io]") {
  std::mt19937_64 rng(12345);
  for (int trial = 0; trial < 200; ++trial) {
    std::string junk(std::size_t(rng() % 4096), '\0');
    for (char& c : junk) c = char(rng());
    // Bare garbage, and garbage after a valid header.
    CHECK_THROWS_AS(read_text(junk), parse_error);
    try {
      read_text("%%MatrixMarket matrix coordinate real general\n10 10 5\n" + junk);
      FAIL("garbage entries were accepted");
    } catch (const parse_error& e) {
      CHECK(e.line() >= 3);
    }
  }
  const std::string long_line = "%%MatrixMarket matrix coordinate real general\n" + std::string(17u << 20, '7') + "\n";
  expect_text_error(long_line, 2, "longer than 16 MiB");
}

TEST_CASE("Matrix Market: large inputs parse identically across read chunks", "[io]") {
  // Several MiB of text cross the reader's chunk boundaries at every possible offset within a line.
  std::mt19937_64 rng(99);
  const vertex_t n = 50000;
  const std::size_t m = 400000;
  std::vector<triple> want;
  std::string text = "%%MatrixMarket matrix coordinate real general\n%%GraphBLAS type double\n% generated\n";
  text += std::to_string(n) + " " + std::to_string(n) + " " + std::to_string(m) + "\r\n";
  for (std::size_t k = 0; k < m; ++k) {
    const vertex_t u = vertex_t(k % n), v = vertex_t((k / n) * 7919 % n);
    // Quarters print exactly with std::to_string's six decimals.
    const double w = double(std::int64_t(rng() % 2000001) - 1000000) / 4.0;
    want.push_back({u, v, w});
    text += std::to_string(u + 1) + (k % 3 ? " " : "\t ") + std::to_string(v + 1) + " " + std::to_string(w) +
            (k % 5 ? "\n" : "\r\n");
    if (k % 1001 == 0) text += "% comment among entries\n";
  }
  io::mm_header h;
  const edge_list el = read_text(text, {}, &h);
  CHECK(text.size() > (std::size_t(4) << 20));
  CHECK(h.graphblas_type == "double");
  REQUIRE(el.size() == m);
  std::sort(want.begin(), want.end());
  CHECK(expand(el) == want);
}

TEST_CASE("Matrix Market: unreadable files throw bitgraph::error, not parse_error", "[io]") {
  temp_dir dir;
  try {
    io::read_matrix_market((dir.path / "missing.mtx").string());
    FAIL("no error");
  } catch (const parse_error&) {
    FAIL("parse_error for a missing file");
  } catch (const bitgraph::error& e) {
    CHECK_THAT(std::string(e.what()), ContainsSubstring("missing.mtx"));
  }
  CHECK_THROWS_AS(io::read_matrix_market(dir.path.string()), bitgraph::error);
}

TEST_CASE("Matrix Market: host CSR graphs round trip through the writer", "[io]") {
  temp_dir dir;
  SECTION("directed weighted") {
    const edge_list el = io::read_matrix_market(data("west0067.mtx"));
    const auto all = expand(el);
    const host_csr g = to_csr(all, 67, graph_kind::directed, true);
    const std::string file = (dir.path / "west.mtx").string();
    io::write_matrix_market(file, g);
    io::mm_header h;
    const edge_list back = io::read_matrix_market(file, {}, &h);
    CHECK(h.field == io::mm_field::real);
    CHECK(h.symmetry == io::mm_symmetry::general);
    CHECK(back.num_vertices == 67);
    CHECK(expand(back) == all);  // shortest round-trip text keeps every value exact
  }
  SECTION("undirected graphs are written as the lower triangle of a symmetric matrix") {
    const auto all = expand(io::read_matrix_market(data("karate.mtx")));
    const host_csr g = to_csr(all, 34, graph_kind::undirected, false);
    std::ostringstream out;
    io::mm_write_options opts;
    opts.comment = "Zachary's karate club\nsecond line";
    io::write_matrix_market(out, g, opts);
    const std::string text = out.str();
    CHECK_THAT(text, ContainsSubstring("%%MatrixMarket matrix coordinate pattern symmetric\n"));
    CHECK_THAT(text, ContainsSubstring("% Zachary's karate club\n% second line\n"));
    CHECK_THAT(text, ContainsSubstring("\n34 34 78\n"));
    io::mm_header h;
    const edge_list back = read_text(text, {}, &h);
    CHECK(back.size() == 78);
    for (std::size_t k = 0; k < back.size(); ++k) CHECK(back.src[k] > back.dst[k]);
    CHECK(expand(back) == all);
    // Written as general, every stored entry appears.
    opts.symmetric = false;
    std::ostringstream general;
    io::write_matrix_market(general, g, opts);
    const edge_list all_entries = read_text(general.str());
    CHECK(all_entries.size() == 156);
    CHECK(all_entries.storage == edge_storage::general);
  }
  SECTION("special values and self-loops") {
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<triple> all = {{0, 0, -0.0}, {0, 1, 1e-310},       {1, 0, 1e-310},   {1, 2, inf},
                                     {2, 1, inf},  {2, 2, std::nan("")}, {1, 1, 0.1 + 0.2}};
    auto sorted = all;
    std::sort(sorted.begin(), sorted.end());
    const host_csr g = to_csr(sorted, 3, graph_kind::undirected, true);
    std::ostringstream out;
    io::write_matrix_market(out, g);
    io::mm_read_options keep;
    keep.allow_non_finite = true;
    const edge_list back = read_text(out.str(), keep);
    CHECK(expand(back) == sorted);
    CHECK(back.size() == 5);
  }
  SECTION("invalid graphs are refused before a file is created") {
    host_csr g = to_csr({{0, 1, 1.0}}, 2, graph_kind::undirected, false);  // (1, 0) missing
    const auto file = dir.path / "bad.mtx";
    CHECK_THROWS_AS(io::write_matrix_market(file.string(), g), invalid_argument_error);
    CHECK_FALSE(std::filesystem::exists(file));
    host_csr upper_only = to_csr({{0, 1, 1.0}, {0, 2, 1.0}, {2, 0, 1.0}}, 3, graph_kind::undirected, false);
    CHECK_THROWS_AS(io::write_matrix_market(file.string(), upper_only), invalid_argument_error);
    host_csr broken = to_csr({{0, 1, 1.0}}, 2, graph_kind::directed, false);
    broken.col_idx[0] = 5;
    CHECK_THROWS_AS(io::write_matrix_market(file.string(), broken), invalid_argument_error);
    broken.col_idx[0] = 1;
    broken.row_ptr[1] = 2;
    CHECK_THROWS_AS(io::write_matrix_market(file.string(), broken), invalid_argument_error);
    CHECK_FALSE(std::filesystem::exists(file));
  }
}

TEST_CASE("Matrix Market: edge lists round trip with their storage", "[io]") {
  for (const char* name : {"A.mtx", "LFAT5.mtx", "skew_fp64.mtx", "skew_int8.mtx", "cover.mtx", "full_symmetric.mtx"}) {
    INFO(name);
    io::mm_read_options keep;
    keep.allow_non_finite = true;  // skew_fp64.mtx holds inf
    const edge_list el = io::read_matrix_market(data(name), keep);
    std::ostringstream out;
    io::write_matrix_market(out, el);
    const edge_list back = read_text(out.str(), keep);
    CHECK(back.storage == el.storage);
    CHECK(back.num_vertices == el.num_vertices);
    CHECK(expand(back) == expand(el));
  }
  // Entries above the diagonal move below it; skew entries change sign as they move.
  edge_list skew;
  skew.num_vertices = 3;
  skew.storage = edge_storage::skew_symmetric;
  skew.src = {0, 2};
  skew.dst = {2, 1};
  std::ostringstream out;
  io::write_matrix_market(out, skew);
  CHECK_THAT(out.str(), ContainsSubstring("real skew-symmetric\n"));
  CHECK_THAT(out.str(), ContainsSubstring("\n3 1 -1\n3 2 1\n"));
  CHECK(expand(read_text(out.str())) == expand(skew));

  edge_list bad;
  bad.num_vertices = 2;
  bad.src = {0, 2};
  bad.dst = {1, 1};
  std::ostringstream ignored;
  CHECK_THROWS_AS(io::write_matrix_market(ignored, bad), invalid_argument_error);
  bad.src = {0};
  CHECK_THROWS_AS(io::write_matrix_market(ignored, bad), invalid_argument_error);
}

TEST_CASE("Matrix Market: reader options have a canonical text form", "[io]") {
  io::mm_read_options a;
  io::mm_read_options b;
  CHECK(io::to_string(a) == io::to_string(b));
  b.allow_duplicates = true;
  CHECK(io::to_string(a) != io::to_string(b));
  b = a;
  b.pad_rectangular = true;
  CHECK(io::to_string(a) != io::to_string(b));
  b = a;
  b.read_values = false;
  CHECK(io::to_string(a) != io::to_string(b));
  b = a;
  b.allow_missing_banner = true;
  CHECK(io::to_string(a) != io::to_string(b));
  b = a;
  b.max_vertices = 10;
  CHECK(io::to_string(a) != io::to_string(b));
}
