// Index lists of the matrix assign and extract tests: the operand shapes they sweep, random lists of each kind, and
// the lists on the device.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

#include "bitgraph/ops/matrix_assign.hpp"
#include "support/dense_matrix.hpp"
#include "support/spaces.hpp"

namespace bitgraph::test {

/// The operand shapes (rows, columns, density) of the matrix assign and extract sweeps: empty, single, thin and
/// square ones.
inline const std::vector<shape> matrix_index_shapes = {{0, 0, 0.5},   {0, 6, 0.5},   {5, 0, 0.5},  {1, 1, 1.0},
                                                       {1, 1, 0.0},   {23, 1, 0.5},  {7, 13, 0.3}, {30, 20, 0.6},
                                                       {20, 45, 0.1}, {70, 70, 0.05}};

/// An index list of dimension n: all, empty, a random subset in random order (unsorted), a permutation of every
/// index, or (extract only: assign refuses repeats) up to 2 n + 1 random indices that may repeat.
enum class index_kind { all, empty, subset, permutation, repeats };

inline std::vector<vertex_t> random_indices(vertex_t n, index_kind kind, std::mt19937_64& rng) {
  std::vector<vertex_t> p(n);
  std::iota(p.begin(), p.end(), vertex_t(0));
  if (kind == index_kind::all) return p;
  if (kind == index_kind::empty || n == 0) return {};
  if (kind == index_kind::repeats) {
    p.resize(rng() % (2 * std::size_t(n) + 2));
    for (auto& x : p) x = static_cast<vertex_t>(rng() % n);
    return p;
  }
  std::shuffle(p.begin(), p.end(), rng);
  if (kind == index_kind::subset) p.resize(rng() % (n + 1));
  return p;
}

/// `all_indices{}` when `all`, else the view of `v` on Exec's memory space.
template <class Exec>
index_list<memory_space_t<Exec>> device_indices(const std::vector<vertex_t>& v, bool all) {
  if (all) return all_indices{};
  return Kokkos::View<const vertex_t*, memory_space_t<Exec>>(to_view<memory_space_t<Exec>>(v, "test::indices"));
}

}  // namespace bitgraph::test
