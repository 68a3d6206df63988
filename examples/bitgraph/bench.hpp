// `bitgraph bench`: named suites of graphs; for each graph the storage, conversion time, and every
// kernel's median time with its bytes-moved floor, next to the baselines measured in the same process
// on the same data. Prints a table and writes JSON.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench/baselines.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/mxm_csr.hpp"
#include "bitgraph_cli_config.hpp"
#include "commands.hpp"
#include "suites.hpp"

#if defined(BITGRAPH_HAVE_KOKKOS_KERNELS)
#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#endif
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bench/cusparse_baselines.hpp"
#endif

namespace bitgraph::cli {

/// Median times of one kernel measured twice (two series of `runs` after warm-up), so that the noise
/// of the measurement is known.
struct measurement {
  double median = 0;        ///< median of the first series (seconds)
  double median_again = 0;  ///< median of the second series
  int runs = 0;             ///< runs per series actually made
  double noise() const { return median > 0 ? std::fabs(median_again - median) / std::min(median, median_again) : 0; }
};

/// Seconds one kernel's measurement may take in all: a slow kernel (thousands of BFS levels, a large
/// triangle count) gets fewer runs per series (at least 3, or 1 when a single run takes seconds) so
/// that the suite fits its time budget.
inline constexpr double measure_budget_seconds = 8.0;

/// Times `f(i)` (i = run index, for rotating inputs). On CUDA the time comes from events on the
/// execution space's stream; elsewhere from a steady clock around fences.
template <class ExecSpace, class F>
measurement measure(const ExecSpace& exec, int runs, F&& f, int warmups = 2) {
  double first = 0;
  for (int w = 0; w < warmups; ++w) {
    const double t = timed(exec, [&] { f(w); });
    if (w == 0) first = t;
    if (first > 0.25) break;  // a kernel this slow has nothing left to warm after one run
  }
  exec.fence();
  // Shrink (never grow) the series to the budget, keeping 3 runs where the caller asked for that many,
  // or one for a kernel that takes seconds (triangle counting on kron:22) so the suite fits one call.
  if (first * 2 * runs > measure_budget_seconds) {
    const int floor_runs = std::min(runs, first > 2.0 ? 1 : 3);
    runs = std::max(floor_runs, static_cast<int>(measure_budget_seconds / (2 * first)));
  }
  auto series = [&](int offset) {
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
      if constexpr (is_cuda_space_v<ExecSpace>) {
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        cudaEventRecord(a, exec.cuda_stream());
        f(offset + r);
        cudaEventRecord(b, exec.cuda_stream());
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        cudaEventDestroy(a);
        cudaEventDestroy(b);
        t.push_back(ms * 1e-3);
        continue;
      }
#endif
      t.push_back(timed(exec, [&] { f(offset + r); }));
    }
    return median(t);
  };
  measurement m;
  m.median = series(0);
  m.median_again = series(runs);
  m.runs = runs;
  return m;
}

/// One row of the benchmark table.
struct bench_row {
  std::string graph, kernel, baseline;
  double seconds = 0, seconds_again = 0, baseline_seconds = 0;
  int runs = 0;            ///< runs per series
  double floor_bytes = 0;  ///< bytes the kernel must move at least
  double work = 0;         ///< traversed edges (GTEPS) when > 0
  std::string unit;        ///< "GB/s" or "GTEPS"
};

template <class ExecSpace>
int run_bench(const ExecSpace& exec, const options& opts) {
  using mem = memory_space_t<ExecSpace>;
  BITGRAPH_CHECK_ARG(opts.runs >= 1, "bench", "--runs must be at least 1");
  const int runs = opts.runs;
  const auto graphs = chosen_graphs(opts);
  // --kernels: only the rows whose kernel name starts with one of the prefixes (every row without it).
  // A prefix that names no kernel of any graph is an error at the end (a typo must not pass as an empty bench).
  std::vector<bool> prefix_used(opts.kernels.size(), false);
  auto wanted = [&](std::initializer_list<const char*> kernels) {
    if (opts.kernels.empty()) return true;
    bool any = false;
    for (const char* k : kernels)
      for (std::size_t i = 0; i < opts.kernels.size(); ++i)
        if (std::string_view(k).rfind(opts.kernels[i], 0) == 0) any = prefix_used[i] = true;
    return any;
  };
  // The memory ceiling of this space, measured once: a large copy, counting bytes read plus written.
  double bandwidth = 0;
  {
    const std::size_t words = is_cuda_space_v<ExecSpace> ? (std::size_t(1) << 27) : (std::size_t(1) << 24);
    Kokkos::View<double*, mem> a("bench::copy_a", words), c("bench::copy_b", words);
    Kokkos::deep_copy(exec, a, 1.0);
    const auto m = measure(exec, 5, [&](int) { Kokkos::deep_copy(exec, c, a); });
    bandwidth = 2.0 * sizeof(double) * words / m.median;
    std::printf("%s copy bandwidth: %.1f GB/s (read + write)\n", std::string(space_name<ExecSpace>()).c_str(),
                bandwidth / 1e9);
  }
  auto report = header_json(opts, space_name<ExecSpace>());
  report.set("copy_bandwidth_bytes_per_second", bandwidth);
  report.set("suite", opts.suite).set("runs", runs);
  if (!opts.graphs.empty()) {  // a part of the suite: say which, so that parts can be told apart and joined
    auto only = json::array();
    for (const auto& g : graphs) only.push(g);
    report.set("graphs_run", only);
  }
  auto jgraphs = json::array();
  std::vector<bench_row> rows;
  // Writes the JSON (after every graph, so a run stopped early keeps what it measured) and, at the
  // end, the table.
  auto emit = [&](bool table) {
    auto jrows = json::array();
    if (table)
      std::printf("\n%-26s %-20s %10s %8s %10s %9s %-24s %11s %8s\n", "graph", "kernel", "ms", "noise", "rate",
                  "floor %", "baseline", "base ms", "speedup");
    for (const auto& r : rows) {
      const double rate = r.work > 0 ? r.work / r.seconds / 1e9 : r.floor_bytes / r.seconds / 1e9;
      // Achieved fraction of the bytes-moved floor: floor time (bytes / measured copy bandwidth) over time.
      const double floor_pct = r.seconds > 0 ? 100.0 * (r.floor_bytes / bandwidth) / r.seconds : 0;
      const double speedup = r.baseline_seconds > 0 ? r.baseline_seconds / r.seconds : 0;
      if (table)
        std::printf("%-26s %-20s %10.4f %7.1f%% %6.2f %-5s %8.1f%% %-24s %11.4f %7.2fx\n", r.graph.c_str(),
                    r.kernel.c_str(), r.seconds * 1e3,
                    100 * (r.seconds > 0 ? std::fabs(r.seconds_again - r.seconds) / r.seconds : 0), rate,
                    r.unit.c_str(), floor_pct, r.baseline.c_str(), r.baseline_seconds * 1e3, speedup);
      jrows.push(json::object()
                     .set("graph", r.graph)
                     .set("kernel", r.kernel)
                     .set("median_seconds", r.seconds)
                     .set("median_seconds_again", r.seconds_again)
                     .set("runs", r.runs)
                     .set("floor_bytes", r.floor_bytes)
                     .set("floor_seconds", r.floor_bytes / bandwidth)
                     .set("rate", rate)
                     .set("unit", r.unit)
                     .set("baseline", r.baseline)
                     .set("baseline_median_seconds", r.baseline_seconds)
                     .set("speedup", speedup));
    }
    // After every graph to a file; to stdout (`--json -`) once, at the end, so that it holds one document.
    if (!table && opts.json_path == "-") return;
    auto out = report;
    out.set("graphs", jgraphs).set("rows", jrows);
    write_json(opts, out);
  };

  const auto suite_start = std::chrono::steady_clock::now();
  auto since = [](std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  auto bench_graph = [&](const std::string& spec) {
    const auto graph_start = std::chrono::steady_clock::now();
    options lo = opts;
    lo.graph = spec;
    io::load_report rep;
    auto g = load(exec, lo, rep);
    const vertex_t n = g.n;
    auto jg = json::object();
    jg.set("graph", rep.name).set("n", n).set("stored_entries", g.nnz).set("directed", g.kind == graph_kind::directed);
    // Storage of every tile size (exact counts), and the conversion time of the profile's choice.
    auto storage = json::array();
    for (int t : {4, 8, 16, 32, 64}) {
      const auto r = exact_storage_report(exec, g, t);
      storage.push(json::object()
                       .set("tile_dim", t)
                       .set("n_tiles", r.n_tiles)
                       .set("b2sr_bytes", r.b2sr_bytes)
                       .set("compression_ratio", r.compression_ratio));
    }
    jg.set("storage", storage);
    const int tile = opts.tile == "auto" ? profile_tile_sizes(exec, g).chosen_tile_dim : std::atoi(opts.tile.c_str());
    bit_graph<mem> bg;
    const double convert = timed(exec, [&] { bg = make_bit_graph(exec, g, {tile}); });
    jg.set("tile_dim", tile).set("conversion_seconds", convert).set("csr_build_seconds", rep.build_seconds);
    if (rep.order_seconds > 0) jg.set("order_seconds", rep.order_seconds);
    const auto& b = bg.b2sr;
    const double index_bytes = double(b.tile_row_ptr.extent(0)) * sizeof(offset_t) +
                               double(b.n_tiles) * sizeof(vertex_t) + double(b.tile_bits.extent(0));
    std::printf("\n%s: n = %u, entries = %llu, B2SR-%d tiles = %llu (%.1f MiB), conversion %.2f ms\n", rep.name.c_str(),
                n, static_cast<unsigned long long>(g.nnz), tile, static_cast<unsigned long long>(b.n_tiles),
                index_bytes / 1048576.0, convert * 1e3);

    // Inputs: four rotating random vectors of each kind, so repeated runs do not just hit the cache.
    constexpr int rot = 4;
    std::vector<bitmap<mem>> xb(rot);
    std::vector<Kokkos::View<float*, mem>> xf(rot);
    std::mt19937 rng(7);
    for (int k = 0; k < rot; ++k) {
      std::vector<float> h(n);
      for (auto& v : h) v = (rng() % 2) ? float(1 + rng() % 9) : 0.0f;
      xf[k] = Kokkos::View<float*, mem>("bench::x", n);
      Kokkos::deep_copy(exec, xf[k],
                        Kokkos::View<float*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(h.data(), n));
      xb[k] = to_bitmap<ExecSpace, float>(exec, xf[k]);
    }
    auto yb = make_bitmap(exec, n);
    Kokkos::View<float*, mem> yf("bench::y", n);
    auto add = [&](std::string kernel, const measurement& m, double floor_bytes, std::string baseline = "",
                   double baseline_seconds = 0, double work = 0) {
      bench_row r;
      // Keep the table narrow: a file spec shows its file name only.
      r.graph =
          rep.name.rfind("file:", 0) == 0 ? std::filesystem::path(rep.name.substr(5)).filename().string() : rep.name;
      r.kernel = std::move(kernel);
      r.seconds = m.median;
      r.seconds_again = m.median_again;
      r.runs = m.runs;
      r.floor_bytes = floor_bytes;
      r.baseline = std::move(baseline);
      r.baseline_seconds = baseline_seconds;
      r.work = work;
      r.unit = work > 0 ? "GTEPS" : "GB/s";
      std::fprintf(
          stderr, "  %-22s %10.4f ms%s\n", r.kernel.c_str(), r.seconds * 1e3,
          r.baseline_seconds > 0 ? (" (baseline " + std::to_string(r.baseline_seconds * 1e3) + " ms)").c_str() : "");
      rows.push_back(r);
    };
    mxv_options mo;
    mo.direction = mxv_direction::pull;
    mo.algorithm = parse_algorithm(opts.algorithm);
    mo.balance = opts.bmv_balance == "rows"    ? mxv_balance::by_rows
                 : opts.bmv_balance == "tiles" ? mxv_balance::by_tiles
                                               : mxv_balance::automatic;
    const double vec_bits = std::ceil(n / 8.0), vec_f32 = 4.0 * n;

    if (wanted({"cusparse-spmv", "kokkos-kernels-spmv", "kokkos-csr-spmv", "bmv_bin_bin_bin", "bmv_bin_bin_full",
                "bmv_bin_full_full", "csr_mxv_full", "hybrid_"})) {
      // Baseline SpMV: CSR with fp32 values (cuSPARSE on CUDA, else Kokkos Kernels, else plain Kokkos).
      auto c32 = bench::make_csr_fp32(exec, g);
      const double csr_bytes_moved = double(c32.nnz) * 8.0 + double(n + 1) * (c32.wide ? 8 : 4) + 2 * vec_f32;
      std::string spmv_name = "kokkos-csr-spmv";
      measurement spmv = measure(
          exec, runs, [&](int i) { bench::spmv_fp32(exec, c32, Kokkos::View<const float*, mem>(xf[i % rot]), yf); });
#if defined(BITGRAPH_HAVE_KOKKOS_KERNELS)
      if (!c32.wide) {
        using device = Kokkos::Device<ExecSpace, mem>;
        using crs = KokkosSparse::CrsMatrix<float, std::int32_t, device, void, std::int32_t>;
        crs a("bench::kk", c32.n, c32.n, static_cast<std::int32_t>(c32.nnz), c32.val, c32.row_ptr, c32.col);
        spmv = measure(exec, runs, [&](int i) { KokkosSparse::spmv("N", 1.0f, a, xf[i % rot], 0.0f, yf); });
        spmv_name = "kokkos-kernels-spmv";
      }
#endif
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
      if constexpr (is_cuda_space_v<ExecSpace>) {
        if (!c32.wide) {
          bench::cusparse_spmv cs(c32, xf[0], yf);
          spmv = measure(exec, runs, [&](int i) { cs.run(exec, xf[i % rot], yf); });
          spmv_name = "cusparse-spmv";
        }
      }
#endif
      add(spmv_name, spmv, csr_bytes_moved);
      // The library's own CSR product on the pattern (the CSR part a hybrid matrix would use), same inputs.
      if (wanted({"csr_mxv_full"})) {
        csr_graph<mem> pattern = g;
        pattern.has_weights = false;
        pattern.weights = {};
        add("csr_mxv_full",
            measure(exec, runs,
                    [&](int i) {
                      mxv(exec, yf, no_mask{}, no_accumulator{}, plus_times<float>{}, pattern,
                          Kokkos::View<const float*, mem>(xf[i % rot]), mo);
                    }),
            double(g.nnz) * sizeof(vertex_t) + double(n + 1) * sizeof(offset_t) + 2 * vec_f32, spmv_name, spmv.median);
      }
      if (wanted({"bmv_bin_bin_bin"}))
        add("bmv_bin_bin_bin",
            measure(exec, runs,
                    [&](int i) { mxv(exec, yb, no_mask{}, no_accumulator{}, lor_land{}, b, xb[i % rot], mo); }),
            index_bytes + 2 * vec_bits, spmv_name, spmv.median);
      if (wanted({"bmv_bin_bin_full"}))
        add("bmv_bin_bin_full",
            measure(exec, runs,
                    [&](int i) { mxv(exec, yf, no_mask{}, no_accumulator{}, plus_pair<float>{}, b, xb[i % rot], mo); }),
            index_bytes + vec_bits + vec_f32, spmv_name, spmv.median);
      // The hybrid split of the same graph (bands of 32 rows as bits or CSR, tile size, by the space's time model).
      if (wanted({"hybrid_"})) {
        hybrid_matrix<mem> hy;
        const double hconvert = timed(exec, [&] { hy = to_hybrid(exec, g); });
        const double hbytes = double(hy.bits_bytes + hy.csr_bytes);
        std::printf("  ");
        jg.set("hybrid", hybrid_report(hy, g.nnz, hconvert));
        add("hybrid_bin_bin_bin",
            measure(exec, runs,
                    [&](int i) { mxv(exec, yb, no_mask{}, no_accumulator{}, lor_land{}, hy, xb[i % rot], mo); }),
            hbytes + 2 * vec_bits, spmv_name, spmv.median);
        add("hybrid_bin_full_full",
            measure(exec, runs,
                    [&](int i) {
                      mxv(exec, yf, no_mask{}, no_accumulator{}, plus_times<float>{}, hy,
                          Kokkos::View<const float*, mem>(xf[i % rot]), mo);
                    }),
            hbytes + 2 * vec_f32, spmv_name, spmv.median);
      }
      if (wanted({"bmv_bin_full_full"}))
        add("bmv_bin_full_full",
            measure(exec, runs,
                    [&](int i) {
                      mxv(exec, yf, no_mask{}, no_accumulator{}, plus_times<float>{}, b,
                          Kokkos::View<const float*, mem>(xf[i % rot]), mo);
                    }),
            index_bytes + 2 * vec_f32, spmv_name, spmv.median);
    }

    // BFS: the library's direction-optimised BFS against the CSR push-pull baseline, same sources.
    const bool need_sources = wanted({"bfs_do", "bfs_tc", "bfs_auto", "msbfs_", "sssp_unit_round"});
    const host_csr h = need_sources ? to_host_csr(bg.csr) : host_csr{};
    // 16 GAP-style random sources, as the published Blest numbers; every series visits each of them.
    const auto sources = need_sources ? pick_sources(h, 16) : decltype(pick_sources(h, 16)){};
    const int bfs_runs = std::max<int>(runs, static_cast<int>(sources.size()));
    std::vector<offset_t> traversed(sources.size());
    if (wanted({"bfs_do", "bfs_tc", "bfs_auto", "msbfs_"})) {
      Kokkos::View<level_t*, mem> lv("bench::levels", n);
      Kokkos::View<vertex_t*, mem> qa("bench::qa", n), qb("bench::qb", n);
      Kokkos::View<offset_t*, mem> ctr("bench::counter", 1);
      const auto base = measure(exec, bfs_runs, [&](int i) {
        bench::csr_pushpull_bfs(exec, bg.csr, bg.in_csr(), sources[i % sources.size()], lv, qa, qb, ctr);
      });
      bfs_options bo;
      bo.parents = false;
      bo.algorithm = mo.algorithm;
      // Buffers made once for all sources, as the baseline's are.
      bfs_workspace<mem> ws;
      int deepest = 0;
      const auto m = measure(exec, bfs_runs, [&](int i) {
        auto r = bfs(exec, bg, sources[i % sources.size()], bo, ws);
        traversed[i % sources.size()] = r.traversed_edges;
        deepest = std::max(deepest, r.depth);
      });
      double edges = 0;
      for (auto e : traversed) edges += double(e);
      edges /= double(traversed.size());
      add("bfs_do", m, index_bytes + 2 * vec_bits + 4.0 * n, "csr-pushpull-bfs", base.median, edges);
      // Blest (tensor cores on Cuda, popcount emulation elsewhere) with its automatic reordering.
      std::string rname;
      double rsec = 0;
      // Beyond 4M vertices a host ordering costs the suite's budget (RCM took 34 s on urand:24, H100 host). The
      // library's automatic choice orders social graphs on the device; of the rest, RCM stays for sparse graphs
      // (average degree <= 16: meshes, geometric graphs), where banding fills the tensor-core slices, and dense
      // ones get the device's degree order (docs/PERFORMANCE.md reports the orderings' costs).
      std::string reorder_choice = opts.reorder;
      if (opts.reorder == "auto" && n >= (vertex_t(1) << 22) && double(g.nnz) > 16.0 * double(n) &&
          !reorder::analyze_degrees(h).is_social())
        reorder_choice = "degree";
      auto bl = make_blest(exec, bg, reorder_choice, rname, rsec);
      bvss_bfs_options to;
      to.algorithm = mo.algorithm == op_algorithm::cuda_warp ? op_algorithm::automatic : mo.algorithm;
      to.update = parse_update(opts.update);
      bvss_bfs_stats st;
      Kokkos::View<level_t*, mem> tl("bench::tc_levels", n);
      const auto mt =
          measure(exec, bfs_runs, [&](int i) { st = bfs_tensor_core(exec, bl, sources[i % sources.size()], tl, to); });
      add("bfs_tc", mt, double(bl.report.bvss_bytes) + 4.0 * n, "csr-pushpull-bfs", base.median, edges);
      // The BFS plan (the engine chosen per graph by timing both, as a caller with many traversals would make it)
      // against the faster of the two rows above: issue 15's "never below the best of its modes".
      if (wanted({"bfs_auto"})) {
        bfs_plan_options po;
        po.traversals = 1000000;  // many: the plan builds and times both engines
        po.blest.ordering = reorder_choice == "degree" ? blest_ordering::degree : blest_ordering::automatic;
        bfs_plan<mem> plan;
        const double plan_seconds = timed(exec, [&] { plan = make_bfs_plan(exec, bg, po); });
        const auto ma = measure(exec, bfs_runs, [&](int i) { bfs(exec, plan, sources[i % sources.size()]); });
        const bool tc_best = mt.median < m.median;
        add("bfs_auto", ma, index_bytes + 2 * vec_bits + 4.0 * n, tc_best ? "best-mode-bfs_tc" : "best-mode-bfs_do",
            tc_best ? mt.median : m.median, edges);
        jg.set("bfs_plan", json::object()
                               .set("engine", std::string(to_string(plan.engine)))
                               .set("plan_seconds", plan_seconds)
                               .set("direction_optimized_trial_seconds", plan.direction_optimized_seconds)
                               .set("tensor_core_trial_seconds", plan.tensor_core_seconds)
                               .set("preparation_seconds", plan.preparation_seconds)
                               .set("estimated_preparation_seconds", plan.estimated_preparation_seconds));
      }
      // 128 sources in one multi-source BFS (levels kept), against 8 single-source tensor-core BFS: issue 15's
      // target is a speed-up of at least 1 over that baseline.
      // The multi-source BFS passes over all n vertices per level: on a high-diameter graph (a grid: thousands of
      // levels) one call takes tens of seconds, so the row runs where the sources' BFS depth is at most 64.
      if (wanted({"msbfs_"}) && deepest <= 64) {
        // GAP-style sources (fewer when few vertices have out-edges: then repeated).
        std::vector<vertex_t> many = pick_sources(h, static_cast<int>(multi_bfs_max_sources));
        for (std::size_t i = 0; many.size() < multi_bfs_max_sources; ++i) many.push_back(many[i]);
        multi_bfs_result<mem> mr;
        multi_bfs_workspace<mem> mws;  // made once for all runs, as the single-source rows' buffers are
        multi_bfs_options mo_ms;
        if (const char* r = std::getenv("BITGRAPH_BENCH_MSBFS_PULL_RATIO"); r && *r) mo_ms.pull_ratio = std::atof(r);
        if (const char* b = std::getenv("BITGRAPH_BENCH_MSBFS_BLOCK_BYTES"); b && *b)
          mo_ms.pull_block_bytes = static_cast<std::size_t>(std::strtoull(b, nullptr, 10));
        if (const char* q = std::getenv("BITGRAPH_BENCH_MSBFS_SLOW_SHARE"); q && *q)
          mo_ms.slow_source_share = std::atof(q);
        // A caller with many traversals on one graph (the workspace's relabelling is built in the warm-up call).
        mo_ms.traversals = 1000000;
        if (const char* o = std::getenv("BITGRAPH_BENCH_MSBFS_ORDER"); o && *o)
          mo_ms.order = std::string(o) == "none" ? multi_bfs_order::none : multi_bfs_order::degree;
        const auto mm = measure(exec, runs, [&](int) { mr = multi_source_bfs(exec, bg, many, mo_ms, mws); });
        // Floor: the graph read once and the k n levels written.
        const double ms_bytes = double(g.nnz) * sizeof(vertex_t) + double(n + 1) * sizeof(offset_t) +
                                double(n) * double(many.size()) * sizeof(level_t);
        add("msbfs_128", mm, ms_bytes, "8x-bfs_tc", 8 * mt.median, edges * double(many.size()));
        // The same traversal keeping 8-bit levels (`compact_levels`): a quarter of the levels' bytes. Its own
        // workspace, so that the 32-bit row's is not reallocated between their runs.
        multi_bfs_options mo_u8 = mo_ms;
        mo_u8.compact_levels = true;
        multi_bfs_workspace<mem> mws_u8;
        multi_bfs_result<mem> mr_u8;
        const auto mm_u8 = measure(exec, runs, [&](int) { mr_u8 = multi_source_bfs(exec, bg, many, mo_u8, mws_u8); });
        add("msbfs_128_u8", mm_u8, ms_bytes - double(n) * double(many.size()) * (sizeof(level_t) - sizeof(level8_t)),
            mr_u8.pairs == mr.pairs && mr_u8.depth == mr.depth ? "8x-bfs_tc" : "pairs mismatch: failed", 8 * mt.median,
            edges * double(many.size()));
        jg.set("msbfs", json::object()
                            .set("sources", std::uint64_t(many.size()))
                            .set("depth", mr.depth)
                            .set("pairs", mr.pairs)
                            .set("directions", mr.directions)
                            .set("split_levels", mr.split_levels)
                            .set("live", std::uint64_t(mws.live))
                            .set("order", std::string(mr.order == multi_bfs_order::degree ? "degree" : "none"))
                            .set("pull_blocks", mws.pull_blocks)
                            .set("prepare_seconds", mws.prepare_seconds));
      }
      jg.set("blest", json::object()
                          .set("reorder", rname)
                          .set("reorder_seconds", rsec)
                          .set("bvss_build_seconds", bl.build_seconds)
                          .set("bvss_bytes", bl.report.bvss_bytes)
                          .set("virtual_slice_sets", bl.report.virtual_slice_sets)
                          .set("slices", bl.report.slices)
                          .set("unpadded_slices", bl.report.unpadded_slices)
                          .set("compression_ratio", bl.report.compression_ratio)
                          .set("update_divergence", bl.report.update_divergence)
                          .set("lazy_updates", st.lazy)
                          .set("tensor_cores", st.tensor_cores)
                          .set("mean_traversed_edges", edges));
    }
    // The algorithms read the bits or the CSR, whichever their model predicts faster: the floor is the smaller.
    const double pattern_bytes = double(g.nnz) * sizeof(vertex_t) + double(n + 1) * sizeof(offset_t);
    const double graph_bytes = std::min(index_bytes, pattern_bytes);
    // PageRank: per iteration (20 iterations, no tolerance, over 20) and a whole run to the default tolerance,
    // against the CSR pull baseline (per iteration, and as many iterations as the run took).
    if (wanted({"pagerank_"})) {
      pagerank_options po;
      po.algorithm = mo.algorithm;
      po.max_iterations = 20;
      po.tolerance = 0;
      Kokkos::View<double*, mem> r("bench::r", n), c("bench::c", n);
      Kokkos::deep_copy(exec, r, n ? 1.0 / n : 0.0);
      const auto base =
          measure(exec, runs, [&](int) { bench::csr_pagerank_iteration(exec, bg.csr, bg.in_csr(), r, c, 0.85); });
      measurement per = measure(exec, runs, [&](int) { pagerank(exec, bg, po); });
      per.median /= po.max_iterations;
      per.median_again /= po.max_iterations;
      // One iteration reads the graph once, gathers w, reads y, r and writes r, w (8-byte values).
      add("pagerank_iteration", per, graph_bytes + 8.0 * 5 * n, "csr-pagerank-iteration", base.median);
      int iters = 0;
      const auto whole = measure(exec, runs, [&](int) { iters = pagerank(exec, bg, pagerank_options{}).iterations; });
      add("pagerank_run", whole, (graph_bytes + 8.0 * 5 * n) * iters, "csr-pagerank-iteration x iterations",
          base.median * iters);
      jg.set("pagerank_iterations", iters);
    }
    // SSSP (unit weights): whole runs from the BFS sources, and per round (rounds = depth + 1); against the CSR
    // push-pull BFS from the same sources (the same distances). CC whole and per round. TC whole.
    const bool big = g.nnz > (offset_t(1) << 26);
    const int heavy_runs = big ? 2 : std::max(1, runs / 2);
    const int heavy_warmups = big ? 1 : 2;
    if (wanted({"sssp_unit_"})) {
      sssp_options so;
      so.use_weights = false;
      so.algorithm = mo.algorithm;
      Kokkos::View<level_t*, mem> lv("bench::levels", n);
      Kokkos::View<vertex_t*, mem> qa("bench::qa", n), qb("bench::qb", n);
      Kokkos::View<offset_t*, mem> ctr("bench::counter", 1);
      const int sruns = std::max<int>(heavy_runs, static_cast<int>(sources.size()));
      const auto base = measure(exec, sruns, [&](int i) {
        bench::csr_pushpull_bfs(exec, bg.csr, bg.in_csr(), sources[i % sources.size()], lv, qa, qb, ctr);
      });
      double rounds = 0, calls = 0;
      sssp_workspace<mem> sws;  // reused as the baseline reuses its buffers
      const auto m = measure(
          exec, sruns,
          [&](int i) {
            rounds += sssp(exec, bg, sources[i % sources.size()], so, sws).iterations;
            calls += 1;
          },
          heavy_warmups);
      rounds = calls > 0 ? rounds / calls : 1;
      add("sssp_unit_run", m, graph_bytes + 8.0 * 4 * n, "csr-pushpull-bfs", base.median);
      measurement per = m;
      per.median /= rounds;
      per.median_again /= rounds;
      add("sssp_unit_round", per, (graph_bytes + 8.0 * 4 * n) / rounds);
      jg.set("sssp_mean_rounds", rounds);
    }
    if (wanted({"cc_"})) {
      components_options co;
      co.algorithm = mo.algorithm;
      int iters = 1;
      const auto m = measure(
          exec, heavy_runs, [&](int) { iters = connected_components(exec, bg, co).iterations; }, heavy_warmups);
      add("cc_run", m, graph_bytes + 4.0 * 6 * n);
      measurement per = m;
      per.median /= iters;
      per.median_again /= iters;
      add("cc_round", per, graph_bytes + 4.0 * 6 * n);
      jg.set("cc_iterations", iters);
    }
    // SpGEMM: C = A·A over PLUS_TIMES (fp32, every value 1) by the CSR mxm, beside cuSPARSE SpGEMM on the same
    // matrix; both timers cover the whole product (sizing, numeric, C's arrays), as a caller pays it. Skipped above
    // 2^31 scalar products (cuSPARSE's 32-bit indices and buffers; C could hold that many entries).
    if (wanted({"mxm_plus_times"})) {
      std::uint64_t products = 0;
      Kokkos::parallel_reduce("bench::products", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                              bench::kernels::product_count<mem>{g.row_ptr, g.col_idx, g.row_ptr}, products);
      jg.set("mxm_products", products);
      if (products <= (std::uint64_t(1) << 31)) {
        const auto a = to_csr_matrix<float>(exec, g);
        csr_matrix<float, mem> c;
        const auto m = measure(
            exec, heavy_runs, [&](int) { c = mxm(exec, plus_times<float>{}, a, a); }, heavy_warmups);
        double base_seconds = 0;
        std::string base_name;
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
        if constexpr (is_cuda_space_v<ExecSpace>) {
          try {
            const auto c32 = bench::make_csr_fp32(exec, g);
            std::int64_t cnnz = 0;
            const auto bm = measure(
                exec, heavy_runs, [&](int) { cnnz = bench::cusparse_spgemm_square(exec, c32); }, heavy_warmups);
            base_seconds = bm.median;
            base_name = "cusparse-spgemm";
            if (cnnz != static_cast<std::int64_t>(c.nnz)) {
              std::fprintf(stderr, "bench: mxm formed %llu entries on %s, cuSPARSE %lld\n",
                           static_cast<unsigned long long>(c.nnz), rep.name.c_str(), static_cast<long long>(cnnz));
              base_name = "nnz mismatch: failed";
            }
          } catch (const std::exception& e) {
            base_name = "cusparse-spgemm failed";
            std::fprintf(stderr, "bench: cuSPARSE SpGEMM baseline failed on %s: %s\n", rep.name.c_str(), e.what());
          }
        }
#endif
        // Floor: A read twice (row pointers, columns, values) and C written once.
        const double a_bytes = 8.0 * (n + 1) + 8.0 * double(g.nnz);
        add("mxm_plus_times", m, 2 * a_bytes + 8.0 * (n + 1) + 8.0 * double(c.nnz), base_name, base_seconds);
        jg.set("mxm_entries", c.nnz);
      } else {
        jg.set("mxm", "skipped: more than 2^31 products");
      }
    }
    // The masked counting mxm on bits: C<L> = L·Lᵀ over PLUS_PAIR (L = the strict lower triangle in the tile layout
    // the space's masked kernel reads fastest), the per-entry product of triangle counting, written as a CSR of
    // counts; beside cuSPARSE SpGEMM L·U masked by L and summed (the TC baseline, which forms the whole product).
    // The counts must sum to the fused masked sum's. Undirected graphs below 2^28 stored entries, as TC.
    if (wanted({"mxm_bits_masked"}) && !bg.directed() && g.nnz < (offset_t(1) << 28)) {
      constexpr int preferred = bmm_preferred_tile<ExecSpace>::value;
      const auto l = to_b2sr(exec, select(exec, g, select_kind::tril, -1), {preferred != 0 ? preferred : tile});
      csr_matrix<std::uint32_t, mem> c;
      mxm_options xo;
      xo.transpose_b = true;  // L·Lᵀ: the dot kernel reads Lᵀ's transpose, L itself
      const auto m = measure(
          exec, heavy_runs,
          [&](int) {
            c = csr_matrix<std::uint32_t, mem>{};
            c.n_rows = c.n_cols = n;
            mxm(exec, c, mask_of(l), no_accumulator{}, plus_pair<std::uint32_t>{}, l, l, xo);
          },
          heavy_warmups);
      std::uint64_t sum = 0;
      Kokkos::parallel_reduce("bench::count_sum", Kokkos::RangePolicy<ExecSpace>(exec, 0, c.nnz),
                              bench::kernels::value_sum<std::uint32_t, mem>{c.values}, sum);
      const std::uint64_t fused = bmm_sum_masked(exec, l, l, l);
      double base_seconds = 0;
      std::string base_name = sum == fused ? "" : "count mismatch: failed";
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
      if constexpr (is_cuda_space_v<ExecSpace>) {
        if (sum == fused) {
          try {
            const auto bm = measure(
                exec, heavy_runs, [&](int) { bench::cusparse_triangles(exec, bg.csr); }, heavy_warmups);
            base_seconds = bm.median;
            base_name = "cusparse-spgemm-tc";
          } catch (const std::exception& e) {
            base_name = "cusparse-spgemm-tc skipped";
            std::fprintf(stderr, "bench: cuSPARSE TC baseline for the masked mxm on %s: %s\n", rep.name.c_str(),
                         e.what());
          }
        }
      }
#endif
      if (sum != fused)
        std::fprintf(stderr, "bench: the masked mxm's counts sum to %llu on %s, the fused sum is %llu\n",
                     static_cast<unsigned long long>(sum), rep.name.c_str(), static_cast<unsigned long long>(fused));
      // Floor: L's tiles read twice (as A and as the transposed B) and once as the mask, the counts written.
      const double l_bytes = double(l.tile_bits.extent(0)) + 4.0 * double(l.n_tiles) + 8.0 * double(l.n_tile_rows);
      add("mxm_bits_masked_plus_pair", m, 3 * l_bytes + 8.0 * double(c.nnz) + 8.0 * n, base_name, base_seconds);
      jg.set("mxm_bits_masked_entries", c.nnz).set("mxm_bits_masked_sum", sum);
    }
    // Triangle counting stops at 2^28 stored entries: beyond, one count takes tens of seconds and the
    // suite would not fit its 10-minute budget (the row says so). One row per method (the oriented one only
    // where no CUDA kernel path is forced: they have none; the bitmap one where n bits fit a team's scratch), beside
    // one baseline; the counts must agree.
    if (!wanted({"tc_masked_bmm", "tc_oriented", "tc_bitmap"})) {
      jg.set("triangles", "not asked for (--kernels)");
    } else if (!bg.directed() && g.nnz >= (offset_t(1) << 28)) {
      jg.set("triangles", "skipped: more than 2^28 stored entries");
    } else if (!bg.directed()) {
      double base_seconds = 0;
      std::string base_name;
      std::uint64_t base_count = 0;
      bool have_base = false;
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
      if constexpr (is_cuda_space_v<ExecSpace>) {
        try {
          const auto bm = measure(
              exec, heavy_runs, [&](int) { base_count = bench::cusparse_triangles(exec, bg.csr); }, heavy_warmups);
          base_seconds = bm.median;
          base_name = "cusparse-spgemm-tc";
          have_base = true;
        } catch (const unsupported_error& e) {
          base_name = "cusparse-spgemm-tc skipped (size)";
          std::fprintf(stderr, "%s\n", e.what());
        } catch (const std::exception& e) {
          base_name = "cusparse-spgemm-tc failed";
          std::fprintf(stderr, "bench: cuSPARSE TC baseline failed on %s: %s\n", rep.name.c_str(), e.what());
        }
      }
#endif
      const bool cuda_path = mo.algorithm == op_algorithm::cuda_warp || mo.algorithm == op_algorithm::cuda_mma;
      std::uint64_t tri = 0;
      bool counted = false;
      for (const auto method :
           {triangles_method::masked_bmm, triangles_method::oriented_intersection, triangles_method::oriented_bitmap}) {
        const bool oriented = method != triangles_method::masked_bmm;
        const char* kernel = !oriented                                     ? "tc_masked_bmm"
                             : method == triangles_method::oriented_bitmap ? "tc_bitmap"
                                                                           : "tc_oriented";
        if (!wanted({kernel}) || (oriented && cuda_path)) continue;
        if (method == triangles_method::oriented_bitmap && !detail::tc_bitmap_fits<ExecSpace>(bg.n())) continue;
        std::uint64_t t = 0;
        const auto m = measure(
            exec, heavy_runs,
            [&](int) {
              t = triangle_count(exec, bg, {mo.algorithm, method}).triangles;
            },
            heavy_warmups);
        std::string name = base_name;
        if ((counted && t != tri) || (have_base && t != base_count)) {
          std::fprintf(stderr, "bench: %s counted %llu triangles on %s, %s %llu\n", kernel,
                       static_cast<unsigned long long>(t), rep.name.c_str(), counted ? "the other method" : "cuSPARSE",
                       static_cast<unsigned long long>(counted ? tri : base_count));
          name = "count mismatch: failed";
        }
        add(kernel, m, index_bytes, name, base_seconds);
        tri = t;
        counted = true;
      }
      jg.set("triangles", tri);
    }
    // Wall time of the whole graph (generation, reordering, warm-ups and baselines included), so that
    // the suite's budget can be planned from the JSON.
    jg.set("bench_seconds", since(graph_start));
    std::fprintf(stderr, "  %s done in %.1f s (suite at %.1f s)\n", spec.c_str(), since(graph_start),
                 since(suite_start));
    jgraphs.push(jg);
    emit(false);
  };
  std::vector<std::string> failed;
  for (const auto& spec : graphs) {
    try {
      bench_graph(spec);
    } catch (const std::exception& e) {
      // One graph that does not fit (memory, a baseline's limits) must not lose the others' results.
      std::fprintf(stderr, "bench: %s failed: %s\n", spec.c_str(), e.what());
      failed.push_back(spec);
      jgraphs.push(json::object().set("graph", spec).set("error", std::string(e.what())));
      emit(false);
    }
  }
  emit(true);
  // The JSON keeps what was measured; the exit status says whether all of it was (CI's bench step can fail).
  std::size_t failed_rows = 0;
  for (const auto& r : rows)
    if (r.baseline.find("failed") != std::string::npos) ++failed_rows;
  std::string unused;
  for (std::size_t i = 0; i < opts.kernels.size(); ++i)
    if (!prefix_used[i]) unused += (unused.empty() ? "'" : ", '") + opts.kernels[i] + "'";
  if (!unused.empty() && failed.size() < graphs.size()) {
    std::fprintf(stderr, "bench: FAILED: --kernels %s named no kernel of the %s suite\n", unused.c_str(),
                 opts.suite.c_str());
    return 1;
  }
  if (!failed.empty() || failed_rows > 0) {
    std::string names;
    for (const auto& f : failed) names += (names.empty() ? "" : ", ") + f;
    std::fprintf(stderr, "bench: FAILED: %zu of %zu graphs failed%s%s, %zu rows with a failed baseline\n",
                 failed.size(), graphs.size(), names.empty() ? "" : ": ", names.c_str(), failed_rows);
    return 1;
  }
  return 0;
}

}  // namespace bitgraph::cli
