// GAP Benchmark Suite generators (src/generator.h), reproduced draw for draw: Kronecker (R-MAT),
// uniform random, and SSSP weights.

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <thread>

#include "bitgraph/core/error.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/generators/graph_spec.hpp"
#include "generators_detail.hpp"

namespace bitgraph::gen {

namespace {

// GAP's UniDist for 32-bit ids: the low part of a draw modulo max_value + 1, rejecting the draws above
// the last whole multiple. Consuming exactly GAP's number of draws is what keeps later values in step.
class gap_uniform {
 public:
  gap_uniform(std::uint32_t max_value, detail::mt19937_block& rng) : rng_(rng) {
    constexpr std::uint32_t rng_max = detail::mt19937_block::max();
    no_mod_ = max_value == rng_max;
    mod_ = max_value + 1u;
    // GAP computes rng_max % mod_ even when mod_ wrapped to 0; it never uses it then, so skip it.
    if (!no_mod_) {
      const std::uint32_t remainder_sub_1 = rng_max % mod_;
      cutoff_ = remainder_sub_1 == mod_ - 1 ? 0 : rng_max - remainder_sub_1;
    }
  }

  std::uint32_t operator()() {
    auto r = static_cast<std::uint32_t>(rng_());
    if (no_mod_) return r;
    if (cutoff_ != 0)
      while (r >= cutoff_) r = static_cast<std::uint32_t>(rng_());
    return r % mod_;
  }

 private:
  detail::mt19937_block& rng_;
  bool no_mod_ = false;
  std::uint32_t mod_ = 0;
  std::uint32_t cutoff_ = 0;
};

// GAP seeds block b with kRandSeed + b computed in 64 bits; mt19937::seed keeps it modulo 2^32.
std::uint32_t block_seed(std::uint32_t seed, std::uint64_t block) {
  return static_cast<std::uint32_t>(std::uint64_t{seed} + block);
}

std::uint64_t gap_edge_count(unsigned scale, std::uint32_t edge_factor, const char* func) {
  BITGRAPH_CHECK_ARG(scale >= 1 && scale <= max_scale, func, "scale ", scale, " is out of range 1..", max_scale);
  BITGRAPH_CHECK_ARG(edge_factor >= 1, func, "edge factor must be at least 1");
  // 2^31 * (2^32 - 1) < 2^64: the product always fits.
  return (std::uint64_t{1} << scale) * edge_factor;
}

std::string gap_name(graph_source source, unsigned scale, std::uint32_t edge_factor, std::uint32_t seed) {
  graph_spec spec;
  spec.source = source;
  spec.parameter = scale;
  spec.degree = edge_factor;
  spec.seed = seed;
  return to_string(spec);
}

// One block of current GAP's R-MAT: `count` edges from an engine already seeded for the block.
void rmat_block(detail::mt19937_block& rng, unsigned scale, vertex_t* src, vertex_t* dst, std::uint64_t count) {
  // GAP: `const uint32_t A = 0.57*max, ...` — products in double, truncated; sums in uint32.
  constexpr std::uint32_t max = std::numeric_limits<std::uint32_t>::max();
  constexpr auto a = static_cast<std::uint32_t>(0.57 * max);
  constexpr auto b = static_cast<std::uint32_t>(0.19 * max);
  constexpr auto c = static_cast<std::uint32_t>(0.19 * max);
  constexpr std::uint32_t ab = a + b;
  constexpr std::uint32_t abc = a + b + c;
  for (std::uint64_t e = 0; e < count; ++e) {
    vertex_t s = 0, d = 0;
    for (unsigned depth = 0; depth < scale; ++depth) {
      const auto p = static_cast<std::uint32_t>(rng());
      // GAP's branches (`p < A+B ? (p > A) : (p > A+B+C)` for dst, `p >= A+B` for src) as bit
      // arithmetic: the quadrant is random, so branches would mispredict about once per level.
      const vertex_t src_bit = p >= ab;
      const vertex_t dst_bit = static_cast<vertex_t>((p > a) & (p < ab)) | static_cast<vertex_t>(p > abc);
      s = (s << 1) | src_bit;
      d = (d << 1) | dst_bit;
    }
    src[e] = s;
    dst[e] = d;
  }
}

// One block of older GAP's R-MAT: thresholds summed in float, draws from libstdc++'s
// uniform_real_distribution<float> over std::mt19937.
void rmat_block_legacy_float(std::mt19937& rng, unsigned scale, vertex_t* src, vertex_t* dst, std::uint64_t count) {
  const float a = 0.57f, b = 0.19f, c = 0.19f;
  std::uniform_real_distribution<float> udist(0, 1.0f);
  for (std::uint64_t e = 0; e < count; ++e) {
    vertex_t s = 0, d = 0;
    for (unsigned depth = 0; depth < scale; ++depth) {
      const float p = udist(rng);
      s <<= 1;
      d <<= 1;
      if (p < a + b) {
        if (p > a) ++d;
      } else {
        ++s;
        if (p > a + b + c) ++d;
      }
    }
    src[e] = s;
    dst[e] = d;
  }
}

// GAP's PermuteIDs: a sequential std::shuffle with mt19937(seed) over ids stored behind an iterator
// whose difference type is ptrdiff_t (GAP's pvector<NodeID>::iterator is a pointer), then relabelling.
void permute_ids(edge_list& edges, std::uint32_t seed, unsigned threads, const char* func) {
  auto perm = detail::checked_vector<vertex_t>(edges.num_vertices, func, "the vertex permutation");
  std::iota(perm.begin(), perm.end(), vertex_t{0});
  std::mt19937 rng(seed);
  std::shuffle(perm.data(), perm.data() + perm.size(), rng);
  vertex_t* src = edges.src.data();
  vertex_t* dst = edges.dst.data();
  detail::parallel_chunks(edges.size(), std::uint64_t{1} << 16, threads, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t e = begin; e < end; ++e) {
      src[e] = perm[src[e]];
      dst[e] = perm[dst[e]];
    }
  });
}

}  // namespace

unsigned generator_threads(unsigned requested) {
  if (requested > 0) return requested;
  if (const char* env = std::getenv("BITGRAPH_GEN_THREADS"); env != nullptr && *env != '\0') {
    const std::string_view text(env);
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    BITGRAPH_CHECK_ARG(ec == std::errc() && end == text.data() + text.size() && value > 0, "gen::generator_threads",
                       "BITGRAPH_GEN_THREADS='", text, "' is not a positive integer");
    return value;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

edge_list kronecker(unsigned scale, std::uint32_t edge_factor, std::uint32_t seed, unsigned threads,
                    kronecker_variant variant) {
  constexpr const char* func = "gen::kronecker";
  const std::uint64_t num_edges = gap_edge_count(scale, edge_factor, func);
  BITGRAPH_CHECK_ARG(variant == kronecker_variant::gap || variant == kronecker_variant::gap_legacy_float, func,
                     "unknown Kronecker variant ", static_cast<int>(variant));
  threads = generator_threads(threads);
  edge_list edges;
  edges.num_vertices = std::uint64_t{1} << scale;
  edges.storage = edge_storage::general;
  edges.src = detail::checked_vector<vertex_t>(num_edges, func, "the edge sources");
  edges.dst = detail::checked_vector<vertex_t>(num_edges, func, "the edge destinations");
  vertex_t* src = edges.src.data();
  vertex_t* dst = edges.dst.data();
  const std::uint64_t num_blocks = (num_edges - 1) / gap_block_size + 1;
  detail::parallel_chunks(num_blocks, 1, threads, [&](std::uint64_t first, std::uint64_t last) {
    detail::mt19937_block rng;
    std::mt19937 legacy_rng;
    for (std::uint64_t block = first; block < last; ++block) {
      const std::uint64_t begin = block * gap_block_size;
      const std::uint64_t count = std::min(gap_block_size, num_edges - begin);
      if (variant == kronecker_variant::gap) {
        rng.seed(block_seed(seed, block));
        rmat_block(rng, scale, src + begin, dst + begin, count);
      } else {
        legacy_rng.seed(block_seed(seed, block));
        rmat_block_legacy_float(legacy_rng, scale, src + begin, dst + begin, count);
      }
    }
  });
  permute_ids(edges, seed, threads, func);
  edges.name = gap_name(graph_source::kronecker, scale, edge_factor, seed);
  // No spec selects the legacy sampler, so say so in the name rather than print a spec that lies.
  if (variant == kronecker_variant::gap_legacy_float) edges.name += " (legacy float R-MAT)";
  return edges;
}

edge_list uniform_random(unsigned scale, std::uint32_t edge_factor, std::uint32_t seed, unsigned threads) {
  constexpr const char* func = "gen::uniform_random";
  const std::uint64_t num_edges = gap_edge_count(scale, edge_factor, func);
  threads = generator_threads(threads);
  edge_list edges;
  edges.num_vertices = std::uint64_t{1} << scale;
  edges.storage = edge_storage::general;
  edges.src = detail::checked_vector<vertex_t>(num_edges, func, "the edge sources");
  edges.dst = detail::checked_vector<vertex_t>(num_edges, func, "the edge destinations");
  vertex_t* src = edges.src.data();
  vertex_t* dst = edges.dst.data();
  const auto max_id = static_cast<std::uint32_t>(edges.num_vertices - 1);
  const std::uint64_t num_blocks = (num_edges - 1) / gap_block_size + 1;
  detail::parallel_chunks(num_blocks, 1, threads, [&](std::uint64_t first, std::uint64_t last) {
    detail::mt19937_block rng;
    gap_uniform udist(max_id, rng);
    for (std::uint64_t block = first; block < last; ++block) {
      rng.seed(block_seed(seed, block));
      const std::uint64_t begin = block * gap_block_size;
      const std::uint64_t end = std::min(begin + gap_block_size, num_edges);
      // GAP writes Edge(udist(), udist()), whose argument order is unspecified; the first draw is the
      // source here. The undirected graph GAP builds is the same either way.
      for (std::uint64_t e = begin; e < end; ++e) {
        src[e] = udist();
        dst[e] = udist();
      }
    }
  });
  edges.name = gap_name(graph_source::uniform_random, scale, edge_factor, seed);
  return edges;
}

void insert_gap_weights(edge_list& edges, std::uint32_t seed, unsigned threads) {
  constexpr const char* func = "gen::insert_gap_weights";
  BITGRAPH_CHECK_ARG(edges.src.size() == edges.dst.size(), func, "edge list has ", edges.src.size(), " sources but ",
                     edges.dst.size(), " destinations");
  threads = generator_threads(threads);
  const std::uint64_t count = edges.size();
  auto weights = detail::checked_vector<double>(count, func, "the edge weights");
  double* w = weights.data();
  const std::uint64_t num_blocks = count == 0 ? 0 : (count - 1) / gap_block_size + 1;
  detail::parallel_chunks(num_blocks, 1, threads, [&](std::uint64_t first, std::uint64_t last) {
    detail::mt19937_block rng;
    gap_uniform udist(254, rng);
    for (std::uint64_t block = first; block < last; ++block) {
      rng.seed(block_seed(seed, block));
      const std::uint64_t begin = block * gap_block_size;
      const std::uint64_t end = std::min(begin + gap_block_size, count);
      for (std::uint64_t e = begin; e < end; ++e) w[e] = static_cast<double>(udist() + 1);
    }
  });
  edges.weights = std::move(weights);
}

}  // namespace bitgraph::gen
