// cuSPARSE baselines of the benchmark (CUDA only): CSR SpMV with fp32 values, and triangle counting by
// SpGEMM (C = L·U with U = L^T) followed by the mask C .* L and a sum.
#pragma once

#include <cusparse.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

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

/// Σ_{(i,j) ∈ L} C(i, j) over one row block of C (row i of the block is row r0 + i of L): C's rows are
/// sorted by cuSPARSE's SpGEMM output, so binary search.
struct masked_sum {
  Kokkos::View<const std::int32_t*, Kokkos::CudaSpace> lrp, lcol, crp, ccol;
  Kokkos::View<const float*, Kokkos::CudaSpace> cval;
  std::int64_t r0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::uint64_t& acc) const {
    for (std::int32_t p = lrp(r0 + i); p < lrp(r0 + i + 1); ++p) {
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

/// Products row i of L·U forms: Σ_{k ∈ L(i,:)} |U(k,:)|.
struct row_products {
  Kokkos::View<const std::int32_t*, Kokkos::CudaSpace> lrp, lcol, urp;
  Kokkos::View<std::int64_t*, Kokkos::CudaSpace> f;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    std::int64_t c = 0;
    for (std::int32_t p = lrp(i); p < lrp(i + 1); ++p) c += urp(lcol(p) + 1) - urp(lcol(p));
    f(i) = c;
  }
};

/// Row pointers of the block of rows [r0, r0 + rows) of L, rebased to start at 0.
struct block_row_ptr {
  Kokkos::View<const std::int32_t*, Kokkos::CudaSpace> lrp;
  Kokkos::View<std::int32_t*, Kokkos::CudaSpace> brp;
  std::int64_t r0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const { brp(i) = lrp(r0 + i) - lrp(r0); }
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
/// then Σ_{(i,j) ∈ L} C(i, j). The product is formed in blocks of rows of L holding at most
/// `block_products` products each (one SpGEMM per block: the whole product of a power-law graph does not
/// fit cuSPARSE's buffers); the row products are counted first, and a graph with more than `max_products`
/// throws (the baseline would take minutes; the row then records why it is missing).
inline std::uint64_t cusparse_triangles(const Kokkos::Cuda& exec, const csr_graph<Kokkos::CudaSpace>& g,
                                        std::int64_t block_products = std::int64_t(1) << 26,
                                        std::int64_t max_products = std::int64_t(1) << 35) {
  using mem = Kokkos::CudaSpace;
  BITGRAPH_CHECK_ARG(g.nnz < (offset_t(1) << 31), "cusparse_triangles", "int32 indices only");
  auto l = triangle_part(exec, g, true);
  auto u = triangle_part(exec, g, false);
  const std::int64_t n = g.n;
  if (n == 0 || l.nnz == 0) return 0;

  // Row blocks from the products per row.
  Kokkos::View<std::int64_t*, mem> f("bench::tc_products", n);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       kernels::row_products{l.row_ptr, l.col, u.row_ptr, f});
  auto fh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, f);
  std::vector<std::int64_t> starts{0};
  std::int64_t total = 0, in_block = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (in_block > 0 && in_block + fh(i) > block_products) {
      starts.push_back(i);
      in_block = 0;
    }
    in_block += fh(i);
    total += fh(i);
  }
  starts.push_back(n);
  if (total > max_products)
    throw unsupported_error("bench: cuSPARSE TC skipped: L·U forms " + std::to_string(total) + " products (limit " +
                            std::to_string(max_products) + ")");

  cusparseHandle_t h;
  cusparse_check(cusparseCreate(&h), "create");
  cusparse_check(cusparseSetStream(h, exec.cuda_stream()), "set stream");
  cusparseSpMatDescr_t B;
  cusparse_check(cusparseCreateCsr(&B, n, n, u.nnz, u.row_ptr.data(), u.col.data(), u.val.data(), CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 "create U");
  auto lrp_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, l.row_ptr);
  const float alpha = 1, beta = 0;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const auto alg = CUSPARSE_SPGEMM_DEFAULT;
  std::uint64_t triangles = 0;
  try {
    for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
      const std::int64_t r0 = starts[b], rows = starts[b + 1] - r0;
      const std::int64_t a_nnz = lrp_h(r0 + rows) - lrp_h(r0);
      if (a_nnz == 0) continue;
      Kokkos::View<std::int32_t*, mem> brp("bench::tc_block_rp", rows + 1);
      Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(exec, 0, rows + 1),
                           kernels::block_row_ptr{l.row_ptr, brp, r0});
      cusparseSpMatDescr_t A, C;
      cusparse_check(
          cusparseCreateCsr(&A, rows, n, a_nnz, brp.data(), l.col.data() + lrp_h(r0), l.val.data() + lrp_h(r0),
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
          "create L block");
      Kokkos::View<std::int32_t*, mem> crp("bench::c_rp", rows + 1);
      cusparse_check(cusparseCreateCsr(&C, rows, n, 0, crp.data(), nullptr, nullptr, CUSPARSE_INDEX_32I,
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                     "create C");
      cusparseSpGEMMDescr_t d;
      cusparse_check(cusparseSpGEMM_createDescr(&d), "SpGEMM descr");
      std::size_t b1 = 0, b2 = 0;
      cusparse_check(cusparseSpGEMM_workEstimation(h, op, op, &alpha, A, B, &beta, C, CUDA_R_32F, alg, d, &b1, nullptr),
                     "work 1");
      Kokkos::View<char*, mem> buf1("bench::spgemm_buf1", b1 + 1);
      cusparse_check(
          cusparseSpGEMM_workEstimation(h, op, op, &alpha, A, B, &beta, C, CUDA_R_32F, alg, d, &b1, buf1.data()),
          "work 2");
      cusparse_check(cusparseSpGEMM_compute(h, op, op, &alpha, A, B, &beta, C, CUDA_R_32F, alg, d, &b2, nullptr),
                     "compute 1");
      Kokkos::View<char*, mem> buf2("bench::spgemm_buf2", b2 + 1);
      cusparse_check(cusparseSpGEMM_compute(h, op, op, &alpha, A, B, &beta, C, CUDA_R_32F, alg, d, &b2, buf2.data()),
                     "compute 2");
      std::int64_t crows = 0, ccols = 0, cnnz = 0;
      cusparse_check(cusparseSpMatGetSize(C, &crows, &ccols, &cnnz), "size");
      Kokkos::View<std::int32_t*, mem> ccol("bench::c_col", cnnz);
      Kokkos::View<float*, mem> cval("bench::c_val", cnnz);
      cusparse_check(cusparseCsrSetPointers(C, crp.data(), ccol.data(), cval.data()), "set C");
      cusparse_check(cusparseSpGEMM_copy(h, op, op, &alpha, A, B, &beta, C, CUDA_R_32F, alg, d), "copy");
      std::uint64_t part = 0;
      Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(exec, 0, rows),
                              kernels::masked_sum{l.row_ptr, l.col, crp, ccol, cval, r0}, part);
      triangles += part;
      cusparseSpGEMM_destroyDescr(d);
      cusparseDestroySpMat(A);
      cusparseDestroySpMat(C);
    }
  } catch (...) {
    cusparseDestroySpMat(B);
    cusparseDestroy(h);
    throw;
  }
  cusparseDestroySpMat(B);
  cusparseDestroy(h);
  return triangles;
}

}  // namespace bitgraph::bench
