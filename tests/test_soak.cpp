// Soak (issue 18): over a thousand back-to-back algorithm calls in one process on random graphs of changing sizes,
// every answer validated, and the memory the process holds must not grow with the calls. Hidden from the default
// run (tag [.soak]); CI runs it on the host (.ci/run), scripts/device runs it on the GPU.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/components.hpp"
#include "bitgraph/algorithms/pagerank.hpp"
#include "bitgraph/algorithms/sssp.hpp"
#include "bitgraph/algorithms/triangles.hpp"
#include "bitgraph/algorithms/validate.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/spaces.hpp"
#include "support/test_data.hpp"

using namespace bitgraph;

namespace {

/// Resident set size of this process in bytes (Linux), or 0 where /proc is missing.
std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * 4096;
}

/// Device memory in use (CUDA), else 0.
std::uint64_t device_bytes_in_use() {
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return 0;
  return total_b - free_b;
#else
  return 0;
#endif
}

}  // namespace

TEMPLATE_TEST_CASE("soak: a thousand algorithm calls hold no growing memory", "[.soak]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  // Five calls each: 1,100 calls; reduced mode (the CUDA sanitizer run) 28 rounds, 140 calls.
  const int rounds = test::reduced() ? 28 : 220;
  std::uint64_t rss_warm = 0, dev_warm = 0;
  int calls = 0;
  bfs_workspace<memory_space_t<TestType>> bws;
  sssp_workspace<memory_space_t<TestType>> sws;
  for (int r = 0; r < rounds; ++r) {
    // Sizes cycle so that workspaces reallocate and the allocator sees every size again and again.
    const vertex_t n = vertex_t(200 + 97 * (r % 7));
    csr_build_options o;
    o.kind = graph_kind::undirected;
    o.remove_self_loops = true;
    auto el = test::random_edges(n, std::uint64_t(n) * 6, std::uint64_t(1000 + r), true);
    for (auto& w : el.weights) w = w < 0 ? -w : w;
    auto g = make_bit_graph(exec, build_csr(exec, el, o), {8});
    const auto h = to_host_csr(g.csr);
    auto hu = h;
    hu.has_weights = false;
    hu.weights.clear();
    const vertex_t source = vertex_t(r * 31) % n;
    INFO("round " << r << " n " << n << " source " << source);
    {
      const auto b = r % 2 ? bfs(exec, g, source, bfs_options{}, bws) : bfs(exec, g, source);
      const auto lv = test::to_vector(b.levels);
      const auto pv = test::to_vector(b.parents);
      const auto v = validate::check_bfs(h, source, lv, &pv);
      INFO(v.message);
      REQUIRE(v.ok);
    }
    {
      sssp_options so;
      so.use_weights = r % 3 != 0;
      const auto s = r % 2 ? sssp(exec, g, source, so, sws) : sssp(exec, g, source, so);
      const auto v = validate::check_sssp(so.use_weights ? h : hu, source, test::to_vector(s.dist));
      INFO(v.message);
      REQUIRE(v.ok);
    }
    {
      const auto v = validate::check_pagerank(h, test::to_vector(pagerank(exec, g).rank));
      INFO(v.message);
      REQUIRE(v.ok);
    }
    {
      const auto c = connected_components(exec, g);
      const auto v = validate::check_components(h, test::to_vector(c.labels));
      INFO(v.message);
      REQUIRE(v.ok);
    }
    {
      const auto v = validate::check_triangles(h, triangle_count(exec, g).triangles);
      INFO(v.message);
      REQUIRE(v.ok);
    }
    calls += 5;
    if (r == 20) {  // after the first sizes have all been seen: allocator pools and caches are warm
      rss_warm = resident_bytes();
      dev_warm = device_bytes_in_use();
    }
  }
  const std::uint64_t rss_end = resident_bytes(), dev_end = device_bytes_in_use();
  std::printf("soak (%s): %d calls; resident %.1f -> %.1f MiB after round 20; device in use %.1f -> %.1f MiB\n",
              typeid(TestType).name(), calls, rss_warm / 1048576.0, rss_end / 1048576.0, dev_warm / 1048576.0,
              dev_end / 1048576.0);
  CHECK(calls >= (test::reduced() ? 140 : 1000));
  // A leak of one small graph per call (hundreds of KiB) would add hundreds of MiB over a thousand calls.
  CHECK(rss_end <= rss_warm + (std::uint64_t(32) << 20));
  CHECK(dev_end <= dev_warm + (std::uint64_t(32) << 20));
}
