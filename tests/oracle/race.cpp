// bitgraph_oracle --race SPEC: BitGraph's BFS and PageRank against LAGraph's on the same graph, in the same
// process, runs interleaved (so a busy machine slows both alike); issue 14's host target is 1.5x.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <vector>

#include "bitgraph/algorithms/bfs.hpp"
#include "bitgraph/algorithms/graph.hpp"
#include "bitgraph/algorithms/pagerank.hpp"
#include "cases.hpp"
#include "oracle.hpp"

namespace bitgraph::oracle {
namespace {

template <class F>
double seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int run_race(context& ctx, const std::string& spec, int runs, double bound, const std::string& json_path) {
  const graph_case c = make_case(spec);
  const graph_under_test g = prepare(ctx, c, 0);
  if (g.n == 0) throw std::runtime_error("--race: the graph is empty");
  auto bg = make_bit_graph(ctx.exec, g.csr);
  gb::graph G(gb::dup(g.a.get()), g.directed ? LAGraph_ADJACENCY_DIRECTED : LAGraph_ADJACENCY_UNDIRECTED);
  gb::cache_transpose_and_out_degree(G);
  char msg[LAGRAPH_MSG_LEN] = "";
  // GAP-style sources: vertices with out-edges, the same for both sides.
  std::mt19937_64 rng(42);
  std::vector<vertex_t> sources;
  while (int(sources.size()) < runs) {
    const vertex_t v = std::uniform_int_distribution<vertex_t>(0, g.n - 1)(rng);
    if (g.rows.degree(v) > 0) sources.push_back(v);
  }
  std::vector<double> ours_bfs, theirs_bfs, ours_pr, theirs_pr;
  bfs_options bo;
  bo.parents = false;
  pagerank_options po;  // damping 0.85, tolerance 1e-4, redistribute: LAGr_PageRank's definition
  int our_iters = 0, their_iters = 0;
  for (int r = 0; r < runs; ++r) {
    ours_bfs.push_back(seconds([&] { bfs(ctx.exec, bg, sources[r], bo); }));
    theirs_bfs.push_back(seconds([&] {
      gb::vector level;
      gb::check_lagraph(LAGr_BreadthFirstSearch(level.out(), nullptr, G.get(), sources[r], msg),
                        "LAGr_BreadthFirstSearch", msg);
    }));
    ours_pr.push_back(seconds([&] { our_iters = pagerank(ctx.exec, bg, po).iterations; }));
    theirs_pr.push_back(seconds([&] {
      gb::vector rank;
      gb::check_lagraph(LAGr_PageRank(rank.out(), &their_iters, G.get(), 0.85f, 1e-4f, 100, msg), "LAGr_PageRank", msg);
    }));
  }
  struct row {
    const char* name;
    double ours, theirs;
  };
  const row rows[] = {{"bfs (levels)", median(ours_bfs), median(theirs_bfs)},
                      {"pagerank (to 1e-4)", median(ours_pr), median(theirs_pr)}};
  bool ok = true;
  std::printf("%s: n = %u, entries = %llu, %d runs each, interleaved; bound %.2fx LAGraph\n", spec.c_str(), g.n,
              static_cast<unsigned long long>(g.csr.nnz), runs, bound);
  std::printf("%-20s %12s %12s %8s\n", "kernel", "BitGraph ms", "LAGraph ms", "ratio");
  std::string json = "{\"graph\": \"" + spec + "\", \"runs\": " + std::to_string(runs) + ", \"rows\": [";
  for (const auto& r : rows) {
    const double ratio = r.ours / r.theirs;
    ok = ok && ratio <= bound;
    std::printf("%-20s %12.3f %12.3f %7.2fx%s\n", r.name, r.ours * 1e3, r.theirs * 1e3, ratio,
                ratio <= bound ? "" : "  FAILS the bound");
    json += cat(&r == rows ? "" : ", ", "{\"kernel\": \"", r.name, "\", \"bitgraph_seconds\": ", r.ours,
                ", \"lagraph_seconds\": ", r.theirs, ", \"ratio\": ", ratio, "}");
  }
  std::printf("pagerank iterations: BitGraph %d (double), LAGraph %d (float)\n", our_iters, their_iters);
  json += cat("], \"pagerank_iterations\": {\"bitgraph\": ", our_iters, ", \"lagraph\": ", their_iters, "}}\n");
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << json;
    if (!out) throw std::runtime_error("--race: cannot write " + json_path);
  }
  return ok ? 0 : 1;
}

}  // namespace bitgraph::oracle
