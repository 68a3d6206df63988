// Random geometric graphs in the unit square (the DIMACS10 / SuiteSparse rgg_n_2_K family), built with a
// cell grid so that only neighbouring cells are compared.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/generators/generators.hpp"
#include "bitgraph/generators/graph_spec.hpp"
#include "generators_detail.hpp"

namespace bitgraph::gen {

namespace {

constexpr const char* rgg_func = "gen::random_geometric";

// SplitMix64's output for state `z`: stream position k of seed s is mix(s + k * golden gamma), so every
// point's coordinates are computed from its index alone, without per-thread RNG state.
std::uint64_t splitmix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

constexpr std::uint64_t golden_gamma = 0x9e3779b97f4a7c15ull;

double unit_double(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

// Cells of side 1 / cells_per_side >= radius: points closer than the radius lie in the same or in
// adjacent cells.
struct cell_grid {
  std::uint64_t side = 1;

  std::uint64_t coordinate(double t) const {
    // t < 1, but t * side may round up to side.
    return std::min(static_cast<std::uint64_t>(t * static_cast<double>(side)), side - 1);
  }
  std::uint64_t cell(double x, double y) const { return coordinate(y) * side + coordinate(x); }
};

// Visits the edges (p, q), p < q, whose first endpoint lies in cell row `row`: pairs inside a cell, then
// pairs with the four cells after it in row-major order, so each close pair is found exactly once and
// always with p < q.
template <class Emit>
void scan_row(std::uint64_t row, const cell_grid& grid, const std::vector<std::uint64_t>& cell_start, const double* x,
              const double* y, double r2, Emit&& emit) {
  const std::uint64_t side = grid.side;
  for (std::uint64_t col = 0; col < side; ++col) {
    const std::uint64_t c = row * side + col;
    std::uint64_t neighbours[4];
    int num_neighbours = 0;
    if (col + 1 < side) neighbours[num_neighbours++] = c + 1;
    if (row + 1 < side) {
      if (col > 0) neighbours[num_neighbours++] = c + side - 1;
      neighbours[num_neighbours++] = c + side;
      if (col + 1 < side) neighbours[num_neighbours++] = c + side + 1;
    }
    for (std::uint64_t p = cell_start[c]; p < cell_start[c + 1]; ++p) {
      const double px = x[p], py = y[p];
      auto close = [&](std::uint64_t q) {
        const double dx = x[q] - px, dy = y[q] - py;
        return dx * dx + dy * dy < r2;
      };
      for (std::uint64_t q = p + 1; q < cell_start[c + 1]; ++q)
        if (close(q)) emit(p, q);
      for (int k = 0; k < num_neighbours; ++k) {
        const std::uint64_t nc = neighbours[k];
        for (std::uint64_t q = cell_start[nc]; q < cell_start[nc + 1]; ++q)
          if (close(q)) emit(p, q);
      }
    }
  }
}

}  // namespace

double random_geometric_radius(unsigned scale) {
  BITGRAPH_CHECK_ARG(scale >= 1 && scale <= max_scale, "gen::random_geometric_radius", "scale ", scale,
                     " is out of range 1..", max_scale);
  const double n = std::ldexp(1.0, static_cast<int>(scale));
  return 0.55 * std::sqrt(std::log(n) / n);
}

geometric_graph random_geometric_graph(unsigned scale, std::uint32_t seed, unsigned threads) {
  BITGRAPH_CHECK_ARG(scale >= 1 && scale <= max_scale, rgg_func, "scale ", scale, " is out of range 1..", max_scale);
  threads = generator_threads(threads);
  const std::uint64_t n = std::uint64_t{1} << scale;
  geometric_graph result;
  result.radius = random_geometric_radius(scale);
  const double r2 = result.radius * result.radius;
  cell_grid grid;
  grid.side = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::floor(1.0 / result.radius)));
  const std::uint64_t num_cells = grid.side * grid.side;
  constexpr std::uint64_t grain = std::uint64_t{1} << 16;

  // Points in generation order and their cells.
  std::vector<std::uint64_t> cell_start;
  std::vector<vertex_t> order;
  {
    auto gx = detail::checked_vector<double>(n, rgg_func, "the point x coordinates");
    auto gy = detail::checked_vector<double>(n, rgg_func, "the point y coordinates");
    auto cell = detail::checked_vector<std::uint64_t>(n, rgg_func, "the point cells");
    detail::parallel_chunks(n, grain, threads, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t i = begin; i < end; ++i) {
        gx[i] = unit_double(splitmix64(seed + (2 * i + 1) * golden_gamma));
        gy[i] = unit_double(splitmix64(seed + (2 * i + 2) * golden_gamma));
        cell[i] = grid.cell(gx[i], gy[i]);
      }
    });
    // Stable counting sort by cell: vertex ids follow the cell grid's row-major order, which keeps
    // neighbours' ids close (like the DIMACS rgg files) and makes each cell a contiguous id range.
    cell_start = detail::checked_vector<std::uint64_t>(num_cells + 1, rgg_func, "the cell offsets");
    for (std::uint64_t i = 0; i < n; ++i) ++cell_start[cell[i] + 1];
    for (std::uint64_t c = 0; c < num_cells; ++c) cell_start[c + 1] += cell_start[c];
    order = detail::checked_vector<vertex_t>(n, rgg_func, "the vertex order");
    {
      std::vector<std::uint64_t> fill(cell_start.begin(), cell_start.end() - 1);
      for (std::uint64_t i = 0; i < n; ++i) order[fill[cell[i]]++] = static_cast<vertex_t>(i);
    }
    result.x = detail::checked_vector<double>(n, rgg_func, "the vertex x coordinates");
    result.y = detail::checked_vector<double>(n, rgg_func, "the vertex y coordinates");
    detail::parallel_chunks(n, grain, threads, [&](std::uint64_t begin, std::uint64_t end) {
      for (std::uint64_t v = begin; v < end; ++v) {
        result.x[v] = gx[order[v]];
        result.y[v] = gy[order[v]];
      }
    });
  }
  order = {};

  // Two passes over the cell rows, count then write, so the edges go straight into arrays of the exact
  // size, in row order whatever the number of threads.
  const double* x = result.x.data();
  const double* y = result.y.data();
  const std::uint64_t rows = grid.side;
  auto row_start = detail::checked_vector<std::uint64_t>(rows + 1, rgg_func, "the row offsets");
  detail::parallel_chunks(rows, 1, threads, [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t row = first; row < last; ++row) {
      std::uint64_t count = 0;
      scan_row(row, grid, cell_start, x, y, r2, [&](std::uint64_t, std::uint64_t) { ++count; });
      row_start[row + 1] = count;
    }
  });
  for (std::uint64_t row = 0; row < rows; ++row) row_start[row + 1] += row_start[row];

  edge_list& edges = result.edges;
  edges.num_vertices = n;
  edges.storage = edge_storage::symmetric;
  edges.src = detail::checked_vector<vertex_t>(row_start[rows], rgg_func, "the edge sources");
  edges.dst = detail::checked_vector<vertex_t>(row_start[rows], rgg_func, "the edge destinations");
  vertex_t* src = edges.src.data();
  vertex_t* dst = edges.dst.data();
  detail::parallel_chunks(rows, 1, threads, [&](std::uint64_t first, std::uint64_t last) {
    for (std::uint64_t row = first; row < last; ++row) {
      std::uint64_t e = row_start[row];
      scan_row(row, grid, cell_start, x, y, r2, [&](std::uint64_t p, std::uint64_t q) {
        src[e] = static_cast<vertex_t>(p);
        dst[e++] = static_cast<vertex_t>(q);
      });
    }
  });

  graph_spec spec;
  spec.source = graph_source::random_geometric;
  spec.parameter = scale;
  spec.seed = seed;
  edges.name = to_string(spec);
  return result;
}

edge_list random_geometric(unsigned scale, std::uint32_t seed, unsigned threads) {
  return std::move(random_geometric_graph(scale, seed, threads).edges);
}

}  // namespace bitgraph::gen
