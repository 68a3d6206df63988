// cuSPARSE baselines of the benchmark (CUDA only): CSR SpMV with fp32 values, and triangle counting by
// SpGEMM (C = L·U with U = L^T) followed by the mask C .* L and a sum.
#pragma once

#include <cusparse.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

#include "bench/baselines.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/csr.hpp"

namespace bitgraph::bench {

inline void cusparse_check(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS) {
    throw error(std::string("bench: cuSPARSE ") + what + " failed: " + cusparseGetErrorString(s));
  }
}

/// cusparseSpMV on a CSR with int32 indices and fp32 values; the handle, descriptors and buffer are made
/// once so that `run` times only the product.
class cusparse_spmv {
 public:
  cusparse_spmv(const csr_fp32<Kokkos::CudaSpace>& a, Kokkos::View<float*, Kokkos::CudaSpace> x,
                Kokkos::View<float*, Kokkos::CudaSpace> y) {
    cusparse_check(cusparseCreate(&handle_), "create");
    cusparse_check(cusparseCreateCsr(&mat_, a.n, a.n, a.nnz, a.row_ptr.data(), a.col.data(), a.val.data(),
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                   "create CSR");
    cusparse_check(cusparseCreateDnVec(&x_, a.n, x.data(), CUDA_R_32F), "create x");
    cusparse_check(cusparseCreateDnVec(&y_, a.n, y.data(), CUDA_R_32F), "create y");
    std::size_t bytes = 0;
    const float alpha = 1, beta = 0;
    cusparse_check(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat_, x_, &beta, y_,
                                           CUDA_R_32F, CUSPARSE_SPMV_CSR_ALG1, &bytes),
                   "SpMV buffer size");
    buffer_ = Kokkos::View<char*, Kokkos::CudaSpace>("bench::cusparse_buffer", bytes + 1);
  }
  ~cusparse_spmv() {
    cusparseDestroyDnVec(x_);
    cusparseDestroyDnVec(y_);
    cusparseDestroySpMat(mat_);
    cusparseDestroy(handle_);
  }
  cusparse_spmv(const cusparse_spmv&) = delete;
  cusparse_spmv& operator=(const cusparse_spmv&) = delete;

  /// y = A x on `exec`'s stream.
  void run(const Kokkos::Cuda& exec, Kokkos::View<float*, Kokkos::CudaSpace> x,
           Kokkos::View<float*, Kokkos::CudaSpace> y) {
    const float alpha = 1, beta = 0;
    cusparse_check(cusparseSetStream(handle_, exec.cuda_stream()), "set stream");
    cusparse_check(cusparseDnVecSetValues(x_, x.data()), "set x");
    cusparse_check(cusparseDnVecSetValues(y_, y.data()), "set y");
    cusparse_check(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat_, x_, &beta, y_, CUDA_R_32F,
                                CUSPARSE_SPMV_CSR_ALG1, buffer_.data()),
                   "SpMV");
  }

 private:
  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t mat_ = nullptr;
  cusparseDnVecDescr_t x_ = nullptr, y_ = nullptr;
  Kokkos::View<char*, Kokkos::CudaSpace> buffer_;
};

namespace kernels {

/// Entries of row u in the strict lower (upper) triangle, stored at u + 1 for the inclusive scan.
struct triangle_counts {
  Kokkos::View<const offset_t*, Kokkos::CudaSpace> rp;
  Kokkos::View<const vertex_t*, Kokkos::CudaSpace> ci;
  Kokkos::View<std::int32_t*, Kokkos::CudaSpace> trp;
  bool lower;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    std::int32_t c = 0;
    for (offset_t p = rp(u); p < rp(u + 1); ++p) c += lower ? (ci(p) < u) : (ci(p) > u);
    trp(u + 1) = c;
  }
};

struct inclusive_scan_i32 {
  Kokkos::View<std::int32_t*, Kokkos::CudaSpace> trp;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i, std::int32_t& acc, const bool final) const {
    const std::int32_t c = i == 0 ? 0 : trp(i);
    acc += c;
    if (final) trp(i) = acc;
  }
};

struct triangle_fill {
  Kokkos::View<const offset_t*, Kokkos::CudaSpace> rp;
  Kokkos::View<const vertex_t*, Kokkos::CudaSpace> ci;
  Kokkos::View<const std::int32_t*, Kokkos::CudaSpace> trp;
  Kokkos::View<std::int32_t*, Kokkos::CudaSpace> tc;
  bool lower;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u) const {
    std::int32_t q = trp(u);
    for (offset_t p = rp(u); p < rp(u + 1); ++p)
      if (lower ? (ci(p) < u) : (ci(p) > u)) tc(q++) = static_cast<std::int32_t>(ci(p));
  }
};

/// Σ_{(i,j) ∈ L} C(i, j): C's rows are sorted by cuSPARSE's SpGEMM output, so binary search.
struct masked_sum {
  Kokkos::View<const std::int32_t*, Kokkos::CudaSpace> lrp, lcol, crp, ccol;
  Kokkos::View<const float*, Kokkos::CudaSpace> cval;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::uint64_t& acc) const {
    for (std::int32_t p = lrp(i); p < lrp(i + 1); ++p) {
      const std::int32_t j = lcol(p);
      std::int32_t lo = crp(i), hi = crp(i + 1);
      while (lo < hi) {
        const std::int32_t mid = (lo + hi) / 2;
        if (ccol(mid) < j)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo < crp(i + 1) && ccol(lo) == j) acc += static_cast<std::uint64_t>(cval(lo) + 0.5f);
    }
  }
};

}  // namespace kernels

/// The strictly lower (or upper) triangle of an undirected CSR as int32 CSR with fp32 ones.
inline csr_fp32<Kokkos::CudaSpace> triangle_part(const Kokkos::Cuda& exec, const csr_graph<Kokkos::CudaSpace>& g,
                                                 bool lower) {
  using mem = Kokkos::CudaSpace;
  const vertex_t n = g.n;
  csr_fp32<mem> t;
  t.n = static_cast<std::int32_t>(n);
  t.row_ptr = Kokkos::View<std::int32_t*, mem>("bench::tri_rp", n + 1);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, n),
                       kernels::triangle_counts{g.row_ptr, g.col_idx, t.row_ptr, lower});
  std::int32_t total = 0;
  Kokkos::parallel_scan(Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, n + 1), kernels::inclusive_scan_i32{t.row_ptr},
                        total);
  t.nnz = total;
  t.col = Kokkos::View<std::int32_t*, mem>("bench::tri_col", total);
  t.val = Kokkos::View<float*, mem>("bench::tri_val", total);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, n),
                       kernels::triangle_fill{g.row_ptr, g.col_idx, t.row_ptr, t.col, lower});
  Kokkos::deep_copy(exec, t.val, 1.0f);
  return t;
}

/// Triangles of an undirected graph by cuSPARSE SpGEMM: C = L·U (U = L^T = the strict upper triangle),
/// then Σ_{(i,j) ∈ L} C(i, j). Graphs whose product does not fit throw (the baseline is then absent).
inline std::uint64_t cusparse_triangles(const Kokkos::Cuda& exec, const csr_graph<Kokkos::CudaSpace>& g) {
  using mem = Kokkos::CudaSpace;
  BITGRAPH_CHECK_ARG(g.nnz < (offset_t(1) << 31), "cusparse_triangles", "int32 indices only");
  auto l = triangle_part(exec, g, true);
  auto u = triangle_part(exec, g, false);
  cusparseHandle_t h;
  cusparse_check(cusparseCreate(&h), "create");
  cusparse_check(cusparseSetStream(h, exec.cuda_stream()), "set stream");
  cusparseSpMatDescr_t A, B, C;
  const std::int64_t n = g.n;
  cusparse_check(cusparseCreateCsr(&A, n, n, l.nnz, l.row_ptr.data(), l.col.data(), l.val.data(), CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 "create L");
  cusparse_check(cusparseCreateCsr(&B, n, n, u.nnz, u.row_ptr.data(), u.col.data(), u.val.data(), CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 "create U");
  Kokkos::View<std::int32_t*, mem> crp("bench::c_rp", n + 1);
  cusparse_check(cusparseCreateCsr(&C, n, n, 0, crp.data(), nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 "create C");
  cusparseSpGEMMDescr_t d;
  cusparse_check(cusparseSpGEMM_createDescr(&d), "SpGEMM descr");
  const float alpha = 1, beta = 0;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const auto alg = CUSPARSE_SPGEMM_DEFAULT;
  std::size_t b1 = 0, b2 = 0;
  cusparse_check(cusparseSpGEMM_workEstimation(h, op, op, &alpha, A, B, &beta, C, CUDA_R_32F, alg, d, &b1, nullptr),
                 "work 1");
  Kokkos::View<char*, mem> buf1("bench::spgemm_buf1", b1 + 1);
  cusparse_check(cusparseSpGEMM_workEstimation(h, op, op, &alpha, A, B, &beta, C, CUDA_R_32F, alg, d, &b1, buf1.data()),
                 "work 2");
  cusparse_check(cusparseSpGEMM_compute(h, op, op, &alpha, A, B, &beta, C, CUDA_R_32F, alg, d, &b2, nullptr),
                 "compute 1");
  Kokkos::View<char*, mem> buf2("bench::spgemm_buf2", b2 + 1);
  cusparse_check(cusparseSpGEMM_compute(h, op, op, &alpha, A, B, &beta, C, CUDA_R_32F, alg, d, &b2, buf2.data()),
                 "compute 2");
  std::int64_t rows = 0, cols = 0, cnnz = 0;
  cusparse_check(cusparseSpMatGetSize(C, &rows, &cols, &cnnz), "size");
  Kokkos::View<std::int32_t*, mem> ccol("bench::c_col", cnnz);
  Kokkos::View<float*, mem> cval("bench::c_val", cnnz);
  cusparse_check(cusparseCsrSetPointers(C, crp.data(), ccol.data(), cval.data()), "set C");
  cusparse_check(cusparseSpGEMM_copy(h, op, op, &alpha, A, B, &beta, C, CUDA_R_32F, alg, d), "copy");
  std::uint64_t total = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, n),
                          kernels::masked_sum{l.row_ptr, l.col, crp, ccol, cval}, total);
  cusparseSpGEMM_destroyDescr(d);
  cusparseDestroySpMat(A);
  cusparseDestroySpMat(B);
  cusparseDestroySpMat(C);
  cusparseDestroy(h);
  return total;
}

}  // namespace bitgraph::bench
