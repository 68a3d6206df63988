#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/generators/graph_spec.hpp"
#include "generators_detail.hpp"

// Sanitizers abort on impossible allocations instead of throwing std::bad_alloc.
#if defined(__SANITIZE_ADDRESS__)
#define BITGRAPH_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define BITGRAPH_TEST_SANITIZED 1
#endif
#endif

using namespace bitgraph;
using Catch::Matchers::ContainsSubstring;

namespace {

// Undirected edges without self-loops: what GAP prints after symmetrising and squishing.
std::vector<std::pair<vertex_t, vertex_t>> undirected_edges(const edge_list& el) {
  std::vector<std::pair<vertex_t, vertex_t>> edges;
  edges.reserve(el.size());
  for (std::size_t i = 0; i < el.size(); ++i) {
    const vertex_t u = el.src[i], v = el.dst[i];
    if (u != v) edges.emplace_back(std::min(u, v), std::max(u, v));
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

std::uint64_t undirected_edge_count(const edge_list& el) { return undirected_edges(el).size(); }

bool ids_in_range(const edge_list& el) {
  for (std::size_t i = 0; i < el.size(); ++i)
    if (el.src[i] >= el.num_vertices || el.dst[i] >= el.num_vertices) return false;
  return true;
}

bool same_entries(const edge_list& a, const edge_list& b) {
  return a.num_vertices == b.num_vertices && a.src == b.src && a.dst == b.dst && a.weights == b.weights &&
         a.storage == b.storage;
}

// ---- Direct transcriptions of GAP's src/generator.h (32-bit NodeID), kept deliberately naive. ----

constexpr std::int64_t gap_block = 1 << 18;

class GapUniDist {
 public:
  GapUniDist(std::uint32_t max_value, std::mt19937& rng) : rng_(rng) {
    no_mod_ = rng_.max() == max_value;
    mod_ = max_value + 1;
    std::uint32_t remainder_sub_1 = static_cast<std::uint32_t>(rng_.max() % mod_);
    if (remainder_sub_1 == mod_ - 1)
      cutoff_ = 0;
    else
      cutoff_ = static_cast<std::uint32_t>(rng_.max() - remainder_sub_1);
  }
  std::uint32_t operator()() {
    std::uint32_t rand_num = static_cast<std::uint32_t>(rng_());
    if (no_mod_) return rand_num;
    if (cutoff_ != 0) {
      while (rand_num >= cutoff_) rand_num = static_cast<std::uint32_t>(rng_());
    }
    return rand_num % mod_;
  }

 private:
  std::mt19937& rng_;
  bool no_mod_;
  std::uint32_t mod_;
  std::uint32_t cutoff_;
};

void gap_permute(std::vector<std::uint32_t>& src, std::vector<std::uint32_t>& dst, std::int64_t num_nodes,
                 std::uint32_t seed) {
  std::vector<std::uint32_t> permutation(static_cast<std::size_t>(num_nodes));
  std::mt19937 rng(seed);
  for (std::int64_t n = 0; n < num_nodes; n++) permutation[n] = static_cast<std::uint32_t>(n);
  std::shuffle(permutation.begin(), permutation.end(), rng);
  for (std::size_t e = 0; e < src.size(); e++) {
    src[e] = permutation[src[e]];
    dst[e] = permutation[dst[e]];
  }
}

edge_list gap_rmat(int scale, int degree, std::uint32_t seed, bool legacy_float) {
  const std::int64_t num_nodes = std::int64_t{1} << scale;
  const std::int64_t num_edges = num_nodes * degree;
  edge_list el;
  el.num_vertices = static_cast<std::uint64_t>(num_nodes);
  el.src.resize(num_edges);
  el.dst.resize(num_edges);
  const std::uint32_t max = std::numeric_limits<std::uint32_t>::max();
  const std::uint32_t A = 0.57 * max, B = 0.19 * max, C = 0.19 * max;
  const float fA = 0.57f, fB = 0.19f, fC = 0.19f;
  std::mt19937 rng;
  std::uniform_real_distribution<float> udist(0, 1.0f);
  for (std::int64_t block = 0; block < num_edges; block += gap_block) {
    rng.seed(seed + block / gap_block);
    for (std::int64_t e = block; e < std::min(block + gap_block, num_edges); e++) {
      std::uint32_t src = 0, dst = 0;
      for (int depth = 0; depth < scale; depth++) {
        src = src << 1;
        dst = dst << 1;
        if (legacy_float) {
          float rand_point = udist(rng);
          if (rand_point < fA + fB) {
            if (rand_point > fA) dst++;
          } else {
            src++;
            if (rand_point > fA + fB + fC) dst++;
          }
        } else {
          std::uint32_t rand_point = rng();
          if (rand_point < A + B) {
            if (rand_point > A) dst++;
          } else {
            src++;
            if (rand_point > A + B + C) dst++;
          }
        }
      }
      el.src[e] = src;
      el.dst[e] = dst;
    }
  }
  gap_permute(el.src, el.dst, num_nodes, seed);
  return el;
}

edge_list gap_uniform(int scale, int degree, std::uint32_t seed) {
  const std::int64_t num_nodes = std::int64_t{1} << scale;
  const std::int64_t num_edges = num_nodes * degree;
  edge_list el;
  el.num_vertices = static_cast<std::uint64_t>(num_nodes);
  el.src.resize(num_edges);
  el.dst.resize(num_edges);
  std::mt19937 rng;
  GapUniDist udist(static_cast<std::uint32_t>(num_nodes - 1), rng);
  for (std::int64_t block = 0; block < num_edges; block += gap_block) {
    rng.seed(seed + block / gap_block);
    for (std::int64_t e = block; e < std::min(block + gap_block, num_edges); e++) {
      el.src[e] = udist();
      el.dst[e] = udist();
    }
  }
  return el;
}

std::vector<double> gap_weights(std::int64_t el_size, std::uint32_t seed) {
  std::vector<double> w(static_cast<std::size_t>(el_size));
  std::mt19937 rng;
  GapUniDist udist(254, rng);
  for (std::int64_t block = 0; block < el_size; block += gap_block) {
    rng.seed(seed + block / gap_block);
    for (std::int64_t e = block; e < std::min(block + gap_block, el_size); e++) w[e] = udist() + 1;
  }
  return w;
}

// Restores the environment variable a test overrides.
class env_guard {
 public:
  explicit env_guard(const char* name) : name_(name) {
    if (const char* v = std::getenv(name)) saved_ = v, had_ = true;
  }
  ~env_guard() {
    if (had_)
      setenv(name_, saved_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::string saved_;
  bool had_ = false;
};

}  // namespace

TEST_CASE("mt19937_block produces std::mt19937's sequence", "[generators]") {
  for (std::uint32_t seed : {0u, 1u, 5489u, gen::gap_seed, 0xffffffffu}) {
    std::mt19937 reference(seed);
    detail::mt19937_block engine(seed);
    bool same = true;
    for (int i = 0; i < 5000; ++i) same = same && engine() == static_cast<std::uint32_t>(reference());
    CHECK(same);
    // Reseeding mid-stream restarts the sequence, as GAP does for every block.
    reference.seed(seed + 7);
    engine.seed(seed + 7);
    for (int i = 0; i < 1500; ++i) same = same && engine() == static_cast<std::uint32_t>(reference());
    CHECK(same);
  }
}

TEST_CASE("kron reproduces GAP's -g edge counts", "[generators]") {
  const edge_list g10 = gen::kronecker(10);
  CHECK(g10.num_vertices == 1024);
  CHECK(g10.size() == 1024 * 16);
  CHECK(g10.storage == edge_storage::general);
  CHECK(ids_in_range(g10));
  CHECK(undirected_edge_count(g10) == 10'496);

  const edge_list g16 = gen::kronecker(16);
  CHECK(g16.num_vertices == 65'536);
  CHECK(g16.size() == 65'536u * 16);
  CHECK(ids_in_range(g16));
  CHECK(undirected_edge_count(g16) == 909'646);
}

TEST_CASE("kron matches a transcription of GAP's MakeRMatEL and PermuteIDs", "[generators]") {
  // degree 80 at scale 12 spans two full blocks and a partial one.
  for (std::uint32_t seed : {gen::gap_seed, 12345u}) {
    const edge_list ours = gen::kronecker(12, 80, seed, 3);
    const edge_list ref = gap_rmat(12, 80, seed, false);
    CHECK(ours.src == ref.src);
    CHECK(ours.dst == ref.dst);
  }
  const edge_list legacy = gen::kronecker(11, 200, gen::gap_seed, 2, gen::kronecker_variant::gap_legacy_float);
  const edge_list legacy_ref = gap_rmat(11, 200, gen::gap_seed, true);
  CHECK(legacy.src == legacy_ref.src);
  CHECK(legacy.dst == legacy_ref.dst);
  // The older sampler gives the same -g10 graph size; it differs from the current one at larger scales.
  CHECK(undirected_edge_count(gen::kronecker(10, 16, gen::gap_seed, 0, gen::kronecker_variant::gap_legacy_float)) ==
        10'496);
}

TEST_CASE("urand reproduces GAP's -u edge counts and draws", "[generators]") {
  const edge_list u10 = gen::uniform_random(10);
  CHECK(u10.num_vertices == 1024);
  CHECK(u10.size() == 1024 * 16);
  CHECK(undirected_edge_count(u10) == 16'125);

  const edge_list u16 = gen::uniform_random(16);
  CHECK(u16.num_vertices == 65'536);
  CHECK(ids_in_range(u16));
  CHECK(undirected_edge_count(u16) == 1'048'276);

  const edge_list ours = gen::uniform_random(11, 300, 99, 3);
  const edge_list ref = gap_uniform(11, 300, 99);
  CHECK(ours.src == ref.src);
  CHECK(ours.dst == ref.dst);
}

TEST_CASE("GAP weights are 1..255 and match InsertWeights", "[generators]") {
  edge_list el = gen::kronecker(16, 16, gen::gap_seed, 2);
  gen::insert_gap_weights(el, gen::gap_seed, 3);
  REQUIRE(el.weights.size() == el.size());
  CHECK(el.weights == gap_weights(static_cast<std::int64_t>(el.size()), gen::gap_seed));
  std::vector<std::uint64_t> histogram(256, 0);
  bool integral_in_range = true;
  for (double w : el.weights) {
    integral_in_range = integral_in_range && w >= 1 && w <= 255 && w == std::floor(w);
    if (integral_in_range) ++histogram[static_cast<std::size_t>(w)];
  }
  CHECK(integral_in_range);
  // ~4112 draws per value: every value occurs and none is far off uniform.
  const auto [lo, hi] = std::minmax_element(histogram.begin() + 1, histogram.end());
  CHECK(*lo > 3500);
  CHECK(*hi < 4800);

  const edge_list weighted = gen::generate(gen::parse_graph_spec("urand:12:weighted:seed=7"), 2);
  CHECK(weighted.weights == gap_weights(static_cast<std::int64_t>(weighted.size()), 7));
}

TEST_CASE("generators are deterministic and independent of the thread count", "[generators]") {
  for (const char* text : {"kron:16", "urand:16:weighted", "rgg:14", "grid2d:300", "grid3d:40", "mycielski:10",
                           "kron:13:degree=70:seed=3"}) {
    INFO(text);
    const auto spec = gen::parse_graph_spec(text);
    const edge_list one = gen::generate(spec, 1);
    const edge_list three = gen::generate(spec, 3);
    const edge_list again = gen::generate(spec, 3);
    CHECK(same_entries(one, three));
    CHECK(same_entries(three, again));
    CHECK(one.name == gen::to_string(spec));
  }
  CHECK_FALSE(same_entries(gen::kronecker(12, 16, 1), gen::kronecker(12, 16, 2)));
  CHECK_FALSE(same_entries(gen::random_geometric(12, 1), gen::random_geometric(12, 2)));
}

TEST_CASE("BITGRAPH_GEN_THREADS sets the default thread count", "[generators]") {
  env_guard guard("BITGRAPH_GEN_THREADS");
  setenv("BITGRAPH_GEN_THREADS", "3", 1);
  CHECK(gen::generator_threads() == 3);
  CHECK(gen::generator_threads(5) == 5);
  setenv("BITGRAPH_GEN_THREADS", "many", 1);
  CHECK_THROWS_WITH(gen::generator_threads(), ContainsSubstring("BITGRAPH_GEN_THREADS='many'"));
  setenv("BITGRAPH_GEN_THREADS", "0", 1);
  CHECK_THROWS_AS(gen::generator_threads(), invalid_argument_error);
  unsetenv("BITGRAPH_GEN_THREADS");
  CHECK(gen::generator_threads() >= 1);
}

TEST_CASE("grids have the 4- and 6-neighbour structure", "[generators]") {
  for (std::uint64_t k : {1u, 2u, 3u, 7u, 100u}) {
    INFO("grid2d k = " << k);
    const edge_list g = gen::grid_2d(k, 2);
    CHECK(g.num_vertices == k * k);
    CHECK(g.storage == edge_storage::symmetric);
    CHECK(g.size() == 2 * k * (k - 1));
    CHECK(undirected_edge_count(g) == g.size());
    bool adjacent = true;
    for (std::size_t e = 0; e < g.size(); ++e) {
      const std::uint64_t u = g.src[e], v = g.dst[e];
      const auto ui = u / k, uj = u % k, vi = v / k, vj = v % k;
      const std::uint64_t dist = (ui > vi ? ui - vi : vi - ui) + (uj > vj ? uj - vj : vj - uj);
      adjacent = adjacent && dist == 1 && u < v;
    }
    CHECK(adjacent);
  }
  for (std::uint64_t k : {1u, 2u, 5u, 20u}) {
    INFO("grid3d k = " << k);
    const edge_list g = gen::grid_3d(k, 3);
    CHECK(g.num_vertices == k * k * k);
    CHECK(g.storage == edge_storage::symmetric);
    CHECK(g.size() == 3 * k * k * (k - 1));
    CHECK(undirected_edge_count(g) == g.size());
    bool adjacent = true;
    for (std::size_t e = 0; e < g.size(); ++e) {
      const std::uint64_t u = g.src[e], v = g.dst[e];
      const std::uint64_t cu[3] = {u / (k * k), u / k % k, u % k};
      const std::uint64_t cv[3] = {v / (k * k), v / k % k, v % k};
      std::uint64_t dist = 0;
      for (int d = 0; d < 3; ++d) dist += cu[d] > cv[d] ? cu[d] - cv[d] : cv[d] - cu[d];
      adjacent = adjacent && dist == 1 && u < v;
    }
    CHECK(adjacent);
  }
  // The limits are the largest sides whose vertex count stays below 2^32 - 1.
  constexpr std::uint64_t limit = std::uint64_t{0xffffffff};
  CHECK(gen::max_grid_2d_k * gen::max_grid_2d_k < limit);
  CHECK((gen::max_grid_2d_k + 1) * (gen::max_grid_2d_k + 1) >= limit);
  CHECK(gen::max_grid_3d_k * gen::max_grid_3d_k * gen::max_grid_3d_k < limit);
  CHECK((gen::max_grid_3d_k + 1) * (gen::max_grid_3d_k + 1) * (gen::max_grid_3d_k + 1) >= limit);
}

TEST_CASE("mycielski matches SuiteSparse's mycielskian graphs", "[generators]") {
  const edge_list m9 = gen::mycielski(9);
  CHECK(m9.num_vertices == 383);
  CHECK(m9.storage == edge_storage::symmetric);
  CHECK(undirected_edge_count(m9) == m9.size());  // no loops, no repeats: stored entries = 2 * size
  CHECK(2 * m9.size() == 14'542);
  CHECK(gen::mycielski_vertices(9) == 383);
  CHECK(gen::mycielski_edges(9) == m9.size());

  const edge_list m13 = gen::mycielski(13);
  CHECK(m13.num_vertices == 6'143);
  CHECK(undirected_edge_count(m13) == m13.size());
  CHECK(2 * m13.size() == 1'227'742);
  CHECK(ids_in_range(m13));

  // M_3 is the 5-cycle.
  const edge_list m3 = gen::mycielski(3);
  REQUIRE(m3.num_vertices == 5);
  REQUIRE(m3.size() == 5);
  std::vector<int> degree(5, 0);
  for (std::size_t e = 0; e < m3.size(); ++e) ++degree[m3.src[e]], ++degree[m3.dst[e]];
  CHECK(std::all_of(degree.begin(), degree.end(), [](int d) { return d == 2; }));

  const edge_list m6 = gen::mycielski(6);
  const std::size_t n = m6.num_vertices;
  std::vector<std::vector<bool>> adj(n, std::vector<bool>(n, false));
  for (std::size_t e = 0; e < m6.size(); ++e) adj[m6.src[e]][m6.dst[e]] = adj[m6.dst[e]][m6.src[e]] = true;
  std::uint64_t triangles = 0;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      for (std::size_t c = b + 1; c < n; ++c) triangles += adj[a][b] && adj[b][c] && adj[a][c];
  CHECK(n == 47);
  CHECK(m6.size() == 236);
  CHECK(triangles == 0);
}

TEST_CASE("rgg connects exactly the points closer than the radius", "[generators]") {
  const gen::geometric_graph g = gen::random_geometric_graph(11, 5, 3);
  const std::size_t n = 2048;
  REQUIRE(g.x.size() == n);
  REQUIRE(g.y.size() == n);
  CHECK(g.radius == gen::random_geometric_radius(11));
  CHECK(g.radius == 0.55 * std::sqrt(std::log(2048.0) / 2048.0));
  CHECK(g.edges.storage == edge_storage::symmetric);
  std::set<std::pair<vertex_t, vertex_t>> expected;
  for (std::size_t p = 0; p < n; ++p)
    for (std::size_t q = p + 1; q < n; ++q)
      if ((g.x[p] - g.x[q]) * (g.x[p] - g.x[q]) + (g.y[p] - g.y[q]) * (g.y[p] - g.y[q]) < g.radius * g.radius)
        expected.emplace(static_cast<vertex_t>(p), static_cast<vertex_t>(q));
  std::set<std::pair<vertex_t, vertex_t>> actual;
  bool ordered = true;
  for (std::size_t e = 0; e < g.edges.size(); ++e) {
    ordered = ordered && g.edges.src[e] < g.edges.dst[e];
    actual.emplace(g.edges.src[e], g.edges.dst[e]);
  }
  CHECK(ordered);
  CHECK(actual.size() == g.edges.size());
  CHECK(actual == expected);
  bool in_square = true;
  for (std::size_t v = 0; v < n; ++v) in_square = in_square && g.x[v] >= 0 && g.x[v] < 1 && g.y[v] >= 0 && g.y[v] < 1;
  CHECK(in_square);

  // Ids follow the row-major order of cells of side 1 / floor(1 / radius).
  const double side = std::floor(1.0 / g.radius);
  bool cell_order = true;
  double previous = -1;
  for (std::size_t v = 0; v < n; ++v) {
    const double cell =
        std::min(std::floor(g.y[v] * side), side - 1) * side + std::min(std::floor(g.x[v] * side), side - 1);
    cell_order = cell_order && cell >= previous;
    previous = cell;
  }
  CHECK(cell_order);
}

TEST_CASE("rgg average degree matches the expected 0.95 ln n", "[generators]") {
  const unsigned scale = 16;
  const edge_list g = gen::random_geometric(scale);
  const double n = 65536, r = gen::random_geometric_radius(scale);
  // Probability that two uniform points in the unit square are closer than r.
  const double p = std::numbers::pi * r * r - 8.0 / 3.0 * r * r * r + r * r * r * r / 2;
  const double expected = (n - 1) * p;
  const double average = 2.0 * static_cast<double>(g.size()) / n;
  CHECK(std::abs(average - expected) < 0.02 * expected);
  CHECK(std::abs(average - 0.95 * std::log(n)) < 0.05 * average);
  CHECK(undirected_edge_count(g) == g.size());
}

TEST_CASE("graph specs parse and print", "[generators]") {
  using gen::graph_source;
  const auto kron = gen::parse_graph_spec("kron:20");
  CHECK(kron.source == graph_source::kronecker);
  CHECK(kron.parameter == 20);
  CHECK(kron.seed == gen::gap_seed);
  CHECK(kron.degree == 16);
  CHECK_FALSE(kron.weighted);
  CHECK_FALSE(kron.kind.has_value());

  const auto urand = gen::parse_graph_spec("urand:16:weighted");
  CHECK(urand.source == graph_source::uniform_random);
  CHECK(urand.weighted);

  CHECK(gen::parse_graph_spec("grid2d:2048").source == graph_source::grid_2d);
  CHECK(gen::parse_graph_spec("grid3d:64").parameter == 64);
  const auto rgg = gen::parse_graph_spec("rgg:16:seed=3");
  CHECK(rgg.source == graph_source::random_geometric);
  CHECK(rgg.seed == 3);
  CHECK(gen::parse_graph_spec("mycielski:12").source == graph_source::mycielski);

  const auto file = gen::parse_graph_spec("file:path/to/graph.mtx:undirected");
  CHECK(file.source == graph_source::file);
  CHECK(file.path == "path/to/graph.mtx");
  CHECK(file.format == gen::file_format::matrix_market);
  CHECK(file.kind == graph_kind::undirected);
  const auto el_file = gen::parse_graph_spec("file:C:/data/g:1.el:loops:weighted");
  CHECK(el_file.path == "C:/data/g:1.el");
  CHECK(el_file.format == gen::file_format::edge_list);
  CHECK(el_file.keep_self_loops);
  CHECK(el_file.weighted);
  CHECK(gen::parse_graph_spec("file:G.MTX").format == gen::file_format::matrix_market);

  for (const char* text : {"kron:20", "urand:16:weighted", "grid2d:2048", "grid3d:64", "rgg:16:seed=3", "mycielski:12",
                           "file:path/to/graph.mtx:undirected", "kron:10:degree=8:seed=0:weighted:directed:loops",
                           "file:a:b.el:seed=9:weighted", "kron:10:order=degree", "kron:10:order=cluster",
                           "grid2d:64:loops:order=rcm", "file:x.mtx:undirected:order=random"}) {
    INFO(text);
    const auto spec = gen::parse_graph_spec(text);
    CHECK(gen::to_string(spec) == text);
    CHECK(gen::parse_graph_spec(gen::to_string(spec)) == spec);
  }
  CHECK(gen::parse_graph_spec("kron:10:order=degree").order == gen::vertex_ordering::degree);
  CHECK(gen::parse_graph_spec("kron:10:order=cluster").order == gen::vertex_ordering::cluster);
  CHECK(gen::ordering_name(gen::vertex_ordering::cluster) == "cluster");
  CHECK(gen::parse_graph_spec("file:g:1.mtx:order=rcm").path == "g:1.mtx");
  CHECK(gen::parse_graph_spec("kron:10:order=none") == gen::parse_graph_spec("kron:10"));
  CHECK(gen::ordering_name(gen::vertex_ordering::random) == "random");
  // Options in any order print canonically.
  CHECK(gen::to_string(gen::parse_graph_spec("kron:12:loops:seed=27491095:degree=16:undirected")) ==
        "kron:12:undirected:loops");
}

TEST_CASE("graph specs reject bad input with a clear message", "[generators]") {
  auto rejects = [](const char* text, const char* part) {
    INFO(text);
    CHECK_THROWS_AS(gen::parse_graph_spec(text), invalid_argument_error);
    CHECK_THROWS_WITH(gen::parse_graph_spec(text), ContainsSubstring(part));
  };
  rejects("", "empty graph spec");
  rejects("kronecker:10", "unknown generator 'kronecker'");
  rejects("kron", "missing parameter");
  rejects("kron:", "missing parameter");
  rejects("kron:abc", "parameter 'abc'");
  rejects("kron:-3", "parameter '-3'");
  rejects("kron:10x", "parameter '10x'");
  rejects("kron:0", "scale 0 is out of range");
  rejects("urand:32", "scale 32 is out of range");
  rejects("rgg:99999999999999999999", "parameter '99999999999999999999'");
  rejects("grid2d:0", "grid side 0 is out of range");
  rejects("grid2d:65536", "grid side 65536 is out of range");
  rejects("grid3d:1626", "grid side 1626 is out of range");
  rejects("mycielski:1", "order 1 is out of range");
  rejects("mycielski:32", "order 32 is out of range");
  rejects("rgg:16:bogus", "unknown option 'bogus'");
  rejects("kron:10::weighted", "empty option");
  rejects("kron:10:seed=", "'seed=' needs an integer value");
  rejects("kron:10:seed=x1", "'seed=x1' needs an integer value");
  rejects("kron:10:seed=4294967296", "'seed=4294967296' needs an integer value in 0..4294967295");
  rejects("kron:10:degree=0", "'degree=0' needs an integer value in 1..");
  rejects("grid2d:4:degree=8", "'degree' applies only to kron and urand");
  rejects("kron:10:weighted=1", "'weighted' takes no value");
  rejects("kron:10:weighted:weighted", "'weighted' is given more than once");
  rejects("kron:10:directed:undirected", "at most one of 'directed' and 'undirected'");
  rejects("kron:10:order=hub", "'order=hub' needs one of order=degree");
  rejects("kron:10:order", "'order' needs one of");
  rejects("kron:10:order=rcm:order=degree", "'order' is given more than once");
  rejects("file", "missing path");
  rejects("file:", "missing path");
}

TEST_CASE("graph specs imply CSR build options", "[generators]") {
  const auto kron = gen::parse_graph_spec("kron:10").build_options();
  CHECK(kron.kind == graph_kind::undirected);
  CHECK(kron.remove_self_loops);
  CHECK(kron.remove_duplicates);
  CHECK_FALSE(kron.keep_weights);
  CHECK(gen::parse_graph_spec("kron:10:weighted").build_options().keep_weights);
  const auto directed = gen::parse_graph_spec("grid2d:10:directed:loops").build_options(edge_storage::symmetric);
  CHECK(directed.kind == graph_kind::directed);
  CHECK_FALSE(directed.remove_self_loops);

  const auto file = gen::parse_graph_spec("file:g.mtx");
  CHECK(file.build_options(edge_storage::general).kind == graph_kind::directed);
  CHECK(file.build_options(edge_storage::symmetric).kind == graph_kind::undirected);
  CHECK(file.build_options().keep_weights);
  CHECK(gen::parse_graph_spec("file:g.mtx:undirected").build_options().kind == graph_kind::undirected);
}

TEST_CASE("generators reject sizes they cannot represent", "[generators]") {
  CHECK_THROWS_AS(gen::kronecker(0), invalid_argument_error);
  CHECK_THROWS_WITH(gen::kronecker(32), ContainsSubstring("scale 32 is out of range"));
  CHECK_THROWS_AS(gen::uniform_random(10, 0), invalid_argument_error);
  CHECK_THROWS_AS(gen::grid_2d(0), invalid_argument_error);
  CHECK_THROWS_AS(gen::grid_3d(gen::max_grid_3d_k + 1), invalid_argument_error);
  CHECK_THROWS_AS(gen::mycielski(1), invalid_argument_error);
  CHECK_THROWS_AS(gen::random_geometric(0), invalid_argument_error);
  CHECK_THROWS_WITH(gen::generate(gen::parse_graph_spec("file:g.mtx")), ContainsSubstring("load it with bitgraph::io"));
  // 2^31 * (2^32 - 1) entries: more than a std::vector can index.
  CHECK_THROWS_AS(gen::uniform_random(31, 0xffffffffu, gen::gap_seed, 1), size_error);
#ifndef BITGRAPH_TEST_SANITIZED
  // 2^60 bytes: more than any address space, so the allocation fails at once.
  CHECK_THROWS_WITH((detail::checked_vector<double>(std::uint64_t{1} << 57, "test", "a huge buffer")),
                    ContainsSubstring("cannot allocate a huge buffer"));
  CHECK_THROWS_AS((detail::checked_vector<double>(std::uint64_t{1} << 57, "test", "a huge buffer")), allocation_error);
#endif
}
