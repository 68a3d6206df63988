// Concurrency (issue 18): two host threads, each with its own execution-space instance, build their own random graphs
// and run BFS (direction-optimised and Blest's tensor-core BFS), SSSP, PageRank, connected components and triangle
// counting on them round after round, plus BFS and triangle counting on one graph both read; every answer must equal
// the one computed beforehand on the main thread, so a buffer, counter or cache shared between the threads shows up as
// a wrong level, distance or count.
//
// How the threads run depends on what the backend allows (docs/kokkos-app.md, "Threads and execution-space
// instances"): on CUDA each thread has a Kokkos::Cuda instance on a stream of its own and the two run at once. Kokkos
// 3.4's host backends take no calls from a second thread: OpenMP counts as initialised only on the thread that
// initialised Kokkos, and host views (Serial's too) initialise on it, so another thread's call throws; there the test
// checks that rejection and runs the rounds on the main thread. Kokkos 4.6 partitions a host space into instances of
// its own (Kokkos::Experimental::partition_space), and there the two threads run at once as on CUDA.
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/blest.hpp"
#include "bitgraph/algorithms/components.hpp"
#include "bitgraph/algorithms/pagerank.hpp"
#include "bitgraph/algorithms/reference.hpp"
#include "bitgraph/algorithms/sssp.hpp"
#include "bitgraph/algorithms/triangles.hpp"
#include "bitgraph/algorithms/validate.hpp"
#include "bitgraph/core/l2_resident.hpp"
#include "bitgraph/generators/generators.hpp"
#include "support/random_graphs.hpp"
#include "support/reduced.hpp"
#include "support/spaces.hpp"

using namespace bitgraph;

namespace {

constexpr int thread_count = 2;
/// Rounds per thread: 3 in reduced mode.
int rounds() { return test::reduced() ? 3 : 20; }
constexpr int graphs_per_thread = 3;
constexpr int calls_per_round = 8;

/// One graph of one thread with the answers the main thread computed for it beforehand.
struct graph_answers {
  edge_list el;
  host_csr h;
  std::vector<vertex_t> sources;
  std::vector<std::vector<level_t>> levels;    // per source
  std::vector<std::vector<double>> dist;       // per source, weighted
  std::vector<std::vector<double>> dist_unit;  // per source, one per edge
  std::vector<double> rank;
  std::vector<vertex_t> labels;
  std::uint64_t triangles = 0;
};

/// A graph both threads read at once (built and fenced by the main thread), with its BFS levels and triangles.
template <class Mem>
struct shared_answers {
  bit_graph<Mem> g;
  host_csr h;
  std::vector<vertex_t> sources;
  std::vector<std::vector<level_t>> levels;  // per source
  std::uint64_t triangles = 0;
};

csr_build_options undirected_no_loops() {
  csr_build_options o;
  o.kind = graph_kind::undirected;
  o.remove_self_loops = true;
  return o;
}

/// Thread t's graphs: sizes and seeds differ between the threads, so that answers swapped between them are wrong.
std::vector<edge_list> thread_graphs(int t) {
  std::vector<edge_list> out;
  for (int c = 0; c < graphs_per_thread; ++c) {
    const std::uint64_t n = 240 + 130 * std::uint64_t(c) + 57 * std::uint64_t(t);
    auto el = test::random_edges(n, 4 * n, 1000 * std::uint64_t(t + 1) + std::uint64_t(c), true);
    out.push_back(std::move(el));
  }
  return out;
}

/// A view's values on the host, copied on `exec` (a copy without an instance would fence the whole device).
template <class Exec, class View>
std::vector<typename View::non_const_value_type> host_copy(const Exec& exec, const View& v) {
  return detail::copy_to_host(exec, v);
}

sssp_options sssp_opts(bool weighted) {
  sssp_options o;
  o.use_weights = weighted;
  return o;
}

/// The answers of thread t's graphs, computed and validated on the calling (main) thread.
template <class Exec>
std::vector<graph_answers> reference_answers(const Exec& exec, int t) {
  std::vector<graph_answers> out;
  for (auto& el : thread_graphs(t)) {
    graph_answers a;
    a.el = std::move(el);
    const auto g = make_bit_graph(exec, build_csr(exec, a.el, undirected_no_loops()));
    a.h = to_host_csr(g.csr);
    auto hu = a.h;
    hu.has_weights = false;
    hu.weights.clear();
    const vertex_t n = g.n();
    a.sources = {0, n / 2, n - 1};
    for (const vertex_t s : a.sources) {
      a.levels.push_back(host_copy(exec, bfs(exec, g, s).levels));
      REQUIRE(validate::check_bfs(a.h, s, a.levels.back()).ok);
      a.dist.push_back(host_copy(exec, sssp(exec, g, s, sssp_opts(true)).dist));
      REQUIRE(validate::check_sssp(a.h, s, a.dist.back()).ok);
      a.dist_unit.push_back(host_copy(exec, sssp(exec, g, s, sssp_opts(false)).dist));
      REQUIRE(validate::check_sssp(hu, s, a.dist_unit.back()).ok);
    }
    a.rank = host_copy(exec, pagerank(exec, g).rank);
    REQUIRE(validate::check_pagerank(a.h, a.rank).ok);
    a.labels = host_copy(exec, connected_components(exec, g).labels);
    REQUIRE(validate::check_components(a.h, a.labels).ok);
    a.triangles = triangle_count(exec, g).triangles;
    REQUIRE(validate::check_triangles(a.h, a.triangles).ok);
    out.push_back(std::move(a));
  }
  return out;
}

template <class Exec>
shared_answers<memory_space_t<Exec>> shared_reference(const Exec& exec) {
  shared_answers<memory_space_t<Exec>> a;
  a.g = make_bit_graph(exec, build_csr(exec, test::random_edges(700, 2800, 77), undirected_no_loops()));
  a.h = to_host_csr(a.g.csr);
  for (vertex_t s = 0; s < a.g.n(); s += 97) {
    a.sources.push_back(s);
    a.levels.push_back(host_copy(exec, bfs(exec, a.g, s).levels));
    REQUIRE(validate::check_bfs(a.h, s, a.levels.back()).ok);
  }
  a.triangles = triangle_count(exec, a.g).triangles;
  REQUIRE(validate::check_triangles(a.h, a.triangles).ok);
  return a;
}

/// What one worker thread saw: the first mismatches (Catch2's assertions are for the main thread only).
struct worker_report {
  std::vector<std::string> failures;
  int calls = 0;
  bool threw = false;
  std::string exception;

  void fail(const std::string& what) {
    if (failures.size() < 20) failures.push_back(what);
  }
};

template <class T>
std::string first_difference(const std::vector<T>& got, const std::vector<T>& want) {
  if (got.size() != want.size()) return "size " + std::to_string(got.size()) + " != " + std::to_string(want.size());
  for (std::size_t v = 0; v < got.size(); ++v)
    if (!(got[v] == want[v]))
      return "vertex " + std::to_string(v) + ": " + std::to_string(got[v]) + " != " + std::to_string(want[v]);
  return {};
}

/// The worker: builds its own graphs on `exec` and runs the rounds, each call's answer compared with `want`.
template <class Exec>
void run_rounds(const Exec& exec, int t, const std::vector<graph_answers>& want,
                const shared_answers<memory_space_t<Exec>>& shared, worker_report& out) noexcept {
  try {
#if defined(KOKKOS_ENABLE_CUDA)
    // The CUDA runtime's current device is per host thread; Kokkos 3.4 sets it only on the thread that initialised.
    if constexpr (is_cuda_space_v<Exec>) cudaSetDevice(exec.cuda_device());
#endif
    using mem = memory_space_t<Exec>;
    std::vector<bit_graph<mem>> graphs;
    std::vector<blest_graph<mem>> blest;
    for (const auto& a : want) {
      graphs.push_back(make_bit_graph(exec, build_csr(exec, a.el, undirected_no_loops())));
      blest.push_back(make_blest_graph(exec, graphs.back()));
    }
    bfs_workspace<mem> bws;
    sssp_workspace<mem> sws;
    for (int r = 0; r < rounds(); ++r) {
      const std::size_t c = std::size_t(r) % want.size();
      const std::size_t si = (std::size_t(r) / want.size() + std::size_t(t)) % want[c].sources.size();
      const auto& a = want[c];
      const auto& g = graphs[c];
      const vertex_t s = a.sources[si];
      const std::string at = "thread " + std::to_string(t) + " round " + std::to_string(r) + " graph " +
                             std::to_string(c) + " source " + std::to_string(s) + ": ";

      const auto b = r % 2 ? bfs(exec, g, s, bfs_options{}, bws) : bfs(exec, g, s);
      const auto levels = host_copy(exec, b.levels);
      if (auto d = first_difference(levels, a.levels[si]); !d.empty()) out.fail(at + "bfs levels, " + d);
      const auto parents = host_copy(exec, b.parents);
      if (const auto v = validate::check_bfs(a.h, s, levels, &parents); !v.ok) out.fail(at + "bfs tree: " + v.message);

      const auto tc_levels = host_copy(exec, bfs_tensor_core(exec, blest[c], s).levels);
      if (auto d = first_difference(tc_levels, a.levels[si]); !d.empty()) out.fail(at + "tensor-core bfs, " + d);

      const bool weighted = r % 3 != 0;
      const auto so = sssp_opts(weighted);
      const auto dist = host_copy(exec, (r % 2 ? sssp(exec, g, s, so, sws) : sssp(exec, g, s, so)).dist);
      if (auto d = first_difference(dist, weighted ? a.dist[si] : a.dist_unit[si]); !d.empty())
        out.fail(at + "sssp distances, " + d);

      const auto rank = host_copy(exec, pagerank(exec, g).rank);
      for (std::size_t v = 0; v < rank.size() && v < a.rank.size(); ++v)
        if (!(std::abs(rank[v] - a.rank[v]) <= 1e-12 + 1e-9 * a.rank[v])) {
          out.fail(at + "pagerank vertex " + std::to_string(v) + ": " + std::to_string(rank[v]) +
                   " != " + std::to_string(a.rank[v]));
          break;
        }
      if (rank.size() != a.rank.size()) out.fail(at + "pagerank size");

      components_options co;
      co.method = r % 2 ? components_method::fastsv : components_method::afforest;
      // Both methods label a component by its smallest id: equal labels are the same partition.
      const auto labels = host_copy(exec, connected_components(exec, g, co).labels);
      if (auto d = first_difference(labels, a.labels); !d.empty()) out.fail(at + "components, " + d);

      triangles_options to;
      to.method = r % 2 ? triangles_method::masked_bmm : triangles_method::automatic;
      if (const auto n = triangle_count(exec, g, to).triangles; n != a.triangles)
        out.fail(at + "triangles " + std::to_string(n) + " != " + std::to_string(a.triangles));

      // The shared graph: read by both threads, written by neither.
      const std::size_t ss = (std::size_t(r) * 3 + std::size_t(t)) % shared.sources.size();
      const auto shared_levels = host_copy(exec, bfs(exec, shared.g, shared.sources[ss]).levels);
      if (auto d = first_difference(shared_levels, shared.levels[ss]); !d.empty())
        out.fail(at + "bfs on the shared graph from " + std::to_string(shared.sources[ss]) + ", " + d);
      if (const auto n = triangle_count(exec, shared.g).triangles; n != shared.triangles)
        out.fail(at + "triangles of the shared graph " + std::to_string(n) + " != " + std::to_string(shared.triangles));
      out.calls += calls_per_round;
    }
  } catch (const std::exception& e) {
    out.threw = true;
    out.exception = e.what();
  } catch (...) {
    out.threw = true;
    out.exception = "unknown exception";
  }
}

/// How the worker threads may run on a space.
enum class thread_mode {
  at_once,          // both threads at the same time, each on its own instance
  one_after_other,  // each thread started after the previous one has been joined
  main_thread_only  // calls from other threads are rejected: the rounds run on the main thread
};

template <class Exec>
constexpr thread_mode mode_of() {
  if constexpr (is_cuda_space_v<Exec>) {
    return thread_mode::at_once;
  } else {
#if KOKKOS_VERSION >= 40600
    return thread_mode::at_once;  // partitioned host instances, each locked per kernel
#elif KOKKOS_VERSION < 40000 && defined(KOKKOS_ENABLE_OPENMP)
    // Kokkos 3.4's OpenMP backend counts as initialised only on the thread that initialised it (a thread-local
    // instance), and host views initialise on it, Serial's included: another thread's first allocation throws.
    return thread_mode::main_thread_only;
#else
    return thread_mode::one_after_other;  // Serial keeps one process-wide scratch for reductions and scans
#endif
  }
}

constexpr const char* describe(thread_mode m) {
  return m == thread_mode::at_once           ? "two threads at once"
         : m == thread_mode::one_after_other ? "two threads one after the other"
                                             : "main thread only";
}

/// One instance per thread: CUDA streams of their own, partitions of a host space on Kokkos 4.6, else the default
/// instance (used by one thread at a time).
template <class Exec>
std::vector<Exec> thread_instances([[maybe_unused]] const std::vector<void*>& streams) {
  if constexpr (is_cuda_space_v<Exec>) {
    std::vector<Exec> out;
#if defined(KOKKOS_ENABLE_CUDA)
    for (void* s : streams) out.push_back(Kokkos::Cuda(static_cast<cudaStream_t>(s)));
#endif
    return out;
  } else {
#if KOKKOS_VERSION >= 40600
    // An OpenMP partition needs a thread of the pool per instance; with fewer, both threads share the default
    // instance, which Kokkos 4.6 locks per kernel.
    if (std::is_same_v<Exec, Kokkos::Serial> || Exec().concurrency() >= thread_count)
      return Kokkos::Experimental::partition_space(Exec(), 1, 1);
#endif
    return std::vector<Exec>(thread_count, Exec());
  }
}

}  // namespace

TEMPLATE_TEST_CASE("two host threads on two instances get the single-thread answers", "[concurrency]",
                   BITGRAPH_TEST_SPACES) {
  const auto start = std::chrono::steady_clock::now();
  const TestType main_exec;
  std::vector<std::vector<graph_answers>> want;
  for (int t = 0; t < thread_count; ++t) want.push_back(reference_answers(main_exec, t));
  const auto shared = shared_reference(main_exec);

  std::vector<worker_report> reports(thread_count);
  if constexpr (mode_of<TestType>() == thread_mode::main_thread_only) {
    // Rejected, not wrong: another thread's call throws before it computes anything, and the space still answers
    // on the main thread afterwards, where the rounds then run.
    const auto g = make_bit_graph(main_exec, build_csr(main_exec, want[0][0].el, undirected_no_loops()));
    bool rejected = false;
    std::string why;
    std::thread([&] {
      try {
        (void)bfs(main_exec, g, 0);
      } catch (const std::exception& e) {
        rejected = true;
        why = e.what();
      }
    }).join();
    INFO(why);
    CHECK(rejected);
    for (int t = 0; t < thread_count; ++t) run_rounds(main_exec, t, want[t], shared, reports[t]);
  }

  std::vector<void*> streams;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (is_cuda_space_v<TestType>) {
    for (int t = 0; t < thread_count; ++t) {
      cudaStream_t s = nullptr;
      REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
      streams.push_back(s);
    }
  }
#endif
  {
    // The instances go before the streams they run on.
    const std::vector<TestType> instances = thread_instances<TestType>(streams);
    REQUIRE(instances.size() == std::size_t(thread_count));
    const auto work = [&](int t) { run_rounds(instances[t], t, want[t], shared, reports[t]); };
    if constexpr (mode_of<TestType>() == thread_mode::at_once) {
      std::vector<std::thread> threads;
      for (int t = 0; t < thread_count; ++t) threads.emplace_back(work, t);
      for (auto& th : threads) th.join();
    } else if constexpr (mode_of<TestType>() == thread_mode::one_after_other) {
      for (int t = 0; t < thread_count; ++t) std::thread(work, t).join();
    }
  }
#if defined(KOKKOS_ENABLE_CUDA)
  for (void* s : streams) CHECK(cudaStreamDestroy(static_cast<cudaStream_t>(s)) == cudaSuccess);
#endif

  for (int t = 0; t < thread_count; ++t) {
    INFO("thread " << t);
    INFO(reports[t].exception);
    CHECK_FALSE(reports[t].threw);
    CHECK(reports[t].calls == calls_per_round * rounds());
    for (const auto& f : reports[t].failures) FAIL_CHECK(f);
  }
  std::printf("concurrency (%s, %s): %d calls in %.2f s\n", std::string(space_name<TestType>()).c_str(),
              describe(mode_of<TestType>()), reports[0].calls + reports[1].calls,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

#if defined(KOKKOS_ENABLE_CUDA)
TEST_CASE("overlapping L2 residency scopes of two threads restore the device's set-aside", "[concurrency][gpu]") {
  // PageRank's l2_resident_scope raises the device's persisting set-aside. Two threads' scopes overlapping as
  // A opens, B opens, A closes, B closes must leave the limit as it was: a scope restoring the limit it saw at
  // its start would put A's raise back when B closes.
  std::size_t original = 0, while_b = 0;
  REQUIRE(cudaDeviceGetLimit(&original, cudaLimitPersistingL2CacheSize) == cudaSuccess);
  cudaStream_t streams[2] = {nullptr, nullptr};
  for (auto& s : streams) REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  bool active[2] = {false, false};
  {
    const Kokkos::Cuda a_exec(streams[0]), b_exec(streams[1]);
    Kokkos::View<double*, Kokkos::CudaSpace> a_buf("a", std::size_t(1) << 20), b_buf("b", std::size_t(1) << 20);
    std::mutex m;
    std::condition_variable cv;
    int step = 0;  // 1: A open, 2: B open, 3: A closed
    const auto wait_for = [&](int s) {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [&] { return step >= s; });
    };
    const auto reach = [&](int s) {
      {
        const std::lock_guard<std::mutex> lock(m);
        step = s;
      }
      cv.notify_all();
    };
    std::thread a([&] {
      {
        const l2_resident_scope<Kokkos::Cuda> keep(a_exec, a_buf);
        active[0] = keep.active();
        reach(1);
        wait_for(2);
      }
      reach(3);
    });
    std::thread b([&] {
      wait_for(1);
      const l2_resident_scope<Kokkos::Cuda> keep(b_exec, b_buf);
      active[1] = keep.active();
      reach(2);
      wait_for(3);
      (void)cudaDeviceGetLimit(&while_b, cudaLimitPersistingL2CacheSize);
      Kokkos::deep_copy(b_exec, b_buf, 1.0);  // B's kernels still run under its window after A's scope ended
      b_exec.fence();
    });
    a.join();
    b.join();
  }
  for (auto s : streams) CHECK(cudaStreamDestroy(s) == cudaSuccess);
  std::size_t after = 0;
  REQUIRE(cudaDeviceGetLimit(&after, cudaLimitPersistingL2CacheSize) == cudaSuccess);
  INFO("set-aside before " << original << ", while B alone " << while_b << ", after " << after);
  CHECK(after == original);
  // A's end must not take B's set-aside away: while B is alone it still covers B's window (the limit may have been
  // large enough before either scope, as under compute-sanitizer, where nothing is raised).
  int device = 0, max_persist = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, device) == cudaSuccess);
  const std::size_t b_bytes = (std::size_t(1) << 20) * sizeof(double);
  if (active[0] && active[1]) CHECK(while_b >= std::min(b_bytes, std::size_t(max_persist)));
}

TEST_CASE("tensor-core BFS from two threads whose graphs need different shared memory", "[concurrency][gpu][blest]") {
  // A 512 x 512 grid runs the tensor-core kernel with a 32 KB frontier bitmap per block, a 520 x 520 one (over 2^18
  // vertices) with none: the launch's shared-memory carve-out differs, and it is an attribute of the one kernel both
  // threads launch. In the order A, B, A, B each call must still launch and find its own grid's levels.
  const Kokkos::Cuda exec;
  std::vector<bit_graph<Kokkos::CudaSpace>> graphs;
  std::vector<blest_graph<Kokkos::CudaSpace>> blest;
  std::vector<std::vector<level_t>> want;
  for (vertex_t k : {vertex_t(512), vertex_t(520)}) {
    graphs.push_back(make_bit_graph(exec, build_csr(exec, gen::grid_2d(k), undirected_no_loops())));
    blest.push_back(make_blest_graph(exec, graphs.back(), std::vector<vertex_t>{}));
    want.push_back(reference::bfs_levels(to_host_csr(graphs.back().csr), 0));
  }
  std::mutex m;
  std::condition_variable cv;
  int turn = 0;  // calls made so far; thread t makes calls t, t + 2
  std::string failures[2];
  const auto worker = [&](int t) {
    cudaSetDevice(exec.cuda_device());  // the runtime's current device is per host thread
    for (int call = t; call < 4; call += 2) {
      {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return turn == call; });
      }
      try {
        const auto levels = host_copy(exec, bfs_tensor_core(exec, blest[t], 0).levels);
        if (levels != want[t]) failures[t] += "call " + std::to_string(call) + ": wrong levels; ";
      } catch (const std::exception& e) {
        failures[t] += "call " + std::to_string(call) + ": " + e.what() + "; ";
      }
      {
        const std::lock_guard<std::mutex> lock(m);
        ++turn;
      }
      cv.notify_all();
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  INFO(failures[0] << failures[1]);
  CHECK(failures[0].empty());
  CHECK(failures[1].empty());
  CHECK(turn == 4);
}
#endif
