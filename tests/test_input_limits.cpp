// Issue 18 on every enabled space: `sssp` refuses NaN and infinite weights (counting each kind), and
// `load_graph` refuses FIFOs, non-finite weights and files declaring far more vertices than entries.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#if __has_include(<sys/stat.h>) && __has_include(<fcntl.h>) && __has_include(<unistd.h>)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define BITGRAPH_TEST_HAVE_MKFIFO 1
#endif

#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/algorithms/sssp.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/io/load_graph.hpp"
#include "support/errors.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;
using Catch::Matchers::ContainsSubstring;

namespace {

namespace fs = std::filesystem;

struct temp_dir {
  fs::path path;
  temp_dir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("bitgraph-input-limits-" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
};

// A directed path 0 -> 1 -> ... -> 5 with weight 1 per edge; `set` changes some of them.
edge_list path_edges() {
  edge_list el;
  el.num_vertices = 6;
  for (vertex_t v = 0; v + 1 < 6; ++v) {
    el.src.push_back(v);
    el.dst.push_back(v + 1);
    el.weights.push_back(1.0);
  }
  return el;
}

}  // namespace

TEMPLATE_TEST_CASE("sssp refuses NaN and infinite weights, counting each kind", "[algorithms][sssp][limits]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  auto run = [&](const edge_list& el, const sssp_options& o = {}) {
    auto bg = make_bit_graph(exec, build_csr(exec, el), {8});
    return sssp(exec, bg, 0, o);
  };
  {
    auto el = path_edges();
    el.weights[2] = nan;
    const auto what = test::thrown_text<invalid_argument_error>([&] { run(el); });
    CHECK_THAT(what, ContainsSubstring("bitgraph::sssp"));
    CHECK_THAT(what, ContainsSubstring("1 edges have NaN or infinite weights"));
    CHECK_THAT(what, !ContainsSubstring("negative weights"));
  }
  {
    auto el = path_edges();
    el.weights[0] = inf;
    el.weights[4] = -inf;
    CHECK_THAT(test::thrown_text<invalid_argument_error>([&] { run(el); }),
               ContainsSubstring("2 edges have NaN or infinite weights"));
  }
  {
    auto el = path_edges();
    el.weights[0] = nan;
    el.weights[1] = -2.0;
    el.weights[3] = -0.5;
    const auto what = test::thrown_text<invalid_argument_error>([&] { run(el); });
    CHECK_THAT(what, ContainsSubstring("1 edges have NaN or infinite weights, 2 edges have negative weights"));
  }
  {
    auto el = path_edges();
    el.weights[1] = -1.0;
    const auto what = test::thrown_text<invalid_argument_error>([&] { run(el); });
    CHECK_THAT(what, ContainsSubstring("1 edges have negative weights"));
    CHECK_THAT(what, !ContainsSubstring("NaN"));
  }
  {
    // The unit-weight paths ignore the weights, NaN included.
    auto el = path_edges();
    el.weights[2] = nan;
    sssp_options unit;
    unit.use_weights = false;
    const auto r = run(el, unit);
    CHECK_FALSE(r.weighted);
    auto d = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, r.dist);
    CHECK(d(5) == 5.0);
  }
}

TEMPLATE_TEST_CASE("load_graph refuses non-finite weights and sparse-id files, and lifts the bound on request",
                   "[io][limits]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  temp_dir dir;
  const auto nan_file = (dir.path / "nan.mtx").string();
  std::ofstream(nan_file) << "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.5\n2 3 nan\n";
  try {
    io::load_graph(exec, "file:" + nan_file);
    FAIL("no parse_error");
  } catch (const parse_error& e) {
    CHECK(e.source() == nan_file);
    CHECK(e.line() == 4);
    CHECK_THAT(e.problem(), ContainsSubstring("NaN"));
  }
  const auto inf_edges = (dir.path / "inf.el").string();
  std::ofstream(inf_edges) << "0 1 2\n1 2 inf\n";
  CHECK_THROWS_AS(io::load_graph(exec, "file:" + inf_edges), parse_error);

  const auto huge = (dir.path / "huge.mtx").string();
  std::ofstream(huge) << "%%MatrixMarket matrix coordinate pattern general\n4294967294 4294967294 1\n1 1\n";
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_AS(io::load_graph(exec, "file:" + huge), size_error);
  io::load_options cached;
  cached.cache_dir = dir.path / "cache";
  CHECK_THROWS_AS(io::load_graph(exec, "file:" + huge, cached), size_error);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  const auto sparse_edges = (dir.path / "sparse.el").string();
  std::ofstream(sparse_edges) << "0 1\n1100000 0\n";
  CHECK_THROWS_AS(io::load_graph(exec, "file:" + sparse_edges), size_error);

  // An explicit bound reads a moderately sparse file.
  const auto sparse = (dir.path / "sparse.mtx").string();
  std::ofstream(sparse) << "%%MatrixMarket matrix coordinate pattern general\n1100000 1100000 1\n1 1100000\n";
  CHECK_THROWS_AS(io::load_graph(exec, "file:" + sparse), size_error);
  io::load_options lifted;
  lifted.max_vertices_per_entry = 0;
  const auto g = io::load_graph(exec, "file:" + sparse, lifted);
  CHECK(g.n == 1100000);
  CHECK(g.nnz == 1);
  io::load_options raised = cached;
  raised.max_vertices_per_entry = 2000000;
  CHECK(io::load_graph(exec, "file:" + sparse_edges, raised).n == 1100001);
}

#ifdef BITGRAPH_TEST_HAVE_MKFIFO
TEMPLATE_TEST_CASE("load_graph refuses a FIFO named x.mtx without blocking", "[io][limits]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  temp_dir dir;
  const auto fifo = (dir.path / "x.mtx").string();
  const auto fifo_el = (dir.path / "x.el").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  REQUIRE(::mkfifo(fifo_el.c_str(), 0600) == 0);
  // Should a reader block in open(), a writer connects and hangs up after 5 s: the test then fails
  // instead of hanging.
  std::atomic<bool> done{false};
  std::thread watchdog([&] {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    while (!done) {
      for (const auto& f : {fifo, fifo_el}) {
        const int fd = ::open(f.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0) ::close(fd);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  const auto start = std::chrono::steady_clock::now();
  io::load_options cached;
  cached.cache_dir = dir.path / "cache";
  for (const auto& spec : {"file:" + fifo, "file:" + fifo_el}) {
    for (const bool with_cache : {true, false}) {
      INFO(spec << (with_cache ? " with a cache" : " without a cache"));
      try {
        io::load_graph(exec, spec, with_cache ? cached : io::load_options{});
        FAIL("no error");
      } catch (const parse_error& e) {
        FAIL("the FIFO was read: " << e.what());
      } catch (const error& e) {
        CHECK_THAT(std::string(e.what()), ContainsSubstring("regular file") || ContainsSubstring("FIFO"));
      }
    }
  }
  done = true;
  watchdog.join();
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(4));
}
#endif

TEMPLATE_TEST_CASE("load_graph reports a corrupt cache entry, re-reads the source and replaces the entry",
                   "[io][limits]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  temp_dir dir;
  const auto file = (dir.path / "g.mtx").string();
  std::ofstream(file) << "%%MatrixMarket matrix coordinate real general\n4 4 4\n1 2 0.5\n2 3 1\n3 4 2\n4 1 3\n";
  io::load_options opts;
  opts.cache_dir = dir.path / "cache";
  std::vector<std::string> warnings;
  opts.on_warning = [&](std::string_view w) { warnings.emplace_back(w); };
  const std::string spec = "file:" + file;
  io::load_report rep;
  const auto first = io::load_graph(exec, spec, opts, &rep);
  REQUIRE(rep.cache_written);
  REQUIRE(fs::exists(rep.cache_file));
  CHECK(rep.cache_problem.empty());
  const auto cache = rep.cache_file;

  // Flip a byte inside the entry: the checksum fails.
  std::string bytes;
  {
    std::ifstream in(cache, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::string corrupt = bytes;
  corrupt[corrupt.size() - 12] = char(corrupt[corrupt.size() - 12] ^ 0x10);
  std::ofstream(cache, std::ios::binary | std::ios::trunc) << corrupt;
  const auto second = io::load_graph(exec, spec, opts, &rep);
  CHECK_FALSE(rep.from_cache);
  CHECK(rep.cache_written);
  CHECK_THAT(rep.cache_problem, ContainsSubstring("checksum"));
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], ContainsSubstring(cache.string()));
  CHECK(second.n == first.n);
  CHECK(second.nnz == first.nnz);

  // The entry was replaced: the next load uses it, silently.
  const auto third = io::load_graph(exec, spec, opts, &rep);
  CHECK(rep.from_cache);
  CHECK(rep.cache_problem.empty());
  CHECK(warnings.size() == 1);
  CHECK(third.nnz == first.nnz);

  // A truncated entry, likewise.
  std::ofstream(cache, std::ios::binary | std::ios::trunc) << bytes.substr(0, 30);
  io::load_graph(exec, spec, opts, &rep);
  CHECK_FALSE(rep.from_cache);
  CHECK_THAT(rep.cache_problem, ContainsSubstring("truncated"));
  io::load_graph(exec, spec, opts, &rep);
  CHECK(rep.from_cache);
}
