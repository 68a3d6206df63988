// `bitgraph info` and `bitgraph run`: load or generate a graph, convert it, run algorithms, validate,
// print a table and optionally a JSON report. Templated on the execution space (space_*.cpp).
#pragma once

#include <unistd.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/bfs_plan.hpp"
#include "bitgraph/algorithms/blest.hpp"
#include "bitgraph/algorithms/components.hpp"
#include "bitgraph/algorithms/multi_bfs.hpp"
#include "bitgraph/algorithms/pagerank.hpp"
#include "bitgraph/algorithms/reference.hpp"
#include "bitgraph/algorithms/sssp.hpp"
#include "bitgraph/algorithms/triangles.hpp"
#include "bitgraph/algorithms/validate.hpp"
#include "bitgraph/core/version_info.hpp"
#include "bitgraph/formats/b2sr_profile.hpp"
#include "bitgraph/io/load_graph.hpp"
#include "bitgraph/io/vertex_values.hpp"
#include "bitgraph/reorder/reorder.hpp"
#include "cli.hpp"
#include "common/json.hpp"

namespace bitgraph::cli {

/// An empty kernel: run before a timed call so that the clock starts on a device that is awake.
struct wake_kernel {
  KOKKOS_INLINE_FUNCTION void operator()(int) const {}
};

/// Wall-clock seconds of `f()`, with the execution space fenced on both sides. An empty kernel runs first, untimed:
/// after the milliseconds of host work between runs (summaries, validation) the next launch waits for the device to
/// wake up, plain or cooperative, which Blest's timer, started right after its per-call memsets, never pays
/// (docs/PERFORMANCE.md).
template <class ExecSpace, class F>
double timed(const ExecSpace& exec, F&& f) {
  Kokkos::parallel_for("bitgraph::cli::wake", Kokkos::RangePolicy<ExecSpace>(exec, 0, 1), wake_kernel{});
  exec.fence();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  exec.fence();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// A hybrid matrix's split (rule, tile size, bands, bytes of each part against pattern CSR, and under the time
/// rule the model's predicted product time), printed as one line and returned for the JSON report; `nnz` is the
/// CSR's, `seconds` the conversion's.
template <class Mem>
json hybrid_report(const hybrid_matrix<Mem>& hy, offset_t nnz, double seconds) {
  const std::uint64_t n_bands = hy.band_count();
  const std::uint64_t pattern_bytes = 4 * (std::uint64_t(hy.n) + 1) + 4 * std::uint64_t(nnz);
  const bool by_time = hy.rule == hybrid_split_rule::time;
  std::printf(
      "hybrid by %s: B2SR-%d, %u of %llu bands as CSR; %.2f MiB bits + %.2f MiB CSR = %.3f x pattern CSR, %.2f ms",
      by_time ? "time" : "bytes", hy.bits.tile_dim, hy.csr_band_count(), static_cast<unsigned long long>(n_bands),
      hy.bits_bytes / 1048576.0, hy.csr_bytes / 1048576.0,
      pattern_bytes ? double(hy.bits_bytes + hy.csr_bytes) / double(pattern_bytes) : 0.0, seconds * 1e3);
  if (by_time) std::printf("; predicted product %.4f ms", hy.predicted_cost * 1e-9);
  std::printf("\n");
  auto j = json::object();
  j.set("rule", by_time ? "time" : "bytes");
  if (by_time) j.set("predicted_product_seconds", hy.predicted_cost * 1e-12);
  return j.set("tile_dim", hy.bits.tile_dim)
      .set("bands", n_bands)
      .set("csr_bands", hy.csr_band_count())
      .set("bits_bytes", hy.bits_bytes)
      .set("csr_bytes", hy.csr_bytes)
      .set("csr_pattern_bytes", pattern_bytes)
      .set("conversion_seconds", seconds);
}

/// Prints "  <what> ... N s" to stderr while a phase runs longer than a second, so that long
/// conversions show progress; silent for short phases. On a terminal the line is redrawn every second (`\r`);
/// elsewhere (a log file, a pipe) plain lines are written, after 1 s and then every 10 s, and no `\r`.
class progress_line {
 public:
  explicit progress_line(std::string what) : what_(std::move(what)), worker_([this] { watch(); }) {}
  ~progress_line() {
    {
      std::lock_guard<std::mutex> lock(m_);
      done_ = true;
    }
    cv_.notify_all();
    worker_.join();
    if (printed_)
      std::fprintf(stderr, terminal_ ? "\r  %s: done in %.1f s            \n" : "  %s: done in %.1f s\n", what_.c_str(),
                   elapsed());
  }

 private:
  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  void watch() {
    std::unique_lock<std::mutex> lock(m_);
    for (int tick = 1; !cv_.wait_for(lock, tick_, [this] { return done_; }); ++tick) {
      if (terminal_)
        std::fprintf(stderr, "\r  %s ... %.0f s", what_.c_str(), elapsed());
      else if (tick == 1 || tick % 10 == 0)
        std::fprintf(stderr, "  %s ... %.0f s\n", what_.c_str(), elapsed());
      std::fflush(stderr);
      printed_ = true;
    }
  }
  std::string what_;
  const bool terminal_ = isatty(STDERR_FILENO) == 1;
  /// One second, or `BITGRAPH_PROGRESS_MS` milliseconds (1..60000; tests use it to see progress lines at once).
  const std::chrono::milliseconds tick_ = [] {
    const char* env = std::getenv("BITGRAPH_PROGRESS_MS");
    const long ms = env ? std::strtol(env, nullptr, 10) : 1000;
    return std::chrono::milliseconds(ms >= 1 && ms <= 60000 ? ms : 1000);
  }();
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::atomic<bool> printed_{false};
  std::thread worker_;
};

inline op_algorithm parse_algorithm(const std::string& s) {
  if (s == "auto") return op_algorithm::automatic;
  if (s == "generic") return op_algorithm::generic;
  if (s == "cuda-warp") return op_algorithm::cuda_warp;
  if (s == "cuda-mma") return op_algorithm::cuda_mma;
  throw invalid_argument_error("bitgraph: --algorithm must be auto, generic, cuda-warp or cuda-mma, not '" + s + "'");
}

inline triangles_method parse_tc_method(const std::string& s) {
  if (s == "auto") return triangles_method::automatic;
  if (s == "oriented") return triangles_method::oriented_intersection;
  if (s == "bmm") return triangles_method::masked_bmm;
  if (s == "bitmap") return triangles_method::oriented_bitmap;
  throw invalid_argument_error("bitgraph: --tc-method must be auto, oriented, bitmap or bmm, not '" + s + "'");
}

inline std::filesystem::path cache_directory(const options& opts) {
  if (opts.no_cache) return {};
  if (!opts.cache_dir.empty()) return opts.cache_dir;
  if (const char* env = std::getenv("BITGRAPH_CACHE_DIR"); env && *env) return env;
  if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".cache" / "bitgraph";
  return {};
}

template <class Graph>
std::uint64_t csr_bytes(const Graph& g) {
  return g.row_ptr.extent(0) * sizeof(offset_t) + g.col_idx.extent(0) * sizeof(vertex_t) +
         g.weights.extent(0) * sizeof(double);
}
template <class Matrix>
std::uint64_t b2sr_bytes(const Matrix& b) {
  return b.tile_row_ptr.extent(0) * sizeof(offset_t) + b.tile_col_idx.extent(0) * sizeof(vertex_t) +
         b.tile_bits.extent(0);
}

/// Why the cache directory `dir` cannot hold cache files (created if missing, then a probe file written and
/// removed), or "" when it can.
inline std::string cache_directory_problem(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return ec.message();
  if (!std::filesystem::is_directory(dir, ec)) return "not a directory";
  const auto probe = dir / (".bitgraph-probe-" + std::to_string(::getpid()));
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  if (!f) return std::strerror(errno);
  const bool ok = std::fputc('x', f) != EOF && std::fflush(f) == 0;
  const int err = errno;
  std::fclose(f);
  std::filesystem::remove(probe, ec);
  return ok ? std::string() : std::strerror(err);
}

/// Loads the graph of `--graph`, printing the load line. An unusable cache directory is a warning: the graph is
/// then read without the cache.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> load(const ExecSpace& exec, const options& opts, io::load_report& rep) {
  io::load_options lo;
  lo.cache_dir = cache_directory(opts);
  if (!lo.cache_dir.empty() && opts.graph.rfind("file:", 0) == 0) {
    if (const auto problem = cache_directory_problem(lo.cache_dir); !problem.empty()) {
      std::fprintf(stderr, "bitgraph: warning: cache directory '%s' is not usable (%s); reading without the cache\n",
                   lo.cache_dir.c_str(), problem.c_str());
      lo.cache_dir.clear();
    }
  }
  auto g = [&] {
    progress_line p("loading " + opts.graph);
    return io::load_graph(exec, opts.graph, lo, &rep);
  }();
  return g;
}

/// What loading did to the input, printed under the graph line and returned for the JSON report: the entries read
/// (generated, or stored in the file: one triangle of a symmetric Matrix Market file), the symmetrisation of an
/// undirected graph, self-loops (dropped unless the spec says `:loops`), duplicates (always merged) and a
/// relabelling by `:order=`.
inline json preprocessing_report(const options& opts, const io::load_report& rep, bool undirected, offset_t stored) {
  const auto spec = gen::parse_graph_spec(opts.graph);
  const bool ordered = spec.order != gen::vertex_ordering::none;
  std::string what = undirected ? "symmetrised (each edge stored both ways)" : "kept directed";
  what += spec.keep_self_loops ? ", self-loops kept" : ", self-loops dropped (:loops keeps them)";
  what += ", duplicates merged";
  if (ordered) what += ", relabelled by order=" + std::string(gen::ordering_name(spec.order));
  if (rep.from_cache)
    std::printf("preprocessing (binary cache, as first built): %llu stored entries: %s\n",
                static_cast<unsigned long long>(stored), what.c_str());
  else
    std::printf("preprocessing: %llu input entries -> %llu stored: %s\n",
                static_cast<unsigned long long>(rep.input_entries), static_cast<unsigned long long>(stored),
                what.c_str());
  auto j = json::object();
  if (!rep.from_cache) j.set("input_entries", rep.input_entries);
  return j.set("from_cache", rep.from_cache)
      .set("symmetrised", undirected)
      .set("self_loops", spec.keep_self_loops ? "kept" : "dropped")
      .set("duplicates", "merged")
      .set("order", std::string(gen::ordering_name(spec.order)));
}

/// Up to k GAP-style sources: vertices with at least one out-edge, drawn uniformly with a fixed seed, after those
/// `out` holds already. `distinct`: none twice (a graph with fewer such vertices gives fewer).
inline std::vector<vertex_t> pick_sources(const host_csr& h, int k, bool distinct = false,
                                          std::vector<vertex_t> out = {}) {
  std::mt19937_64 rng(27491095);
  if (h.n == 0) return out;
  std::vector<char> taken(distinct ? h.n : 0);
  for (const vertex_t v : out)
    if (distinct) taken[v] = 1;
  std::uniform_int_distribution<vertex_t> d(0, h.n - 1);
  for (int tries = 0; int(out.size()) < k && tries < 1000 * k; ++tries) {
    const vertex_t v = d(rng);
    if (h.row_ptr[v + 1] == h.row_ptr[v] || (distinct && taken[v])) continue;
    out.push_back(v);
    if (distinct) taken[v] = 1;
  }
  if (out.empty()) out.push_back(0);
  return out;
}

/// A device view's values, on the host.
template <class View>
std::vector<typename View::non_const_value_type> to_host_vector(const View& v) {
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, v);
  return std::vector<typename View::non_const_value_type>(m.data(), m.data() + m.extent(0));
}

/// A BFS's summary (per source, for the JSON report): vertices reached, depth, and the sum of the levels reached
/// (a checksum that tells two BFS trees' level sets apart).
inline void add_bfs_summary(const std::vector<level_t>& levels, json& reached, json& depth, json& level_sum) {
  std::uint64_t r = 0, sum = 0;
  level_t d = 0;
  for (const level_t l : levels)
    if (l != unreached_level) {
      ++r;
      sum += static_cast<std::uint64_t>(l);
      d = std::max(d, l);
    }
  reached.push(r);
  depth.push(d);
  level_sum.push(sum);
}

/// Out-edges of the vertices `levels` reaches (GAP's TEPS count from levels alone, before halving for an undirected
/// graph), for the engines that report no edge count.
inline offset_t reached_out_edges(const host_csr& h, const std::vector<level_t>& levels) {
  offset_t edges = 0;
  for (vertex_t v = 0; v < levels.size(); ++v)
    if (levels[v] != unreached_level) edges += h.row_ptr[v + 1] - h.row_ptr[v];
  return edges;
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

/// Writes `text` to the descriptor `fd` (the original stdout), retrying short writes; throws `error` naming `what`
/// when a write fails.
inline void write_fd(int fd, const std::string& text, const char* what) {
  std::size_t done = 0;
  while (done < text.size()) {
    const auto w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw error(std::string("bitgraph: cannot write ") + what + " to stdout: " + std::strerror(errno));
    done += static_cast<std::size_t>(w);
  }
}

/// Per-vertex results of `run`, in the caller's vertex ids: the graph's ids before a spec's `order=` relabelling
/// (`new_of_old` maps them to the ids the algorithms saw; empty means none). Vertex-valued results (BFS parents,
/// component labels) are mapped back too; components are labelled by their smallest caller id.
class vertex_results {
 public:
  vertex_results(vertex_t n, std::vector<vertex_t> new_of_old) : n_(n), new_of_old_(std::move(new_of_old)) {
    if (!new_of_old_.empty()) {
      old_of_new_.resize(n_);
      for (vertex_t v = 0; v < n_; ++v) old_of_new_[new_of_old_[v]] = v;
    }
  }
  bool empty() const { return results_.empty(); }
  const std::vector<std::pair<std::string, std::vector<io::vertex_column>>>& results() const { return results_; }

  void add_bfs(const std::vector<level_t>& levels, const std::vector<vertex_t>* parents) {
    std::vector<io::vertex_column> cols(1);
    cols[0].name = "level";
    cols[0].integers.resize(n_);
    for (vertex_t v = 0; v < n_; ++v) cols[0].integers[v] = levels[inner(v)];
    if (parents) {
      auto& c = cols.emplace_back();
      c.name = "parent";
      c.integers.resize(n_);
      for (vertex_t v = 0; v < n_; ++v) {
        const vertex_t p = (*parents)[inner(v)];
        c.integers[v] = p == invalid_vertex ? -1 : std::int64_t(outer(p));
      }
    }
    results_.emplace_back("bfs", std::move(cols));
  }
  /// A column of `algo`'s result, appended to that result when it is the last one added (msbfs: a column per source).
  void add_integers(const std::string& algo, const std::string& name, const std::vector<std::int64_t>& values) {
    if (results_.empty() || results_.back().first != algo)
      results_.emplace_back(algo, std::vector<io::vertex_column>{});
    auto& c = results_.back().second.emplace_back();
    c.name = name;
    c.integers.resize(n_);
    for (vertex_t v = 0; v < n_; ++v) c.integers[v] = values[inner(v)];
  }
  void add_reals(const std::string& algo, const std::string& name, const std::vector<double>& values) {
    std::vector<io::vertex_column> cols(1);
    cols[0].name = name;
    cols[0].real = true;
    cols[0].reals.resize(n_);
    for (vertex_t v = 0; v < n_; ++v) cols[0].reals[v] = values[inner(v)];
    results_.emplace_back(algo, std::move(cols));
  }
  void add_components(const std::vector<vertex_t>& labels) {
    std::vector<vertex_t> smallest(n_, invalid_vertex);  // per label (an inner id): its smallest caller id
    for (vertex_t v = 0; v < n_; ++v) {
      const vertex_t l = labels[inner(v)];
      if (l < n_) smallest[l] = std::min(smallest[l], v);
    }
    std::vector<io::vertex_column> cols(1);
    cols[0].name = "component";
    cols[0].integers.resize(n_);
    for (vertex_t v = 0; v < n_; ++v) {
      const vertex_t l = labels[inner(v)];
      cols[0].integers[v] = l < n_ ? std::int64_t(smallest[l]) : -1;
    }
    results_.emplace_back("cc", std::move(cols));
  }

 private:
  vertex_t inner(vertex_t v) const { return new_of_old_.empty() ? v : new_of_old_[v]; }
  vertex_t outer(vertex_t v) const { return old_of_new_.empty() ? v : old_of_new_[v]; }
  vertex_t n_;
  std::vector<vertex_t> new_of_old_, old_of_new_;
  std::vector<std::pair<std::string, std::vector<io::vertex_column>>> results_;
};

/// Writes `--output`: `-` gives one CSV table of every result on the original stdout; a file (its extension names
/// the format) one table of every result; a directory one `<algo>.csv` per algorithm. Every write is checked
/// (`bitgraph::error`, exit status 1). Prints where each result went.
inline void write_results(const options& opts, const vertex_results& res) {
  if (opts.output.empty() || res.empty()) return;
  std::vector<io::vertex_column> all;
  std::string names;
  for (const auto& [algo, cols] : res.results()) {
    all.insert(all.end(), cols.begin(), cols.end());
    names += (names.empty() ? "" : ", ") + algo;
  }
  if (opts.output == "-") {
    std::ostringstream os;
    io::write_vertex_values(os, io::vertex_values_format::csv, all);
    write_fd(opts.output_fd, os.str(), "the results");
    std::printf("\nresults (%s): CSV on stdout\n", names.c_str());
    return;
  }
  std::error_code ec;
  auto format = io::vertex_values_format_of(opts.output);
  // An existing file that is not a directory (a device such as /dev/stdout) takes CSV whatever its name.
  if (!format && std::filesystem::exists(opts.output, ec) && !std::filesystem::is_directory(opts.output, ec))
    format = io::vertex_values_format::csv;
  if (format) {
    io::write_vertex_values(opts.output, *format, all);
    std::printf("\nresults (%s): %s\n", names.c_str(), opts.output.c_str());
    return;
  }
  std::filesystem::create_directories(opts.output, ec);
  if (ec) throw error("bitgraph: cannot create the --output directory '" + opts.output + "': " + ec.message());
  std::printf("\n");
  for (const auto& [algo, cols] : res.results()) {
    const auto path = (std::filesystem::path(opts.output) / (algo + ".csv")).string();
    io::write_vertex_values(path, io::vertex_values_format::csv, cols);
    std::printf("results (%s): %s\n", algo.c_str(), path.c_str());
  }
}

/// Writes the JSON report to `--json FILE`, or to the original stdout for `--json -`. Every write is checked: a
/// report that did not reach its file (a full disk, a closed pipe) throws `error`.
inline void write_json(const options& opts, const json& report) {
  if (opts.json_path.empty()) return;
  std::ostringstream os;
  report.write(os);
  os << "\n";
  const std::string text = os.str();
  if (opts.json_path == "-") {
    write_fd(opts.json_fd, text, "the JSON report");
    return;
  }
  std::FILE* f = std::fopen(opts.json_path.c_str(), "w");
  if (!f) throw error("bitgraph: cannot write '" + opts.json_path + "': " + std::strerror(errno));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
  const int err = errno;
  if (std::fclose(f) != 0 || !written)
    throw error("bitgraph: cannot write '" + opts.json_path + "': " + std::strerror(written ? errno : err));
}

inline json header_json(const options& opts, std::string_view space) {
  auto j = json::object();
  j.set("bitgraph_version", std::string(library_version()));
  j.set("command", opts.command);
  j.set("graph", opts.graph);
  j.set("space", std::string(space));
  return j;
}

/// The Blest structure of `bg` with the ordering `--reorder` asks for (auto: the library's choice, the device
/// cluster order for social graphs and RCM otherwise; random: the host's random permutation). Reports the
/// ordering's name and cost.
template <class ExecSpace>
blest_graph<memory_space_t<ExecSpace>> make_blest(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& bg,
                                                  const std::string& which, std::string& name,
                                                  double& reorder_seconds) {
  if (which == "random") {
    const auto t0 = std::chrono::steady_clock::now();
    const auto perm = reorder::compute(to_host_csr(bg.in_csr()), reorder::reorder_method::random).new_of_old();
    reorder_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    name = "random";
    progress_line p("building BVSS");
    return make_blest_graph(exec, bg, perm);
  }
  blest_options o;
  o.ordering = which == "none"      ? blest_ordering::none
               : which == "cluster" ? blest_ordering::cluster
               : which == "degree"  ? blest_ordering::degree
               : which == "rcm"     ? blest_ordering::rcm
               : which == "jaccard" ? blest_ordering::jaccard
                                    : blest_ordering::automatic;
  progress_line p("ordering (" + which + ") and building BVSS");
  auto bl = make_blest_graph(exec, bg, o);
  name = std::string(to_string(bl.ordering));
  reorder_seconds = bl.order_seconds;
  return bl;
}

/// `bvss_bfs_options::lazy_level_min_queue` of `--lazy-levels D`: 1 / D, 0 never, -1 (auto) automatic.
inline double lazy_level_min_queue(int d) { return d > 0 ? 1.0 / d : d == 0 ? 0.0 : -1.0; }

inline bvss_update parse_update(const std::string& s) {
  if (s == "auto") return bvss_update::automatic;
  if (s == "eager") return bvss_update::eager;
  if (s == "lazy") return bvss_update::lazy;
  throw invalid_argument_error("bitgraph: --update must be auto, eager or lazy, not '" + s + "'");
}

// ------------------------------------------------------------------------------------------- info

template <class ExecSpace>
int run_info(const ExecSpace& exec, const options& opts) {
  io::load_report rep;
  auto g = load(exec, opts, rep);
  auto report = header_json(opts, space_name<ExecSpace>());
  std::printf("graph %s: n = %u, stored entries = %llu (%s%s)\n", rep.name.c_str(), g.n,
              static_cast<unsigned long long>(g.nnz), g.kind == graph_kind::directed ? "directed" : "undirected",
              g.has_weights ? ", weighted" : "");
  report.set("preprocessing", preprocessing_report(opts, rep, g.kind == graph_kind::undirected, g.nnz));
  std::printf("load %.3f s (%s), CSR build %.3f s", rep.read_seconds, rep.from_cache ? "binary cache" : "read/generate",
              rep.build_seconds);
  if (rep.order_seconds > 0) std::printf(", ordering %.3f s", rep.order_seconds);
  std::printf("\n");
  report.set("n", g.n);
  report.set("stored_entries", g.nnz);
  report.set("directed", g.kind == graph_kind::directed);
  report.set("weighted", g.has_weights);
  report.set("load", json::object()
                         .set("read_seconds", rep.read_seconds)
                         .set("build_seconds", rep.build_seconds)
                         .set("order_seconds", rep.order_seconds)
                         .set("from_cache", rep.from_cache));
  auto prof = profile_tile_sizes(exec, g);
  std::printf("\n%5s %12s %14s %14s %14s %8s %8s %9s %11s %9s\n", "tile", "tiles", "B2SR bytes", "CSR fp32",
              "CSR pattern", "ratio", "ratio_p", "bits/tile", "convert ms", "est.err");
  auto tiles = json::array();
  std::uint64_t best_bytes = ~0ull;
  int best_tile = 0;
  for (const auto& est : prof.estimates) {
    const int t = est.tile_dim;
    b2sr_matrix<memory_space_t<ExecSpace>> b;
    double secs = 0;
    try {
      secs = timed(exec, [&] {
        progress_line p("converting to B2SR-" + std::to_string(t));
        b = to_b2sr(exec, g, {t, bit_order::row_major});
      });
    } catch (const allocation_error& e) {
      // A wide tile of a huge sparse graph (B2SR-64 of kron:24: 84 GiB) need not stop the other rows.
      std::printf("%5d  does not fit in memory (estimated %llu B2SR bytes): %s\n", t,
                  static_cast<unsigned long long>(est.estimated.b2sr_bytes), e.what());
      tiles.push(json::object().set("tile_dim", t).set("error", std::string(e.what())));
      continue;
    }
    const auto r = storage_report(b);
    const double err =
        r.b2sr_bytes ? (double(est.estimated.b2sr_bytes) - double(r.b2sr_bytes)) / double(r.b2sr_bytes) : 0.0;
    if (r.b2sr_bytes < best_bytes) {
      best_bytes = r.b2sr_bytes;
      best_tile = t;
    }
    std::printf("%5d %12llu %14llu %14llu %14llu %8.3f %8.3f %9.2f %11.2f %+8.1f%%\n", t,
                static_cast<unsigned long long>(r.n_tiles), static_cast<unsigned long long>(r.b2sr_bytes),
                static_cast<unsigned long long>(r.csr_fp32_bytes), static_cast<unsigned long long>(r.csr_pattern_bytes),
                r.compression_ratio, r.ratio_vs_pattern_csr, r.avg_bits_per_tile, secs * 1e3, 100 * err);
    tiles.push(json::object()
                   .set("tile_dim", t)
                   .set("n_tiles", r.n_tiles)
                   .set("b2sr_bytes", r.b2sr_bytes)
                   .set("b2sr_bytes_stored", r.b2sr_bytes_stored)
                   .set("csr_fp32_bytes", r.csr_fp32_bytes)
                   .set("csr_pattern_bytes", r.csr_pattern_bytes)
                   .set("compression_ratio", r.compression_ratio)
                   .set("ratio_vs_pattern_csr", r.ratio_vs_pattern_csr)
                   .set("avg_bits_per_tile", r.avg_bits_per_tile)
                   .set("tile_fill", r.tile_fill)
                   .set("conversion_seconds", secs)
                   .set("estimate", json::object()
                                        .set("entries_per_bit_row", est.entries_per_bit_row)
                                        .set("estimated_tiles", est.estimated_tiles)
                                        .set("estimated_b2sr_bytes", est.estimated.b2sr_bytes)
                                        .set("relative_error", err)));
  }
  std::printf("\nprofile (%llu sampled rows) chooses B2SR-%d; the exact smallest is B2SR-%d\n",
              static_cast<unsigned long long>(prof.sampled_rows), prof.chosen_tile_dim, best_tile);
  report.set("tile_sizes", tiles);
  // The hybrid split by the space's time model (what to_hybrid does by default) and by bytes alone.
  for (const auto rule : {hybrid_split_rule::time, hybrid_split_rule::bytes}) {
    hybrid_matrix<memory_space_t<ExecSpace>> hy;
    hybrid_options ho;
    ho.rule = rule;
    const double secs = timed(exec, [&] { hy = to_hybrid(exec, g, ho); });
    report.set(rule == hybrid_split_rule::time ? "hybrid" : "hybrid_by_bytes", hybrid_report(hy, g.nnz, secs));
  }
  report.set("profile", json::object()
                            .set("sampled_rows", prof.sampled_rows)
                            .set("chosen_tile_dim", prof.chosen_tile_dim)
                            .set("exact_best_tile_dim", best_tile));
  write_json(opts, report);
  return 0;
}

// ---------------------------------------------------------------------------------------- convert

/// `bitgraph convert`: the graph of `--graph` (loaded as `run` loads it: the spec's `:directed`, `:undirected`,
/// `:loops`, `:weighted` and `:order=` apply) written to `--to` in the format its extension names. Matrix Market
/// writes undirected graphs as `symmetric` (lower triangle once) and directed ones as `general`, `real` with
/// weights else `pattern`; edge lists write every stored entry (both directions of an undirected edge), `.wel`
/// with the weights; `.bgcsr` is the binary cache's layout (`io::write_graph_cache`).
template <class ExecSpace>
int run_convert(const ExecSpace& exec, const options& opts) {
  io::load_report rep;
  const auto g = load(exec, opts, rep);
  const host_csr h = to_host_csr(g);
  const bool undirected = h.kind == graph_kind::undirected;
  std::printf("graph %s: n = %u, stored entries = %llu (%s%s)\n", rep.name.c_str(), h.n,
              static_cast<unsigned long long>(h.nnz()), undirected ? "undirected" : "directed",
              h.has_weights ? ", weighted" : "");
  const json preprocessing = preprocessing_report(opts, rep, undirected, h.nnz());
  const auto format = convert_format_of(opts.to);
  if (!format) throw invalid_argument_error("bitgraph convert: --to '" + opts.to + "' names no known format");
  std::string what;
  const double seconds = timed(exec, [&] {
    progress_line p("writing " + opts.to);
    switch (*format) {
      case convert_format::matrix_market: {
        io::mm_write_options mo;
        mo.comment = "written by bitgraph convert from " + rep.name;
        io::write_matrix_market(opts.to, h, mo);
        what = std::string("Matrix Market coordinate ") + (h.has_weights ? "real " : "pattern ") +
               (undirected ? "symmetric (lower triangle)" : "general");
        break;
      }
      case convert_format::edge_list:
      case convert_format::weighted_edge_list: {
        const bool weights = *format == convert_format::weighted_edge_list;
        if (weights && !h.has_weights)
          throw invalid_argument_error("bitgraph convert: --to '" + opts.to +
                                       "' (.wel) needs a weighted graph: add :weighted to the spec");
        io::edge_list_write_options eo;
        eo.write_weights = weights || (*format == convert_format::edge_list && opts.to.size() >= 4 &&
                                       opts.to.substr(opts.to.size() - 4) == ".txt");
        io::write_edge_list(opts.to, h, eo);
        what = std::string(eo.write_weights && h.has_weights ? "weighted " : "") +
               "edge list, 0-based, every stored entry" + (undirected ? " (both directions)" : "");
        break;
      }
      case convert_format::binary_cache: {
        io::cache_key key;
        key.source = rep.name;
        key.build = gen::parse_graph_spec(opts.graph).build_options();
        key.reader = "bitgraph convert";
        io::write_graph_cache(opts.to, key, h);
        what = "binary graph cache (.bgcsr)";
        break;
      }
    }
  });
  std::printf("wrote %s: %s, %.2f ms\n", opts.to.c_str(), what.c_str(), seconds * 1e3);
  auto report = header_json(opts, space_name<ExecSpace>());
  report.set("n", h.n)
      .set("stored_entries", h.nnz())
      .set("directed", !undirected)
      .set("weighted", h.has_weights)
      .set("preprocessing", preprocessing)
      .set("to", opts.to)
      .set("format", what)
      .set("write_seconds", seconds);
  write_json(opts, report);
  return 0;
}

// -------------------------------------------------------------------------------------------- run

struct algo_row {
  std::string algo, mode;
  std::vector<double> seconds;
  std::string metric_name;
  double metric = 0;
  std::string verdict = "-";
  json extra = json::object();
  /// A row checked several times (one check per source) fails when any check failed.
  void judge(const std::string& v) {
    if (verdict != "FAIL") verdict = v;
  }
  /// The BFS rows' metric: `edges` traversed over the summed seconds of the row's sources.
  void set_gteps(offset_t edges) {
    double total = 0;
    for (double t : seconds) total += t;
    metric_name = "GTEPS";
    metric = total > 0 ? double(edges) / total / 1e9 : 0;
  }
};

/// `run --algo msbfs`: `--repeat` timed multi-source traversals from `sources` (distinct, the algorithms' ids) on
/// one workspace; per source its reach, depth and level sum, its levels checked by `--validate` and written by
/// `--output` as `level_from_<caller id>`. GTEPS count every source's traversed edges.
template <class ExecSpace, class CallerId, class Verdict>
void multi_source_row(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& bg, const host_csr& h,
                      const options& opts, const std::vector<vertex_t>& sources, const CallerId& caller_id,
                      const Verdict& verdict_text, vertex_results& results, algo_row& row) {
  using mem = memory_space_t<ExecSpace>;
  multi_bfs_options mo;
  mo.compact_levels = opts.compact_levels;
  mo.traversals = static_cast<std::size_t>(opts.repeat);
  multi_bfs_workspace<mem> ws;  // the repetitions reuse it, as a caller running many traversals would
  multi_bfs_result<mem> r;
  for (int k = 0; k < opts.repeat; ++k)
    row.seconds.push_back(timed(exec, [&] { r = multi_source_bfs(exec, bg, sources, mo, ws); }));
  row.mode = std::string(to_string(r.order)) + (opts.compact_levels ? "/u8" : "");
  // The levels on the host, one source at a time, in 32 bits whichever width the traversal kept.
  const auto wide = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, r.levels);
  const auto narrow = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, r.levels8);
  std::vector<level_t> levels(h.n);
  offset_t edges = 0;
  auto ids = json::array(), reached = json::array(), depth = json::array(), level_sum = json::array();
  for (std::size_t i = 0; i < sources.size(); ++i) {
    for (vertex_t v = 0; v < h.n; ++v) levels[v] = opts.compact_levels ? widen_level(narrow(i, v)) : wide(i, v);
    const vertex_t s = sources[i];
    ids.push(caller_id(s));
    add_bfs_summary(levels, reached, depth, level_sum);
    edges += reached_out_edges(h, levels);
    if (opts.validate) row.judge(verdict_text(validate::check_bfs(h, s, levels)));
    if (!opts.output.empty())
      results.add_integers("msbfs", "level_from_" + std::to_string(caller_id(s)),
                           std::vector<std::int64_t>(levels.begin(), levels.end()));
  }
  if (!bg.directed()) edges /= 2;
  row.set_gteps(edges * static_cast<offset_t>(opts.repeat));  // every repetition traverses them all
  row.extra.set("sources", ids)
      .set("compact_levels", opts.compact_levels)
      .set("order", std::string(to_string(r.order)))
      .set("directions", r.directions)
      .set("split_levels", r.split_levels)
      .set("pairs", r.pairs)
      .set("traversed_edges", edges)
      .set("reached", reached)
      .set("depth", depth)
      .set("level_sum", level_sum);
  std::printf(
      "msbfs: %zu sources in one traversal, depth %d, %llu (source, vertex) pairs reached, directions %s, "
      "order %s\n",
      sources.size(), r.depth, static_cast<unsigned long long>(r.pairs), r.directions.c_str(),
      std::string(to_string(r.order)).c_str());
}

/// `run --algo closeness`: `--repeat` timed closeness centralities, exact or from `--samples` sources; the most
/// central vertex reported, the values checked by `--validate` (over the sample the result names) and written by
/// `--output` as `closeness`.
template <class ExecSpace, class CallerId, class Verdict>
void closeness_row(const ExecSpace& exec, const bit_graph<memory_space_t<ExecSpace>>& bg, const host_csr& h,
                   const options& opts, const CallerId& caller_id, const Verdict& verdict_text, vertex_results& results,
                   algo_row& row) {
  using mem = memory_space_t<ExecSpace>;
  closeness_options co;
  co.samples = opts.samples;
  co.seed = opts.seed;
  closeness_result<mem> r;
  for (int k = 0; k < opts.repeat; ++k)
    row.seconds.push_back(timed(exec, [&] { r = closeness_centrality(exec, bg, co); }));
  row.mode = std::string(r.exact ? "exact/" : "sampled/") + std::string(to_string(r.order));
  row.metric_name = "traversals";
  row.metric = r.traversals;
  const auto c = to_host_vector(r.closeness);
  const vertex_t top = static_cast<vertex_t>(std::max_element(c.begin(), c.end()) - c.begin());
  row.extra.set("exact", r.exact)
      .set("sources", r.sources)
      .set("seed", r.exact ? json() : json(co.seed))
      .set("order", std::string(to_string(r.order)))
      .set("traversals", r.traversals)
      .set("most_central", caller_id(top))
      .set("closeness_max", c[top]);
  std::printf("closeness: %s over %u sources in %d traversals, order %s; most central vertex %u (%.6g)\n",
              r.exact ? "exact" : "sampled", r.sources, r.traversals, std::string(to_string(r.order)).c_str(),
              caller_id(top), c[top]);
  if (opts.validate) row.judge(verdict_text(validate::check_closeness(h, c, r.sampled)));
  if (!opts.output.empty()) results.add_reals("closeness", "closeness", c);
}

template <class ExecSpace>
int run_algorithms(const ExecSpace& exec, const options& opts) {
  using mem = memory_space_t<ExecSpace>;
  const op_algorithm alg = parse_algorithm(opts.algorithm);
  BITGRAPH_CHECK_ARG(opts.repeat >= 1, "run", "--repeat must be at least 1");
  io::load_report rep;
  auto g = load(exec, opts, rep);
  const vertex_t n = g.n;
  int tile = 0;
  if (opts.tile != "auto") {
    tile = std::atoi(opts.tile.c_str());
    BITGRAPH_CHECK_ARG(valid_tile_dim(tile), "run", "--tile must be 4, 8, 16, 32, 64 or auto, not '", opts.tile, "'");
  }
  if (opts.source) {
    BITGRAPH_CHECK_ARG(*opts.source < n, "run", "--source ", *opts.source, " is out of range: the graph has ", n,
                       " vertices");
  }
  bit_graph<mem> bg;
  const double convert = timed(exec, [&] {
    progress_line p("converting to B2SR");
    bg = make_bit_graph(exec, g, {tile});
  });
  const host_csr h = to_host_csr(bg.csr);
  std::vector<std::string> algos = opts.algos.empty() ? std::vector<std::string>{"bfs"} : opts.algos;
  if (std::find(algos.begin(), algos.end(), "all") != algos.end()) algos = {"bfs", "sssp", "pr", "cc", "tc"};
  // --source and the reported sources are the caller's ids: the graph's before a spec's `order=` relabelling.
  std::vector<vertex_t> old_of_new(rep.new_of_old.size());
  for (vertex_t v = 0; v < old_of_new.size(); ++v) old_of_new[rep.new_of_old[v]] = v;
  auto caller_id = [&](vertex_t v) { return old_of_new.empty() ? v : old_of_new[v]; };
  const auto sources = opts.source
                           ? std::vector<vertex_t>(opts.repeat, rep.new_of_old.empty() ? vertex_t(*opts.source)
                                                                                       : rep.new_of_old[*opts.source])
                           : pick_sources(h, opts.repeat);
  auto source_ids = json::array();  // the rows' "sources", in the caller's ids
  for (auto s : sources) source_ids.push(caller_id(s));

  std::printf("graph %s: n = %u, stored entries = %llu, %s%s; space %s; B2SR-%d\n", rep.name.c_str(), n,
              static_cast<unsigned long long>(bg.csr.nnz), bg.directed() ? "directed" : "undirected",
              bg.csr.has_weights ? ", weighted" : "", std::string(space_name<ExecSpace>()).c_str(), bg.b2sr.tile_dim);
  const json preprocessing = preprocessing_report(opts, rep, !bg.directed(), bg.csr.nnz);
  const std::uint64_t mem_bytes = csr_bytes(bg.csr) + csr_bytes(bg.csr_t) + b2sr_bytes(bg.b2sr) + b2sr_bytes(bg.b2sr_t);
  std::printf("\n%-22s %12s\n", "phase", "time (ms)");
  std::printf("%-22s %12.2f\n", rep.from_cache ? "load (binary cache)" : "read / generate", rep.read_seconds * 1e3);
  std::printf("%-22s %12.2f\n", "build CSR", rep.build_seconds * 1e3);
  if (rep.order_seconds > 0) std::printf("%-22s %12.2f\n", "order + relabel", rep.order_seconds * 1e3);
  std::printf("%-22s %12.2f\n", "build B2SR (+A^T)", convert * 1e3);
  std::printf("%-22s %12.1f MiB (CSR %.1f, B2SR %.1f)\n", "graph memory", mem_bytes / 1048576.0,
              (csr_bytes(bg.csr) + csr_bytes(bg.csr_t)) / 1048576.0,
              (b2sr_bytes(bg.b2sr) + b2sr_bytes(bg.b2sr_t)) / 1048576.0);

  std::vector<algo_row> rows;
  vertex_results results(n, opts.output.empty() ? std::vector<vertex_t>{} : rep.new_of_old);
  const bool keep = !opts.output.empty();  // per-vertex results of the first source are kept for --output
  bool all_ok = true;
  auto verdict_text = [&](const validate::verdict& v) {
    all_ok = all_ok && v.ok;
    if (!v.ok) std::fprintf(stderr, "validation failed: %s\n", v.message.c_str());
    return std::string(v.ok ? "PASS" : "FAIL");
  };
  for (const auto& a : algos) {
    algo_row row;
    row.algo = a;
    if (a == "bfs" && opts.bfs_mode == "tc") {
      std::string rname;
      double rsec = 0;
      auto bl = make_blest(exec, bg, opts.reorder, rname, rsec);
      bvss_bfs_options to;
      to.algorithm = alg;
      to.update = parse_update(opts.update);
      to.bottom_up_factor = opts.bottom_up;
      to.bottom_up_dense_degree = opts.bottom_up_dense;
      to.lazy_level_min_queue = lazy_level_min_queue(opts.lazy_levels);
      row.mode = "tc/" + rname + (opts.graph_ids ? "/graph-ids" : "");
      offset_t edges = 0;
      bvss_bfs_stats st;
      Kokkos::View<level_t*, mem> out("bitgraph::run::tc_levels", n);
      // --level-ids graph: the timed call leaves the levels in the BVSS's ids; they are mapped back untimed.
      Kokkos::View<level_t*, mem> mapped;
      if (opts.graph_ids) mapped = Kokkos::View<level_t*, mem>("bitgraph::run::tc_levels_caller", n);
      auto traverse = [&](vertex_t s, const bvss_bfs_options& o) {
        return opts.graph_ids ? bfs_tensor_core_graph_ids(exec, bl, s, out, o) : bfs_tensor_core(exec, bl, s, out, o);
      };
      auto reached = json::array(), depth = json::array(), level_sum = json::array();
      for (auto s : sources) {
        row.seconds.push_back(timed(exec, [&] { st = traverse(s, to); }));
        if (opts.graph_ids) blest_levels_to_caller(exec, bl, out, mapped);
        const auto levels = to_host_vector(opts.graph_ids ? mapped : out);
        add_bfs_summary(levels, reached, depth, level_sum);
        if (keep && row.seconds.size() == 1) results.add_bfs(levels, nullptr);
        edges += reached_out_edges(h, levels);
        if (opts.validate) row.judge(verdict_text(validate::check_bfs(h, s, levels)));
      }
      if (!bg.directed()) edges /= 2;
      row.set_gteps(edges);
      row.extra.set("sources", source_ids)
          .set("reorder", rname)
          .set("level_ids", opts.graph_ids ? "graph" : "caller")
          .set("reorder_seconds", rsec)
          .set("bvss_build_seconds", bl.build_seconds)
          .set("bvss_bytes", bl.report.bvss_bytes)
          .set("virtual_slice_sets", bl.report.virtual_slice_sets)
          .set("unpadded_slices", bl.report.unpadded_slices)
          .set("compression_ratio", bl.report.compression_ratio)
          .set("update_divergence", bl.report.update_divergence)
          .set("lazy_updates", st.lazy)
          .set("tensor_cores", st.tensor_cores)
          .set("bottom_up_factor", opts.bottom_up)
          .set("bottom_up_dense_degree", opts.bottom_up_dense)
          .set("bottom_up_levels", st.bottom_up_levels)
          .set("lazy_levels", opts.lazy_levels < 0 ? json("auto") : json(opts.lazy_levels))
          .set("shallow", bl.shallow)
          .set("lazy_level_count", st.lazy_levels)
          .set("traversed_edges", edges)
          .set("reached", reached)
          .set("depth", depth)
          .set("level_sum", level_sum);
      std::printf(
          "blest: reorder %s %.1f ms, BVSS %.1f ms, %.1f MiB, compression %.3f, update divergence %.0f -> %s "
          "updates%s, %d bottom-up levels, %d lazy levels (last source; %s graph)\n",
          rname.c_str(), rsec * 1e3, bl.build_seconds * 1e3, bl.report.bvss_bytes / 1048576.0,
          bl.report.compression_ratio, bl.report.update_divergence, st.lazy ? "lazy" : "eager",
          st.tensor_cores ? ", tensor cores" : " (popcount emulation)", st.bottom_up_levels, st.lazy_levels,
          bl.shallow ? "shallow" : "deep");
      if (opts.trace_levels && !sources.empty()) {
        // One more traversal, untimed, from the last source: the level trace's buffer is allocated in the call.
        bvss_bfs_options traced = to;
        traced.trace_levels = true;
        const bvss_bfs_stats tst = traverse(sources.back(), traced);
        auto trace = json::array();
        std::printf("level trace (source %lld): level, direction, queued VSSs, found, us\n",
                    static_cast<long long>(sources.back()));
        for (const auto& t : tst.trace) {
          std::printf("  %4d %-14s %12lld %12lld %10.1f\n", int(t.level),
                      t.bottom_up ? (t.lazy ? "bottom-up lazy" : "bottom-up") : (t.lazy ? "top-down lazy" : "top-down"),
                      static_cast<long long>(t.queued), static_cast<long long>(t.found), t.microseconds);
          trace.push(json::object()
                         .set("level", int(t.level))
                         .set("bottom_up", t.bottom_up)
                         .set("lazy", t.lazy)
                         .set("queued", t.queued)
                         .set("found", t.found)
                         .set("microseconds", t.microseconds));
        }
        row.extra.set("level_trace", trace);
        if (tst.kernel_us > 0) {  // CUDA: where the traced call's time went
          std::printf(
              "traced call (us): launch %.1f, launch to levels ready %.1f; kernel %.1f = prologue %.1f + levels "
              "+ epilogue %.1f\n",
              tst.launch_us, tst.launch_to_ready_us, tst.kernel_us, tst.prologue_us, tst.epilogue_us);
          row.extra.set("traced_call", json::object()
                                           .set("launch_us", tst.launch_us)
                                           .set("launch_to_ready_us", tst.launch_to_ready_us)
                                           .set("kernel_us", tst.kernel_us)
                                           .set("prologue_us", tst.prologue_us)
                                           .set("epilogue_us", tst.epilogue_us));
        }
      }
    } else if (a == "bfs" && opts.bfs_mode == "auto") {
      // A BFS plan for these sources: the engine chosen by timing both (when the traversals can pay for the
      // tensor-core engine's preparation); the plan's making is reported, not timed in the row.
      bfs_plan_options po;
      po.traversals = sources.size();
      po.parents = opts.parents;
      po.traversal.algorithm = alg;
      po.tensor.algorithm = alg == op_algorithm::cuda_warp ? op_algorithm::automatic : alg;
      po.tensor.update = parse_update(opts.update);
      po.tensor.bottom_up_factor = opts.bottom_up;
      po.tensor.bottom_up_dense_degree = opts.bottom_up_dense;
      po.tensor.lazy_level_min_queue = lazy_level_min_queue(opts.lazy_levels);
      bfs_plan<mem> plan;
      const double plan_seconds = timed(exec, [&] { plan = make_bfs_plan(exec, bg, po); });
      row.mode = "auto/" + std::string(to_string(plan.engine));
      auto reached = json::array(), depth = json::array(), level_sum = json::array();
      offset_t plan_edges = 0;
      for (auto s : sources) {
        bfs_result<mem> r;
        row.seconds.push_back(timed(exec, [&] { r = bfs(exec, plan, s); }));
        const auto levels = to_host_vector(r.levels);
        add_bfs_summary(levels, reached, depth, level_sum);
        plan_edges += reached_out_edges(h, levels);
        const bool with_parents = r.parents.extent(0) > 0;
        std::vector<vertex_t> parents;
        if (with_parents && (opts.validate || (keep && row.seconds.size() == 1))) parents = to_host_vector(r.parents);
        if (opts.validate)
          row.judge(verdict_text(validate::check_bfs(h, s, levels, with_parents ? &parents : nullptr)));
        if (keep && row.seconds.size() == 1) results.add_bfs(levels, with_parents ? &parents : nullptr);
      }
      if (!bg.directed()) plan_edges /= 2;  // GAP's count from the levels, for either engine
      row.set_gteps(plan_edges);
      row.extra.set("sources", source_ids)
          .set("engine", std::string(to_string(plan.engine)))
          .set("plan_seconds", plan_seconds)
          .set("direction_optimized_trial_seconds", plan.direction_optimized_seconds)
          .set("tensor_core_trial_seconds", plan.tensor_core_seconds)
          .set("estimated_preparation_seconds", plan.estimated_preparation_seconds)
          .set("preparation_seconds", plan.preparation_seconds)
          .set("reached", reached)
          .set("depth", depth)
          .set("level_sum", level_sum);
      auto ms = [](double sec) {  // a plan made for parents, or for too few traversals, times less
        char b[32];
        std::snprintf(b, sizeof b, "%.3f ms", sec * 1e3);
        return sec < 0 ? std::string("not timed") : std::string(b);
      };
      std::printf(
          "bfs plan: %s (direction-optimised %s, tensor cores %s per trial; preparation %.1f ms, estimated %.1f ms; "
          "plan made in %.1f ms)\n",
          std::string(to_string(plan.engine)).c_str(), ms(plan.direction_optimized_seconds).c_str(),
          ms(plan.tensor_core_seconds).c_str(), plan.preparation_seconds * 1e3,
          plan.estimated_preparation_seconds * 1e3, plan_seconds * 1e3);
    } else if (a == "bfs") {
      bfs_options bo;
      bo.algorithm = alg;
      bo.parents = opts.parents;
      bo.push_kernel = opts.push_kernel == "b2sr"     ? bfs_push_kernel::b2sr
                       : opts.push_kernel == "spmspv" ? bfs_push_kernel::spmspv
                                                      : bfs_push_kernel::queue;
      if (opts.bfs_mode == "push")
        bo.mode = bfs_mode::push;
      else if (opts.bfs_mode == "pull")
        bo.mode = bfs_mode::pull;
      else if (opts.bfs_mode == "do")
        bo.mode = bfs_mode::direction_optimized;
      else
        throw invalid_argument_error("bitgraph run: --bfs must be do, push, pull, tc or auto, not '" + opts.bfs_mode +
                                     "'");
      row.mode = opts.bfs_mode;
      offset_t edges = 0;
      std::string dirs;
      auto reached = json::array(), depth = json::array(), level_sum = json::array();
      bfs_workspace<mem> ws;  // buffers made by the first source, reused by the others (as the tc path's are)
      for (auto s : sources) {
        bfs_result<mem> r;
        row.seconds.push_back(timed(exec, [&] { r = bfs(exec, bg, s, bo, ws); }));
        edges += r.traversed_edges;
        dirs = r.directions;
        const auto levels = to_host_vector(r.levels);
        add_bfs_summary(levels, reached, depth, level_sum);
        const bool first = row.seconds.size() == 1;
        if (opts.validate || (keep && first)) {
          std::vector<vertex_t> parents;
          if (opts.parents) parents = to_host_vector(r.parents);
          if (opts.validate)
            row.judge(verdict_text(validate::check_bfs(h, s, levels, opts.parents ? &parents : nullptr)));
          if (keep && first) results.add_bfs(levels, opts.parents ? &parents : nullptr);
        }
      }
      row.set_gteps(edges);
      row.extra.set("traversed_edges", edges)
          .set("directions", dirs)
          .set("sources", source_ids)
          .set("reached", reached)
          .set("depth", depth)
          .set("level_sum", level_sum);
    } else if (a == "sssp") {
      sssp_options so;
      so.algorithm = alg;
      row.mode = bg.csr.has_weights ? "weighted" : "unit";
      int iters = 0;
      auto reached = json::array(), max_distance = json::array();
      sssp_workspace<mem> ws;  // reused by every source
      for (auto s : sources) {
        sssp_result<mem> r;
        row.seconds.push_back(timed(exec, [&] { r = sssp(exec, bg, s, so, ws); }));
        iters = r.iterations;
        const auto dist = to_host_vector(r.dist);
        std::uint64_t count = 0;
        double far = 0;
        for (const double d : dist)
          if (std::isfinite(d)) {
            ++count;
            far = std::max(far, d);
          }
        reached.push(count);
        max_distance.push(far);
        if (opts.validate) row.judge(verdict_text(validate::check_sssp(h, s, dist)));
        if (keep && row.seconds.size() == 1) results.add_reals("sssp", "distance", dist);
      }
      row.metric_name = "rounds";
      row.metric = iters;
      row.extra.set("sources", source_ids).set("reached", reached).set("max_distance", max_distance);
    } else if (a == "pr") {
      pagerank_options po;
      po.algorithm = alg;
      row.mode = "redistribute";
      pagerank_result<mem> r;
      for (int k = 0; k < opts.repeat; ++k) row.seconds.push_back(timed(exec, [&] { r = pagerank(exec, bg, po); }));
      row.metric_name = "iterations";
      row.metric = r.iterations;
      const auto rank = to_host_vector(r.rank);
      double sum = 0, top = 0;
      for (const double x : rank) {
        sum += x;
        top = std::max(top, x);
      }
      row.extra.set("rank_sum", sum)
          .set("rank_max", top)
          .set("last_change", r.last_change)
          .set("converged", r.last_change < po.tolerance);
      if (opts.validate) row.verdict = verdict_text(validate::check_pagerank(h, rank));
      if (keep) results.add_reals("pr", "rank", rank);
    } else if (a == "cc") {
      components_options co;
      co.algorithm = alg;
      row.mode = bg.directed() ? "weak, afforest" : "afforest";
      components_result<mem> r;
      for (int k = 0; k < opts.repeat; ++k)
        row.seconds.push_back(timed(exec, [&] { r = connected_components(exec, bg, co); }));
      row.metric_name = "components";
      row.metric = r.count;
      const auto labels = to_host_vector(r.labels);
      std::vector<std::uint64_t> sizes(labels.size(), 0);  // labels are vertex ids
      std::uint64_t largest = 0;
      for (const vertex_t l : labels)
        if (l < sizes.size()) largest = std::max(largest, ++sizes[l]);
      row.extra.set("iterations", r.iterations).set("largest_component", largest);
      if (opts.validate) row.verdict = verdict_text(validate::check_components(h, labels));
      if (keep) results.add_components(labels);
    } else if (a == "tc") {
      if (bg.directed()) {
        std::printf("tc: skipped, the graph is directed (use an undirected spec)\n");
        continue;
      }
      triangles_options to;
      to.algorithm = alg;
      to.method = parse_tc_method(opts.tc_method);
      triangles_result r;
      for (int k = 0; k < opts.repeat; ++k)
        row.seconds.push_back(timed(exec, [&] { r = triangle_count(exec, bg, to); }));
      row.mode = r.method_used == triangles_method::masked_bmm ? "L*L'.*L" : std::string(to_string(r.method_used));
      row.extra.set("method", std::string(to_string(r.method_used)));
      row.metric_name = "triangles";
      row.metric = double(r.triangles);
      row.extra.set("triangles", r.triangles);
      if (opts.validate) row.verdict = verdict_text(validate::check_triangles(h, r.triangles));
      if (keep) {
        // Per-vertex counts for --output: one more, untimed call by an oriented method (the BMM keeps no sums).
        triangles_options po = to;
        if (po.method == triangles_method::masked_bmm) po.method = triangles_method::automatic;
        if (po.algorithm == op_algorithm::cuda_warp || po.algorithm == op_algorithm::cuda_mma)
          po.algorithm = op_algorithm::automatic;
        const auto pv = triangle_count_per_vertex(exec, bg, po);
        const auto counts = to_host_vector(pv.per_vertex);
        results.add_integers("tc", "triangles", std::vector<std::int64_t>(counts.begin(), counts.end()));
      }
    } else if ((a == "msbfs" || a == "closeness") && n == 0) {
      std::printf("%s: skipped, the graph has no vertices\n", a.c_str());
      continue;
    } else if (a == "msbfs") {
      // Distinct GAP-style sources, --source first when given (in the algorithms' ids, as `sources` are).
      const auto many = pick_sources(h, opts.sources, true,
                                     opts.source ? std::vector<vertex_t>{sources.front()} : std::vector<vertex_t>{});
      multi_source_row(exec, bg, h, opts, many, caller_id, verdict_text, results, row);
    } else if (a == "closeness") {
      closeness_row(exec, bg, h, opts, caller_id, verdict_text, results, row);
    } else {
      throw invalid_argument_error("bitgraph run: unknown algorithm '" + a +
                                   "' (bfs, sssp, pr, cc, tc, msbfs, closeness, all)");
    }
    rows.push_back(std::move(row));
  }

  std::printf("\n%-9s %-14s %12s %12s %14s %-12s %s\n", "algo", "mode", "median ms", "min ms", "result", "",
              "validation");
  auto report = header_json(opts, space_name<ExecSpace>());
  report.set("n", n)
      .set("stored_entries", bg.csr.nnz)
      .set("directed", bg.directed())
      .set("weighted", bg.csr.has_weights);
  report.set("tile_dim", bg.b2sr.tile_dim);
  report.set("preprocessing", preprocessing);
  report.set("phases", json::object()
                           .set("read_seconds", rep.read_seconds)
                           .set("csr_build_seconds", rep.build_seconds)
                           .set("b2sr_build_seconds", convert)
                           .set("from_cache", rep.from_cache));
  report.set("memory_bytes", json::object()
                                 .set("csr", csr_bytes(bg.csr) + csr_bytes(bg.csr_t))
                                 .set("b2sr", b2sr_bytes(bg.b2sr) + b2sr_bytes(bg.b2sr_t)));
  auto results_json = json::array();
  for (auto& r : rows) {
    const double med = median(r.seconds);
    const double mn = r.seconds.empty() ? 0 : *std::min_element(r.seconds.begin(), r.seconds.end());
    std::printf("%-9s %-14s %12.3f %12.3f %14.6g %-12s %s\n", r.algo.c_str(), r.mode.c_str(), med * 1e3, mn * 1e3,
                r.metric, r.metric_name.c_str(), r.verdict.c_str());
    auto times = json::array();
    for (double t : r.seconds) times.push(t);
    auto e = r.extra;
    e.set("algo", r.algo).set("mode", r.mode).set("median_seconds", med).set("min_seconds", mn).set("seconds", times);
    e.set(r.metric_name, r.metric).set("validation", r.verdict);
    results_json.push(e);
  }
  report.set("results", results_json);
  write_results(opts, results);
  write_json(opts, report);
  if (opts.validate) std::printf("\nvalidation: %s\n", all_ok ? "all results valid" : "FAILED");
  return all_ok ? 0 : 3;
}

}  // namespace bitgraph::cli
