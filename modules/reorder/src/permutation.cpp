// Permutation construction, composition and application to host CSR graphs.
#include "bitgraph/reorder/permutation.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "internal.hpp"

namespace bitgraph::reorder {

namespace {

/// Builds the inverse of `forward` while checking that it is a bijection; `forward_name` names the
/// given direction in the error messages.
std::vector<vertex_t> checked_inverse(const std::vector<vertex_t>& forward, const char* func,
                                      const char* forward_name) {
  BITGRAPH_CHECK_ARG(forward.size() <= max_vertices, func, forward_name, " has ", forward.size(),
                     " entries, more than max_vertices = ", max_vertices);
  const auto n = static_cast<vertex_t>(forward.size());
  std::vector<vertex_t> inverse(n, invalid_vertex);
  for (vertex_t i = 0; i < n; ++i) {
    const vertex_t v = forward[i];
    BITGRAPH_CHECK_ARG(v < n, func, forward_name, "[", i, "] = ", v, " is out of range for n = ", n);
    BITGRAPH_CHECK_ARG(inverse[v] == invalid_vertex, func, forward_name, " is not a bijection: entries ", inverse[v],
                       " and ", i, " both map to ", v);
    inverse[v] = i;
  }
  return inverse;
}

}  // namespace

permutation permutation::from_new_of_old(std::vector<vertex_t> new_of_old) {
  auto old_of_new = checked_inverse(new_of_old, "reorder::permutation::from_new_of_old", "new_of_old");
  return permutation(std::move(new_of_old), std::move(old_of_new));
}

permutation permutation::from_old_of_new(std::vector<vertex_t> old_of_new) {
  auto new_of_old = checked_inverse(old_of_new, "reorder::permutation::from_old_of_new", "old_of_new");
  return permutation(std::move(new_of_old), std::move(old_of_new));
}

permutation permutation::identity(vertex_t n) {
  BITGRAPH_CHECK_ARG(n <= max_vertices, "reorder::permutation::identity", "n = ", n, " exceeds max_vertices");
  std::vector<vertex_t> ids(n);
  std::iota(ids.begin(), ids.end(), vertex_t{0});
  return permutation(ids, ids);
}

vertex_t permutation::to_new(vertex_t old_id) const {
  BITGRAPH_CHECK_ARG(old_id < size(), "reorder::permutation::to_new", "vertex ", old_id,
                     " is out of range for n = ", size());
  return new_of_old_[old_id];
}

vertex_t permutation::to_old(vertex_t new_id) const {
  BITGRAPH_CHECK_ARG(new_id < size(), "reorder::permutation::to_old", "vertex ", new_id,
                     " is out of range for n = ", size());
  return old_of_new_[new_id];
}

permutation permutation::inverse() const { return permutation(old_of_new_, new_of_old_); }

bool permutation::is_identity() const noexcept {
  for (std::size_t i = 0; i < new_of_old_.size(); ++i)
    if (new_of_old_[i] != i) return false;
  return true;
}

permutation compose(const permutation& first, const permutation& second) {
  BITGRAPH_CHECK_ARG(first.size() == second.size(), "reorder::compose", "cannot compose permutations of ", first.size(),
                     " and ", second.size(), " vertices");
  const vertex_t n = first.size();
  std::vector<vertex_t> new_of_old(n);
  for (vertex_t v = 0; v < n; ++v) new_of_old[v] = second.new_of_old()[first.new_of_old()[v]];
  return permutation::from_new_of_old(std::move(new_of_old));
}

host_csr permute(const host_csr& g, const permutation& p) {
  constexpr const char* func = "reorder::permute";
  detail::validate_csr(g, func);
  BITGRAPH_CHECK_ARG(p.size() == g.n, func, "permutation has ", p.size(), " vertices, graph has ", g.n);
  host_csr out;
  out.n = g.n;
  out.kind = g.kind;
  out.has_duplicates = g.has_duplicates;
  out.has_weights = g.has_weights;
  out.row_ptr.assign(static_cast<std::size_t>(g.n) + 1, 0);
  const auto& old_of_new = p.old_of_new();
  const auto& new_of_old = p.new_of_old();
  for (vertex_t k = 0; k < g.n; ++k) {
    const vertex_t u = old_of_new[k];
    out.row_ptr[k + 1] = out.row_ptr[k] + (g.row_ptr[u + 1] - g.row_ptr[u]);
  }
  out.col_idx.resize(g.col_idx.size());
  if (g.has_weights) out.weights.resize(g.weights.size());

  // Rows are independent; blocks of rows keep the per-item overhead negligible.
  constexpr vertex_t block = 4096;
  const std::size_t blocks = (static_cast<std::size_t>(g.n) + block - 1) / block;
  const unsigned threads = g.col_idx.size() < (1u << 18) ? 1u : detail::resolve_threads(0, blocks);
  detail::parallel_items(blocks, threads, [&](std::size_t b, unsigned) {
    std::vector<std::pair<vertex_t, double>> row;
    const vertex_t lo = static_cast<vertex_t>(b * block);
    const vertex_t hi = static_cast<vertex_t>(std::min<std::size_t>(g.n, (b + 1) * block));
    for (vertex_t k = lo; k < hi; ++k) {
      const vertex_t u = old_of_new[k];
      const offset_t src = g.row_ptr[u], len = g.row_ptr[u + 1] - src, dst = out.row_ptr[k];
      if (!g.has_weights) {
        for (offset_t e = 0; e < len; ++e) out.col_idx[dst + e] = new_of_old[g.col_idx[src + e]];
        std::sort(out.col_idx.begin() + dst, out.col_idx.begin() + dst + len);
        continue;
      }
      row.resize(len);
      for (offset_t e = 0; e < len; ++e) row[e] = {new_of_old[g.col_idx[src + e]], g.weights[src + e]};
      // Repeated columns keep their input order so that a round trip restores the graph exactly.
      std::stable_sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (offset_t e = 0; e < len; ++e) {
        out.col_idx[dst + e] = row[e].first;
        out.weights[dst + e] = row[e].second;
      }
    }
  });
  return out;
}

std::vector<vertex_t> vertices_to_original(const std::vector<vertex_t>& vertices_by_new_id, const permutation& p) {
  constexpr const char* func = "reorder::vertices_to_original";
  detail::check_per_vertex(vertices_by_new_id.size(), p, func);
  std::vector<vertex_t> out(vertices_by_new_id.size());
  const vertex_t n = p.size();
  for (vertex_t old = 0; old < n; ++old) {
    const vertex_t v = vertices_by_new_id[p.new_of_old()[old]];
    BITGRAPH_CHECK_ARG(v < n || v == invalid_vertex, func, "value ", v, " at new id ", p.new_of_old()[old],
                       " is neither a vertex of n = ", n, " nor invalid_vertex");
    out[old] = v == invalid_vertex ? invalid_vertex : p.old_of_new()[v];
  }
  return out;
}

}  // namespace bitgraph::reorder
