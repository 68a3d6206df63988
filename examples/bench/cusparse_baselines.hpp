// cuSPARSE baselines of the benchmark (CUDA only): CSR SpMV with fp32 values, and triangle counting by
// SpGEMM (C = L·U with U = L^T) followed by the mask C .* L and a sum.
#pragma once

#include <cusparse.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <utility>
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

/// Σ f.
struct sum_i64 {
  Kokkos::View<const std::int64_t*, Kokkos::CudaSpace> f;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, std::int64_t& acc) const { acc += f(i); }
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

/// A row block of L·U that did not fit: cuSPARSE reported insufficient resources, or a buffer could not be
/// allocated. The caller splits the block.
struct spgemm_block_too_large {};

/// Σ_{(i,j) ∈ L, r0 <= i < r0 + rows} (L·U)(i, j) by one cuSPARSE SpGEMM of that row block of L with U.
inline std::uint64_t cusparse_triangles_block(const Kokkos::Cuda& exec, cusparseHandle_t h, cusparseSpMatDescr_t b,
                                              const csr_fp32<Kokkos::CudaSpace>& l, std::int64_t r0,
                                              std::int64_t rows) {
  using mem = Kokkos::CudaSpace;
  const std::int64_t n = l.n;
  std::int32_t lo = 0, hi = 0;
  Kokkos::deep_copy(exec, lo, Kokkos::subview(l.row_ptr, r0));
  Kokkos::deep_copy(exec, hi, Kokkos::subview(l.row_ptr, r0 + rows));
  exec.fence();
  if (hi == lo) return 0;
  const auto too_large = [](cusparseStatus_t st, const char* what) {
    if (st == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES) throw spgemm_block_too_large{};
    cusparse_check(st, what);
  };
  Kokkos::View<std::int32_t*, mem> brp("bench::tc_block_rp", rows + 1);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(exec, 0, rows + 1),
                       kernels::block_row_ptr{l.row_ptr, brp, r0});
  cusparseSpMatDescr_t a = nullptr, c = nullptr;
  cusparseSpGEMMDescr_t d = nullptr;
  const auto release = [&] {
    if (d) cusparseSpGEMM_destroyDescr(d);
    if (a) cusparseDestroySpMat(a);
    if (c) cusparseDestroySpMat(c);
  };
  try {
    Kokkos::View<std::int32_t*, mem> crp("bench::c_rp", rows + 1);
    cusparse_check(cusparseCreateCsr(&a, rows, n, hi - lo, brp.data(), l.col.data() + lo, l.val.data() + lo,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                   "create L block");
    cusparse_check(cusparseCreateCsr(&c, rows, n, 0, crp.data(), nullptr, nullptr, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                   "create C");
    cusparse_check(cusparseSpGEMM_createDescr(&d), "SpGEMM descr");
    const float alpha = 1, beta = 0;
    const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const auto alg = CUSPARSE_SPGEMM_DEFAULT;
    std::size_t b1 = 0, b2 = 0;
    too_large(cusparseSpGEMM_workEstimation(h, op, op, &alpha, a, b, &beta, c, CUDA_R_32F, alg, d, &b1, nullptr),
              "work 1");
    Kokkos::View<char*, mem> buf1("bench::spgemm_buf1", b1 + 1);
    too_large(cusparseSpGEMM_workEstimation(h, op, op, &alpha, a, b, &beta, c, CUDA_R_32F, alg, d, &b1, buf1.data()),
              "work 2");
    too_large(cusparseSpGEMM_compute(h, op, op, &alpha, a, b, &beta, c, CUDA_R_32F, alg, d, &b2, nullptr), "compute 1");
    Kokkos::View<char*, mem> buf2("bench::spgemm_buf2", b2 + 1);
    too_large(cusparseSpGEMM_compute(h, op, op, &alpha, a, b, &beta, c, CUDA_R_32F, alg, d, &b2, buf2.data()),
              "compute 2");
    std::int64_t crows = 0, ccols = 0, cnnz = 0;
    cusparse_check(cusparseSpMatGetSize(c, &crows, &ccols, &cnnz), "size");
    Kokkos::View<std::int32_t*, mem> ccol("bench::c_col", cnnz);
    Kokkos::View<float*, mem> cval("bench::c_val", cnnz);
    cusparse_check(cusparseCsrSetPointers(c, crp.data(), ccol.data(), cval.data()), "set C");
    cusparse_check(cusparseSpGEMM_copy(h, op, op, &alpha, a, b, &beta, c, CUDA_R_32F, alg, d), "copy");
    std::uint64_t part = 0;
    Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(exec, 0, rows),
                            kernels::masked_sum{l.row_ptr, l.col, crp, ccol, cval, r0}, part);
    release();
    return part;
  } catch (const spgemm_block_too_large&) {
    release();
    throw;
  } catch (const error&) {
    release();
    throw;
  } catch (const std::exception&) {
    // A Kokkos allocation that failed: the block's buffers do not fit.
    release();
    throw spgemm_block_too_large{};
  }
}

/// C = A·A by cuSPARSE SpGEMM (fp32, CUSPARSE_SPGEMM_DEFAULT): both work estimations, both computes, C's
/// arrays and the copy, all inside the call as a caller pays them. Returns nnz(C) (every value is positive, so
/// cuSPARSE's pattern is the structural one); throws `unsupported_error` when the 32-bit indices cannot hold C.
inline std::int64_t cusparse_spgemm_square(const Kokkos::Cuda& exec, const csr_fp32<Kokkos::CudaSpace>& a) {
  using mem = Kokkos::CudaSpace;
  if (a.wide) throw unsupported_error("bench: cuSPARSE SpGEMM baseline needs fewer than 2^31 entries");
  cusparseHandle_t h = nullptr;
  cusparseSpMatDescr_t ma = nullptr, mc = nullptr;
  cusparseSpGEMMDescr_t d = nullptr;
  const auto release = [&] {
    if (d) cusparseSpGEMM_destroyDescr(d);
    if (ma) cusparseDestroySpMat(ma);
    if (mc) cusparseDestroySpMat(mc);
    if (h) cusparseDestroy(h);
  };
  try {
    cusparse_check(cusparseCreate(&h), "create");
    cusparse_check(cusparseSetStream(h, exec.cuda_stream()), "set stream");
    Kokkos::View<std::int32_t*, mem> crp("bench::spgemm_c_rp", a.n + 1);
    cusparse_check(cusparseCreateCsr(&ma, a.n, a.n, a.nnz, a.row_ptr.data(), a.col.data(), a.val.data(),
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                   "create A");
    cusparse_check(cusparseCreateCsr(&mc, a.n, a.n, 0, crp.data(), nullptr, nullptr, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                   "create C");
    cusparse_check(cusparseSpGEMM_createDescr(&d), "SpGEMM descr");
    const float alpha = 1, beta = 0;
    const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const auto alg = CUSPARSE_SPGEMM_DEFAULT;
    std::size_t b1 = 0, b2 = 0;
    cusparse_check(
        cusparseSpGEMM_workEstimation(h, op, op, &alpha, ma, ma, &beta, mc, CUDA_R_32F, alg, d, &b1, nullptr),
        "SpGEMM work 1");
    Kokkos::View<char*, mem> buf1("bench::spgemm_buf1", b1 + 1);
    cusparse_check(
        cusparseSpGEMM_workEstimation(h, op, op, &alpha, ma, ma, &beta, mc, CUDA_R_32F, alg, d, &b1, buf1.data()),
        "SpGEMM work 2");
    cusparse_check(cusparseSpGEMM_compute(h, op, op, &alpha, ma, ma, &beta, mc, CUDA_R_32F, alg, d, &b2, nullptr),
                   "SpGEMM compute 1");
    Kokkos::View<char*, mem> buf2("bench::spgemm_buf2", b2 + 1);
    cusparse_check(cusparseSpGEMM_compute(h, op, op, &alpha, ma, ma, &beta, mc, CUDA_R_32F, alg, d, &b2, buf2.data()),
                   "SpGEMM compute 2");
    std::int64_t crows = 0, ccols = 0, cnnz = 0;
    cusparse_check(cusparseSpMatGetSize(mc, &crows, &ccols, &cnnz), "SpGEMM size");
    Kokkos::View<std::int32_t*, mem> ccol("bench::spgemm_c_col", cnnz);
    Kokkos::View<float*, mem> cval("bench::spgemm_c_val", cnnz);
    cusparse_check(cusparseCsrSetPointers(mc, crp.data(), ccol.data(), cval.data()), "SpGEMM set C");
    cusparse_check(cusparseSpGEMM_copy(h, op, op, &alpha, ma, ma, &beta, mc, CUDA_R_32F, alg, d), "SpGEMM copy");
    exec.fence();
    release();
    return cnnz;
  } catch (...) {
    release();
    throw;
  }
}

/// Triangles of an undirected graph by cuSPARSE SpGEMM: C = L·U (U = L^T = the strict upper triangle),
/// then Σ_{(i,j) ∈ L} C(i, j). Where the product forms more than `block_products` products it is formed in
/// row blocks of L holding at most that many each, and a block cuSPARSE cannot fit is halved (the whole
/// product of a power-law graph does not fit cuSPARSE's buffers). A graph with more than `max_products`
/// throws `unsupported_error` (the baseline would take minutes; the bench row records why it is missing).
inline std::uint64_t cusparse_triangles(const Kokkos::Cuda& exec, const csr_graph<Kokkos::CudaSpace>& g,
                                        std::int64_t block_products = std::int64_t(1) << 28,
                                        std::int64_t max_products = std::int64_t(1) << 35) {
  using mem = Kokkos::CudaSpace;
  BITGRAPH_CHECK_ARG(g.nnz < (offset_t(1) << 31), "cusparse_triangles", "int32 indices only");
  auto l = triangle_part(exec, g, true);
  auto u = triangle_part(exec, g, false);
  const std::int64_t n = g.n;
  if (n == 0 || l.nnz == 0) return 0;

  Kokkos::View<std::int64_t*, mem> f("bench::tc_products", n);
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                       kernels::row_products{l.row_ptr, l.col, u.row_ptr, f});
  std::int64_t total = 0;
  Kokkos::parallel_reduce(Kokkos::RangePolicy<Kokkos::Cuda, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                          kernels::sum_i64{f}, total);
  if (total > max_products)
    throw unsupported_error("bench: cuSPARSE TC skipped: L·U forms " + std::to_string(total) + " products (limit " +
                            std::to_string(max_products) + ")");
  // Row blocks [start, end): one when the product fits, else planned from the products per row on the host.
  std::vector<std::pair<std::int64_t, std::int64_t>> blocks;
  if (total <= block_products) {
    blocks.emplace_back(0, n);
  } else {
    auto fh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, f);
    std::int64_t start = 0, in_block = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      if (in_block > 0 && in_block + fh(i) > block_products) {
        blocks.emplace_back(start, i);
        start = i;
        in_block = 0;
      }
      in_block += fh(i);
    }
    blocks.emplace_back(start, n);
  }

  cusparseHandle_t h;
  cusparse_check(cusparseCreate(&h), "create");
  cusparse_check(cusparseSetStream(h, exec.cuda_stream()), "set stream");
  cusparseSpMatDescr_t b;
  cusparse_check(cusparseCreateCsr(&b, n, n, u.nnz, u.row_ptr.data(), u.col.data(), u.val.data(), CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 "create U");
  std::uint64_t triangles = 0;
  try {
    while (!blocks.empty()) {
      const auto [r0, r1] = blocks.back();
      blocks.pop_back();
      try {
        triangles += cusparse_triangles_block(exec, h, b, l, r0, r1 - r0);
      } catch (const spgemm_block_too_large&) {
        if (r1 - r0 < 2) throw error("bench: cuSPARSE TC: one row of L·U does not fit cuSPARSE's buffers");
        const std::int64_t mid = r0 + (r1 - r0) / 2;
        blocks.emplace_back(mid, r1);
        blocks.emplace_back(r0, mid);
      }
    }
  } catch (...) {
    cusparseDestroySpMat(b);
    cusparseDestroy(h);
    throw;
  }
  cusparseDestroySpMat(b);
  cusparseDestroy(h);
  return triangles;
}

}  // namespace bitgraph::bench
