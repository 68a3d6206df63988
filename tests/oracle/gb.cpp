// GraphBLAS / LAGraph helpers of the oracle (see gb.hpp).
#include "gb.hpp"

#include <memory>
#include <stdexcept>

namespace bitgraph::oracle::gb {

namespace {
const char* info_name(GrB_Info info) {
  switch (info) {
    case GrB_SUCCESS:
      return "GrB_SUCCESS";
    case GrB_NO_VALUE:
      return "GrB_NO_VALUE";
    case GrB_UNINITIALIZED_OBJECT:
      return "GrB_UNINITIALIZED_OBJECT";
    case GrB_NULL_POINTER:
      return "GrB_NULL_POINTER";
    case GrB_INVALID_VALUE:
      return "GrB_INVALID_VALUE";
    case GrB_INVALID_INDEX:
      return "GrB_INVALID_INDEX";
    case GrB_DOMAIN_MISMATCH:
      return "GrB_DOMAIN_MISMATCH";
    case GrB_DIMENSION_MISMATCH:
      return "GrB_DIMENSION_MISMATCH";
    case GrB_OUTPUT_NOT_EMPTY:
      return "GrB_OUTPUT_NOT_EMPTY";
    case GrB_NOT_IMPLEMENTED:
      return "GrB_NOT_IMPLEMENTED";
    case GrB_PANIC:
      return "GrB_PANIC";
    case GrB_OUT_OF_MEMORY:
      return "GrB_OUT_OF_MEMORY";
    case GrB_INSUFFICIENT_SPACE:
      return "GrB_INSUFFICIENT_SPACE";
    case GrB_INVALID_OBJECT:
      return "GrB_INVALID_OBJECT";
    case GrB_INDEX_OUT_OF_BOUNDS:
      return "GrB_INDEX_OUT_OF_BOUNDS";
    case GrB_EMPTY_OBJECT:
      return "GrB_EMPTY_OBJECT";
    default:
      return "unknown GrB_Info";
  }
}
}  // namespace

void check(GrB_Info info, const char* call) {
  if (info == GrB_SUCCESS || info == GrB_NO_VALUE) return;
  throw std::runtime_error(std::string(call) + " failed: " + info_name(info) + " (" + std::to_string(int(info)) + ")");
}

void check_lagraph(int status, const char* call, const char* msg) {
  if (status >= 0) return;
  throw std::runtime_error(std::string(call) + " failed with status " + std::to_string(status) +
                           (msg != nullptr && msg[0] != '\0' ? std::string(": ") + msg : std::string()));
}

graph::graph(matrix a, LAGraph_Kind kind) {
  char msg[LAGRAPH_MSG_LEN] = "";
  // SuiteSparse holds a matrix of one column (n = 1) by column, which LAGraph refuses ("only by-row
  // format supported"): ask for rows, as every other matrix has them.
  check(GxB_Matrix_Option_set(a.get(), GxB_FORMAT, GxB_BY_ROW), "GxB_Matrix_Option_set(FORMAT)");
  // LAGraph_New takes the matrix over and sets the caller's handle to NULL; on failure it is ours again.
  GrB_Matrix m = a.release();
  const int status = LAGraph_New(&g_, &m, kind, msg);
  if (m != nullptr) GrB_Matrix_free(&m);
  check_lagraph(status, "LAGraph_New", msg);
}

graph& graph::operator=(graph&& o) noexcept {
  if (this != &o) {
    char msg[LAGRAPH_MSG_LEN];
    if (g_ != nullptr) LAGraph_Delete(&g_, msg);
    g_ = std::exchange(o.g_, nullptr);
  }
  return *this;
}

graph::~graph() {
  char msg[LAGRAPH_MSG_LEN];
  if (g_ != nullptr) LAGraph_Delete(&g_, msg);
}

void cache_transpose(const graph& g) {
  char msg[LAGRAPH_MSG_LEN] = "";
  check_lagraph(LAGraph_Cached_AT(g.get(), msg), "LAGraph_Cached_AT", msg);
  if (g->AT != nullptr) check(GxB_Matrix_Option_set(g->AT, GxB_FORMAT, GxB_BY_ROW), "GxB_Matrix_Option_set(FORMAT)");
}

void cache_transpose_and_out_degree(const graph& g) {
  cache_transpose(g);
  char msg[LAGRAPH_MSG_LEN] = "";
  check_lagraph(LAGraph_Cached_OutDegree(g.get(), msg), "LAGraph_Cached_OutDegree", msg);
}

GrB_Index nvals(GrB_Vector v) {
  GrB_Index n = 0;
  check(GrB_Vector_nvals(&n, v), "GrB_Vector_nvals");
  return n;
}

GrB_Index nvals(GrB_Matrix a) {
  GrB_Index n = 0;
  check(GrB_Matrix_nvals(&n, a), "GrB_Matrix_nvals");
  return n;
}

GrB_Index nrows(GrB_Matrix a) {
  GrB_Index n = 0;
  check(GrB_Matrix_nrows(&n, a), "GrB_Matrix_nrows");
  return n;
}

namespace {
GrB_UnaryOp identity_of(GrB_Type t) {
  if (t == GrB_BOOL) return GrB_IDENTITY_BOOL;
  if (t == GrB_INT8) return GrB_IDENTITY_INT8;
  if (t == GrB_INT16) return GrB_IDENTITY_INT16;
  if (t == GrB_INT32) return GrB_IDENTITY_INT32;
  if (t == GrB_INT64) return GrB_IDENTITY_INT64;
  if (t == GrB_UINT8) return GrB_IDENTITY_UINT8;
  if (t == GrB_UINT16) return GrB_IDENTITY_UINT16;
  if (t == GrB_UINT32) return GrB_IDENTITY_UINT32;
  if (t == GrB_UINT64) return GrB_IDENTITY_UINT64;
  if (t == GrB_FP32) return GrB_IDENTITY_FP32;
  if (t == GrB_FP64) return GrB_IDENTITY_FP64;
  throw std::runtime_error("oracle: no identity operator for this GraphBLAS type");
}
}  // namespace

matrix dup(GrB_Matrix a) {
  matrix c;
  check(GrB_Matrix_dup(c.out(), a), "GrB_Matrix_dup");
  return c;
}

matrix cast(GrB_Matrix a, GrB_Type type) {
  const GrB_Index n = nrows(a);
  matrix c;
  check(GrB_Matrix_new(c.out(), type, n, n), "GrB_Matrix_new");
  // The identity of the target type: the input is typecast to it first.
  check(GrB_Matrix_apply(c.get(), nullptr, nullptr, identity_of(type), a, nullptr), "GrB_Matrix_apply");
  return c;
}

matrix pattern(GrB_Matrix a) {
  const GrB_Index n = nrows(a);
  matrix c;
  check(GrB_Matrix_new(c.out(), GrB_BOOL, n, n), "GrB_Matrix_new");
  check(GrB_Matrix_apply(c.get(), nullptr, nullptr, GxB_ONE_BOOL, a, nullptr), "GrB_Matrix_apply(ONE)");
  return c;
}

matrix transpose(GrB_Matrix a) {
  const GrB_Index n = nrows(a);
  GrB_Type t = nullptr;
  check(GxB_Matrix_type(&t, a), "GxB_Matrix_type");
  matrix c;
  check(GrB_Matrix_new(c.out(), t, n, n), "GrB_Matrix_new");
  check(GrB_transpose(c.get(), nullptr, nullptr, a, nullptr), "GrB_transpose");
  return c;
}

matrix symmetrize(GrB_Matrix a) {
  auto p = pattern(a);
  const GrB_Index n = nrows(a);
  matrix c;
  check(GrB_Matrix_new(c.out(), GrB_BOOL, n, n), "GrB_Matrix_new");
  check(GrB_Matrix_eWiseAdd_BinaryOp(c.get(), nullptr, nullptr, GrB_LOR, p.get(), p.get(), GrB_DESC_T1),
        "GrB_eWiseAdd(A, A')");
  return c;
}

matrix offdiag(GrB_Matrix a) {
  const GrB_Index n = nrows(a);
  GrB_Type t = nullptr;
  check(GxB_Matrix_type(&t, a), "GxB_Matrix_type");
  matrix c;
  check(GrB_Matrix_new(c.out(), t, n, n), "GrB_Matrix_new");
  check(GrB_Matrix_select_INT64(c.get(), nullptr, nullptr, GrB_OFFDIAG, a, 0, nullptr), "GrB_select(OFFDIAG)");
  return c;
}

descriptor make_descriptor(bool structural_mask, bool complement, bool replace, bool transpose_a) {
  descriptor d;
  check(GrB_Descriptor_new(d.out()), "GrB_Descriptor_new");
  // Debian's GraphBLAS 7.4.0 can spin forever in its masked saxpy3 kernel (seen: MIN_SECOND_UINT32
  // on an iso matrix, rewritten to ANY_PAIR, on mycielski:11, with one thread or many). The dot-product
  // method never enters that kernel and computes the same result.
  check(GrB_Descriptor_set(d.get(), GxB_AxB_METHOD, GxB_AxB_DOT), "GrB_Descriptor_set(AxB_METHOD, DOT)");
  // GraphBLAS 7.4 has no GrB_COMP_STRUCTURE value: setting GrB_MASK twice combines the two flags.
  if (complement) check(GrB_Descriptor_set(d.get(), GrB_MASK, GrB_COMP), "GrB_Descriptor_set(MASK, COMP)");
  if (structural_mask)
    check(GrB_Descriptor_set(d.get(), GrB_MASK, GrB_STRUCTURE), "GrB_Descriptor_set(MASK, STRUCTURE)");
  if (replace) check(GrB_Descriptor_set(d.get(), GrB_OUTP, GrB_REPLACE), "GrB_Descriptor_set(OUTP)");
  if (transpose_a) check(GrB_Descriptor_set(d.get(), GrB_INP0, GrB_TRAN), "GrB_Descriptor_set(INP0)");
  return d;
}

vector make_mask(GrB_Index n, const std::vector<GrB_Index>& index) {
  return make_vector<bool>(n, index, std::vector<bool>(index.size(), true));
}

matrix make_bool_matrix(GrB_Index rows, GrB_Index cols, const std::vector<GrB_Index>& row,
                        const std::vector<GrB_Index>& col) {
  matrix a;
  check(GrB_Matrix_new(a.out(), GrB_BOOL, rows, cols), "GrB_Matrix_new");
  if (row.empty()) return a;
  std::unique_ptr<bool[]> ones(new bool[row.size()]);
  for (std::size_t k = 0; k < row.size(); ++k) ones[k] = true;
  check(GrB_Matrix_build_BOOL(a.get(), row.data(), col.data(), ones.get(), row.size(), GrB_LOR), "GrB_Matrix_build");
  return a;
}

std::vector<std::vector<GrB_Index>> rows_of(GrB_Matrix a) {
  const auto t = extract<bool>(a);  // sorted by (row, column)
  std::vector<std::vector<GrB_Index>> out(nrows(a));
  for (std::size_t k = 0; k < t.row.size(); ++k) out[t.row[k]].push_back(t.col[k]);
  return out;
}

matrix keep_columns(GrB_Matrix a, GrB_Vector mask) {
  GrB_Index rows = 0, cols = 0;
  check(GrB_Matrix_nrows(&rows, a), "GrB_Matrix_nrows");
  check(GrB_Matrix_ncols(&cols, a), "GrB_Matrix_ncols");
  matrix d, c;
  check(GrB_Matrix_diag(d.out(), mask, 0), "GrB_Matrix_diag");
  check(GrB_Matrix_new(c.out(), GrB_BOOL, rows, cols), "GrB_Matrix_new");
  check(GrB_mxm(c.get(), nullptr, nullptr, GrB_LOR_LAND_SEMIRING_BOOL, a, d.get(), nullptr), "GrB_mxm(A, diag(m))");
  return c;
}

std::string type_name(GrB_Matrix a) {
  char name[LAGRAPH_MAX_NAME_LEN] = "";
  char msg[LAGRAPH_MSG_LEN] = "";
  check_lagraph(LAGraph_Matrix_TypeName(name, a, msg), "LAGraph_Matrix_TypeName", msg);
  return name;
}

}  // namespace bitgraph::oracle::gb
