// `bitgraph`: command-line front end of BitGraph (info, run, bench) over any enabled execution space.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/version_info.hpp"
#include "cli.hpp"
#include "suites.hpp"

namespace {

const char* usage = R"(bitgraph — bit-level graph analytics on Kokkos

usage:
  bitgraph info  --graph SPEC [--json FILE] [--space S]
  bitgraph run   --graph SPEC [--algo bfs|sssp|pr|cc|tc|all[,...]] [--source N]
                 [--tile 4|8|16|32|64|auto] [--space serial|openmp|cuda] [--validate]
                 [--repeat K] [--json FILE] [--bfs do|push|pull|tc] [--push queue|spmspv|b2sr]
                 [--algorithm auto|generic|cuda-warp|cuda-mma] [--no-parents] [--tc-method auto|oriented|bmm]
                 [--reorder auto|none|rcm|jaccard|degree|random] [--update auto|eager|lazy]   (--bfs tc)
  bitgraph bench --suite smoke|paper|h100 [--json FILE] [--runs R] [--out DIR] [--space S]
                 [--kernels PREFIX[,...]] [--graphs SPEC[,...]] [--bmv-balance auto|rows|tiles]

graph specs: kron:SCALE, urand:SCALE, grid2d:K, grid3d:K, rgg:SCALE, mycielski:K, file:PATH
  options after the spec: :seed=N :degree=N :weighted :directed :undirected :loops
                          :order=degree|cluster|rcm|random (relabel the built graph)
  e.g. kron:20, grid2d:2048, mycielski:12, file:tests/data/karate.mtx

other options:
  --cache-dir DIR   binary graph cache for file: specs (default $BITGRAPH_CACHE_DIR or ~/.cache/bitgraph)
  --no-cache        never read or write the cache
  --version         print the version
Kokkos options (e.g. --kokkos-threads=N) are passed to Kokkos.
)";

[[noreturn]] void bad_usage(const std::string& msg) {
  std::fprintf(stderr, "bitgraph: %s\n(see bitgraph --help)\n", msg.c_str());
  std::exit(2);
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b <= s.size()) {
    const auto e = s.find(',', b);
    const auto part = s.substr(b, e == std::string::npos ? std::string::npos : e - b);
    if (!part.empty()) out.push_back(part);
    if (e == std::string::npos) break;
    b = e + 1;
  }
  return out;
}

bitgraph::cli::options parse(int argc, char** argv) {
  bitgraph::cli::options o;
  int i = 1;
  if (i < argc && argv[i][0] != '-') o.command = argv[i++];
  auto value = [&](const char* name) -> std::string {
    if (i + 1 >= argc) bad_usage(std::string("option ") + name + " needs a value");
    return argv[++i];
  };
  auto number = [&](const char* name, const std::string& v) -> long long {
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || errno != 0 || x < 0)
      bad_usage(std::string(name) + " needs a non-negative integer, not '" + v + "'");
    return x;
  };
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      std::exit(0);
    } else if (a == "--version") {
      std::printf("bitgraph %s\n", std::string(bitgraph::library_version()).c_str());
      std::exit(0);
    } else if (a == "--graph")
      o.graph = value("--graph");
    else if (a == "--algo") {
      for (auto& x : split_commas(value("--algo"))) o.algos.push_back(x);
    } else if (a == "--source")
      o.source = number("--source", value("--source"));
    else if (a == "--tile")
      o.tile = value("--tile");
    else if (a == "--space")
      o.space = value("--space");
    else if (a == "--validate")
      o.validate = true;
    else if (a == "--repeat")
      o.repeat = static_cast<int>(number("--repeat", value("--repeat")));
    else if (a == "--json")
      o.json_path = value("--json");
    else if (a == "--bfs")
      o.bfs_mode = value("--bfs");
    else if (a == "--push") {
      o.push_kernel = value("--push");
      if (o.push_kernel != "queue" && o.push_kernel != "spmspv" && o.push_kernel != "b2sr")
        bad_usage("--push must be queue, spmspv or b2sr, not '" + o.push_kernel + "'");
    } else if (a == "--reorder")
      o.reorder = value("--reorder");
    else if (a == "--update")
      o.update = value("--update");
    else if (a == "--algorithm")
      o.algorithm = value("--algorithm");
    else if (a == "--no-parents")
      o.parents = false;
    else if (a == "--tc-method") {
      o.tc_method = value("--tc-method");
      if (o.tc_method != "auto" && o.tc_method != "oriented" && o.tc_method != "bmm")
        bad_usage("--tc-method must be auto, oriented or bmm, not '" + o.tc_method + "'");
    } else if (a == "--cache-dir")
      o.cache_dir = value("--cache-dir");
    else if (a == "--no-cache")
      o.no_cache = true;
    else if (a == "--suite")
      o.suite = value("--suite");
    else if (a == "--runs")
      o.runs = static_cast<int>(number("--runs", value("--runs")));
    else if (a == "--out")
      o.out_dir = value("--out");
    else if (a == "--kernels") {
      for (auto& k : split_commas(value("--kernels"))) o.kernels.push_back(k);
    } else if (a == "--graphs") {
      for (auto& g : split_commas(value("--graphs"))) o.graphs.push_back(g);
    } else if (a == "--bmv-balance") {
      o.bmv_balance = value("--bmv-balance");
      if (o.bmv_balance != "auto" && o.bmv_balance != "rows" && o.bmv_balance != "tiles")
        bad_usage("--bmv-balance must be auto, rows or tiles, not '" + o.bmv_balance + "'");
    } else if (a.rfind("--kokkos", 0) == 0)
      continue;  // consumed by Kokkos
    else
      bad_usage("unknown option '" + a + "'");
  }
  if (o.command.empty()) bad_usage("missing command (info, run or bench)");
  if (o.command != "info" && o.command != "run" && o.command != "bench")
    bad_usage("unknown command '" + o.command + "'");
  return o;
}

template <class ExecSpace>
int dispatch(const bitgraph::cli::options& o) {
  ExecSpace exec;
  if (o.command == "info") return bitgraph::cli::run_info(exec, o);
  if (o.command == "run") return bitgraph::cli::run_algorithms(exec, o);
  return bitgraph::cli::run_bench(exec, o);
}

}  // namespace

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);  // keeps Kokkos quiet; pinning is the user's choice
  const auto opts = parse(argc, argv);
  if (opts.command == "bench") {  // an unknown suite or a graph not in it is a usage error, found before Kokkos starts
    try {
      (void)bitgraph::cli::chosen_graphs(opts);
    } catch (const bitgraph::error& e) {
      bad_usage(e.what());
    }
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  std::string space = opts.space;
  if (space.empty()) {
#if defined(KOKKOS_ENABLE_CUDA)
    space = "cuda";
#elif defined(KOKKOS_ENABLE_OPENMP)
    space = "openmp";
#else
    space = "serial";
#endif
  }
  try {
    if (space == "serial") return dispatch<Kokkos::Serial>(opts);
#if defined(KOKKOS_ENABLE_OPENMP)
    if (space == "openmp") return dispatch<Kokkos::OpenMP>(opts);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    if (space == "cuda") return dispatch<Kokkos::Cuda>(opts);
#endif
    std::fprintf(stderr, "bitgraph: execution space '%s' is not enabled in this build\n", space.c_str());
    return 2;
  } catch (const bitgraph::error& e) {
    std::fprintf(stderr, "bitgraph: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bitgraph: unexpected error: %s\n", e.what());
    return 1;
  }
}
