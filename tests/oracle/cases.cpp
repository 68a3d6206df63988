// Graph specs and the two sides of every graph (see cases.hpp).
#include "cases.hpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "bitgraph/formats/csr.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/generators/graph_spec.hpp"
#include "bitgraph/io/matrix_market.hpp"
#include "support/random_graphs.hpp"

namespace bitgraph::oracle {

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t b = 0;
  while (true) {
    const auto e = s.find(sep, b);
    out.push_back(s.substr(b, e == std::string::npos ? std::string::npos : e - b));
    if (e == std::string::npos) return out;
    b = e + 1;
  }
}

std::uint64_t parse_u64(const std::string& s, const std::string& spec) {
  std::size_t used = 0;
  std::uint64_t v = 0;
  try {
    v = std::stoull(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size())
    throw std::invalid_argument("oracle: bad number '" + s + "' in spec '" + spec + "'");
  return v;
}

graph_case make_random_case(const std::string& spec) {
  const auto parts = split(spec, ':');
  if (parts.size() < 3) throw std::invalid_argument("oracle: spec '" + spec + "' is not random:N:M[:options]");
  const std::uint64_t n = parse_u64(parts[1], spec);
  const std::uint64_t m = parse_u64(parts[2], spec);
  std::uint64_t seed = 1;
  bool weighted = false, loops = false;
  graph_kind kind = graph_kind::directed;
  for (std::size_t k = 3; k < parts.size(); ++k) {
    const auto& o = parts[k];
    if (o.rfind("seed=", 0) == 0)
      seed = parse_u64(o.substr(5), spec);
    else if (o == "weighted")
      weighted = true;
    else if (o == "loops")
      loops = true;
    else if (o == "directed")
      kind = graph_kind::directed;
    else if (o == "undirected")
      kind = graph_kind::undirected;
    else
      throw std::invalid_argument("oracle: unknown option '" + o + "' in spec '" + spec + "'");
  }
  graph_case c;
  c.spec = spec;
  c.edges = test::random_edges(n, m, seed, weighted);
  c.edges.name = spec;
  c.build.kind = kind;
  c.build.remove_self_loops = !loops;
  c.build.remove_duplicates = true;
  c.build.keep_weights = true;
  return c;
}

}  // namespace

graph_case make_case(const std::string& spec) {
  if (spec.rfind("random:", 0) == 0) return make_random_case(spec);
  const auto s = gen::parse_graph_spec(spec);
  if (s.source == gen::graph_source::file)
    throw std::invalid_argument("oracle: use --file for files, not '" + spec + "'");
  graph_case c;
  c.spec = gen::to_string(s);
  c.edges = gen::generate(s);
  c.build = s.build_options(c.edges.storage);
  return c;
}

std::string random_spec(std::uint64_t seed, std::uint64_t index, std::uint64_t max_vertices) {
  // The edge cases every run starts with. n around the tile sizes (4..64) and their multiples, a
  // source without out-edges (sparse directed graphs), self-loops and repeated entries.
  static const char* const fixed[] = {
      "random:0:0",                                 // empty graph
      "random:1:0",                                 // one vertex, no edge
      "random:1:3:loops",                           // one vertex, a self-loop stored three times
      "random:1:2:loops:weighted:undirected",       // the same, weighted
      "random:2:0:undirected",                      // two isolated vertices
      "random:2:1:seed=3",                          // one directed edge (or a dropped loop)
      "random:3:9:loops:weighted:seed=5",           // dense with repeats and loops
      "random:4:6:seed=6:undirected",               // n = one 4-tile
      "random:5:12:seed=7:loops",                   // n = 4 + 1
      "random:8:20:seed=8:weighted",                // n = one 8-tile
      "random:16:30:seed=9:undirected:loops",       // n = one 16-tile
      "random:31:40:seed=10",                       // n = 32 - 1
      "random:32:64:seed=11:undirected",            // n = one 32-tile
      "random:33:50:seed=12:weighted:loops",        // n = 32 + 1
      "random:63:100:seed=13",                      // n = 64 - 1
      "random:64:128:seed=14:undirected:weighted",  // n = one 64-tile
      "random:65:130:seed=15:loops",                // n = 64 + 1
      "random:128:200:seed=16:undirected",          // n = 2 x 64
      "random:129:64:seed=17",                      // sparse directed: many sinks and isolated vertices
      "random:200:0",                               // only isolated vertices
      "random:300:90:seed=18:weighted",             // sources without out-edges
      "random:1000:2500:seed=19:undirected:loops:weighted",
      "random:1500:1500:seed=20:weighted",
      "kron:1:directed:loops",
      "kron:4:degree=1:directed",
      "urand:3:degree=2:directed:loops",
      "grid2d:1",
      "grid2d:7:weighted",
      "grid3d:3:directed",
      "rgg:3",
      "mycielski:2",
      "mycielski:5:weighted",
  };
  constexpr std::uint64_t n_fixed = sizeof(fixed) / sizeof(fixed[0]);
  if (index < n_fixed) return fixed[index];

  std::mt19937_64 rng(mix(seed, index));
  auto uniform = [&](std::uint64_t lo, std::uint64_t hi) {  // inclusive
    return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
  };
  auto chance = [&](int percent) { return uniform(0, 99) < std::uint64_t(percent); };
  const std::uint64_t max_n = std::max<std::uint64_t>(max_vertices, 4);
  const unsigned max_scale = std::max(1u, unsigned(std::floor(std::log2(double(max_n)))));
  const std::uint32_t gseed = static_cast<std::uint32_t>(uniform(0, 0xffffffffu));
  const auto kind = [&](int directed_percent) { return chance(directed_percent) ? ":directed" : ":undirected"; };
  std::string s;
  const auto pick = uniform(0, 99);
  if (pick < 45) {
    // random_edges: any n (mostly not a multiple of a tile size), average degree 0 .. 16.
    std::uint64_t n;
    const auto band = uniform(0, 9);
    if (band < 3)
      n = uniform(0, 70);
    else if (band < 7)
      n = uniform(70, std::min<std::uint64_t>(600, max_n));
    else
      n = uniform(std::min<std::uint64_t>(600, max_n), max_n);
    static constexpr double degrees[] = {0, 0.3, 0.7, 1, 2, 3, 5, 8, 12, 16};
    const double d = degrees[uniform(0, 9)];
    const auto m = static_cast<std::uint64_t>(std::llround(d * double(n)));
    s = cat("random:", n, ":", m, ":seed=", gseed, kind(50));
    if (chance(50)) s += ":weighted";
    if (chance(40)) s += ":loops";
  } else if (pick < 72) {
    // GAP's Kronecker and uniform generators: n = 2^scale, repeats and loops in the raw entries.
    static constexpr int degrees[] = {1, 2, 4, 8, 16};
    s = cat(pick < 60 ? "kron:" : "urand:", uniform(1, max_scale), ":seed=", gseed, ":degree=", degrees[uniform(0, 4)],
            kind(40));
    if (chance(40)) s += ":weighted";
    if (chance(30)) s += ":loops";
  } else if (pick < 80) {
    const auto k = uniform(1, std::max<std::uint64_t>(1, std::uint64_t(std::sqrt(double(max_n)))));
    s = cat("grid2d:", k, kind(20));
    if (chance(30)) s += cat(":weighted:seed=", gseed);
  } else if (pick < 86) {
    const auto k = uniform(1, std::max<std::uint64_t>(1, std::uint64_t(std::cbrt(double(max_n)))));
    s = cat("grid3d:", k, kind(20));
    if (chance(30)) s += cat(":weighted:seed=", gseed);
  } else if (pick < 93) {
    s = cat("rgg:", uniform(1, max_scale), ":seed=", gseed, kind(20));
    if (chance(30)) s += ":weighted";
  } else {
    // Mycielski graphs grow by 2x vertices and 3x edges per step: k = 11 has 1535 vertices.
    unsigned kmax = 2;
    while (kmax < 31 && gen::mycielski_vertices(kmax + 1) <= max_n) ++kmax;
    s = cat("mycielski:", uniform(2, kmax), kind(20));
    if (chance(30)) s += cat(":weighted:seed=", gseed);
  }
  return s;
}

namespace {

/// The oracle's reading of the CSR build rules, applied to an edge list to make GraphBLAS triples.
void expand(const edge_list& e, const csr_build_options& b, gb::triples<bool>& pat, gb::triples<double>& w,
            bool weighted) {
  const bool mirror = e.storage != edge_storage::general || resolved_kind(e, b) == graph_kind::undirected;
  const bool negate = e.storage == edge_storage::skew_symmetric;
  for (std::size_t k = 0; k < e.src.size(); ++k) {
    const GrB_Index u = e.src[k], v = e.dst[k];
    if (b.remove_self_loops && u == v) continue;
    const double x = e.weighted() ? e.weights[k] : 1.0;
    pat.row.push_back(u);
    pat.col.push_back(v);
    pat.value.push_back(true);
    if (weighted) {
      w.row.push_back(u);
      w.col.push_back(v);
      w.value.push_back(x);
    }
    if (mirror && u != v) {
      pat.row.push_back(v);
      pat.col.push_back(u);
      pat.value.push_back(true);
      if (weighted) {
        w.row.push_back(v);
        w.col.push_back(u);
        w.value.push_back(negate ? -x : x);
      }
    }
  }
}

/// Facts about the weights that decide which comparisons are exact.
void classify_weights(graph_under_test& g) {
  if (!g.weights) return;
  const auto t = gb::extract<double>(g.weights.get());
  for (double x : t.value) {
    const bool finite = std::isfinite(x);
    const bool integer = finite && std::floor(x) == x && std::fabs(x) < 2147483648.0;
    if (!integer) g.integer_weights = false;
    if (!integer || x < 0 || x > 255) g.byte_weights = false;
    if (!finite || x < 0) g.nonnegative_weights = false;
  }
}

void finish(context& ctx, graph_under_test& g) {
  g.rows = host_pattern::of(g.a.get());
  auto at = gb::transpose(g.a.get());
  g.cols = host_pattern::of(at.get());
  classify_weights(g);
  (void)ctx;
}

}  // namespace

graph_under_test prepare(context& ctx, const graph_case& c, std::uint64_t op_seed) {
  graph_under_test g;
  g.name = c.spec;
  g.op_seed = op_seed;
  g.n = static_cast<vertex_t>(c.edges.num_vertices);
  g.directed = c.build.kind == graph_kind::directed;
  const bool weighted = c.edges.weighted() && c.build.keep_weights;
  gb::triples<bool> pat;
  gb::triples<double> w;
  expand(c.edges, c.build, pat, w, weighted);
  // Repeats: one edge in the pattern; the lightest weight, as BitGraph's builder documents.
  g.a = gb::make_matrix<bool>(g.n, pat, GrB_LOR);
  if (weighted) g.weights = gb::make_matrix<double>(g.n, w, GrB_MIN_FP64);
  g.csr = build_csr(ctx.exec, c.edges, c.build);
  finish(ctx, g);
  return g;
}

file_outcome prepare_file(context& ctx, const std::string& path, std::uint64_t op_seed) {
  file_outcome out;
  gb::matrix a;
  {
    char msg[LAGRAPH_MSG_LEN] = "";
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "r"), &std::fclose);
    if (!f) throw std::runtime_error("oracle: cannot open " + path);
    GrB_Matrix m = nullptr;
    const int status = LAGraph_MMRead(&m, f.get(), msg);
    if (status < 0) {
      if (m != nullptr) GrB_Matrix_free(&m);
      out.lagraph_message = cat("status ", status, ": ", msg);
    } else {
      out.lagraph_ok = true;
      a = gb::matrix(m);
    }
  }
  edge_list edges;
  io::mm_header header;
  try {
    io::mm_read_options ro;
    ro.allow_missing_banner = true;
    ro.pad_rectangular = true;
    // Accept what LAGraph_MMRead accepts: NaN / infinite values (matrix_fp32.mtx) and sparse ids.
    ro.allow_non_finite = true;
    ro.max_vertices_per_entry = 0;
    edges = io::read_matrix_market(path, ro, &header);
    out.bitgraph_ok = true;
  } catch (const std::exception& e) {
    out.bitgraph_message = e.what();
  }
  if (!out.lagraph_ok || !out.bitgraph_ok) return out;

  graph_under_test& g = out.graph;
  g.name = path.substr(path.find_last_of('/') + 1);
  g.op_seed = op_seed;
  GrB_Index nr = 0, nc = 0;
  gb::check(GrB_Matrix_nrows(&nr, a.get()), "GrB_Matrix_nrows");
  gb::check(GrB_Matrix_ncols(&nc, a.get()), "GrB_Matrix_ncols");
  const GrB_Index n = std::max(nr, nc);
  // A rectangular R x C matrix is the graph on max(R, C) vertices, as BitGraph's pad_rectangular.
  if (nr != nc) gb::check(GrB_Matrix_resize(a.get(), n, n), "GrB_Matrix_resize");
  g.n = static_cast<vertex_t>(n);
  const std::string type = gb::type_name(a.get());
  g.float_weights = type == "float";
  g.a = gb::pattern(a.get());
  if (edges.weighted()) g.weights = gb::cast(a.get(), GrB_FP64);
  // Files keep their self-loops; storage decides the kind, as `file:` specs do.
  csr_build_options b;
  b.kind = edges.storage == edge_storage::general ? graph_kind::directed : graph_kind::undirected;
  b.remove_self_loops = false;
  b.remove_duplicates = true;
  b.keep_weights = true;
  g.directed = b.kind == graph_kind::directed;
  g.csr = build_csr(ctx.exec, edges, b);
  finish(ctx, g);
  return out;
}

}  // namespace bitgraph::oracle
