// Random, degree and Reverse Cuthill-McKee orderings.
#include "bitgraph/reorder/orderings.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "internal.hpp"

namespace bitgraph::reorder {

permutation random_order(vertex_t n, std::uint64_t seed) {
  std::vector<vertex_t> order(n);
  std::iota(order.begin(), order.end(), vertex_t{0});
  std::mt19937_64 rng(seed);
  // std::uniform_int_distribution differs between standard libraries; rejection keeps the draw unbiased
  // and the permutation reproducible everywhere.
  auto below = [&rng](std::uint64_t bound) {
    const std::uint64_t reject_below = (0 - bound) % bound;
    std::uint64_t r = rng();
    while (r < reject_below) r = rng();
    return r % bound;
  };
  for (vertex_t i = n; i > 1; --i) std::swap(order[i - 1], order[below(i)]);
  return permutation::from_old_of_new(std::move(order));
}

permutation degree_order(const host_csr& g) {
  detail::validate_csr(g, "reorder::degree_order");
  std::vector<offset_t> degree(g.n);
  for (vertex_t v = 0; v < g.n; ++v) degree[v] = g.row_ptr[v + 1] - g.row_ptr[v];
  return permutation::from_old_of_new(detail::order_by_descending(degree));
}

namespace {

/// Breadth-first level structures on the not-yet-numbered part of a graph, reusing its buffers: a
/// stamp per vertex instead of clearing a visited array makes each sweep cost only its component.
class level_sweeper {
 public:
  explicit level_sweeper(const detail::pattern& g) : g_(g), stamp_(g.n, 0), queue_(g.n) {}

  struct result {
    vertex_t eccentricity;               ///< number of levels - 1
    std::size_t last_level_begin, size;  ///< the last level is queue()[last_level_begin, size)
  };

  /// BFS from `root` over its component (which must contain no numbered vertex).
  result sweep(vertex_t root) {
    ++current_;
    std::size_t head = 0, tail = 0;
    queue_[tail++] = root;
    stamp_[root] = current_;
    vertex_t depth = 0;
    std::size_t level_begin = 0;
    while (true) {
      const std::size_t level_end = tail;
      for (; head < level_end; ++head) {
        const vertex_t u = queue_[head];
        for (const vertex_t* it = g_.begin(u); it != g_.end(u); ++it) {
          if (stamp_[*it] == current_) continue;
          stamp_[*it] = current_;
          queue_[tail++] = *it;
        }
      }
      if (tail == level_end) return {depth, level_begin, tail};
      level_begin = level_end;
      ++depth;
    }
  }

  const std::vector<vertex_t>& queue() const noexcept { return queue_; }

 private:
  const detail::pattern& g_;
  std::vector<std::uint32_t> stamp_;
  std::uint32_t current_ = 0;
  std::vector<vertex_t> queue_;
};

}  // namespace

permutation rcm(const host_csr& g) {
  detail::validate_csr(g, "reorder::rcm");
  const detail::pattern s = detail::symmetric_pattern(g);
  const vertex_t n = g.n;
  std::vector<offset_t> degree(n);
  for (vertex_t v = 0; v < n; ++v) degree[v] = s.degree(v);
  // Ascending degree, ties by id: component roots are drawn from the front, skipping numbered ones.
  offset_t max_degree = 0;
  for (offset_t d : degree) max_degree = std::max(max_degree, d);
  std::vector<offset_t> complement(n);
  for (vertex_t v = 0; v < n; ++v) complement[v] = max_degree - degree[v];
  const std::vector<vertex_t> by_degree = detail::order_by_descending(complement);

  auto less_degree = [&](vertex_t a, vertex_t b) { return degree[a] < degree[b] || (degree[a] == degree[b] && a < b); };
  level_sweeper sweeper(s);
  std::vector<std::uint8_t> numbered(n, 0);
  std::vector<vertex_t> order;
  order.reserve(n);
  for (const vertex_t start : by_degree) {
    if (numbered[start]) continue;
    // George-Liu pseudo-peripheral root: follow a minimum-degree vertex of the deepest level while
    // that lengthens the level structure.
    vertex_t root = start;
    auto levels = sweeper.sweep(root);
    while (levels.eccentricity > 0) {
      const auto& q = sweeper.queue();
      const vertex_t candidate =
          *std::min_element(q.begin() + levels.last_level_begin, q.begin() + levels.size, less_degree);
      const auto next = sweeper.sweep(candidate);
      if (next.eccentricity <= levels.eccentricity) break;
      root = candidate;
      levels = next;
    }
    // Cuthill-McKee from the root: the queue is the order itself.
    std::size_t head = order.size();
    order.push_back(root);
    numbered[root] = 1;
    for (; head < order.size(); ++head) {
      const vertex_t u = order[head];
      const std::size_t first_child = order.size();
      for (const vertex_t* it = s.begin(u); it != s.end(u); ++it) {
        if (numbered[*it]) continue;
        numbered[*it] = 1;
        order.push_back(*it);
      }
      std::sort(order.begin() + first_child, order.end(), less_degree);
    }
  }
  std::reverse(order.begin(), order.end());
  return permutation::from_old_of_new(std::move(order));
}

}  // namespace bitgraph::reorder
