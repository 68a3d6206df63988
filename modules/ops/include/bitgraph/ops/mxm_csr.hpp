// GraphBLAS mxm on valued CSR matrices: C<M, replace> = accum(C, A ⊕.⊗ B) over any semiring, with a
// structural matrix mask (complement, replace), an accumulator and transposes of A or B.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/detail/mxm_csr_generic.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/operators.hpp"
#include "bitgraph/ops/options.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// A structural matrix mask: C(i, j) may be written when the mask stores (i, j) (its values are not read),
/// or, with `complement`, when it does not. Positions the mask excludes keep C's entry, or lose it under
/// `replace`. The views are the pattern of a csr_matrix or csr_graph (sorted rows).
template <class MemorySpace>
struct matrix_mask {
  vertex_t n_rows = 0;
  vertex_t n_cols = 0;
  Kokkos::View<const offset_t*, MemorySpace> row_ptr;  ///< n_rows + 1 offsets (or empty: no entries)
  Kokkos::View<const vertex_t*, MemorySpace> col_idx;  ///< columns ascending within each row
  bool complement = false;                             ///< allow the positions the mask does not store
  bool replace = false;                                ///< clear excluded positions instead of keeping them
};

/// The pattern of `m` as a mask.
template <class T, class MemorySpace>
matrix_mask<MemorySpace> mask_of(const csr_matrix<T, MemorySpace>& m, bool complement = false, bool replace = false) {
  return matrix_mask<MemorySpace>{m.n_rows, m.n_cols, m.row_ptr, m.col_idx, complement, replace};
}

/// The adjacency pattern of `g` (n × n) as a mask.
template <class MemorySpace>
matrix_mask<MemorySpace> mask_of(const csr_graph<MemorySpace>& g, bool complement = false, bool replace = false) {
  return matrix_mask<MemorySpace>{g.n, g.n, g.row_ptr, g.col_idx, complement, replace};
}

/// Options of the CSR `mxm`: the descriptor shared by the CSR matrix ops (ops/options.hpp).
using mxm_csr_options = matrix_op_options;

/// C<mask, replace> = accum(C, A ⊕.⊗ B) on CSR matrices with values (GraphBLAS GrB_mxm); `mxm(exec, semiring, A, B)`
/// (below) returns A ⊕.⊗ B as a new matrix.
///
/// T(i, j) = ⊕_k A(i, k) ⊗ B(k, j) over the k where both are stored; T has an entry exactly where such a k
/// exists (structurally: a sum equal to 0 or to the identity is still an entry). The semiring `S` needs
/// `value_type`, `add(a, b)` and `multiply(a, b, i, k)` (k is the inner index, so SECONDI yields k as in
/// GraphBLAS); the library's semirings (plus_times, plus_pair, min_plus, max_times, lor_land, ...) qualify.
/// A's and B's values are converted to `S::value_type`, which must be C's value type. Then, per position:
/// where the mask allows, C takes T (no accumulator; T's absence deletes C's entry) or accum(C, T) where both
/// exist and whichever exists otherwise; where the mask excludes, C keeps its entry, or loses it under
/// `replace`. `mask` is `no_mask{}` or `mask_of(matrix or graph, complement, replace)`; `accum` is
/// `no_accumulator{}`, `accumulate_with<Monoid>{}` or a binary operator of operators.hpp (`minus_op`, a
/// monoid, a multiply operator). C is given new arrays; views of its old arrays are left as they were.
///
/// Kernel: per-row hash Gustavson, one thread per row. A sizing pass gives row i a table of
/// 2·pow2(min(flops_i, n_cols)) slots, or of 2·pow2(|M(i, :)|) when a plain mask is no longer than the row's
/// products (the mask's columns are pre-inserted and products only look them up, so only allowed entries are
/// computed); complemented or longer masks filter every product by a binary search of the mask row. An
/// accumulation pass builds the row (numeric and symbolic at once) and counts it, a scan sizes T, an
/// extraction pass copies and heap-sorts each row; the merge with C (count, scan, fill) runs unless C = T
/// (no accumulator, and no mask or a replacing one). Work O(flops + Σ_i cap_i + nnz(T) log row +
/// nnz(C)), times log |M(i, :)| per product for filtering masks; memory O(Σ_i cap_i) ≤ 4·flops.
///
/// Throws `invalid_argument_error` when the inner dimensions of A and B differ, C is not rows(A) × cols(B),
/// the mask's shape is not C's, or an operand's arrays do not fit its shape; `size_error` when the tables'
/// total overflows 64 bits; `unsupported_error` for a forced CUDA path; `allocation_error` when memory runs
/// out. Fences `exec`.
template <class ExecSpace, class T, class Mask, class Accum, class S, class TA, class TB>
void mxm(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
         const S& sr, const csr_matrix<TA, memory_space_t<ExecSpace>>& a,
         const csr_matrix<TB, memory_space_t<ExecSpace>>& b, const mxm_csr_options& opts = {});

namespace detail {

template <class M>
inline constexpr bool is_matrix_mask_v = false;
template <class Mem>
inline constexpr bool is_matrix_mask_v<matrix_mask<Mem>> = true;

/// `m` with a zero row_ptr when it has none (a default-constructed empty matrix), so kernels may read it.
template <class ExecSpace, class T>
csr_matrix<T, memory_space_t<ExecSpace>> with_row_ptr(const ExecSpace& exec,
                                                      const csr_matrix<T, memory_space_t<ExecSpace>>& m) {
  if (m.row_ptr.extent(0) != 0) return m;
  auto e = empty_csr_matrix<T>(exec, m.n_rows, m.n_cols);
  return e;
}

template <class Mem, class Mask>
csr_mask_args<Mem> to_csr_mask_args(const Mask& mask, Kokkos::View<const offset_t*, Mem> zeros) {
  csr_mask_args<Mem> m;
  if constexpr (is_matrix_mask_v<Mask>) {
    m.row_ptr = mask.row_ptr.extent(0) == 0 ? zeros : mask.row_ptr;
    m.col_idx = mask.col_idx;
    m.masked = true;
    m.complement = mask.complement;
    m.replace = mask.replace;
  }
  return m;
}

/// Throws `invalid_argument_error` naming `func` when a matrix mask is not n_rows x n_cols or its row_ptr does
/// not fit its rows (O(1); nothing to check for `no_mask`).
template <class Mask>
void check_matrix_mask(const char* func, const Mask& mask, vertex_t n_rows, vertex_t n_cols) {
  if constexpr (is_matrix_mask_v<Mask>) {
    BITGRAPH_CHECK_ARG(mask.n_rows == n_rows && mask.n_cols == n_cols, func, "the mask is ", mask.n_rows, " x ",
                       mask.n_cols, " but C is ", n_rows, " x ", n_cols);
    BITGRAPH_CHECK_ARG(mask.row_ptr.extent(0) == 0 || mask.row_ptr.extent(0) == offset_t(mask.n_rows) + 1, func,
                       "the mask has ", mask.n_rows, " rows but its row_ptr has ", mask.row_ptr.extent(0), " entries");
  }
}

template <class Accum, class V>
inline constexpr bool is_csr_accumulator_v =
    std::is_same_v<Accum, no_accumulator> || is_accumulator<Accum>::value || elementwise::is_binary_op_v<Accum, V>;

}  // namespace detail

template <class ExecSpace, class T, class Mask, class Accum, class S, class TA, class TB>
void mxm(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
         const S& sr, const csr_matrix<TA, memory_space_t<ExecSpace>>& a_in,
         const csr_matrix<TB, memory_space_t<ExecSpace>>& b_in, const mxm_csr_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  using V = typename S::value_type;
  using mat = csr_matrix<V, mem>;
  using rows = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<vertex_t>>;
  const char* func = "mxm";
  static_assert(std::is_same_v<T, V>, "C's value type must be the semiring's value_type");
  static_assert(std::is_same_v<Mask, no_mask> || detail::is_matrix_mask_v<Mask>,
                "the mask of a CSR mxm must be no_mask or a matrix_mask (mask_of a csr_matrix or csr_graph)");
  static_assert(detail::is_csr_accumulator_v<Accum, V>,
                "accum must be no_accumulator, accumulate_with<Monoid> or a binary operator on the value type");
  detail::choose_path<ExecSpace>(func, opts.algorithm, detail::path_offer{});
  detail::check_csr_matrix(func, "A", a_in);
  detail::check_csr_matrix(func, "B", b_in);
  detail::check_csr_matrix(func, "C", c);
  const vertex_t a_rows = opts.transpose_a ? a_in.n_cols : a_in.n_rows;
  const vertex_t a_cols = opts.transpose_a ? a_in.n_rows : a_in.n_cols;
  const vertex_t b_rows = opts.transpose_b ? b_in.n_cols : b_in.n_rows;
  const vertex_t b_cols = opts.transpose_b ? b_in.n_rows : b_in.n_cols;
  BITGRAPH_CHECK_ARG(a_cols == b_rows, func, "A", opts.transpose_a ? "ᵀ" : "", " is ", a_rows, " x ", a_cols, " but B",
                     opts.transpose_b ? "ᵀ" : "", " is ", b_rows, " x ", b_cols, ": the inner dimensions differ");
  BITGRAPH_CHECK_ARG(c.n_rows == a_rows && c.n_cols == b_cols, func, "C is ", c.n_rows, " x ", c.n_cols,
                     " but the product is ", a_rows, " x ", b_cols);
  detail::check_matrix_mask(func, mask, c.n_rows, c.n_cols);
  detail::profiling_region region("bitgraph::mxm_csr");

  const auto a = opts.transpose_a ? transpose(exec, a_in) : detail::with_row_ptr(exec, a_in);
  const auto b = opts.transpose_b ? transpose(exec, b_in) : detail::with_row_ptr(exec, b_in);
  const auto c_old = detail::with_row_ptr(exec, c);
  auto zeros = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::mxm_csr::zeros", offset_t(c.n_rows) + 1);
  const detail::csr_mask_args<mem> margs = detail::to_csr_mask_args<mem>(mask, zeros);

  // Sizing: one hash table per row, then their offsets.
  auto ws = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::mxm_csr::tables", offset_t(a_rows) + 1);
  double total = 0;
  Kokkos::parallel_reduce("bitgraph::mxm_csr::size", rows(exec, 0, a_rows),
                          detail::mxm_csr_size<mem>{a.row_ptr, a.col_idx, b.row_ptr, margs, b_cols, ws}, total);
  if (total >= 0x1p62) {
    throw size_error(detail::concat("bitgraph::mxm: the product's hash tables need ", total,
                                    " slots, more than 64-bit offsets can address"));
  }
  const offset_t slots = detail::exclusive_scan(exec, ws, "bitgraph::mxm_csr::scan_tables");
  auto keys = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::mxm_csr::keys", slots, false);
  auto vals = allocate_view<Kokkos::View<V*, mem>>("bitgraph::mxm_csr::values", slots, false);
  auto hit = allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::mxm_csr::hit", slots, false);

  // Accumulation (symbolic and numeric at once), scan, extraction into T.
  mat t;
  t.n_rows = a_rows;
  t.n_cols = b_cols;
  t.row_ptr = allocate_view<typename mat::offsets_view>("bitgraph::mxm_csr::row_ptr", offset_t(a_rows) + 1);
  Kokkos::parallel_for(
      "bitgraph::mxm_csr::accumulate", rows(exec, 0, a_rows),
      detail::mxm_csr_accumulate<S, TA, TB, mem>{sr, a.row_ptr, a.col_idx, a.values, b.row_ptr, b.col_idx, b.values,
                                                 margs, ws, keys, vals, hit, t.row_ptr});
  t.nnz = detail::exclusive_scan(exec, t.row_ptr, "bitgraph::mxm_csr::scan_rows");
  t.col_idx = allocate_view<typename mat::indices_view>("bitgraph::mxm_csr::col_idx", t.nnz, false);
  t.values = allocate_view<typename mat::values_view>("bitgraph::mxm_csr::values", t.nnz, false);
  Kokkos::parallel_for("bitgraph::mxm_csr::extract", rows(exec, 0, a_rows),
                       detail::mxm_csr_extract<V, mem>{ws, keys, vals, hit, t.row_ptr, t.col_idx, t.values});

  constexpr bool accumulates = !std::is_same_v<Accum, no_accumulator>;
  // T holds allowed positions only, so without an accumulator a replacing (or absent) mask makes C = T.
  const bool c_is_t = !accumulates && (!margs.masked || margs.replace);
  if (c_is_t) {
    exec.fence();
    c = t;
    return;
  }

  // The GraphBLAS merge of T into C: count, scan, fill.
  auto z = detail::merge_into_csr(exec, accum, margs, c_old, t, "bitgraph::mxm_csr");
  exec.fence();
  c = z;
}

/// C = A ⊕.⊗ B as a new rows(A) × cols(B) matrix (no mask, no accumulator); as the full form otherwise.
template <class ExecSpace, class S, class TA, class TB>
csr_matrix<typename S::value_type, memory_space_t<ExecSpace>> mxm(const ExecSpace& exec, const S& sr,
                                                                  const csr_matrix<TA, memory_space_t<ExecSpace>>& a,
                                                                  const csr_matrix<TB, memory_space_t<ExecSpace>>& b,
                                                                  const mxm_csr_options& opts = {}) {
  csr_matrix<typename S::value_type, memory_space_t<ExecSpace>> c;
  c.n_rows = opts.transpose_a ? a.n_cols : a.n_rows;
  c.n_cols = opts.transpose_b ? b.n_rows : b.n_cols;
  mxm(exec, c, no_mask{}, no_accumulator{}, sr, a, b, opts);
  return c;
}

}  // namespace bitgraph
