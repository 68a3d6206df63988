// Blest: BVSS layout, and BVSS pulls (popcount emulation everywhere, tensor cores on Cuda) against BFS
// levels, with and without each reordering, eager and lazy.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bitgraph/algorithms/blest.hpp"
#include "bitgraph/algorithms/reference.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "bitgraph/reorder/reorder.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/spaces.hpp"
#include "support/test_data.hpp"

using namespace bitgraph;

namespace {

struct blest_case {
  std::string name;
  edge_list el;
  graph_kind kind;
};

// 40 hubs (ids 0-39, side by side: more than one warp's worth) of ~1,500 random neighbours each, over a sparse random
// background: the CUDA kernel's bottom-up levels scan rows over 1,024 entries with groups of warps.
edge_list hub_rows() {
  edge_list el = test::random_edges(5000, 6000, 5);
  std::mt19937_64 rng(6);
  std::uniform_int_distribution<vertex_t> pick(0, 4999);
  for (vertex_t h = 0; h < 40; ++h)
    for (int k = 0; k < 1500; ++k) {
      el.src.push_back(h);
      el.dst.push_back(pick(rng));
    }
  return el;
}

// A case's graph on `exec`, with 8-bit tiles.
template <class ExecSpace>
bit_graph<memory_space_t<ExecSpace>> case_graph(const ExecSpace& exec, const blest_case& bc) {
  csr_build_options o;
  o.kind = bc.kind;
  return make_bit_graph(exec, build_csr(exec, bc.el, o), {8});
}

std::vector<blest_case> cases() {
  std::vector<blest_case> c;
  io::mm_read_options o;
  o.allow_duplicates = true;
  const std::string d = std::string(BITGRAPH_TEST_DATA_DIR) + "/";
  c.push_back({"one vertex", test::random_edges(1, 1, 1), graph_kind::undirected});
  c.push_back({"random directed", test::random_edges(301, 1200, 2), graph_kind::directed});
  c.push_back({"random undirected", test::random_edges(500, 700, 3), graph_kind::undirected});
  c.push_back({"hub (> 128 slices per set)", test::random_edges(2000, 9000, 4), graph_kind::undirected});
  c.push_back({"hub rows (> 1,024 entries)", hub_rows(), graph_kind::undirected});
  c.push_back({"grid2d:30", gen::grid_2d(30), graph_kind::undirected});
  c.push_back({"kron:10", gen::kronecker(10), graph_kind::undirected});
  c.push_back({"mycielski:8", gen::mycielski(8), graph_kind::undirected});
  c.push_back({"karate", io::read_matrix_market(d + "karate.mtx", o), graph_kind::undirected});
  c.push_back({"west0067", io::read_matrix_market(d + "west0067.mtx", o), graph_kind::directed});
  c.push_back({"jagmesh7", io::read_matrix_market(d + "jagmesh7.mtx", o), graph_kind::undirected});
  return c;
}

}  // namespace

TEMPLATE_TEST_CASE("BVSS layout holds every edge once in the Fig. 2(c) order", "[blest][bvss]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& bc : cases()) {
    INFO(bc.name);
    csr_build_options o;
    o.kind = bc.kind;
    auto g = build_csr(exec, bc.el, o);
    auto pull = bc.kind == graph_kind::directed ? transpose(exec, g) : g;  // rows: in-neighbours
    auto b = to_bvss(exec, pull);
    auto h = to_host_csr(pull);
    auto ptr = test::to_vector(b.real_ptrs);
    auto v2r = test::to_vector(b.virtual_to_real);
    auto rows = test::to_vector(b.row_ids);
    auto masks = test::to_vector(b.masks);
    CHECK(b.n_slice_sets == (g.n + 7) / 8);
    CHECK(b.nnz == h.nnz());
    std::set<std::pair<vertex_t, vertex_t>> got;  // (column j, row u): A(u, j) = 1 means edge j -> u
    offset_t slices = 0;
    for (vertex_t s = 0; s < b.n_slice_sets; ++s) {
      for (offset_t v = ptr[s]; v < ptr[s + 1]; ++v) {
        REQUIRE(v2r[v] == s);
        vertex_t last = 0;
        bool first = true, padding = false;
        for (int k = 0; k < bvss_tau; ++k) {  // slices in ascending row order, column-major over lanes
          const int lane = k % 32, c = k / 32;
          const std::uint32_t m = (masks[32 * v + lane] >> (8 * c)) & 0xffu;
          const vertex_t u = rows[4 * (32 * v + lane) + c];
          if (m == 0) {
            padding = true;
            CHECK(u == 0);
            continue;
          }
          CHECK_FALSE(padding);  // padding only after the real slices
          CHECK((first || last < u));
          first = false;
          last = u;
          ++slices;
          for (int j = 0; j < 8; ++j)
            if ((m >> j) & 1u) CHECK(got.insert({s * 8 + j, u}).second);
        }
        if (v + 1 < ptr[s + 1]) CHECK_FALSE(padding);  // only the last VSS of a set is padded
      }
    }
    CHECK(slices == b.n_slices);
    std::set<std::pair<vertex_t, vertex_t>> expect;  // pull row u takes column j: pair (j, u)
    for (vertex_t u = 0; u < h.n; ++u)
      for (offset_t p = h.row_ptr[u]; p < h.row_ptr[u + 1]; ++p) expect.insert({h.col_idx[p], u});
    CHECK(got == expect);
    const auto r = report(b);
    CHECK(r.compression_ratio <= 1.0);
    CHECK(update_divergence(exec, b) >= 0.0);
  }
}

TEMPLATE_TEST_CASE("Blest BFS equals plain BFS levels (reorderings, eager and lazy)", "[blest][bfs]",
                   BITGRAPH_TEST_SPACES) {
  TestType exec;
  // Reduced mode: every 3rd (graph, reordering) pair, and in those every 17th (source, update, bottom-up,
  // algorithm) combination.
  test::thinning pairs(3), thin(17);
  int kernel_runs = 0, switch_runs = 0;
  for (auto& bc : cases()) {
    auto g = case_graph(exec, bc);
    auto h = to_host_csr(g.csr);
    for (auto method : {reorder::reorder_method::none, reorder::reorder_method::rcm,
                        reorder::reorder_method::jaccard_windows, reorder::reorder_method::random}) {
      if (!pairs.keep()) continue;
      std::vector<vertex_t> perm;
      if (method != reorder::reorder_method::none) {
        reorder::reorder_options ro;
        ro.jaccard.window = 64;
        perm = reorder::compute(to_host_csr(g.in_csr()), method, ro).new_of_old();
      }
      auto bg = make_blest_graph(exec, g, perm);
      const auto real_ptrs = test::to_vector(bg.bvss.real_ptrs);
      for (vertex_t source : {vertex_t(0), vertex_t(g.n() / 3), vertex_t(g.n() - 1)}) {
        const auto expect = reference::bfs_levels(h, source);
        const level_t depth = *std::max_element(expect.begin(), expect.end());
        // Without bottom-up levels the VSSs of every slice set that holds a vertex of level L are pulled once, at
        // level L + 1 (the last such pull finds nothing).
        std::set<std::pair<level_t, vertex_t>> queued;
        offset_t pulls = 0;
        for (vertex_t v = 0; v < g.n(); ++v) {
          if (expect[v] == unreached_level) continue;
          const vertex_t ss = (bg.host_new_of_old.empty() ? v : bg.host_new_of_old[v]) / bvss_sigma;
          if (queued.insert({expect[v], ss}).second) pulls += real_ptrs[ss + 1] - real_ptrs[ss];
        }
        for (auto update : {bvss_update::eager, bvss_update::lazy, bvss_update::automatic}) {
          std::vector<op_algorithm> algs = {op_algorithm::generic};
          if (is_cuda_space_v<TestType>) algs.push_back(op_algorithm::cuda_mma);
          // Never bottom-up, Blest's switch, and bottom-up from level 2 on.
          for (double factor : {0.0, 10.0, 1e12}) {
            for (auto alg : algs) {
              if (!thin.keep()) continue;
              bvss_bfs_options bo;
              // The CUDA kernel at both block sizes, in turn (automatic takes 1024 threads on the small dense ones).
              if (alg == op_algorithm::cuda_mma) bo.block_threads = ++kernel_runs % 2 ? 256 : 0;
              // Blest's switch with whole rows costed in turn (no case is denser than the default 128).
              if (factor == 10) bo.bottom_up_dense_degree = ++switch_runs % 2 ? 4.0 : bo.bottom_up_dense_degree;
              INFO(bc.name << " reorder=" << reorder::to_string(method) << " source=" << source
                           << " update=" << int(update) << " alg=" << to_string(alg) << " bottom_up=" << factor
                           << " block_threads=" << bo.block_threads << " dense_degree=" << bo.bottom_up_dense_degree);
              bo.update = update;
              bo.algorithm = alg;
              bo.bottom_up_factor = factor;
              bo.bottom_up_min_queue = factor == 1e12 ? 0.0 : bo.bottom_up_min_queue;
              bo.bottom_up_scan_cost = factor == 1e12 ? 0.0 : bo.bottom_up_scan_cost;
              auto r = bfs_tensor_core(exec, bg, source, bo);
              CHECK(test::to_vector(r.levels) == expect);
              CHECK(r.stats.depth == std::max<level_t>(depth, 0));
              // Automatic: eager with bottom-up levels, else by the update divergence.
              CHECK(r.stats.lazy == (update == bvss_update::lazy || (update == bvss_update::automatic && factor == 0 &&
                                                                     bg.report.update_divergence > 25000)));
              CHECK(r.stats.tensor_cores == (alg == op_algorithm::cuda_mma));
              if (factor == 0) {
                CHECK(r.stats.bottom_up_levels == 0);
                CHECK(r.stats.vss_processed == pulls);
              }
              // Every level but the first (the source alone: always pulled) runs bottom-up (a last one that finds
              // nothing runs unless the deepest vertices enqueued no VSS: they have no out-edges).
              if (factor == 1e12) {
                CHECK(r.stats.bottom_up_levels >= std::max(r.stats.depth - 1, 0));
                CHECK(r.stats.bottom_up_levels <= r.stats.depth);
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("Blest's switching rule costs dense graphs' rows whole", "[blest][bfs]") {
  // Level 2 of mycielski:16 (n 49,151, average degree 679) from source 28426 (degree 1,293): 47,857 unreached, 35,794
  // queued VSSs. The n / frontier estimate predicts 1.8 million entries (bottom-up); the scan takes 10.4 million.
  const auto rule = [](double dense, double avg, unsigned long long unreached, unsigned long long queued,
                       unsigned long long frontier, unsigned long long n, level_t l) {
    return detail::bvss_bottom_up(10, 1.0 / 160, 2, dense, avg, unreached, queued, frontier, n, l);
  };
  CHECK(rule(0, 679, 47857, 35794, 1293, 49151, 2));
  CHECK_FALSE(rule(128, 679, 47857, 35794, 1293, 49151, 2));
  // Its next level has nothing left to scan: bottom-up either way.
  CHECK(rule(128, 679, 0, 125760, 47857, 49151, 3));
  // Below the bound the estimate decides, as before: level 3 of kron:18 from source 77 and level 4 of urand:18 from
  // source 5 run bottom-up; a mycielski-like level with a tiny frontier does not.
  CHECK(rule(128, 29, 257718, 33373, 4424, 262144, 3));
  CHECK(rule(128, 32, 234576, 44285, 26656, 262144, 4));
  CHECK_FALSE(rule(1000, 679, 47857, 35794, 40, 49151, 2));
  // Never level 1; the other tests come first.
  CHECK_FALSE(rule(0, 679, 0, 125760, 1, 49151, 1));
  CHECK_FALSE(rule(128, 679, 0, 10, 1, 49151, 2));  // fewer than n / 160 VSSs queued
}

TEST_CASE("Lazy levels of an eager traversal: wide top-down levels with few VSSs per frontier vertex", "[blest][bfs]") {
  // urand:22's fourth level (99,276 VSSs after 40,854 found) and kron:22's second (51,358 VSSs of 332 hubs' slice
  // sets).
  const unsigned long long n = 4194304;
  CHECK(detail::bvss_lazy_level(1.0 / 64, 8, 99276, 40854, n, false));
  CHECK_FALSE(detail::bvss_lazy_level(1.0 / 64, 8, 51358, 332, n, false));
  CHECK_FALSE(detail::bvss_lazy_level(1.0 / 64, 8, 3229, 1278, n, false));  // narrow: the sweep would cost more
  CHECK_FALSE(detail::bvss_lazy_level(0, 8, 99276, 40854, n, false));       // off
  CHECK(detail::bvss_lazy_level(1e-12, 1e12, 1, 1, n, false));
  CHECK_FALSE(detail::bvss_lazy_level(1e-12, 1e12, 1, 1, n, true));  // after a bottom-up level
}

TEMPLATE_TEST_CASE("Blest orderings chosen and computed by make_blest_graph", "[blest][bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  // Reduced mode: every 7th (graph, ordering) combination.
  test::thinning thin(7);
  for (auto& bc : cases()) {
    auto g = case_graph(exec, bc);
    const auto h = to_host_csr(g.csr);
    const bool social = reorder::analyze_degrees(to_host_csr(g.in_csr())).is_social();
    // Non-social graphs: RCM when a BFS from the first vertex of largest out-degree runs deep (meshes), else degree.
    const auto out_ptr = test::to_vector(g.csr.row_ptr);
    const auto probe_levels = reference::bfs_levels(h, detail::blest_probe_vertex(out_ptr));
    const level_t probe_depth = g.n() > 0 ? *std::max_element(probe_levels.begin(), probe_levels.end()) : 0;
    const auto shape =
        detail::blest_banded_shape(probe_depth, g.n()) || g.n() == 0 ? blest_ordering::rcm : blest_ordering::degree;
    for (auto ordering : {blest_ordering::automatic, blest_ordering::none, blest_ordering::cluster,
                          blest_ordering::degree, blest_ordering::rcm, blest_ordering::jaccard}) {
      if (!thin.keep()) continue;
      INFO(bc.name << " ordering=" << to_string(ordering));
      blest_options bo;
      bo.ordering = ordering;
      const auto bg = make_blest_graph(exec, g, bo);
      const auto resolved =
          ordering != blest_ordering::automatic ? ordering : (social ? blest_ordering::cluster : shape);
      CHECK(bg.ordering == resolved);
      // Shallow (lazy levels allowed) whatever the ordering: social, or a probe BFS that is not banded.
      CHECK(bg.shallow == (g.n() > 0 && (social || shape == blest_ordering::degree)));
      CHECK(bg.order_seconds >= 0);
      CHECK(bg.host_new_of_old.empty() == (resolved == blest_ordering::none));
      for (vertex_t source : {vertex_t(0), vertex_t(g.n() - 1)}) {
        auto r = bfs_tensor_core(exec, bg, source);
        CHECK(test::to_vector(r.levels) == reference::bfs_levels(h, source));
      }
    }
  }
}

TEMPLATE_TEST_CASE("Blest's automatic ordering bands meshes and leaves random graphs to the degree order",
                   "[blest][bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  // A grid's probe BFS runs ~56 levels (threshold 2 log2(900) + 8 = 27.6), a random graph's of average degree 32 about
  // 4 (threshold 32); neither is social.
  csr_build_options o;
  o.kind = graph_kind::undirected;
  auto grid = make_bit_graph(exec, build_csr(exec, gen::grid_2d(30), o), {8});
  auto urand = make_bit_graph(exec, build_csr(exec, gen::uniform_random(12), o), {8});
  CHECK(make_blest_graph(exec, grid, blest_options{}).ordering == blest_ordering::rcm);
  CHECK(make_blest_graph(exec, urand, blest_options{}).ordering == blest_ordering::degree);
  // The threshold itself, at urand:22's and grid2d:2048's sizes and depths.
  CHECK_FALSE(detail::blest_banded_shape(7, vertex_t(1) << 22));
  CHECK_FALSE(detail::blest_banded_shape(52, vertex_t(1) << 22));
  CHECK(detail::blest_banded_shape(53, vertex_t(1) << 22));
  CHECK(detail::blest_banded_shape(4094, vertex_t(1) << 22));
  CHECK_FALSE(detail::blest_banded_shape(100, 0));
  CHECK(detail::blest_probe_vertex({0, 1, 4, 5, 8}) == 1);  // the first of largest out-degree
  CHECK(detail::blest_probe_vertex({0}) == 0);
  auto bg = make_blest_graph(exec, urand, blest_options{});
  CHECK(bg.shallow);
  CHECK_FALSE(make_blest_graph(exec, grid, blest_options{}).shallow);
  CHECK_FALSE(make_blest_graph(exec, urand, std::vector<vertex_t>{}).shallow);  // not classified
  blest_options told;
  told.shallow = false;  // a caller's answer is taken as given
  CHECK_FALSE(make_blest_graph(exec, urand, told).shallow);
  // The automatic lazy levels: a shallow random graph takes them at its wide top-down level (the rule's numbers as
  // they are by default), a graph not known to be shallow never, an explicit threshold on either.
  const auto h = to_host_csr(urand.csr);
  for (bool shallow : {true, false})
    for (double min_queue : {-1.0, 0.0, detail::bvss_auto_lazy_level_min_queue}) {
      bg.shallow = shallow;
      int lazy_levels = 0;
      for (vertex_t source : {vertex_t(0), vertex_t(4095)}) {
        INFO("shallow=" << shallow << " min_queue=" << min_queue << " source=" << source);
        bvss_bfs_options bo;
        bo.lazy_level_min_queue = min_queue;
        bo.update = bvss_update::eager;
        Kokkos::View<level_t*, memory_space_t<TestType>> levels("levels", urand.n());
        lazy_levels += bfs_tensor_core(exec, bg, source, levels, bo).lazy_levels;
        CHECK(test::to_vector(levels) == reference::bfs_levels(h, source));
      }
      if (min_queue == 0 || (min_queue < 0 && !shallow))
        CHECK(lazy_levels == 0);
      else
        CHECK(lazy_levels > 0);
    }
}

TEMPLATE_TEST_CASE("Blest's level trace records every level it ran", "[blest][bfs]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  for (auto& bc : cases()) {
    auto g = case_graph(exec, bc);
    auto bg = make_blest_graph(exec, g, std::vector<vertex_t>{});
    const auto h = to_host_csr(g.csr);
    std::vector<op_algorithm> algs = {op_algorithm::generic};
    if (is_cuda_space_v<TestType>) algs.push_back(op_algorithm::cuda_mma);
    for (vertex_t source : {vertex_t(0), vertex_t(g.n() - 1)}) {
      const auto expect = reference::bfs_levels(h, source);
      std::map<level_t, offset_t> per_level;
      for (level_t x : expect)
        if (x > 0) ++per_level[x];
      for (auto alg : algs)
        for (auto update : {bvss_update::eager, bvss_update::lazy})
          for (double factor : {0.0, 10.0, 1e12})
            // Lazy levels off, and every top-down level of an eager traversal lazy (ignored by a lazy one).
            for (double lazy_queue : {0.0, 1e-12}) {
              INFO(bc.name << " source=" << source << " alg=" << to_string(alg) << " update=" << int(update)
                           << " bottom_up=" << factor << " lazy_level_min_queue=" << lazy_queue);
              bvss_bfs_options bo;
              bo.algorithm = alg;
              bo.update = update;
              bo.bottom_up_factor = factor;
              bo.lazy_level_min_queue = lazy_queue;
              bo.lazy_level_max_fanout = 1e12;
              bo.bottom_up_min_queue = factor == 1e12 ? 0.0 : bo.bottom_up_min_queue;
              bo.bottom_up_scan_cost = factor == 1e12 ? 0.0 : bo.bottom_up_scan_cost;
              CHECK(bfs_tensor_core(exec, bg, source, bo).stats.trace.empty());  // off by default
              bo.trace_levels = true;
              auto r = bfs_tensor_core(exec, bg, source, bo);
              CHECK(test::to_vector(r.levels) == expect);
              const auto& t = r.stats.trace;
              // The last level run finds no vertex to enqueue: it is the deepest one, or one past it.
              CHECK(static_cast<int>(t.size()) >= r.stats.depth);
              CHECK(static_cast<int>(t.size()) <= r.stats.depth + 1);
              int up = 0, lazy_levels = 0;
              offset_t pulled = 0;
              for (std::size_t i = 0; i < t.size(); ++i) {
                CHECK(t[i].level == static_cast<level_t>(i + 1));
                CHECK(std::isfinite(t[i].microseconds));
                CHECK(t[i].microseconds >= 0);
                up += t[i].bottom_up;
                // A level-1 queue may be empty (a source without out-edges): below any minimum. No lazy level
                // follows a bottom-up one.
                CHECK(t[i].lazy == (r.stats.lazy || (lazy_queue > 0 && !t[i].bottom_up && t[i].queued > 0 && up == 0)));
                lazy_levels += t[i].lazy && !r.stats.lazy;
                if (!t[i].bottom_up) pulled += t[i].queued;
                CHECK((t[i].queued > 0 || t[i].level == 1));  // past level 1, a level runs only with a queue
                const offset_t truth = per_level.count(t[i].level) ? per_level[t[i].level] : 0;
                // Eager top-down levels may count a vertex twice; never fewer than were found.
                if (t[i].lazy || t[i].bottom_up)
                  CHECK(t[i].found == truth);
                else
                  CHECK(t[i].found >= truth);
                if (truth == 0) CHECK(t[i].found == 0);
              }
              CHECK(up == r.stats.bottom_up_levels);
              CHECK(lazy_levels == r.stats.lazy_levels);
              CHECK(r.stats.lazy == (update == bvss_update::lazy));
              CHECK(pulled == r.stats.vss_processed);
              // Where the call's time went: the CUDA kernel's timer and the host clock around its launch; none
              // elsewhere.
              if (alg == op_algorithm::cuda_mma) {
                CHECK(r.stats.kernel_us > 0);
                CHECK(r.stats.prologue_us >= 0);
                CHECK(r.stats.prologue_us <= r.stats.kernel_us);
                CHECK(r.stats.epilogue_us >= 0);
                CHECK(r.stats.epilogue_us <= r.stats.kernel_us);
                CHECK(r.stats.launch_us >= 0);
                CHECK(r.stats.launch_to_ready_us >= r.stats.launch_us);
              } else {
                CHECK(r.stats.kernel_us == 0);
                CHECK(r.stats.launch_to_ready_us == 0);
              }
            }
    }
  }
}

// The CUDA kernel reads a slice set's eight levels as two 16-byte vectors when the caller's view is 16-byte aligned,
// and one by one otherwise and in the last, partial slice set: every offset into a larger allocation gives the same
// levels, and nothing outside the view is written.
TEMPLATE_TEST_CASE("Blest BFS writes a caller's levels view at any alignment", "[blest][bfs]", BITGRAPH_TEST_SPACES) {
  using mem = memory_space_t<TestType>;
  TestType exec;
  constexpr level_t canary = -7;
  for (auto& bc : cases()) {
    auto g = case_graph(exec, bc);
    auto bg = make_blest_graph(exec, g, std::vector<vertex_t>{});
    REQUIRE(bg.host_new_of_old.empty());  // no ordering: the BVSS's ids are the graph's
    const auto h = to_host_csr(g.csr);
    const vertex_t n = g.n();
    std::vector<op_algorithm> algs = {op_algorithm::generic};
    if (is_cuda_space_v<TestType>) algs.push_back(op_algorithm::cuda_mma);
    for (vertex_t source : {vertex_t(0), vertex_t(n / 2)}) {
      const auto expect = reference::bfs_levels(h, source);
      for (auto alg : algs)
        for (auto update : {bvss_update::eager, bvss_update::lazy})
          for (std::size_t offset : {0, 1, 2, 3}) {
            INFO(bc.name << " source=" << source << " alg=" << to_string(alg) << " update=" << int(update)
                         << " offset=" << offset);
            Kokkos::View<level_t*, mem> all("levels", n + 4);
            Kokkos::deep_copy(all, canary);
            Kokkos::View<level_t*, mem> lv(all.data() + offset, n);
            bvss_bfs_options bo;
            bo.algorithm = alg;
            bo.update = update;
            bvss_bfs(exec, bg.bvss, source, lv, bo, &bg.workspace, &bg.pull);
            const auto got = test::to_vector(all);
            CHECK(std::vector<level_t>(got.begin() + offset, got.begin() + offset + n) == expect);
            CHECK(std::count(got.begin(), got.end(), canary) == 4);  // the four entries around the view
            for (std::size_t i = 0; i < offset; ++i) CHECK(got[i] == canary);
          }
    }
  }
}

TEMPLATE_TEST_CASE("Blest BFS leaves levels in the graph's ids on request and maps them back", "[blest][bfs]",
                   BITGRAPH_TEST_SPACES) {
  using mem = memory_space_t<TestType>;
  TestType exec;
  test::thinning thin(2);
  for (auto& bc : cases()) {
    auto g = case_graph(exec, bc);
    const auto h = to_host_csr(g.csr);
    const vertex_t n = g.n();
    // Not reordered (the ids agree), and reordered (a random order: no vertex keeps its place by design).
    for (auto method : {reorder::reorder_method::none, reorder::reorder_method::random}) {
      if (!thin.keep()) continue;
      std::vector<vertex_t> perm;
      if (method != reorder::reorder_method::none)
        perm = reorder::compute(to_host_csr(g.in_csr()), method, {}).new_of_old();
      auto bg = make_blest_graph(exec, g, perm);
      std::vector<op_algorithm> algs = {op_algorithm::generic};
      if (is_cuda_space_v<TestType>) algs.push_back(op_algorithm::cuda_mma);
      for (vertex_t source : {vertex_t(0), vertex_t(n / 2), vertex_t(n - 1)}) {
        const auto expect = reference::bfs_levels(h, source);
        for (auto alg : algs)
          for (double factor : {0.0, 10.0}) {
            INFO(bc.name << " reorder=" << reorder::to_string(method) << " source=" << source
                         << " alg=" << to_string(alg) << " bottom_up=" << factor);
            bvss_bfs_options bo;
            bo.algorithm = alg;
            bo.bottom_up_factor = factor;
            Kokkos::View<level_t*, mem> graph_levels("graph levels", n), caller("caller levels", n);
            const auto st = bfs_tensor_core_graph_ids(exec, bg, source, graph_levels, bo);
            const auto got = test::to_vector(graph_levels);
            std::vector<level_t> by_caller(n);
            for (vertex_t v = 0; v < n; ++v) by_caller[v] = got[perm.empty() ? v : perm[v]];
            CHECK(by_caller == expect);
            CHECK(st.depth == std::max<level_t>(*std::max_element(expect.begin(), expect.end()), 0));
            blest_levels_to_caller(exec, bg, graph_levels, caller);
            CHECK(test::to_vector(caller) == expect);
            // The caller's ids as bfs_tensor_core writes them.
            CHECK(test::to_vector(bfs_tensor_core(exec, bg, source, bo).levels) == expect);
          }
      }
      Kokkos::View<level_t*, mem> lv("levels", n), big("big", 2 * n + 1), shorter("short", n > 0 ? n - 1 : 0);
      CHECK_THROWS_AS(bfs_tensor_core_graph_ids(exec, bg, n, lv), invalid_argument_error);
      CHECK_THROWS_AS(bfs_tensor_core_graph_ids(exec, bg, 0, shorter), invalid_argument_error);
      CHECK_THROWS_AS(blest_levels_to_caller(exec, bg, shorter, lv), invalid_argument_error);
      CHECK_THROWS_AS(blest_levels_to_caller(exec, bg, lv, shorter), invalid_argument_error);
      // The same view, and two views of one buffer that overlap by one entry, cannot gather in place; adjacent
      // ones can.
      CHECK_THROWS_AS(blest_levels_to_caller(exec, bg, lv, lv), invalid_argument_error);
      Kokkos::View<level_t*, mem> first(big.data(), n), overlapping(big.data() + n - 1, n), next(big.data() + n, n);
      CHECK_THROWS_AS(blest_levels_to_caller(exec, bg, first, overlapping), invalid_argument_error);
      CHECK_NOTHROW(blest_levels_to_caller(exec, bg, first, next));
      if (!perm.empty()) {  // a graph put together by hand without its order on the device
        auto lying = bg;
        lying.order.new_of_old = Kokkos::View<vertex_t*, mem>("short order", n - 1);
        CHECK_THROWS_AS(blest_levels_to_caller(exec, lying, first, next), invalid_argument_error);
      }
    }
  }
}

TEMPLATE_TEST_CASE("Blest rejects bad arguments", "[blest][errors]", BITGRAPH_TEST_SPACES) {
  TestType exec;
  auto g = build_csr(exec, test::random_edges(20, 40, 1));
  auto bg = make_blest_graph(exec, g);  // a directed CSR used as the pull matrix: any CSR is one
  CHECK_THROWS_AS(bfs_tensor_core(exec, bg, 20), invalid_argument_error);
  CHECK_THROWS_AS(make_blest_graph(exec, g, std::vector<vertex_t>(19, 0)), invalid_argument_error);
  std::vector<vertex_t> dup(20, 0);
  CHECK_THROWS_AS(make_blest_graph(exec, g, dup), invalid_argument_error);
  // Every number of the switching rules must be finite and non-negative, but lazy_level_min_queue may be negative
  // (automatic).
  for (double bvss_bfs_options::*field :
       {&bvss_bfs_options::bottom_up_factor, &bvss_bfs_options::bottom_up_min_queue,
        &bvss_bfs_options::bottom_up_scan_cost, &bvss_bfs_options::bottom_up_dense_degree,
        &bvss_bfs_options::lazy_level_min_queue, &bvss_bfs_options::lazy_level_max_fanout})
    for (double bad :
         {-1.0, std::nan(""), std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
      bvss_bfs_options o;
      o.*field = bad;
      if (field == &bvss_bfs_options::lazy_level_min_queue && bad == -1.0)
        CHECK_NOTHROW(bfs_tensor_core(exec, bg, 0, o));
      else
        CHECK_THROWS_AS(bfs_tensor_core(exec, bg, 0, o), invalid_argument_error);
    }
  for (int bad : {-1, 1, 255, 512, 2048}) {
    bvss_bfs_options o;
    o.block_threads = bad;
    CHECK_THROWS_AS(bfs_tensor_core(exec, bg, 0, o), invalid_argument_error);
  }
  {
    using mem = memory_space_t<TestType>;
    auto other = build_csr(exec, test::random_edges(21, 40, 1));
    Kokkos::View<level_t*, mem> lv("levels", 20);
    CHECK_THROWS_AS(bvss_bfs(exec, bg.bvss, 0, lv, {}, &bg.workspace, &other), invalid_argument_error);
    auto broken = bg.pull;  // a hand-built pull CSR whose column ids run past n
    broken.validated = false;
    broken.col_idx = Kokkos::View<vertex_t*, mem>("cols", broken.nnz);
    Kokkos::deep_copy(broken.col_idx, vertex_t(99));
    CHECK_THROWS_AS(bvss_bfs(exec, bg.bvss, 0, lv, {}, &bg.workspace, &broken), invalid_argument_error);
    CHECK_NOTHROW(bvss_bfs(exec, bg.bvss, 0, lv, {}, &bg.workspace, &bg.pull));
  }
  if (!is_cuda_space_v<TestType>) {
    bvss_bfs_options mma;
    mma.algorithm = op_algorithm::cuda_mma;
    CHECK_THROWS_AS(bfs_tensor_core(exec, bg, 0, mma), unsupported_error);
  }
}

#if defined(KOKKOS_ENABLE_CUDA)
TEST_CASE("Tensor-core BFS on graphs too large for the shared frontier bitmap", "[blest][bfs][gpu]") {
  // Over 2^18 vertices a bottom-up level right after a lazy one tests the previous level in the global bitmap its sweep
  // wrote, any other each entry's level. A shallow random graph (a lazy level, then bottom-up ones), a Kronecker graph
  // (hub rows, the hub pass), the lazy scheme (a sweep every level, bottom-up levels among them) and bottom-up from
  // level 2 (one level after another) against plain BFS levels.
  const Kokkos::Cuda exec;
  csr_build_options o;
  o.kind = graph_kind::undirected;
  o.remove_self_loops = true;
  const std::pair<const char*, edge_list> graphs[] = {{"urand:19", gen::uniform_random(19)},
                                                      {"kron:19", gen::kronecker(19)}};
  int chained_bottom_up = 0;
  for (const auto& [name, el] : graphs) {
    auto g = make_bit_graph(exec, build_csr(exec, el, o), {8});
    const auto h = to_host_csr(g.csr);
    REQUIRE(g.n() > (vertex_t(1) << 18));  // the largest shared bitmap holds 2^18 vertices
    auto bg = make_blest_graph(exec, g, blest_options{});
    REQUIRE(bg.shallow);
    // The vertex of most out-edges and the first two with any.
    std::vector<vertex_t> sources = {0};
    for (vertex_t v = 1; v < g.n(); ++v)
      if (h.row_ptr[v + 1] - h.row_ptr[v] > h.row_ptr[sources[0] + 1] - h.row_ptr[sources[0]]) sources[0] = v;
    for (vertex_t v = 0; v < g.n() && sources.size() < 3; ++v)
      if (h.row_ptr[v + 1] > h.row_ptr[v]) sources.push_back(v);
    for (const vertex_t source : sources) {
      const auto expect = reference::bfs_levels(h, source);
      for (auto update : {bvss_update::automatic, bvss_update::lazy}) {
        for (double factor : {10.0, 1e12}) {
          INFO(name << " source=" << source << " update=" << int(update) << " bottom_up=" << factor);
          bvss_bfs_options bo;
          bo.update = update;
          bo.bottom_up_factor = factor;
          bo.bottom_up_min_queue = factor == 1e12 ? 0.0 : bo.bottom_up_min_queue;
          bo.bottom_up_scan_cost = factor == 1e12 ? 0.0 : bo.bottom_up_scan_cost;
          const auto r = bfs_tensor_core(exec, bg, source, bo);
          CHECK(test::to_vector(r.levels) == expect);
          CHECK(r.stats.tensor_cores);
          if (factor == 1e12) CHECK(r.stats.bottom_up_levels >= std::max(r.stats.depth - 1, 0));
          chained_bottom_up += r.stats.bottom_up_levels >= 2;
        }
      }
    }
  }
  CHECK(chained_bottom_up > 0);
}
#endif
