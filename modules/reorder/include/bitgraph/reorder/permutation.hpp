// Vertex permutations: validated bijections, their symmetric application to host CSR graphs and the
// mapping of per-vertex results computed on a reordered graph back to the original ids.
#pragma once

#include <cstddef>
#include <vector>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/host_csr.hpp"

namespace bitgraph::reorder {

/// A relabelling of the vertices 0..n-1, stored in both directions so that either lookup is O(1):
/// vertex `old` of the input becomes `new_of_old()[old]`, and `old_of_new()[k]` is the input vertex
/// placed at position k. Always a bijection: every way of building one validates it.
class permutation {
 public:
  /// The permutation of zero vertices.
  permutation() = default;

  /// From the map old id -> new id. Throws `invalid_argument_error` if a value is out of range, two
  /// old ids share a new id, or there are more than `max_vertices` entries.
  static permutation from_new_of_old(std::vector<vertex_t> new_of_old);

  /// From the map new id -> old id (an ordering: the list of old ids in their new order). Throws
  /// `invalid_argument_error` under the same conditions as `from_new_of_old`.
  static permutation from_old_of_new(std::vector<vertex_t> old_of_new);

  /// The permutation that keeps every id.
  static permutation identity(vertex_t n);

  /// Number of vertices it permutes.
  vertex_t size() const noexcept { return static_cast<vertex_t>(new_of_old_.size()); }

  /// old id -> new id.
  const std::vector<vertex_t>& new_of_old() const noexcept { return new_of_old_; }

  /// new id -> old id.
  const std::vector<vertex_t>& old_of_new() const noexcept { return old_of_new_; }

  /// New id of input vertex `old_id` (e.g. a BFS source given in original ids). Throws
  /// `invalid_argument_error` if `old_id >= size()`.
  vertex_t to_new(vertex_t old_id) const;

  /// Original id of reordered vertex `new_id`. Throws `invalid_argument_error` if `new_id >= size()`.
  vertex_t to_old(vertex_t new_id) const;

  /// The permutation that undoes this one.
  permutation inverse() const;

  /// Whether every vertex keeps its id.
  bool is_identity() const noexcept;

  /// Equal when both map every vertex to the same id.
  friend bool operator==(const permutation& a, const permutation& b) { return a.new_of_old_ == b.new_of_old_; }

 private:
  permutation(std::vector<vertex_t> new_of_old, std::vector<vertex_t> old_of_new)
      : new_of_old_(std::move(new_of_old)), old_of_new_(std::move(old_of_new)) {}

  std::vector<vertex_t> new_of_old_;
  std::vector<vertex_t> old_of_new_;
};

/// `first` followed by `second`: vertex v goes to `second.to_new(first.to_new(v))`. Lets a pre-order and
/// a refinement be combined into one relabelling. Throws `invalid_argument_error` on a size mismatch.
permutation compose(const permutation& first, const permutation& second);

/// Relabels rows and columns alike (entry (u, v) becomes (p.to_new(u), p.to_new(v))), keeping the kind,
/// the flags, the weights with their entries and every row sorted. O(m log d) with d the largest
/// degree, rows filled in parallel. Throws `invalid_argument_error` if `g` is inconsistent or `p` does
/// not have `g.n` vertices.
host_csr permute(const host_csr& g, const permutation& p);

namespace detail {
/// Throws unless `values` holds one value per vertex of `p`; `func` names the caller.
inline void check_per_vertex(std::size_t values, const permutation& p, const char* func) {
  BITGRAPH_CHECK_ARG(values == p.size(), func, "got ", values, " per-vertex values for a permutation of ", p.size(),
                     " vertices");
}
}  // namespace detail

/// Per-vertex results of a reordered graph (levels, distances, labels, ranks), indexed by new id,
/// re-indexed by original id: `result[old] = values_by_new_id[p.to_new(old)]`. The values themselves
/// are kept; use `vertices_to_original` when they are vertex ids too. Throws `invalid_argument_error`
/// on a size mismatch.
template <class T>
std::vector<T> to_original(const std::vector<T>& values_by_new_id, const permutation& p) {
  detail::check_per_vertex(values_by_new_id.size(), p, "reorder::to_original");
  std::vector<T> out(values_by_new_id.size());
  const auto& map = p.new_of_old();
  for (std::size_t old = 0; old < out.size(); ++old) out[old] = values_by_new_id[map[old]];
  return out;
}

/// The inverse of `to_original`: per-vertex inputs given by original id (seeds, initial labels,
/// vertex weights) re-indexed by new id. Throws `invalid_argument_error` on a size mismatch.
template <class T>
std::vector<T> to_permuted(const std::vector<T>& values_by_old_id, const permutation& p) {
  detail::check_per_vertex(values_by_old_id.size(), p, "reorder::to_permuted");
  std::vector<T> out(values_by_old_id.size());
  const auto& map = p.old_of_new();
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = values_by_old_id[map[k]];
  return out;
}

/// Vertex-valued per-vertex results (BFS parents, component representatives, matchings) of a reordered
/// graph back to original ids: both the index and the value are translated, `invalid_vertex` stays
/// `invalid_vertex`. Throws `invalid_argument_error` on a size mismatch or a value that is neither a
/// vertex id nor `invalid_vertex`.
std::vector<vertex_t> vertices_to_original(const std::vector<vertex_t>& vertices_by_new_id, const permutation& p);

}  // namespace bitgraph::reorder
