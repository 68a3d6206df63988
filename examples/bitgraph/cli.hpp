// The `bitgraph` command line: options shared by its commands and the per-space entry points.
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bitgraph::cli {

/// Parsed command line. Every field has the documented default of `bitgraph --help`.
struct options {
  std::string command;                  ///< info | run | bench | convert
  std::string graph = "kron:16";        ///< graph spec
  std::vector<std::string> algos;       ///< bfs, sssp, pr, cc, tc, msbfs, closeness (run); empty = bfs
  std::optional<std::uint64_t> source;  ///< BFS / SSSP source; default: GAP-style random sources
  std::string tile = "auto";            ///< 4 | 8 | 16 | 32 | 64 | auto
  std::string space;                    ///< serial | openmp | cuda; default: the best enabled
  bool validate = false;                ///< check results with the validators
  int repeat = 1;                       ///< timed repetitions per algorithm
  std::string json_path;                ///< write a JSON report here ("-": to `json_fd`)
  int json_fd = -1;                     ///< `--json -`: the original stdout (the tables then go to stderr)
  std::string output;                   ///< run: per-vertex results to this directory, file, or "-" (CSV to stdout)
  int output_fd = -1;                   ///< `--output -`: the original stdout (the tables then go to stderr)
  std::string bfs_mode = "do";          ///< do | push | pull | tc
  std::string reorder = "auto";         ///< tc: auto | none | cluster | rcm | jaccard | degree | random
  std::string update = "auto";          ///< tc: auto | eager | lazy
  bool graph_ids = false;               ///< tc: time `bfs_tensor_core_graph_ids` (levels left in the BVSS's ids)
  int bottom_up = 10;                   ///< tc: bottom-up levels below this unreached / queued-VSS ratio (0: never)
  int bottom_up_dense = 128;            ///< tc: above this average degree a bottom-up level is costed at whole rows
  int lazy_levels = -1;                 ///< tc: lazy top-down levels of at least n / this VSSs (0: never, -1: auto)
  std::string push_kernel = "queue";    ///< queue | spmspv | b2sr
  std::string algorithm = "auto";       ///< auto | generic | cuda-warp | cuda-mma (forced kernel path)
  std::string tc_method = "auto";       ///< tc: auto | oriented | bmm (triangles_method)
  bool parents = true;                  ///< BFS computes parents
  bool trace_levels = false;            ///< tc: one more traversal from the last source, its levels printed
  int sources = 128;                    ///< msbfs: sources of the multi-source traversal (1 to 128)
  bool compact_levels = false;          ///< msbfs: 8-bit levels
  std::uint32_t samples = 0;            ///< closeness: sampled sources (0: exact, every vertex)
  std::uint64_t seed = 1;               ///< closeness: seed of the sample
  std::string cache_dir;                ///< binary graph cache ("" = $BITGRAPH_CACHE_DIR or ~/.cache/bitgraph)
  bool no_cache = false;                ///< never read or write the graph cache
  std::string to;                       ///< convert: the file to write (its extension names the format)
  std::string suite = "smoke";          ///< bench suite: smoke | paper | h100
  int runs = 10;                        ///< bench: timed runs per kernel (median reported)
  std::vector<std::string> kernels;     ///< bench: only the rows whose kernel starts with one of these
  std::vector<std::string> graphs;      ///< bench: only these graphs of the suite (specs as the suite writes them)
  std::string bmv_balance = "auto";     ///< bench: work split of the BMV rows (auto | rows | tiles)
};

/// Entry points, one instantiation per enabled execution space (space_*.cpp).
template <class ExecSpace>
int run_info(const ExecSpace& exec, const options& opts);
template <class ExecSpace>
int run_algorithms(const ExecSpace& exec, const options& opts);
template <class ExecSpace>
int run_bench(const ExecSpace& exec, const options& opts);
template <class ExecSpace>
int run_convert(const ExecSpace& exec, const options& opts);

/// What `bitgraph convert --to` writes, by the file's extension.
enum class convert_format { matrix_market, edge_list, weighted_edge_list, binary_cache };

/// The format of a `--to` path: `.mtx` Matrix Market, `.el` / `.txt` edge list, `.wel` weighted edge list, `.bgcsr`
/// the binary graph cache's layout; nullopt for any other extension.
inline std::optional<convert_format> convert_format_of(const std::string& path) {
  auto ends = [&](const char* ext) {
    const std::string e(ext);
    if (path.size() < e.size()) return false;
    for (std::size_t i = 0; i < e.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(path[path.size() - e.size() + i])) != e[i]) return false;
    return true;
  };
  if (ends(".mtx")) return convert_format::matrix_market;
  if (ends(".el") || ends(".txt")) return convert_format::edge_list;
  if (ends(".wel")) return convert_format::weighted_edge_list;
  if (ends(".bgcsr")) return convert_format::binary_cache;
  return std::nullopt;
}

}  // namespace bitgraph::cli
