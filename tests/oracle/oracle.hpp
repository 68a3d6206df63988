// The differential-testing oracle: BitGraph against SuiteSparse:GraphBLAS + LAGraph on the same graphs.
// Shared types: the tally of comparisons, the graph under test (both sides of it), the run options.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/edge_list.hpp"
#include "gb.hpp"

namespace bitgraph::oracle {

/// BitGraph's side runs on the host (OpenMP in the host build) or, in the GPU oracle (BITGRAPH_ORACLE_ON_DEVICE,
/// the cuda flavour), on Kokkos' default execution space; every check reads results through host mirrors.
#if defined(BITGRAPH_ORACLE_ON_DEVICE)
using exec_space = Kokkos::DefaultExecutionSpace;
#else
using exec_space = Kokkos::DefaultHostExecutionSpace;
#endif
using mem_space = memory_space_t<exec_space>;

/// Concatenates anything printable.
template <class... A>
std::string cat(const A&... a) {
  std::ostringstream s;
  s.precision(17);
  (s << ... << a);
  return s.str();
}

/// SplitMix64: derives independent seeds from (base seed, index, salt) so every check of every graph
/// can be replayed alone.
constexpr std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
constexpr std::uint64_t mix(std::uint64_t a, std::uint64_t b) { return mix(a ^ mix(b)); }

/// FNV-1a of a string: a seed salt that does not depend on the standard library's std::hash.
constexpr std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (char c : s) h = (h ^ std::uint8_t(c)) * 0x100000001b3ull;
  return h;
}

/// The differences found by one comparison: how many, and the first few in words.
struct diffs {
  std::uint64_t count = 0;
  std::vector<std::string> first;
  template <class... A>
  void add(const A&... a) {
    if (first.size() < 5) first.push_back(cat(a...));
    ++count;
  }
  bool empty() const { return count == 0; }
};

/// Counters of one kind of comparison.
struct kind_stats {
  std::uint64_t compared = 0;    ///< comparisons made
  std::uint64_t mismatched = 0;  ///< comparisons that found a difference without a planted fault
  std::uint64_t errors = 0;      ///< comparisons where one side threw or failed
  std::uint64_t planted = 0;     ///< self-test: comparisons whose BitGraph result was corrupted first
  std::uint64_t caught = 0;      ///< self-test: planted faults the comparison reported
};

/// Every comparison of the run. A failure is a mismatch, an error, or (self-test) a planted fault that
/// went unnoticed; each is printed with the graph's reproduction line and its first differences.
class tally {
 public:
  tally(bool self_test, int max_reports) : self_test_(self_test), max_reports_(max_reports) {}

  /// Starts a graph: `repro` is printed with every failure on it (command-line arguments that rebuild it).
  void begin_graph(std::string name, std::string repro);
  /// One comparison of `kind`; `what` says which (source, semiring, path, ...). `planted` means a fault
  /// was injected into BitGraph's result before comparing (self-test), so `d` must not be empty.
  void record(const std::string& kind, const std::string& what, const diffs& d, bool planted = false);
  /// One side threw or returned an error where the other did not.
  void error(const std::string& kind, const std::string& what, const std::string& message);
  /// A line for the summary (rejected files, documented skips).
  void note(std::string line) { notes_.push_back(std::move(line)); }
  /// Coverage: counts how often an operand combination was exercised (printed, not a comparison).
  void cover(const std::string& what) { ++coverage_[what]; }

  bool ok() const { return failures_ == 0; }
  std::uint64_t failures() const { return failures_; }
  std::uint64_t graphs() const { return graphs_; }
  void print_summary(std::ostream& os, double seconds) const;

 private:
  void report(const std::string& header, const std::vector<std::string>& lines, std::uint64_t total);

  bool self_test_;
  int max_reports_;
  int reports_ = 0;
  std::uint64_t graphs_ = 0;
  std::uint64_t failures_ = 0;
  std::string graph_name_, repro_;
  std::map<std::string, kind_stats> kinds_;
  std::vector<std::string> notes_;
  std::map<std::string, std::uint64_t> coverage_;
};

/// A square pattern in CSR form with sorted rows, read back from a GraphBLAS matrix: the oracle's
/// adjacency for validity checks (BFS parents, ANY_SECONDI results).
struct host_pattern {
  vertex_t n = 0;
  std::vector<offset_t> ptr;  ///< n + 1 offsets
  std::vector<vertex_t> idx;  ///< columns, ascending within a row

  bool has(vertex_t i, vertex_t j) const;
  offset_t degree(vertex_t i) const { return ptr[i + 1] - ptr[i]; }
  /// The pattern of an n x n GraphBLAS matrix.
  static host_pattern of(GrB_Matrix a);
};

/// Options of a run (command line).
struct options {
  std::uint64_t graphs = 1000;         ///< random graphs (the fixed edge cases included)
  std::uint64_t seed = 20240917;       ///< base seed of the random graphs and of every check
  std::uint64_t max_vertices = 3000;   ///< bound on the random graphs' vertex counts (about)
  std::string data_dir;                ///< LAGraph's data directory ("" = no files)
  bool files = true;                   ///< compare on the data files too
  std::vector<std::string> specs;      ///< --graph: only these graphs
  std::vector<std::string> file_list;  ///< --file: only these files
  bool op_seed_given = false;          ///< --op-seed: replay one graph's checks
  std::uint64_t op_seed = 0;
  bool self_test = false;                  ///< plant a fault in every comparison; all must be caught
  int max_reports = 20;                    ///< failures printed in full
  bool verbose = false;                    ///< one line per graph
  std::uint64_t mxm_work_limit = 4000000;  ///< skip mxm when nnz(A) * max degree exceeds this
  std::string race;                        ///< --race: time BFS and PageRank against LAGraph on this graph
  int race_runs = 7;                       ///< --race-runs
  std::string json;                        ///< --json: the race's results
};

/// A graph with both of its sides. The GraphBLAS side is built from the edge list (or read by LAGraph)
/// by the oracle's own code, never from BitGraph's CSR, so a bug in BitGraph's builders shows up.
struct graph_under_test {
  std::string name;           ///< spec or file name
  std::uint64_t op_seed = 0;  ///< seeds sources, vectors, masks and tile choices of every check
  vertex_t n = 0;
  bool directed = true;  ///< BitGraph's graph kind
  // GraphBLAS side.
  gb::matrix a;                     ///< pattern, BOOL true at every stored entry
  gb::matrix weights;               ///< FP64 weights; empty when unweighted
  bool float_weights = false;       ///< weights were read as FP32 by LAGraph (BitGraph reads doubles)
  bool integer_weights = true;      ///< every weight is an integer of magnitude < 2^31: arithmetic is exact
  bool byte_weights = true;         ///< every weight is an integer in [0, 255]: casts to any semiring type agree
  bool nonnegative_weights = true;  ///< and finite: SSSP applies
  host_pattern rows;                ///< pattern of A
  host_pattern cols;                ///< pattern of A^T
  // BitGraph side.
  csr_graph<mem_space> csr;  ///< built by build_csr
};

/// What every check gets.
struct context {
  const options& opt;
  tally& t;
  exec_space exec;
};

/// Tile dimension and packing order of the B2SR forms one check uses.
struct b2sr_config {
  int tile = 8;
  bool row_major = true;
  std::string str() const { return cat("T", tile, row_major ? "/row" : "/col"); }
};

/// The B2SR configurations a graph is checked on: `count` of the ten (tile, order) pairs, chosen by the
/// graph's seed so that every pair is used across the run.
std::vector<b2sr_config> pick_configs(std::uint64_t seed, int count);

// The checks, one translation unit each. Each records its comparisons in ctx.t.
void check_structure(context& ctx, const graph_under_test& g);
void check_bfs(context& ctx, const graph_under_test& g);
void check_sssp(context& ctx, const graph_under_test& g);
void check_pagerank(context& ctx, const graph_under_test& g);
void check_components(context& ctx, const graph_under_test& g);
void check_triangles(context& ctx, const graph_under_test& g);
void check_mxv(context& ctx, const graph_under_test& g);  // and SpMSpV
void check_mxm(context& ctx, const graph_under_test& g);
void check_bfs_tensor_core(context& ctx, const graph_under_test& g);  // Blest: make_blest_graph + bfs_tensor_core
void check_mxv_user(context& ctx, const graph_under_test& g);         // a user-defined (max, min) semiring
void check_ewise(context& ctx, const graph_under_test& g);            // ewise_add / ewise_mult
void check_ewise_matrix(context& ctx, const graph_under_test& g);     // ewise_add / ewise_mult on CSR matrices
void check_matrix_apply(context& ctx, const graph_under_test& g);     // apply / select on CSR matrices
void check_matrix_assign(context& ctx, const graph_under_test& g);    // assign, reduce, transpose on CSR matrices
void check_assign_apply(context& ctx, const graph_under_test& g);     // assign, apply
void check_reduce_select(context& ctx, const graph_under_test& g);    // reduce, select
void check_fold(context& ctx, const graph_under_test& g);             // fold, unfold

/// --race: BitGraph's BFS and PageRank against LAGraph's on `spec`, `runs` each, interleaved; prints a table (and
/// JSON to `json_path` when given) and returns 1 when a median is more than `bound` times LAGraph's.
int run_race(context& ctx, const std::string& spec, int runs, double bound, const std::string& json_path);

}  // namespace bitgraph::oracle
