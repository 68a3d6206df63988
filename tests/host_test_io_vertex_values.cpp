// Per-vertex results (`bitgraph run --output`): the CSV, Matrix Market and binary layouts, bad columns.
#include <catch2/catch_test_macros.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/io/vertex_values.hpp"

using namespace bitgraph;

namespace {

std::vector<io::vertex_column> sample() {
  std::vector<io::vertex_column> cols(2);
  cols[0].name = "level";
  cols[0].integers = {0, 1, -1};
  cols[1].name = "distance";
  cols[1].real = true;
  cols[1].reals = {0.0, 1.5, std::numeric_limits<double>::infinity()};
  return cols;
}

std::string written(io::vertex_values_format f, const std::vector<io::vertex_column>& cols) {
  std::ostringstream os;
  io::write_vertex_values(os, f, cols);
  return os.str();
}

std::uint64_t le(const std::string& s, std::size_t at, int bytes) {
  std::uint64_t x = 0;
  for (int i = 0; i < bytes; ++i) x |= std::uint64_t(static_cast<unsigned char>(s[at + i])) << (8 * i);
  return x;
}

}  // namespace

TEST_CASE("vertex values: formats by extension", "[io][vertex_values]") {
  CHECK(io::vertex_values_format_of("out/r.CSV") == io::vertex_values_format::csv);
  CHECK(io::vertex_values_format_of("r.tsv") == io::vertex_values_format::tsv);
  CHECK(io::vertex_values_format_of("r.mtx") == io::vertex_values_format::matrix_market);
  CHECK(io::vertex_values_format_of("r.bin") == io::vertex_values_format::binary);
  CHECK_FALSE(io::vertex_values_format_of("r.txt"));
  CHECK_FALSE(io::vertex_values_format_of("dir.csv/results"));
}

TEST_CASE("vertex values: CSV, TSV and Matrix Market text", "[io][vertex_values]") {
  CHECK(written(io::vertex_values_format::csv, sample()) == "vertex,level,distance\n0,0,0\n1,1,1.5\n2,-1,inf\n");
  CHECK(written(io::vertex_values_format::tsv, sample()) ==
        "vertex\tlevel\tdistance\n0\t0\t0\n1\t1\t1.5\n2\t-1\tinf\n");
  CHECK(written(io::vertex_values_format::matrix_market, sample()) ==
        "%%MatrixMarket matrix array real general\n% bitgraph per-vertex results; columns: level distance\n3 2\n"
        "0\n1\n-1\n0\n1.5\ninf\n");
  auto ints = sample();
  ints.pop_back();
  CHECK(written(io::vertex_values_format::matrix_market, ints) ==
        "%%MatrixMarket matrix array integer general\n% bitgraph per-vertex results; columns: level\n3 1\n0\n1\n-1\n");
}

TEST_CASE("vertex values: the binary layout", "[io][vertex_values]") {
  const auto s = written(io::vertex_values_format::binary, sample());
  REQUIRE(s.size() == 8 + 4 + 4 + 8 + 8 + (4 + 5) + (4 + 8) + 2 * 3 * 8);
  CHECK(s.substr(0, 8) == "BGVALUES");
  CHECK(le(s, 8, 4) == io::vertex_values_version);
  CHECK(le(s, 12, 4) == 2);  // float64: one column is real
  CHECK(le(s, 16, 8) == 3);
  CHECK(le(s, 24, 8) == 2);
  CHECK(le(s, 32, 4) == 5);
  CHECK(s.substr(36, 5) == "level");
  const std::size_t values = 41 + 4 + 8;
  CHECK(std::bit_cast<double>(le(s, values + 2 * 8, 8)) == -1.0);
  CHECK(std::isinf(std::bit_cast<double>(le(s, values + 5 * 8, 8))));
}

TEST_CASE("vertex values: bad columns are refused", "[io][vertex_values]") {
  CHECK_THROWS_AS(written(io::vertex_values_format::csv, {}), invalid_argument_error);
  auto uneven = sample();
  uneven[1].reals.pop_back();
  CHECK_THROWS_AS(written(io::vertex_values_format::csv, uneven), invalid_argument_error);
  CHECK_THROWS_AS(io::write_vertex_values("/nonexistent-dir/r.csv", io::vertex_values_format::csv, sample()), error);
}
