// Loads or generates the graph a spec string names ("kron:20", "file:g.mtx", ...) into a CSR graph on an
// execution space, through the binary cache for files.
#pragma once

#include <Kokkos_Core.hpp>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/generators/graph_spec.hpp"
#include "bitgraph/io/dimacs.hpp"
#include "bitgraph/io/edge_list_text.hpp"
#include "bitgraph/io/graph_cache.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "bitgraph/io/read_limits.hpp"
#include "bitgraph/reorder/device_order.hpp"
#include "bitgraph/reorder/orderings.hpp"

namespace bitgraph::io {

/// Options of `load_graph`.
struct load_options {
  /// Directory of the binary cache for `file:` specs; empty disables the cache.
  std::filesystem::path cache_dir;
  /// Called with a short message when a phase starts (e.g. for a progress line).
  std::function<void(std::string_view)> on_phase;
  /// The readers' bound on declared vertices per entry (`mm_read_options::max_vertices_per_entry`,
  /// `edge_list_read_options::max_vertices_per_entry`): a `file:` graph may have at most
  /// max(2^20, this x entries) vertices; 0 lifts the bound.
  std::uint64_t max_vertices_per_entry = default_vertices_per_entry;
  /// Called with a message when a problem is recovered from: a corrupt cache entry, re-read from its source
  /// and replaced. The message is also kept in `load_report::cache_problem`.
  std::function<void(std::string_view)> on_warning;
};

/// What `load_graph` did, for reports.
struct load_report {
  std::string name;                  ///< the canonical spec
  double read_seconds = 0;           ///< reading / generating the edge list (or loading the cache)
  double build_seconds = 0;          ///< building the CSR on the execution space
  std::uint64_t input_entries = 0;   ///< entries in the file or generated edge list (before cleaning)
  bool from_cache = false;           ///< the CSR came from the binary cache
  bool cache_written = false;        ///< a new cache file was written
  std::filesystem::path cache_file;  ///< the cache file consulted, if any
  double order_seconds = 0;          ///< computing the spec's `order=` and relabelling (0 without one)
  /// Why the cache entry found for the file was not used (it failed validation: corrupt, truncated, an
  /// asymmetric "undirected" CSR); the graph was then read from the source and the entry replaced. Empty
  /// when the cache was used, missing or stale.
  std::string cache_problem;
  /// With a spec's `order=`: the caller's (file's or generator's) id of each vertex -> its id in the returned
  /// graph, so that results can be reported in the caller's ids. Empty without an ordering.
  std::vector<vertex_t> new_of_old;
};

namespace detail {
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace detail

/// Loads the graph `spec` names on `exec`: generators run on the host (GAP-compatible where they claim
/// it) and the CSR is built on `exec` with the options the spec implies; files are read by the Matrix
/// Market, DIMACS or edge-list reader (`detect_input_format`: the content, then the extension; gzip inflated;
/// a `.bgcsr` file is loaded as built), or loaded from the binary cache when `opts.cache_dir` holds a file whose
/// key (path, size, mtime, every reader and build option) matches; an entry that fails validation (corrupt,
/// truncated, an asymmetric "undirected" CSR) is reported (`opts.on_warning`, `report->cache_problem`), and
/// the file is read and the entry replaced. A `weighted` spec on a file without
/// weights gets GAP's weights. A spec with `order=` is then relabelled (`reorder::relabel`; the cache keeps
/// the graph as built): its vertex ids are the reordered ones. Every reader error surfaces as the reader's
/// exception: files must be regular files (a FIFO or device throws `bitgraph::error` without blocking), NaN
/// and infinite weights throw `parse_error` at their line, and a file declaring more than
/// max(2^20, `opts.max_vertices_per_entry` x entries) vertices throws `size_error`.
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> load_graph(const ExecSpace& exec, const gen::graph_spec& spec,
                                                const load_options& opts = {}, load_report* report = nullptr) {
  if (spec.order != gen::vertex_ordering::none) {
    // The graph as built (and cached), then relabelled: degree and cluster orders where the graph is, the host
    // orders on a host copy.
    gen::graph_spec plain = spec;
    plain.order = gen::vertex_ordering::none;
    load_report rep;
    auto g = load_graph(exec, plain, opts, &rep);
    rep.name = gen::to_string(spec);
    if (opts.on_phase) opts.on_phase("ordering");
    const auto t0 = std::chrono::steady_clock::now();
    reorder::vertex_order<memory_space_t<ExecSpace>> p;
    if (spec.order == gen::vertex_ordering::degree)
      p = reorder::degree_order(exec, g);
    else if (spec.order == gen::vertex_ordering::cluster)
      p = reorder::cluster_order(exec, g);
    else if (spec.order == gen::vertex_ordering::rcm)
      p = reorder::to_vertex_order(exec, reorder::rcm(to_host_csr(g)));
    else
      p = reorder::to_vertex_order(exec, reorder::random_order(g.n, spec.seed));
    g = reorder::relabel(exec, g, p);
    rep.order_seconds = detail::seconds_since(t0);
    auto host_order = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, p.new_of_old);
    rep.new_of_old.assign(host_order.data(), host_order.data() + host_order.extent(0));
    if (report) *report = rep;
    return g;
  }
  load_report rep;
  rep.name = gen::to_string(spec);
  auto phase = [&](std::string_view what) {
    if (opts.on_phase) opts.on_phase(what);
  };
  auto t0 = std::chrono::steady_clock::now();
  edge_list el;
  csr_build_options build;
  if (spec.source != gen::graph_source::file) {
    phase("generating");
    el = gen::generate(spec);
    build = spec.build_options(el.storage);
  } else {
    // The content decides before the name: a Matrix Market banner or the cache's magic, then the extension.
    const input_format format = detect_input_format(spec.path);
    if (format == input_format::graph_cache) {
      // A graph as `bitgraph convert` or the cache wrote it: already built, loaded and checked as it is.
      phase("loading graph cache file");
      const host_csr h = read_graph_cache_file(spec.path);
      rep.from_cache = true;  // reports then say the graph is as first built, not what the spec would do
      rep.input_entries = h.nnz();
      rep.read_seconds = detail::seconds_since(t0);
      auto t1 = std::chrono::steady_clock::now();
      auto g = to_csr(exec, h);
      rep.build_seconds = detail::seconds_since(t1);
      if (report) *report = rep;
      return g;
    }
    const bool mtx = format == input_format::matrix_market;
    const bool gr = format == input_format::dimacs;
    dimacs_read_options go;
    go.max_vertices_per_entry = opts.max_vertices_per_entry;
    mm_read_options mo;
    mo.allow_duplicates = true;  // the CSR builder merges them
    mo.max_vertices_per_entry = opts.max_vertices_per_entry;
    edge_list_read_options eo;
    eo.max_vertices_per_entry = opts.max_vertices_per_entry;
    // The build options depend on the file's symmetry: read the header first so that the cache key
    // can be formed without parsing the whole file.
    edge_storage storage = edge_storage::general;
    if (mtx) {
      const auto h = read_matrix_market_header(spec.path, mo);
      storage =
          h.symmetry == mm_symmetry::general
              ? edge_storage::general
              : (h.symmetry == mm_symmetry::skew_symmetric ? edge_storage::skew_symmetric : edge_storage::symmetric);
    }
    build = spec.build_options(storage);
    std::optional<cache_key> key;
    if (!opts.cache_dir.empty()) {
      const std::string extra = spec.weighted ? "gap-weights:" + std::to_string(spec.seed) : "";
      key = mtx  ? make_cache_key(spec.path, build, mo, extra)
            : gr ? make_cache_key(spec.path, build, to_string(go) + ";" + extra)
                 : make_cache_key(spec.path, build, eo, extra);
      rep.cache_file = cache_file(opts.cache_dir, *key);
      phase("loading cache");
      std::optional<host_csr> cached;
      try {
        cached = read_graph_cache(rep.cache_file, *key);
      } catch (const parse_error& e) {
        // A corrupt entry must not make the graph unloadable: report it, read the source, replace the entry.
        rep.cache_problem = e.what();
        if (opts.on_warning) {
          opts.on_warning("invalid cache entry " + rep.cache_file.string() + " (" + e.what() +
                          "): reading the source and replacing it");
        }
      }
      if (cached) {
        rep.from_cache = true;
        rep.input_entries = cached->nnz();
        rep.read_seconds = detail::seconds_since(t0);
        auto t1 = std::chrono::steady_clock::now();
        auto g = to_csr(exec, *cached);
        rep.build_seconds = detail::seconds_since(t1);
        if (report) *report = rep;
        return g;
      }
    }
    phase("reading");
    el = mtx ? read_matrix_market(spec.path, mo) : gr ? read_dimacs(spec.path, go) : read_edge_list(spec.path, eo);
    if (spec.weighted && !el.weighted() && el.size() > 0) gen::insert_gap_weights(el, spec.seed);
    rep.input_entries = el.size();
    rep.read_seconds = detail::seconds_since(t0);
    phase("building CSR");
    auto t1 = std::chrono::steady_clock::now();
    auto g = build_csr(exec, el, build);
    exec.fence();
    rep.build_seconds = detail::seconds_since(t1);
    if (key) {
      std::error_code ec;
      std::filesystem::create_directories(opts.cache_dir, ec);
      if (!ec) {
        write_graph_cache(rep.cache_file, *key, to_host_csr(g));
        rep.cache_written = true;
      }
    }
    if (report) *report = rep;
    return g;
  }
  rep.input_entries = el.size();
  rep.read_seconds = detail::seconds_since(t0);
  phase("building CSR");
  auto t1 = std::chrono::steady_clock::now();
  auto g = build_csr(exec, el, build);
  exec.fence();
  rep.build_seconds = detail::seconds_since(t1);
  if (report) *report = rep;
  return g;
}

/// Same as above with the spec given as text (parsed by `gen::parse_graph_spec`).
template <class ExecSpace>
csr_graph<memory_space_t<ExecSpace>> load_graph(const ExecSpace& exec, std::string_view spec,
                                                const load_options& opts = {}, load_report* report = nullptr) {
  return load_graph(exec, gen::parse_graph_spec(spec), opts, report);
}

}  // namespace bitgraph::io
