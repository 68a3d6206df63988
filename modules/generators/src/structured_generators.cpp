// Deterministic structured graphs: 2D / 3D grids and the Mycielski sequence.

#include <cstdint>
#include <string>

#include "bitgraph/core/error.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/generators/graph_spec.hpp"
#include "generators_detail.hpp"

namespace bitgraph::gen {

namespace {

std::string structured_name(graph_source source, std::uint64_t parameter) {
  graph_spec spec;
  spec.source = source;
  spec.parameter = parameter;
  return to_string(spec);
}

}  // namespace

edge_list grid_2d(std::uint64_t k, unsigned threads) {
  constexpr const char* func = "gen::grid_2d";
  BITGRAPH_CHECK_ARG(k >= 1 && k <= max_grid_2d_k, func, "side ", k, " is out of range 1..", max_grid_2d_k,
                     " (k^2 vertices must be fewer than 2^32 - 1)");
  threads = generator_threads(threads);
  const std::uint64_t num_edges = 2 * k * (k - 1);
  edge_list edges;
  edges.num_vertices = k * k;
  edges.storage = edge_storage::symmetric;
  edges.src = detail::checked_vector<vertex_t>(num_edges, func, "the edge sources");
  edges.dst = detail::checked_vector<vertex_t>(num_edges, func, "the edge destinations");
  vertex_t* src = edges.src.data();
  vertex_t* dst = edges.dst.data();
  // Every row before the last holds k - 1 horizontal and k vertical edges, so row i starts at i(2k - 1)
  // and rows can be written independently.
  detail::parallel_chunks(k, 64, threads, [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t i = first; i < last; ++i) {
      std::uint64_t e = i * (2 * k - 1);
      for (std::uint64_t j = 0; j < k; ++j) {
        const std::uint64_t v = i * k + j;
        if (j + 1 < k) {
          src[e] = static_cast<vertex_t>(v);
          dst[e++] = static_cast<vertex_t>(v + 1);
        }
        if (i + 1 < k) {
          src[e] = static_cast<vertex_t>(v);
          dst[e++] = static_cast<vertex_t>(v + k);
        }
      }
    }
  });
  edges.name = structured_name(graph_source::grid_2d, k);
  return edges;
}

edge_list grid_3d(std::uint64_t k, unsigned threads) {
  constexpr const char* func = "gen::grid_3d";
  BITGRAPH_CHECK_ARG(k >= 1 && k <= max_grid_3d_k, func, "side ", k, " is out of range 1..", max_grid_3d_k,
                     " (k^3 vertices must be fewer than 2^32 - 1)");
  threads = generator_threads(threads);
  const std::uint64_t plane = k * k;
  const std::uint64_t num_edges = 3 * plane * (k - 1);
  edge_list edges;
  edges.num_vertices = plane * k;
  edges.storage = edge_storage::symmetric;
  edges.src = detail::checked_vector<vertex_t>(num_edges, func, "the edge sources");
  edges.dst = detail::checked_vector<vertex_t>(num_edges, func, "the edge destinations");
  vertex_t* src = edges.src.data();
  vertex_t* dst = edges.dst.data();
  // Every plane before the last holds 2k(k - 1) in-plane edges and k^2 edges to the next plane.
  const std::uint64_t full_plane_edges = 2 * k * (k - 1) + plane;
  detail::parallel_chunks(k, 1, threads, [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t i = first; i < last; ++i) {
      std::uint64_t e = i * full_plane_edges;
      for (std::uint64_t j = 0; j < k; ++j) {
        for (std::uint64_t l = 0; l < k; ++l) {
          const std::uint64_t v = (i * k + j) * k + l;
          if (l + 1 < k) {
            src[e] = static_cast<vertex_t>(v);
            dst[e++] = static_cast<vertex_t>(v + 1);
          }
          if (j + 1 < k) {
            src[e] = static_cast<vertex_t>(v);
            dst[e++] = static_cast<vertex_t>(v + k);
          }
          if (i + 1 < k) {
            src[e] = static_cast<vertex_t>(v);
            dst[e++] = static_cast<vertex_t>(v + plane);
          }
        }
      }
    }
  });
  edges.name = structured_name(graph_source::grid_3d, k);
  return edges;
}

std::uint64_t mycielski_vertices(unsigned k) {
  BITGRAPH_CHECK_ARG(k >= min_mycielski_k && k <= max_mycielski_k, "gen::mycielski_vertices", "k = ", k,
                     " is out of range ", min_mycielski_k, "..", max_mycielski_k);
  return 3 * (std::uint64_t{1} << (k - 2)) - 1;
}

std::uint64_t mycielski_edges(unsigned k) {
  BITGRAPH_CHECK_ARG(k >= min_mycielski_k && k <= max_mycielski_k, "gen::mycielski_edges", "k = ", k,
                     " is out of range ", min_mycielski_k, "..", max_mycielski_k);
  // m_31 is about 2.3e14: no overflow below the limit.
  std::uint64_t n = 2, m = 1;
  for (unsigned i = 2; i < k; ++i) {
    m = 3 * m + n;
    n = 2 * n + 1;
  }
  return m;
}

edge_list mycielski(unsigned k) {
  constexpr const char* func = "gen::mycielski";
  BITGRAPH_CHECK_ARG(k >= min_mycielski_k && k <= max_mycielski_k, func, "k = ", k, " is out of range ",
                     min_mycielski_k, "..", max_mycielski_k);
  const std::uint64_t num_edges = mycielski_edges(k);
  edge_list edges;
  edges.num_vertices = mycielski_vertices(k);
  edges.storage = edge_storage::symmetric;
  edges.src = detail::checked_vector<vertex_t>(num_edges, func, "the edge sources");
  edges.dst = detail::checked_vector<vertex_t>(num_edges, func, "the edge destinations");
  vertex_t* src = edges.src.data();
  vertex_t* dst = edges.dst.data();
  // Built in place: M_(i+1)'s list starts with M_i's, so each step only appends, reading the prefix.
  src[0] = 0;
  dst[0] = 1;
  std::uint64_t n = 2, m = 1;
  for (unsigned i = 2; i < k; ++i) {
    std::uint64_t e = m;
    for (std::uint64_t f = 0; f < m; ++f) {
      const vertex_t a = src[f], b = dst[f];
      src[e] = a;
      dst[e++] = static_cast<vertex_t>(n + b);
      src[e] = b;
      dst[e++] = static_cast<vertex_t>(n + a);
    }
    const auto hub = static_cast<vertex_t>(2 * n);
    for (std::uint64_t v = 0; v < n; ++v) {
      src[e] = static_cast<vertex_t>(n + v);
      dst[e++] = hub;
    }
    m = e;
    n = 2 * n + 1;
  }
  edges.name = structured_name(graph_source::mycielski, k);
  return edges;
}

}  // namespace bitgraph::gen
