// Small random edge lists for property tests: duplicates, self-loops, isolated vertices, any n.
#pragma once

#include <cstdint>
#include <random>

#include "bitgraph/formats/edge_list.hpp"

namespace bitgraph::test {

/// `m` random entries on `n` vertices (may repeat, may be loops), optionally weighted 1..9.
inline edge_list random_edges(std::uint64_t n, std::uint64_t m, std::uint64_t seed, bool weighted = false) {
  edge_list el;
  el.num_vertices = n;
  el.name = "random";
  if (n == 0) return el;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint64_t> pick(0, n - 1);
  std::uniform_int_distribution<int> wpick(1, 9);
  for (std::uint64_t e = 0; e < m; ++e) {
    el.src.push_back(static_cast<vertex_t>(pick(rng)));
    el.dst.push_back(static_cast<vertex_t>(pick(rng)));
    if (weighted) el.weights.push_back(wpick(rng));
  }
  return el;
}

}  // namespace bitgraph::test
