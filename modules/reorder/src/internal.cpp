// Validation and pattern transforms shared by the orderings.
#include "internal.hpp"

#include <algorithm>
#include <thread>

#include "bitgraph/core/error.hpp"

namespace bitgraph::reorder::detail {

void validate_csr(const host_csr& g, const char* func) {
  BITGRAPH_CHECK_ARG(g.row_ptr.size() == static_cast<std::size_t>(g.n) + 1, func, "row_ptr has ", g.row_ptr.size(),
                     " entries, expected n + 1 = ", static_cast<std::uint64_t>(g.n) + 1);
  BITGRAPH_CHECK_ARG(g.row_ptr[0] == 0, func, "row_ptr[0] is ", g.row_ptr[0], ", expected 0");
  BITGRAPH_CHECK_ARG(g.row_ptr[g.n] == g.col_idx.size(), func, "row_ptr[n] is ", g.row_ptr[g.n], " but col_idx holds ",
                     g.col_idx.size(), " entries");
  if (g.has_weights) {
    BITGRAPH_CHECK_ARG(g.weights.size() == g.col_idx.size(), func, "has_weights is set but weights has ",
                       g.weights.size(), " entries for ", g.col_idx.size(), " columns");
  } else {
    BITGRAPH_CHECK_ARG(g.weights.empty(), func, "weights holds ", g.weights.size(),
                       " entries but has_weights is not set");
  }
  // Offsets first, so that the column checks below only read inside col_idx.
  for (vertex_t r = 0; r < g.n; ++r) {
    BITGRAPH_CHECK_ARG(g.row_ptr[r] <= g.row_ptr[r + 1], func, "row_ptr is not non-decreasing at row ", r, " (",
                       g.row_ptr[r], " > ", g.row_ptr[r + 1], ")");
  }
  for (vertex_t r = 0; r < g.n; ++r) {
    const offset_t lo = g.row_ptr[r], hi = g.row_ptr[r + 1];
    for (offset_t k = lo; k < hi; ++k) {
      const vertex_t c = g.col_idx[k];
      BITGRAPH_CHECK_ARG(c < g.n, func, "column ", c, " in row ", r,
                         " is out of range: the matrix must be square, n = ", g.n);
      if (k > lo) {
        const vertex_t prev = g.col_idx[k - 1];
        BITGRAPH_CHECK_ARG(prev < c || (g.has_duplicates && prev == c), func, "row ", r, " is not sorted",
                           g.has_duplicates ? "" : " or repeats a column", " (column ", prev, " before ", c, ")");
      }
    }
  }
}

void validate_sigma(int sigma, const char* func) {
  BITGRAPH_CHECK_ARG(sigma == 4 || sigma == 8 || sigma == 16 || sigma == 32, func, "slice width sigma = ", sigma,
                     " is not one of 4, 8, 16, 32");
}

pattern row_pattern(const host_csr& g) {
  pattern p;
  p.n = g.n;
  p.ptr.assign(static_cast<std::size_t>(g.n) + 1, 0);
  if (!g.has_duplicates) {
    p.ptr = g.row_ptr;
    p.idx = g.col_idx;
    return p;
  }
  p.idx.reserve(g.col_idx.size());
  for (vertex_t r = 0; r < g.n; ++r) {
    for (offset_t k = g.row_ptr[r]; k < g.row_ptr[r + 1]; ++k) {
      if (k > g.row_ptr[r] && g.col_idx[k - 1] == g.col_idx[k]) continue;
      p.idx.push_back(g.col_idx[k]);
    }
    p.ptr[r + 1] = p.idx.size();
  }
  return p;
}

pattern column_pattern(const host_csr& g) {
  pattern p;
  p.n = g.n;
  p.ptr.assign(static_cast<std::size_t>(g.n) + 1, 0);
  for (vertex_t c : g.col_idx) ++p.ptr[c + 1];
  for (vertex_t v = 0; v < g.n; ++v) p.ptr[v + 1] += p.ptr[v];
  p.idx.resize(g.col_idx.size());
  std::vector<offset_t> fill(p.ptr.begin(), p.ptr.end() - 1);
  // Scanning rows in order leaves every transposed row sorted, with repeats adjacent.
  for (vertex_t r = 0; r < g.n; ++r)
    for (offset_t k = g.row_ptr[r]; k < g.row_ptr[r + 1]; ++k) p.idx[fill[g.col_idx[k]]++] = r;
  if (!g.has_duplicates) return p;
  offset_t out = 0;
  for (vertex_t v = 0; v < g.n; ++v) {
    const offset_t lo = p.ptr[v], hi = p.ptr[v + 1];
    p.ptr[v] = out;
    for (offset_t k = lo; k < hi; ++k)
      if (k == lo || p.idx[k] != p.idx[k - 1]) p.idx[out++] = p.idx[k];
  }
  p.ptr[g.n] = out;
  p.idx.resize(out);
  return p;
}

pattern symmetric_pattern(const host_csr& g) {
  pattern p;
  p.n = g.n;
  p.ptr.assign(static_cast<std::size_t>(g.n) + 1, 0);
  if (g.kind == graph_kind::undirected) {
    p.idx.reserve(g.col_idx.size());
    for (vertex_t r = 0; r < g.n; ++r) {
      for (offset_t k = g.row_ptr[r]; k < g.row_ptr[r + 1]; ++k) {
        const vertex_t c = g.col_idx[k];
        if (c == r || (k > g.row_ptr[r] && g.col_idx[k - 1] == c)) continue;
        p.idx.push_back(c);
      }
      p.ptr[r + 1] = p.idx.size();
    }
    return p;
  }
  const pattern t = column_pattern(g);
  p.idx.reserve(2 * g.col_idx.size());
  for (vertex_t r = 0; r < g.n; ++r) {
    // Merge the sorted row of g with the sorted row of g^T.
    const vertex_t* a = g.col_idx.data() + g.row_ptr[r];
    const vertex_t* a_end = g.col_idx.data() + g.row_ptr[r + 1];
    const vertex_t* b = t.begin(r);
    const vertex_t* b_end = t.end(r);
    vertex_t last = invalid_vertex;
    while (a != a_end || b != b_end) {
      vertex_t c;
      if (b == b_end || (a != a_end && *a <= *b)) {
        c = *a++;
      } else {
        c = *b++;
      }
      if (c == r || c == last) continue;
      p.idx.push_back(c);
      last = c;
    }
    p.ptr[r + 1] = p.idx.size();
  }
  return p;
}

std::vector<vertex_t> order_by_descending(const std::vector<offset_t>& key) {
  const std::size_t n = key.size();
  offset_t max_key = 0;
  for (offset_t k : key) max_key = std::max(max_key, k);
  std::vector<vertex_t> order(n);
  if (max_key > 2 * static_cast<offset_t>(n) + 64) {
    // Rows with many repeated entries: buckets would cost more memory than the graph has vertices.
    for (std::size_t v = 0; v < n; ++v) order[v] = static_cast<vertex_t>(v);
    std::stable_sort(order.begin(), order.end(), [&](vertex_t a, vertex_t b) { return key[a] > key[b]; });
    return order;
  }
  std::vector<offset_t> start(static_cast<std::size_t>(max_key) + 2, 0);
  for (offset_t k : key) ++start[max_key - k + 1];
  for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
  for (std::size_t v = 0; v < n; ++v) order[start[max_key - key[v]]++] = static_cast<vertex_t>(v);
  return order;
}

unsigned resolve_threads(unsigned requested, std::size_t work_items) {
  unsigned t = requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
  if (work_items < t) t = static_cast<unsigned>(std::max<std::size_t>(1, work_items));
  return t;
}

}  // namespace bitgraph::reorder::detail
