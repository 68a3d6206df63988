// `bitgraph`: command-line front end of BitGraph (info, run, bench) over any enabled execution space.
#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/version_info.hpp"
#include "bitgraph/generators/graph_spec.hpp"
#include "bitgraph/io/vertex_values.hpp"
#include "cli.hpp"
#include "suites.hpp"

namespace {

const char* usage = R"(bitgraph — bit-level graph analytics on Kokkos

usage:
  bitgraph info  --graph SPEC [--json FILE|-] [--space S]
  bitgraph run   --graph SPEC [--algo bfs|sssp|pr|cc|tc|msbfs|closeness|all[,...]] [--source N]
                 [--tile 4|8|16|32|64|auto] [--space serial|openmp|cuda] [--validate]
                 [--repeat K] [--json FILE|-] [--bfs do|push|pull|tc|auto] [--push queue|spmspv|b2sr]
                 [--algorithm auto|generic|cuda-warp|cuda-mma] [--no-parents] [--tc-method auto|oriented|bitmap|bmm]
                 [--reorder auto|none|cluster|rcm|jaccard|degree|random] [--update auto|eager|lazy]
                 [--bottom-up F] [--bottom-up-dense D] [--lazy-levels D|auto] [--trace-levels]
                 [--level-ids caller|graph]   (--bfs tc)
                 [--sources K] [--compact-levels]   (msbfs)   [--samples S] [--seed N]   (closeness)
                 [--output DIR|FILE|-]
  bitgraph convert --graph SPEC --to FILE.mtx|.el|.txt|.wel|.bgcsr [--json FILE|-] [--space S]
  bitgraph bench --suite smoke|paper|h100 [--json FILE|-] [--runs R] [--space S] [--tile T]
                 [--kernels PREFIX[,...]] [--graphs SPEC[,...]] [--bmv-balance auto|rows|tiles]
                 [--algorithm A]

graph specs: kron:SCALE, urand:SCALE, grid2d:K, grid3d:K, rgg:SCALE, mycielski:K, file:PATH
  files: .mtx (Matrix Market), .gr (DIMACS), .el/.wel (GAP edge lists), .bgcsr (convert's binary), any of the
        text formats gzip-compressed; a %%MatrixMarket banner is read as Matrix Market whatever the name
  options after the spec: :seed=N :degree=N :weighted :directed :undirected :loops
                          :order=degree|cluster|rcm|random (relabel the built graph)
  e.g. kron:20, grid2d:2048, mycielski:12, file:tests/data/karate.mtx

defaults: --graph kron:16, --algo bfs, --tile auto, --repeat 1, --bfs do, --push queue, --algorithm auto,
  --tc-method auto, --reorder auto, --update auto, --bottom-up 10, --bottom-up-dense 128, --lazy-levels auto,
  --level-ids caller, --sources 128, --samples 0 (exact), --seed 1, --suite smoke, --runs 10,
  --bmv-balance auto, --space cuda if enabled, else openmp

algorithms of run: bfs, sssp, pr, cc, tc; msbfs (multi-source BFS: --sources K distinct sources, the --source N
  first when given, in one bit-parallel traversal; --compact-levels keeps 8-bit levels); closeness (closeness
  centrality, exact or from --samples S random sources); all = bfs, sssp, pr, cc, tc

other options:
  --json FILE       write the JSON report to FILE; `-` writes it to stdout (the tables then go to stderr)
  --output DIR|FILE|-  run: each algorithm's per-vertex result (BFS level and parent, SSSP distance, PageRank
                    rank, CC component, TC triangles per vertex, msbfs level_from_S per source S, closeness),
                    format by extension: .mtx (dense array), .csv, .tsv, .bin; a directory
                    gets <algo>.csv per algorithm; - writes CSV to stdout (the tables then go to stderr)
  --cache-dir DIR   binary graph cache for file: specs (default $BITGRAPH_CACHE_DIR or ~/.cache/bitgraph)
  --no-cache        never read or write the cache
  --version         print the version
  --help            print this text
Kokkos options are passed to Kokkos: --kokkos-threads=N (1 to 1024), --kokkos-numa=N, --kokkos-device-id=N,
  --kokkos-disable-warnings, --kokkos-tune-internals, --kokkos-tools-library=LIB, --kokkos-tools-args=ARGS,
  --kokkos-tools-help.

exit status: 0 success; 1 error (a graph that cannot be read, a failed bench graph or row, a failed write);
  2 usage error (found before any work); 3 a result failed --validate.
)";

[[noreturn]] void bad_usage(const std::string& msg) {
  std::fprintf(stderr, "bitgraph: %s\n(see bitgraph --help)\n", msg.c_str());
  std::exit(2);
}

/// The comma-separated items of option `name`'s value; an empty item (`bfs,,tc`, a trailing comma) is a usage error.
std::vector<std::string> split_commas(const std::string& name, const std::string& s) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b <= s.size()) {
    const auto e = s.find(',', b);
    const auto part = s.substr(b, e == std::string::npos ? std::string::npos : e - b);
    if (part.empty() && !s.empty()) bad_usage(name + " has an empty item in '" + s + "'");
    if (!part.empty()) out.push_back(part);
    if (e == std::string::npos) break;
    b = e + 1;
  }
  return out;
}

/// The whole of `text` as a decimal integer in [lo, hi] (no sign, spaces, suffix or overflow), else a usage error
/// naming the option.
long long exact_integer(const std::string& name, const std::string& text, long long lo, long long hi) {
  long long x = 0;
  const char* b = text.data();
  const char* e = b + text.size();
  const auto [p, ec] = std::from_chars(b, e, x);
  if (text.empty() || text[0] == '-' || text[0] == '+' || ec != std::errc{} || p != e || x < lo || x > hi)
    bad_usage(name + " needs an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", not '" + text +
              "'");
  return x;
}

/// `value` must be one of `allowed` (listed in the message otherwise).
void one_of(const std::string& name, const std::string& value, std::initializer_list<const char*> allowed) {
  std::string list;
  std::size_t k = 0;
  for (const char* a : allowed) {
    if (value == a) return;
    list += (k == 0 ? "" : (k + 1 == allowed.size() ? " or " : ", ")) + std::string(a);
    ++k;
  }
  bad_usage(name + " must be " + list + ", not '" + value + "'");
}

/// Upper bound of --kokkos-threads and KOKKOS_NUM_THREADS: far beyond any host this runs on, far below what makes
/// the OpenMP runtime crash (100,000 threads).
constexpr long long max_threads = 1024;

/// Checks a `--kokkos-*` option before Kokkos sees it (Kokkos 3.4 aborts or crashes on bad values).
void check_kokkos_option(const std::string& a) {
  const auto eq = a.find('=');
  const std::string name = a.substr(0, eq);
  const std::string value = eq == std::string::npos ? std::string() : a.substr(eq + 1);
  auto needs_value = [&] {
    if (eq == std::string::npos) bad_usage(name + " needs a value: " + name + "=N");
  };
  if (name == "--kokkos-threads") {
    needs_value();
    exact_integer(name, value, 1, max_threads);
  } else if (name == "--kokkos-numa") {
    needs_value();
    exact_integer(name, value, 1, 1024);
  } else if (name == "--kokkos-device-id") {
    needs_value();
    exact_integer(name, value, 0, 1024);
  } else if (name == "--kokkos-tools-library" || name == "--kokkos-tools-args") {
    needs_value();
  } else if (name == "--kokkos-disable-warnings" || name == "--kokkos-tune-internals" ||
             name == "--kokkos-tools-help") {
    if (eq != std::string::npos) bad_usage(name + " takes no value");
  } else {
    bad_usage("unknown Kokkos option '" + a +
              "' (bitgraph passes --kokkos-threads, --kokkos-numa, --kokkos-device-id, --kokkos-disable-warnings, "
              "--kokkos-tune-internals, --kokkos-tools-library, --kokkos-tools-args, --kokkos-tools-help)");
  }
}

/// Which commands take an option.
struct option_scope {
  const char* name;
  bool info, run, bench, convert;
};
constexpr option_scope scopes[] = {
    {"--graph", true, true, false, true},          {"--algo", false, true, false, false},
    {"--source", false, true, false, false},       {"--tile", false, true, true, false},
    {"--validate", false, true, false, false},     {"--repeat", false, true, false, false},
    {"--bfs", false, true, false, false},          {"--push", false, true, false, false},
    {"--reorder", false, true, false, false},      {"--update", false, true, false, false},
    {"--bottom-up", false, true, false, false},    {"--bottom-up-dense", false, true, false, false},
    {"--algorithm", false, true, true, false},     {"--no-parents", false, true, false, false},
    {"--trace-levels", false, true, false, false}, {"--tc-method", false, true, false, false},
    {"--sources", false, true, false, false},      {"--compact-levels", false, true, false, false},
    {"--samples", false, true, false, false},      {"--seed", false, true, false, false},
    {"--suite", false, false, true, false},        {"--runs", false, false, true, false},
    {"--kernels", false, false, true, false},      {"--graphs", false, false, true, false},
    {"--bmv-balance", false, false, true, false},  {"--output", false, true, false, false},
    {"--to", false, false, false, true},           {"--lazy-levels", false, true, false, false},
    {"--level-ids", false, true, false, false},
};

/// `--output`: `-`, a file whose extension names a format, an existing file (CSV), or a directory (existing, ending
/// in '/', or a name without an extension); a new file with another extension, or `-` twice, is a usage error.
void check_output(const bitgraph::cli::options& o) {
  if (o.output == "-") {
    if (o.json_path == "-") bad_usage("--output - and --json - cannot both write to stdout");
  } else if (!bitgraph::io::vertex_values_format_of(o.output)) {
    std::error_code ec;
    const std::filesystem::path p(o.output);
    if (o.output.back() != '/' && !std::filesystem::exists(p, ec) && p.has_extension())
      bad_usage("--output '" + o.output +
                "': a file must end in .mtx, .csv, .tsv or .bin (a directory gets one file per algorithm)");
  }
}

bitgraph::cli::options parse(int argc, char** argv) {
  bitgraph::cli::options o;
  int i = 1;
  if (i < argc && argv[i][0] != '-') o.command = argv[i++];
  auto value = [&](const char* name) -> std::string {
    if (i + 1 >= argc) bad_usage(std::string("option ") + name + " needs a value");
    return argv[++i];
  };
  std::vector<std::string> given;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    given.push_back(a);
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      std::exit(std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1);
    } else if (a == "--version") {
      std::printf("bitgraph %s\n", std::string(bitgraph::library_version()).c_str());
      std::exit(std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1);
    } else if (a == "--graph")
      o.graph = value("--graph");
    else if (a == "--algo") {
      const auto list = split_commas("--algo", value("--algo"));
      if (list.empty()) bad_usage("--algo needs at least one of bfs, sssp, pr, cc, tc, msbfs, closeness, all");
      for (auto& x : list) {
        one_of("--algo", x, {"bfs", "sssp", "pr", "cc", "tc", "msbfs", "closeness", "all"});
        o.algos.push_back(x);
      }
    } else if (a == "--source")
      o.source = static_cast<std::uint64_t>(exact_integer("--source", value("--source"), 0, 4294967294LL));
    else if (a == "--tile") {
      o.tile = value("--tile");
      one_of("--tile", o.tile, {"4", "8", "16", "32", "64", "auto"});
    } else if (a == "--space") {
      o.space = value("--space");
      one_of("--space", o.space, {"serial", "openmp", "cuda"});
    } else if (a == "--validate")
      o.validate = true;
    else if (a == "--repeat")
      o.repeat = static_cast<int>(exact_integer("--repeat", value("--repeat"), 1, 10000));
    else if (a == "--json") {
      o.json_path = value("--json");
      if (o.json_path.empty()) bad_usage("--json needs a file name, or - for stdout");
    } else if (a == "--bfs") {
      o.bfs_mode = value("--bfs");
      one_of("--bfs", o.bfs_mode, {"do", "push", "pull", "tc", "auto"});
    } else if (a == "--push") {
      o.push_kernel = value("--push");
      one_of("--push", o.push_kernel, {"queue", "spmspv", "b2sr"});
    } else if (a == "--reorder") {
      o.reorder = value("--reorder");
      one_of("--reorder", o.reorder, {"auto", "none", "cluster", "rcm", "jaccard", "degree", "random"});
    } else if (a == "--update") {
      o.update = value("--update");
      one_of("--update", o.update, {"auto", "eager", "lazy"});
    } else if (a == "--level-ids") {
      const std::string ids = value("--level-ids");
      one_of("--level-ids", ids, {"caller", "graph"});
      o.graph_ids = ids == "graph";
    } else if (a == "--bottom-up")
      o.bottom_up = static_cast<int>(exact_integer("--bottom-up", value("--bottom-up"), 0, 1000000));
    else if (a == "--lazy-levels") {
      const std::string d = value("--lazy-levels");
      o.lazy_levels = d == "auto" ? -1 : static_cast<int>(exact_integer("--lazy-levels", d, 0, 1000000000));
    } else if (a == "--bottom-up-dense")
      o.bottom_up_dense =
          static_cast<int>(exact_integer("--bottom-up-dense", value("--bottom-up-dense"), 0, 1000000000));
    else if (a == "--algorithm") {
      o.algorithm = value("--algorithm");
      one_of("--algorithm", o.algorithm, {"auto", "generic", "cuda-warp", "cuda-mma"});
    } else if (a == "--no-parents")
      o.parents = false;
    else if (a == "--trace-levels")
      o.trace_levels = true;
    else if (a == "--sources")
      o.sources = static_cast<int>(exact_integer("--sources", value("--sources"), 1, 128));
    else if (a == "--compact-levels")
      o.compact_levels = true;
    else if (a == "--samples")
      o.samples = static_cast<std::uint32_t>(exact_integer("--samples", value("--samples"), 0, 4294967295LL));
    else if (a == "--seed")
      o.seed = static_cast<std::uint64_t>(
          exact_integer("--seed", value("--seed"), 0, 9007199254740992LL));  // 2^53: exact in the JSON
    else if (a == "--tc-method") {
      o.tc_method = value("--tc-method");
      one_of("--tc-method", o.tc_method, {"auto", "oriented", "bitmap", "bmm"});
    } else if (a == "--cache-dir")
      o.cache_dir = value("--cache-dir");
    else if (a == "--no-cache")
      o.no_cache = true;
    else if (a == "--suite") {
      o.suite = value("--suite");
      one_of("--suite", o.suite, {"smoke", "paper", "h100"});
    } else if (a == "--runs")
      o.runs = static_cast<int>(exact_integer("--runs", value("--runs"), 1, 10000));
    else if (a == "--to")
      o.to = value("--to");
    else if (a == "--output") {
      o.output = value("--output");
      if (o.output.empty()) bad_usage("--output needs a directory, a file (.mtx, .csv, .tsv, .bin) or - for stdout");
    } else if (a == "--out")
      bad_usage("--out is not supported: bench writes one JSON report, named by --json FILE");
    else if (a == "--kernels") {
      for (auto& k : split_commas("--kernels", value("--kernels"))) o.kernels.push_back(k);
    } else if (a == "--graphs") {
      for (auto& g : split_commas("--graphs", value("--graphs"))) o.graphs.push_back(g);
    } else if (a == "--bmv-balance") {
      o.bmv_balance = value("--bmv-balance");
      one_of("--bmv-balance", o.bmv_balance, {"auto", "rows", "tiles"});
    } else if (a.rfind("--kokkos", 0) == 0)
      check_kokkos_option(a);  // passed to Kokkos
    else
      bad_usage("unknown option '" + a + "'");
  }
  if (o.command.empty()) bad_usage("missing command (info, run, bench or convert)");
  if (o.command != "info" && o.command != "run" && o.command != "bench" && o.command != "convert")
    bad_usage("unknown command '" + o.command + "'");
  for (const auto& a : given)
    for (const auto& s : scopes)
      if (a == s.name && !(o.command == "info"    ? s.info
                           : o.command == "run"   ? s.run
                           : o.command == "bench" ? s.bench
                                                  : s.convert))
        bad_usage(a + " is not an option of 'bitgraph " + o.command + "'");
  if (!o.output.empty()) check_output(o);
  if (o.command == "convert") {
    if (o.to.empty()) bad_usage("convert needs --to FILE (.mtx, .el, .txt, .wel or .bgcsr)");
    if (!bitgraph::cli::convert_format_of(o.to))
      bad_usage("--to '" + o.to + "': the file must end in .mtx, .el, .txt, .wel or .bgcsr");
  }
  if (o.command == "info" || o.command == "run" || o.command == "convert") {
    try {
      (void)bitgraph::gen::parse_graph_spec(o.graph);
    } catch (const bitgraph::error& e) {
      bad_usage(std::string("--graph: ") + e.what());
    }
  } else {  // an unknown suite or a graph not in it is a usage error
    try {
      (void)bitgraph::cli::chosen_graphs(o);
    } catch (const bitgraph::error& e) {
      bad_usage(e.what());
    }
  }
  if (const char* env = std::getenv("KOKKOS_NUM_THREADS")) exact_integer("KOKKOS_NUM_THREADS", env, 1, max_threads);
  if (o.space.empty()) {
#if defined(KOKKOS_ENABLE_CUDA)
    o.space = "cuda";
#elif defined(KOKKOS_ENABLE_OPENMP)
    o.space = "openmp";
#else
    o.space = "serial";
#endif
  }
  bool enabled = o.space == "serial";
#if defined(KOKKOS_ENABLE_OPENMP)
  enabled = enabled || o.space == "openmp";
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  enabled = enabled || o.space == "cuda";
#endif
  if (!enabled) bad_usage("execution space '" + o.space + "' is not enabled in this build");
  return o;
}

template <class ExecSpace>
int dispatch(const bitgraph::cli::options& o) {
  ExecSpace exec;
  if (o.command == "info") return bitgraph::cli::run_info(exec, o);
  if (o.command == "convert") return bitgraph::cli::run_convert(exec, o);
  if (o.command == "run") return bitgraph::cli::run_algorithms(exec, o);
  return bitgraph::cli::run_bench(exec, o);
}

int run(const bitgraph::cli::options& opts) {
  if (opts.space == "serial") return dispatch<Kokkos::Serial>(opts);
#if defined(KOKKOS_ENABLE_OPENMP)
  if (opts.space == "openmp") return dispatch<Kokkos::OpenMP>(opts);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  if (opts.space == "cuda") return dispatch<Kokkos::Cuda>(opts);
#endif
  throw bitgraph::unsupported_error("bitgraph: execution space '" + opts.space + "' is not enabled in this build");
}

}  // namespace

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);  // keeps Kokkos quiet; pinning is the user's choice
  auto opts = parse(argc, argv);
  if (opts.json_path == "-" || opts.output == "-") {
    // The JSON or the results go to the original stdout; everything else that would go there (tables) goes to
    // stderr.
    std::fflush(stdout);
    const int fd = dup(STDOUT_FILENO);
    if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
      std::fprintf(stderr, "bitgraph: cannot set up %s -: %s\n", opts.json_path == "-" ? "--json" : "--output",
                   std::strerror(errno));
      return 1;
    }
    (opts.json_path == "-" ? opts.json_fd : opts.output_fd) = fd;
  }
  int status = 1;
  bool started = false;
  try {
    Kokkos::ScopeGuard kokkos(argc, argv);
    started = true;
    status = run(opts);
  } catch (const bitgraph::error& e) {
    std::fprintf(stderr, "bitgraph: error: %s\n", e.what());
    status = 1;
  } catch (const std::exception& e) {
    if (started)
      std::fprintf(stderr, "bitgraph: unexpected error: %s\n", e.what());
    else
      std::fprintf(stderr, "bitgraph: cannot start Kokkos: %s\n", e.what());
    status = 1;
  }
  // Every write is checked: a table that did not reach stdout (a full disk, a closed pipe) is an error.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "bitgraph: error: cannot write the output to stdout: %s\n", std::strerror(errno));
    if (status == 0) status = 1;
  }
  return status;
}
