// bitgraph_oracle: differential tests of BitGraph against SuiteSparse:GraphBLAS + LAGraph.
//
// usage: bitgraph_oracle [--graphs N] [--seed S] [--max-vertices N] [--data-dir DIR | --no-files]
//                        [--graph SPEC]... [--file PATH]... [--op-seed S] [--self-test]
//                        [--max-reports K] [--mxm-work-limit W] [--verbose] [Kokkos options]
//        bitgraph_oracle --race SPEC [--race-runs R] [--json PATH]
//
// Runs N random graphs (a fixed list of edge cases first) and every Matrix Market file of LAGraph's
// data directory through both libraries and compares BFS (also the tensor-core Blest BFS), SSSP,
// PageRank, connected components, triangle counts, the CSR / B2SR structure, mxv / vxm / SpMSpV on
// every semiring and on a user-defined one, the B2SR matrix products, and the element-wise ops (ewise
// add / mult, assign, apply, reduce, select, fold / unfold). Prints every failure with a command line
// that replays its graph, then a summary;
// exits 1 on any failure. --race times BitGraph's BFS and PageRank against LAGraph's on one graph, runs
// interleaved, and exits 1 when either is more than 1.5x slower (issue 14's host target). --self-test corrupts
// BitGraph's side of every comparison and exits 1 unless all those faults are reported (proof that no comparison is
// vacuous). ORACLE_GB_THREADS=<k> in the environment sets GraphBLAS's thread count (default: its own choice).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "cases.hpp"
#include "oracle.hpp"

#include "oracle_config.hpp"  // BITGRAPH_ORACLE_DATA_DIR

namespace bitgraph::oracle {
namespace {

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "bitgraph_oracle: " << why
            << "\nusage: bitgraph_oracle [--graphs N] [--seed S] [--max-vertices N] [--data-dir DIR | --no-files]\n"
               "                       [--graph SPEC]... [--file PATH]... [--op-seed S] [--self-test]\n"
               "                       [--max-reports K] [--mxm-work-limit W] [--verbose]\n"
               "       bitgraph_oracle --race SPEC [--race-runs R] [--json PATH]   (BFS, PageRank: time vs LAGraph)\n";
  std::exit(2);
}

std::uint64_t number(const std::string& flag, const char* text) {
  if (text == nullptr) usage(flag + " needs a value");
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 0);
  if (end == text || *end != '\0') usage(flag + ": '" + text + "' is not a number");
  return v;
}

options parse(int argc, char* argv[]) {
  options o;
  o.data_dir = BITGRAPH_ORACLE_DATA_DIR;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--graphs")
      o.graphs = number(a, next), ++i;
    else if (a == "--seed")
      o.seed = number(a, next), ++i;
    else if (a == "--max-vertices")
      o.max_vertices = number(a, next), ++i;
    else if (a == "--data-dir") {
      if (next == nullptr) usage("--data-dir needs a value");
      o.data_dir = next, ++i;
    } else if (a == "--no-files")
      o.files = false;
    else if (a == "--graph") {
      if (next == nullptr) usage("--graph needs a spec");
      o.specs.push_back(next), ++i;
    } else if (a == "--file") {
      if (next == nullptr) usage("--file needs a path");
      o.file_list.push_back(next), ++i;
    } else if (a == "--op-seed")
      o.op_seed = number(a, next), o.op_seed_given = true, ++i;
    else if (a == "--self-test")
      o.self_test = true;
    else if (a == "--max-reports")
      o.max_reports = int(number(a, next)), ++i;
    else if (a == "--mxm-work-limit")
      o.mxm_work_limit = number(a, next), ++i;
    else if (a == "--verbose")
      o.verbose = true;
    else if (a == "--race") {
      if (next == nullptr) usage("--race needs a graph spec");
      o.race = next, ++i;
    } else if (a == "--race-runs")
      o.race_runs = int(number(a, next)), ++i;
    else if (a == "--json") {
      if (next == nullptr) usage("--json needs a path");
      o.json = next, ++i;
    } else if (a == "-h" || a == "--help")
      usage("differential tests against SuiteSparse:GraphBLAS + LAGraph");
    else
      usage("unknown argument '" + a + "'");
  }
  return o;
}

/// Every check on one prepared graph; an exception escaping a check is an error of that check.
void run_checks(context& ctx, const graph_under_test& g) {
  struct step {
    const char* kind;
    void (*run)(context&, const graph_under_test&);
  };
  static constexpr step steps[] = {
      {"csr.pattern", check_structure},
      {"bfs.levels", check_bfs},
      {"sssp.unit", check_sssp},
      {"pagerank.redistribute", check_pagerank},
      {"cc.partition", check_components},
      {"tc", check_triangles},
      {"mxv", check_mxv},
      {"mxm.lor_land", check_mxm},
      {"bfs.tensor_core", check_bfs_tensor_core},
      {"mxv.MAX_MIN_FP64_USER", check_mxv_user},
      {"ewise.dense", check_ewise},
      {"ewise.matrix_add", check_ewise_matrix},
      {"apply.matrix", check_matrix_apply},
      {"assign.matrix", check_matrix_assign},
      {"assign.dense", check_assign_apply},
      {"reduce.vector", check_reduce_select},
      {"fold.b2sr", check_fold},
  };
  for (const auto& s : steps) {
    try {
      s.run(ctx, g);
    } catch (const std::exception& e) {
      ctx.t.error(s.kind, "setup", e.what());
    }
  }
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

void run_spec(context& ctx, const std::string& spec, std::uint64_t op_seed) {
  graph_case c;
  try {
    c = make_case(spec);
  } catch (const std::exception& e) {
    ctx.t.begin_graph(spec, cat("--graph ", quoted(spec), " --op-seed ", op_seed));
    ctx.t.error("generate", spec, e.what());
    return;
  }
  ctx.t.begin_graph(c.spec, cat("--graph ", quoted(c.spec), " --op-seed ", op_seed));
  graph_under_test g;
  try {
    g = prepare(ctx, c, op_seed);
  } catch (const std::exception& e) {
    ctx.t.error("csr.pattern", "build", e.what());
    return;
  }
  if (ctx.opt.verbose)
    std::cout << "graph " << c.spec << " (n=" << g.n << ", nnz=" << g.rows.idx.size() << ", op seed " << op_seed << ")"
              << std::endl;
  run_checks(ctx, g);
}

void run_file(context& ctx, const std::string& path, std::uint64_t op_seed) {
  const std::string name = std::filesystem::path(path).filename().string();
  ctx.t.begin_graph(name, cat("--file ", quoted(path), " --op-seed ", op_seed));
  file_outcome f;
  try {
    f = prepare_file(ctx, path, op_seed);
  } catch (const std::exception& e) {
    ctx.t.error("reader", name, e.what());
    return;
  }
  // Readers: a file LAGraph rejects is skipped (and recorded); BitGraph must reject it too, and must
  // accept what LAGraph accepts, except for the deliberate differences docs/io.md lists.
  diffs d;
  if (!f.lagraph_ok) {
    ctx.t.note(cat(name, ": rejected by LAGraph (", f.lagraph_message, "); BitGraph ",
                   f.bitgraph_ok ? "accepts it" : "rejects it too"));
    if (f.bitgraph_ok) d.add("LAGraph rejects it (", f.lagraph_message, ") but BitGraph accepts it");
    ctx.t.record("reader.verdict", name, d);
    return;
  }
  if (!f.bitgraph_ok) d.add("LAGraph accepts it but BitGraph rejects it: ", f.bitgraph_message);
  ctx.t.record("reader.verdict", name, d);
  if (!f.bitgraph_ok) return;
  if (ctx.opt.verbose)
    std::cout << "file " << name << " (n=" << f.graph.n << ", nnz=" << f.graph.rows.idx.size() << ")" << std::endl;
  run_checks(ctx, f.graph);
}

int run(int argc, char* argv[]) {
  const options opt = parse(argc, argv);
  char msg[LAGRAPH_MSG_LEN] = "";
  gb::check_lagraph(LAGraph_Init(msg), "LAGraph_Init", msg);
  if (const char* t = std::getenv("ORACLE_GB_THREADS")) {
    gb::check(GxB_Global_Option_set_INT32(GxB_GLOBAL_NTHREADS, std::atoi(t)), "GxB_Global_Option_set(NTHREADS)");
  }
  tally t(opt.self_test, opt.max_reports);
  context ctx{opt, t, exec_space{}};
  if (!opt.race.empty()) {
    const int rc = run_race(ctx, opt.race, opt.race_runs, 1.5, opt.json);
    gb::check_lagraph(LAGraph_Finalize(msg), "LAGraph_Finalize", msg);
    return rc;
  }
  std::cout << "BitGraph runs on " << exec_space::name() << "; GraphBLAS and LAGraph on the host" << std::endl;
  const auto start = std::chrono::steady_clock::now();
  const bool selected = !opt.specs.empty() || !opt.file_list.empty();
  if (selected) {
    for (const auto& s : opt.specs) run_spec(ctx, s, opt.op_seed_given ? opt.op_seed : mix(opt.seed, fnv1a(s)));
    for (const auto& f : opt.file_list) run_file(ctx, f, opt.op_seed_given ? opt.op_seed : mix(opt.seed, fnv1a(f)));
  } else {
    for (std::uint64_t i = 0; i < opt.graphs; ++i) {
      run_spec(ctx, random_spec(opt.seed, i, opt.max_vertices), mix(opt.seed, i));
    }
    if (opt.files && !opt.data_dir.empty()) {
      std::vector<std::string> files;
      for (const auto& e : std::filesystem::directory_iterator(opt.data_dir))
        if (e.is_regular_file() && e.path().extension() == ".mtx") files.push_back(e.path().string());
      std::sort(files.begin(), files.end());
      if (files.empty()) throw std::runtime_error("no .mtx files in " + opt.data_dir);
      for (const auto& f : files) run_file(ctx, f, mix(opt.seed, fnv1a(std::filesystem::path(f).filename().string())));
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.print_summary(std::cout, seconds);
  gb::check_lagraph(LAGraph_Finalize(msg), "LAGraph_Finalize", msg);
  return t.ok() ? 0 : 1;
}

}  // namespace
}  // namespace bitgraph::oracle

int main(int argc, char* argv[]) {
  // Unpinned OpenMP threads: GraphBLAS and Kokkos share them.
  setenv("OMP_PROC_BIND", "false", 0);
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    return bitgraph::oracle::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "bitgraph_oracle: " << e.what() << std::endl;
    return 2;
  }
}
