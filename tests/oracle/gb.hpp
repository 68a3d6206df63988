// Thin C++ layer over SuiteSparse:GraphBLAS and LAGraph's C APIs for the oracle: owning handles,
// error checks that throw, and typed build / extract helpers. No Kokkos here.
#pragma once

// GraphBLAS 7.4's header has no extern "C" block of its own (it wraps only its C++ complex types in
// extern "C++"), so its declarations must be given C linkage here.
extern "C" {
#include <GraphBLAS.h>
}
#include <LAGraph.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bitgraph::oracle::gb {

/// Throws `std::runtime_error` naming `call` and GraphBLAS's status when `info` is not success.
void check(GrB_Info info, const char* call);

/// Throws `std::runtime_error` naming `call`, the LAGraph status and LAGraph's message when
/// `status` < 0 (LAGraph warnings, status > 0, are not errors).
void check_lagraph(int status, const char* call, const char* msg);

/// Owning GraphBLAS handle freed with `Free`; move-only.
template <class H, GrB_Info (*Free)(H*)>
class handle {
 public:
  handle() = default;
  explicit handle(H h) : h_(h) {}
  handle(const handle&) = delete;
  handle& operator=(const handle&) = delete;
  handle(handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  handle& operator=(handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  ~handle() { reset(); }
  void reset() {
    if (h_ != nullptr) Free(&h_);
    h_ = nullptr;
  }
  H get() const noexcept { return h_; }
  /// Gives the object up without freeing it.
  H release() noexcept { return std::exchange(h_, nullptr); }
  /// For GraphBLAS's output parameters (`GrB_Matrix_new(m.out(), ...)`); frees any old object first.
  H* out() {
    reset();
    return &h_;
  }
  explicit operator bool() const noexcept { return h_ != nullptr; }

 private:
  H h_ = nullptr;
};

using matrix = handle<GrB_Matrix, GrB_Matrix_free>;
using vector = handle<GrB_Vector, GrB_Vector_free>;
using descriptor = handle<GrB_Descriptor, GrB_Descriptor_free>;
using scalar = handle<GrB_Scalar, GrB_Scalar_free>;

/// An LAGraph graph (owns its adjacency matrix and cached properties).
class graph {
 public:
  graph() = default;
  /// Moves `a` into a new graph of the given kind.
  graph(matrix a, LAGraph_Kind kind);
  graph(const graph&) = delete;
  graph& operator=(const graph&) = delete;
  graph(graph&& o) noexcept : g_(std::exchange(o.g_, nullptr)) {}
  graph& operator=(graph&& o) noexcept;
  ~graph();
  LAGraph_Graph get() const noexcept { return g_; }
  LAGraph_Graph operator->() const noexcept { return g_; }

 private:
  LAGraph_Graph g_ = nullptr;
};

/// The GraphBLAS type of a C++ value type and its typed entry points (C++ cannot use GraphBLAS's
/// _Generic polymorphic macros).
template <class T>
struct traits;

#define BITGRAPH_ORACLE_GB_TRAITS(CT, SUFFIX)                                                                        \
  template <>                                                                                                        \
  struct traits<CT> {                                                                                                \
    static GrB_Type type() { return GrB_##SUFFIX; }                                                                  \
    static GrB_UnaryOp identity() { return GrB_IDENTITY_##SUFFIX; }                                                  \
    static GrB_Info vector_build(GrB_Vector v, const GrB_Index* i, const CT* x, GrB_Index n, GrB_BinaryOp d) {       \
      return GrB_Vector_build_##SUFFIX(v, i, x, n, d);                                                               \
    }                                                                                                                \
    static GrB_Info vector_tuples(GrB_Index* i, CT* x, GrB_Index* n, GrB_Vector v) {                                 \
      return GrB_Vector_extractTuples_##SUFFIX(i, x, n, v);                                                          \
    }                                                                                                                \
    static GrB_Info matrix_build(GrB_Matrix a, const GrB_Index* i, const GrB_Index* j, const CT* x, GrB_Index n,     \
                                 GrB_BinaryOp d) {                                                                   \
      return GrB_Matrix_build_##SUFFIX(a, i, j, x, n, d);                                                            \
    }                                                                                                                \
    static GrB_Info matrix_tuples(GrB_Index* i, GrB_Index* j, CT* x, GrB_Index* n, GrB_Matrix a) {                   \
      return GrB_Matrix_extractTuples_##SUFFIX(i, j, x, n, a);                                                       \
    }                                                                                                                \
    static GrB_Info scalar_set(GrB_Scalar s, CT x) { return GrB_Scalar_setElement_##SUFFIX(s, x); }                  \
    /* w<m>(I) = accum(w(I), x), x a scalar */                                                                       \
    static GrB_Info vector_assign(GrB_Vector w, GrB_Vector m, GrB_BinaryOp accum, CT x, const GrB_Index* i,          \
                                  GrB_Index ni, GrB_Descriptor d) {                                                  \
      return GrB_Vector_assign_##SUFFIX(w, m, accum, x, i, ni, d);                                                   \
    }                                                                                                                \
    /* the monoid sum of u's entries */                                                                              \
    static GrB_Info vector_reduce(CT* s, GrB_Monoid monoid, GrB_Vector u) {                                          \
      return GrB_Vector_reduce_##SUFFIX(s, nullptr, monoid, u, nullptr);                                             \
    }                                                                                                                \
    /* w<m> = accum(w, op(u, y)) */                                                                                  \
    static GrB_Info apply_2nd(GrB_Vector w, GrB_Vector m, GrB_BinaryOp accum, GrB_BinaryOp op, GrB_Vector u, CT y,   \
                              GrB_Descriptor d) {                                                                    \
      return GrB_Vector_apply_BinaryOp2nd_##SUFFIX(w, m, accum, op, u, y, d);                                        \
    }                                                                                                                \
    /* w<m> = accum(w, select(u, op, y)) */                                                                          \
    static GrB_Info vector_select(GrB_Vector w, GrB_Vector m, GrB_BinaryOp accum, GrB_IndexUnaryOp op, GrB_Vector u, \
                                  CT y, GrB_Descriptor d) {                                                          \
      return GrB_Vector_select_##SUFFIX(w, m, accum, op, u, y, d);                                                   \
    }                                                                                                                \
  };
BITGRAPH_ORACLE_GB_TRAITS(bool, BOOL)
BITGRAPH_ORACLE_GB_TRAITS(std::uint8_t, UINT8)
BITGRAPH_ORACLE_GB_TRAITS(std::int32_t, INT32)
BITGRAPH_ORACLE_GB_TRAITS(std::int64_t, INT64)
BITGRAPH_ORACLE_GB_TRAITS(std::uint32_t, UINT32)
BITGRAPH_ORACLE_GB_TRAITS(std::uint64_t, UINT64)
BITGRAPH_ORACLE_GB_TRAITS(float, FP32)
BITGRAPH_ORACLE_GB_TRAITS(double, FP64)
#undef BITGRAPH_ORACLE_GB_TRAITS

/// LAGraph_Cached_AT, then G->AT held by row (see graph::graph: a 1 x 1 transpose is born by column).
void cache_transpose(const graph& g);
/// cache_transpose, then LAGraph_Cached_OutDegree: what LAGraph's BFS (push/pull) and PageRank want cached.
void cache_transpose_and_out_degree(const graph& g);

/// The stored entries of a vector, indices ascending, values cast to T.
template <class T>
struct entries {
  std::vector<GrB_Index> index;
  std::vector<T> value;
};

/// Number of stored entries.
GrB_Index nvals(GrB_Vector v);
GrB_Index nvals(GrB_Matrix a);
/// Rows of a (square) matrix.
GrB_Index nrows(GrB_Matrix a);

/// Entries of `v` cast to T (GraphBLAS typecasts on extraction), sorted by index.
template <class T>
entries<T> extract(GrB_Vector v) {
  GrB_Index n = nvals(v);
  entries<T> e;
  e.index.resize(n);
  if constexpr (std::is_same_v<T, bool>) {
    // std::vector<bool> has no data(): extract into a plain array.
    std::unique_ptr<bool[]> b(new bool[n ? n : 1]);
    check(traits<bool>::vector_tuples(e.index.data(), b.get(), &n, v), "GrB_Vector_extractTuples_BOOL");
    e.value.assign(b.get(), b.get() + n);
  } else {
    e.value.resize(n);
    check(traits<T>::vector_tuples(e.index.data(), e.value.data(), &n, v), "GrB_Vector_extractTuples");
  }
  // SuiteSparse returns sorted indices for a vector; sort anyway so the helpers never depend on it.
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = k;
  bool sorted = true;
  for (std::size_t k = 1; k < n && sorted; ++k) sorted = e.index[k - 1] < e.index[k];
  if (!sorted) {
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return e.index[a] < e.index[b]; });
    entries<T> s;
    for (auto k : order) {
      s.index.push_back(e.index[k]);
      s.value.push_back(e.value[k]);
    }
    return s;
  }
  return e;
}

/// Dense copy of `v`: `fill` where no entry is stored.
template <class T>
std::vector<T> to_dense(GrB_Vector v, GrB_Index n, T fill) {
  std::vector<T> d(n, fill);
  const auto e = extract<T>(v);
  for (std::size_t k = 0; k < e.index.size(); ++k) d[e.index[k]] = e.value[k];
  return d;
}

/// A vector of length n with the given entries (indices distinct).
template <class T>
vector make_vector(GrB_Index n, const std::vector<GrB_Index>& index, const std::vector<T>& value) {
  vector v;
  check(GrB_Vector_new(v.out(), traits<T>::type(), n), "GrB_Vector_new");
  if (index.empty()) return v;  // GraphBLAS rejects the null data() of empty arrays
  if constexpr (std::is_same_v<T, bool>) {
    std::unique_ptr<bool[]> b(new bool[value.size() ? value.size() : 1]);
    for (std::size_t k = 0; k < value.size(); ++k) b[k] = value[k];
    check(traits<bool>::vector_build(v.get(), index.data(), b.get(), index.size(), nullptr), "GrB_Vector_build");
  } else {
    check(traits<T>::vector_build(v.get(), index.data(), value.data(), index.size(), nullptr), "GrB_Vector_build");
  }
  return v;
}

/// Coordinate lists of a matrix: entry k is (row[k], col[k], value[k]).
template <class T>
struct triples {
  std::vector<GrB_Index> row, col;
  std::vector<T> value;
};

/// An n x n matrix of type T from triples; repeated (row, col) entries are combined with `dup`.
template <class T>
matrix make_matrix(GrB_Index n, const triples<T>& t, GrB_BinaryOp dup) {
  matrix a;
  check(GrB_Matrix_new(a.out(), traits<T>::type(), n, n), "GrB_Matrix_new");
  if (t.row.empty()) return a;  // GraphBLAS rejects the null data() of empty arrays
  if constexpr (std::is_same_v<T, bool>) {
    std::unique_ptr<bool[]> b(new bool[t.value.size() ? t.value.size() : 1]);
    for (std::size_t k = 0; k < t.value.size(); ++k) b[k] = t.value[k];
    check(traits<bool>::matrix_build(a.get(), t.row.data(), t.col.data(), b.get(), t.row.size(), dup),
          "GrB_Matrix_build");
  } else {
    check(traits<T>::matrix_build(a.get(), t.row.data(), t.col.data(), t.value.data(), t.row.size(), dup),
          "GrB_Matrix_build");
  }
  return a;
}

/// Entries of `a` cast to T, sorted by (row, column).
template <class T>
triples<T> extract(GrB_Matrix a) {
  GrB_Index n = nvals(a);
  triples<T> t;
  t.row.resize(n);
  t.col.resize(n);
  if constexpr (std::is_same_v<T, bool>) {
    std::unique_ptr<bool[]> b(new bool[n ? n : 1]);
    check(traits<bool>::matrix_tuples(t.row.data(), t.col.data(), b.get(), &n, a), "GrB_Matrix_extractTuples");
    t.value.assign(b.get(), b.get() + n);
  } else {
    t.value.resize(n);
    check(traits<T>::matrix_tuples(t.row.data(), t.col.data(), t.value.data(), &n, a), "GrB_Matrix_extractTuples");
  }
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return t.row[x] != t.row[y] ? t.row[x] < t.row[y] : t.col[x] < t.col[y];
  });
  triples<T> s;
  s.row.reserve(n);
  s.col.reserve(n);
  s.value.reserve(n);
  for (auto k : order) {
    s.row.push_back(t.row[k]);
    s.col.push_back(t.col[k]);
    s.value.push_back(t.value[k]);
  }
  return s;
}

/// A copy of `a`.
matrix dup(GrB_Matrix a);
/// A copy of `a` cast to type `type` (GraphBLAS's typecasting rules).
matrix cast(GrB_Matrix a, GrB_Type type);
/// The pattern of `a`: a BOOL matrix holding true at every stored entry, whatever its value.
matrix pattern(GrB_Matrix a);
/// A^T.
matrix transpose(GrB_Matrix a);
/// A OR A^T (structure), BOOL: the undirected version of a directed graph.
matrix symmetrize(GrB_Matrix a);
/// A without its diagonal.
matrix offdiag(GrB_Matrix a);
/// A descriptor from the structural-mask / complement / replace / transpose-first-input flags; an
/// empty handle when every flag is off (GraphBLAS's default).
descriptor make_descriptor(bool structural_mask, bool complement, bool replace, bool transpose_a);
/// A BOOL vector with `true` at the given indices (a structural mask).
vector make_mask(GrB_Index n, const std::vector<GrB_Index>& index);
/// A new empty vector of type T and length n.
template <class T>
vector new_vector(GrB_Index n) {
  vector v;
  check(GrB_Vector_new(v.out(), traits<T>::type(), n), "GrB_Vector_new");
  return v;
}
/// A rows x cols BOOL matrix with `true` at the given (row, column) pairs (repeats merged).
matrix make_bool_matrix(GrB_Index rows, GrB_Index cols, const std::vector<GrB_Index>& row,
                        const std::vector<GrB_Index>& col);
/// The pattern of a rows x cols matrix as sorted column lists per row.
std::vector<std::vector<GrB_Index>> rows_of(GrB_Matrix a);
/// A * diag(mask): the columns of `a` outside the mask's entries removed (BOOL pattern result).
matrix keep_columns(GrB_Matrix a, GrB_Vector mask);
/// The type name of a matrix ("bool", "int8_t", ..., "double"), LAGraph's spelling.
std::string type_name(GrB_Matrix a);

}  // namespace bitgraph::oracle::gb
