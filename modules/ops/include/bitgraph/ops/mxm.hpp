// Matrix-matrix products on B2SR (BMM, Bit-GraphBLAS Table III): the popcount sum of A·B, the same
// masked by a B2SR mask (bmm_bin_bin_sum_masked, the kernel of triangle counting), Boolean SpGEMM producing
// a B2SR matrix, and the GraphBLAS mxm C<M, replace> = accum(C, A·B) on bits with a Boolean (B2SR) or a
// counting (PLUS_PAIR, CSR) output.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "bitgraph/backends/mxm.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/mxm_bits_generic.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/mxm_csr.hpp"
#include "bitgraph/ops/options.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// The tile dimension (row-major) the fastest masked-BMM kernel of `ExecSpace` reads; 0 when every tile
/// dimension runs the same portable kernel. Algorithms may build their operands with it.
template <class ExecSpace>
struct bmm_preferred_tile : std::integral_constant<int, detail::bmm_sum_masked_impl<ExecSpace>::preferred_tile> {};

/// Σ_{i,j} (A·B)(i, j) over (+, AND): the popcount sum of the bit product (bmm_bin_bin_sum). A and B must
/// have the same size and tile dimension. Work O(Σ over A's tiles of the tiles in B's matching tile row ·
/// T). Throws `invalid_argument_error` on a shape mismatch, `unsupported_error` for a CUDA path (there is
/// none). Fences `exec` (the sum is read back).
template <class ExecSpace>
std::uint64_t bmm_sum(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                      const b2sr_matrix<memory_space_t<ExecSpace>>& b, const mxm_options& opts = {});

/// Σ_{(i,j) ∈ M} (A·B)(i, j) (bmm_bin_bin_sum_masked): the masked product reduced to a scalar, fused.
/// B is passed as its transpose `bt` because the kernel takes dot products of A's rows with B's columns;
/// for triangle counting M = L, A = L, B = L^T, so `bt` = L. Work: for every tile of M the merge of two
/// tile rows plus T popcounts per common tile and set mask row. On CUDA the warp kernel (`cuda_warp`,
/// automatic there) needs 32-bit row-major tiles. Throws as `bmm_sum`. Fences `exec`.
template <class ExecSpace>
std::uint64_t bmm_sum_masked(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& m,
                             const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                             const b2sr_matrix<memory_space_t<ExecSpace>>& bt, const mxm_options& opts = {});

/// C = A·B over the Boolean semiring, as a new B2SR matrix with the tile dimension of A (row-major tiles,
/// or column-major when A is). Only `lor_land` (a semiring whose bits reduce by OR and AND) is accepted:
/// other semirings need values, which B2SR does not hold. `opts.transpose_a` / `transpose_b` multiply by Aᵀ /
/// Bᵀ. Throws `invalid_argument_error` for a shape mismatch or another semiring, `unsupported_error` for a
/// CUDA path. Fences `exec`.
template <class ExecSpace, class S>
b2sr_matrix<memory_space_t<ExecSpace>> mxm(const ExecSpace& exec, const S&,
                                           const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                           const b2sr_matrix<memory_space_t<ExecSpace>>& b,
                                           const mxm_options& opts = {});

/// A structural B2SR mask: C(i, j) may be written where `m` has a bit (or, with `complement`, where it has
/// none); excluded positions keep C's entry, or lose it under `replace`. Same n and tile dimension as C.
template <class MemorySpace>
struct b2sr_mask {
  b2sr_matrix<MemorySpace> m;
  bool complement = false;  ///< allow the positions the mask does not have
  bool replace = false;     ///< clear excluded positions instead of keeping them
};

/// The pattern of `m` as a mask.
template <class MemorySpace>
b2sr_mask<MemorySpace> mask_of(const b2sr_matrix<MemorySpace>& m, bool complement = false, bool replace = false) {
  return b2sr_mask<MemorySpace>{m, complement, replace};
}

/// C<mask, replace> = (C OR) A·B on bits (GraphBLAS GrB_mxm over LOR_LAND with a B2SR output). `sr` must be a
/// semiring whose bits reduce by OR and AND (`bit_reduction_v<S> == or_and`: lor_land, LOR with PAIR or TIMES).
/// T = A·B; where the mask allows, C = T (no accumulator) or C OR T (`accumulate_with<lor_monoid>` or
/// `lor_monoid`); excluded positions keep C, or are cleared under `replace`. `mask` is `no_mask{}` or
/// `mask_of(b2sr, complement, replace)`. C keeps its n, tile dimension and bit order and gets new arrays (a C
/// without a tile_row_ptr counts as empty); A, B, C and the mask share n and the tile dimension. `opts`
/// transposes A or B.
///
/// Kernels: a plain mask computes only its own positions: per mask tile the dot products of A's tile row with
/// Bᵀ's (the masked kernel of bmm_sum_masked with a bit sink; on CUDA the warp kernel for 32 x 32 row-major
/// tiles); work O(Σ over mask tiles of the two tile rows' merge + T · set mask bits per common tile). No mask or a
/// complemented one runs the tile Gustavson SpGEMM (as `mxm(exec, sr, a, b)`). Then a tile-row merge with C and
/// the mask, O(tiles of C, T and M · T), drops empty tiles. Throws `invalid_argument_error` for a shape mismatch,
/// an operand's arrays not fitting its shape or another semiring, `unsupported_error` for a refused CUDA path,
/// `allocation_error` when memory runs out. Fences `exec`.
template <class ExecSpace, class Mask, class Accum, class S>
void mxm(const ExecSpace& exec, b2sr_matrix<memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
         const S& sr, const b2sr_matrix<memory_space_t<ExecSpace>>& a, const b2sr_matrix<memory_space_t<ExecSpace>>& b,
         const mxm_options& opts = {});

/// C<mask, replace> = accum(C, A ⊕.⊗ B) with bit operands and a counting CSR output (GrB_mxm over PLUS_PAIR):
/// T(i, j) = |{k : A(i, k) ∧ B(k, j)}|, an entry exactly where it is > 0 (structural). `sr` must reduce bits by
/// popcount (`bit_reduction_v<S> == popcount`: plus_pair, plus_times, PLUS with LAND: on bits every entry is 1, so
/// they agree); the count converts to C's value type. `mask` is `no_mask{}`, `mask_of(b2sr, ...)` or the CSR
/// `mask_of(csr_matrix or csr_graph, ...)`; `accum` as in the CSR mxm (`no_accumulator{}`, `accumulate_with<M>{}`
/// or a binary operator); the merge is the CSR mxm's (detail::mxm_csr_merge). C must be n x n.
///
/// Kernels: a plain mask (a CSR one converted to B2SR first) computes only its positions with the masked dot
/// kernel and a count sink: a count and a scan give every (mask tile, row) its slots, the kernel adds the
/// popcounts, a compaction drops zero counts. No mask or a complemented one computes the Boolean product's
/// pattern by SpGEMM first and counts exactly its bits the same way. Throws as the Boolean form (also when C is
/// not n x n or a CSR mask is malformed). Fences `exec`.
template <class ExecSpace, class T, class Mask, class Accum, class S>
void mxm(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
         const S& sr, const b2sr_matrix<memory_space_t<ExecSpace>>& a, const b2sr_matrix<memory_space_t<ExecSpace>>& b,
         const mxm_options& opts = {});

namespace detail {
template <class Mem>
void check_same_shape(const char* func, const b2sr_matrix<Mem>& a, const b2sr_matrix<Mem>& b, const char* an,
                      const char* bn) {
  BITGRAPH_CHECK_ARG(a.n == b.n, func, an, " has ", a.n, " rows but ", bn, " has ", b.n);
  BITGRAPH_CHECK_ARG(a.tile_dim == b.tile_dim, func, an, " uses ", a.tile_dim, "-bit tiles but ", bn, " uses ",
                     b.tile_dim);
}

/// Throws `invalid_argument_error` when the arrays of `m` do not fit its n and tile dimension (O(1)); with
/// `may_be_empty` a matrix without a tile_row_ptr and without tiles is accepted (an empty output).
template <class Mem>
void check_b2sr(const char* func, const char* what, const b2sr_matrix<Mem>& m, bool may_be_empty = false) {
  BITGRAPH_CHECK_ARG(valid_tile_dim(m.tile_dim), func, what, " has tile dimension ", m.tile_dim,
                     ", not one of 4, 8, 16, 32, 64");
  if (may_be_empty && m.tile_row_ptr.extent(0) == 0 && m.n_tiles == 0) return;
  const offset_t ntr = (offset_t(m.n) + m.tile_dim - 1) / m.tile_dim;
  BITGRAPH_CHECK_ARG(m.n_tile_rows == ntr && m.tile_row_ptr.extent(0) == ntr + 1, func, what, " has n = ", m.n, " but ",
                     m.n_tile_rows, " tile rows and a tile_row_ptr of ", m.tile_row_ptr.extent(0), " entries");
  BITGRAPH_CHECK_ARG(m.tile_col_idx.extent(0) >= m.n_tiles &&
                         m.tile_bits.extent(0) >= m.n_tiles * offset_t(m.tile_dim) * tile_word_bytes(m.tile_dim),
                     func, what, " has ", m.n_tiles, " tiles but its arrays hold fewer");
}

template <class M>
inline constexpr bool is_b2sr_mask_v = false;
template <class Mem>
inline constexpr bool is_b2sr_mask_v<b2sr_mask<Mem>> = true;

template <class Accum>
inline constexpr bool is_lor_accumulator_v =
    std::is_same_v<Accum, no_accumulator> || std::is_same_v<Accum, accumulate_with<lor_monoid>> ||
    std::is_same_v<Accum, lor_monoid>;

/// The checks every B2SR mxm makes of A, B, transposes and a B2SR mask against A.
template <class Mem, class Mask>
void check_bits_operands(const char* func, const b2sr_matrix<Mem>& a, const b2sr_matrix<Mem>& b, const Mask& mask) {
  check_b2sr(func, "A", a);
  check_b2sr(func, "B", b);
  check_same_shape(func, a, b, "A", "B");
  if constexpr (is_b2sr_mask_v<Mask>) {
    check_b2sr(func, "the mask", mask.m);
    check_same_shape(func, mask.m, a, "the mask", "A");
  }
}

/// Whether the call's dot kernel reads only 32 x 32 row-major tiles (Bᵀ is made row-major when materialised).
template <class Mem>
bool warp_shape(const b2sr_matrix<Mem>& a, const b2sr_matrix<Mem>& b, const b2sr_matrix<Mem>* pattern,
                const mxm_options& opts) {
  return a.tile_dim == 32 && a.order == bit_order::row_major &&
         (!opts.transpose_b || b.order == bit_order::row_major) &&
         (pattern == nullptr || pattern->order == bit_order::row_major);
}
}  // namespace detail

template <class ExecSpace>
std::uint64_t bmm_sum(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                      const b2sr_matrix<memory_space_t<ExecSpace>>& b, const mxm_options& opts) {
  using impl = detail::bmm_sum_impl<ExecSpace>;
  detail::check_algorithm<ExecSpace>(opts.algorithm, "bmm_sum");
  BITGRAPH_CHECK_ARG(!opts.transpose_a && !opts.transpose_b, "bmm_sum", "takes no transposes");
  detail::check_same_shape("bmm_sum", a, b, "A", "B");
  const op_algorithm path = detail::choose_path<ExecSpace>("bmm_sum", opts.algorithm, impl::offer(a, b));
  detail::profiling_region region("bitgraph::bmm_sum");
  return impl::run(path, exec, a, b);
}

template <class ExecSpace>
std::uint64_t bmm_sum_masked(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& m,
                             const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                             const b2sr_matrix<memory_space_t<ExecSpace>>& bt, const mxm_options& opts) {
  using impl = detail::bmm_sum_masked_impl<ExecSpace>;
  detail::check_algorithm<ExecSpace>(opts.algorithm, "bmm_sum_masked");
  BITGRAPH_CHECK_ARG(!opts.transpose_a && !opts.transpose_b, "bmm_sum_masked",
                     "takes no transposes (B is passed as its transpose already)");
  detail::check_same_shape("bmm_sum_masked", m, a, "the mask", "A");
  detail::check_same_shape("bmm_sum_masked", a, bt, "A", "B^T");
  const op_algorithm path = detail::choose_path<ExecSpace>("bmm_sum_masked", opts.algorithm, impl::offer(m, a, bt));
  detail::profiling_region region("bitgraph::bmm_sum_masked");
  return impl::run(path, exec, m, a, bt);
}

template <class ExecSpace, class S>
b2sr_matrix<memory_space_t<ExecSpace>> mxm(const ExecSpace& exec, const S& sr,
                                           const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                           const b2sr_matrix<memory_space_t<ExecSpace>>& b, const mxm_options& opts) {
  auto c = detail::empty_like(a);
  mxm(exec, c, no_mask{}, no_accumulator{}, sr, a, b, opts);
  return c;
}

template <class ExecSpace, class Mask, class Accum, class S>
void mxm(const ExecSpace& exec, b2sr_matrix<memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum&, const S&,
         const b2sr_matrix<memory_space_t<ExecSpace>>& a, const b2sr_matrix<memory_space_t<ExecSpace>>& b,
         const mxm_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  using impl = detail::mxm_bits_impl<ExecSpace>;
  const char* func = "mxm";
  static_assert(std::is_same_v<Mask, no_mask> || detail::is_b2sr_mask_v<Mask>,
                "the mask of a B2SR mxm must be no_mask or a b2sr_mask (mask_of a b2sr_matrix)");
  static_assert(detail::is_lor_accumulator_v<Accum>,
                "a B2SR output accumulates with LOR only: no_accumulator, accumulate_with<lor_monoid> or lor_monoid");
  detail::check_algorithm<ExecSpace>(opts.algorithm, func);
  detail::check_bits_operands(func, a, b, mask);
  detail::check_b2sr(func, "C", c, true);
  BITGRAPH_CHECK_ARG(c.n == a.n && c.tile_dim == a.tile_dim, func, "C is ", c.n, " x ", c.n, " in ", c.tile_dim,
                     "-bit tiles but the product is ", a.n, " x ", a.n, " in ", a.tile_dim, "-bit tiles");
  if (bit_reduction_v<S> != bit_reduction::or_and) {
    throw invalid_argument_error("bitgraph::mxm: a B2SR product needs a Boolean semiring (LOR_LAND)");
  }
  detail::b2sr_mask_args<mem> margs;
  if constexpr (detail::is_b2sr_mask_v<Mask>) margs = {mask.m, true, mask.complement, mask.replace};
  const bool dot_runs = margs.masked && !margs.complement;
  const op_algorithm path = detail::choose_path<ExecSpace>(
      func, opts.algorithm, impl::offer(dot_runs, detail::warp_shape(a, b, dot_runs ? &margs.m : nullptr, opts)));
  detail::profiling_region region("bitgraph::mxm_bits");
  impl::run(path, exec, c, margs, !std::is_same_v<Accum, no_accumulator>, a, b, opts.transpose_a, opts.transpose_b);
}

template <class ExecSpace, class T, class Mask, class Accum, class S>
void mxm(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
         const S&, const b2sr_matrix<memory_space_t<ExecSpace>>& a, const b2sr_matrix<memory_space_t<ExecSpace>>& b,
         const mxm_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  using impl = detail::mxm_bits_impl<ExecSpace>;
  const char* func = "mxm";
  static_assert(std::is_same_v<Mask, no_mask> || detail::is_b2sr_mask_v<Mask> || detail::is_matrix_mask_v<Mask>,
                "the mask of a counting B2SR mxm must be no_mask, a b2sr_mask or a matrix_mask");
  static_assert(detail::is_csr_accumulator_v<Accum, T>,
                "accum must be no_accumulator, accumulate_with<Monoid> or a binary operator on C's value type");
  detail::check_algorithm<ExecSpace>(opts.algorithm, func);
  detail::check_bits_operands(func, a, b, mask);
  detail::check_csr_matrix(func, "C", c);
  BITGRAPH_CHECK_ARG(c.n_rows == a.n && c.n_cols == a.n, func, "C is ", c.n_rows, " x ", c.n_cols,
                     " but the product is ", a.n, " x ", a.n);
  detail::check_matrix_mask(func, mask, a.n, a.n);
  if (bit_reduction_v<S> != bit_reduction::popcount) {
    throw invalid_argument_error(
        "bitgraph::mxm: a counting product of B2SR operands needs a semiring that counts bits (PLUS_PAIR, "
        "PLUS_TIMES)");
  }
  // The merge reads the mask as CSR; a plain mask's positions are computed from it as B2SR.
  detail::csr_mask_args<mem> margs;
  b2sr_matrix<mem> pattern;
  if constexpr (detail::is_b2sr_mask_v<Mask>) {
    const auto g = to_csr(exec, mask.m);
    margs.row_ptr = g.row_ptr;
    margs.col_idx = g.col_idx;
    margs.masked = true;
    margs.complement = mask.complement;
    margs.replace = mask.replace;
    pattern = mask.m;
  } else if constexpr (detail::is_matrix_mask_v<Mask>) {
    auto zeros = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::mxm_bits::zeros", offset_t(a.n) + 1);
    margs = detail::to_csr_mask_args<mem>(mask, zeros);
    if (!mask.complement) {
      csr_graph<mem> g;
      g.n = a.n;
      g.row_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::mxm_bits::mask_ptr", offset_t(a.n) + 1, false);
      Kokkos::deep_copy(exec, g.row_ptr, margs.row_ptr);
      offset_t nnz = 0;
      Kokkos::deep_copy(exec, nnz, Kokkos::subview(margs.row_ptr, a.n));
      exec.fence();
      BITGRAPH_CHECK_ARG(nnz <= margs.col_idx.extent(0), func, "the mask's row_ptr ends at ", nnz, " but it has ",
                         margs.col_idx.extent(0), " columns");
      g.nnz = nnz;
      g.col_idx =
          detail::copy_prefix<Kokkos::View<vertex_t*, mem>>(exec, margs.col_idx, nnz, "bitgraph::mxm_bits::mask");
      pattern = to_b2sr(exec, g, {a.tile_dim, bit_order::row_major});  // checks the mask's structure
    }
  }
  const bool plain = margs.masked && !margs.complement;
  const op_algorithm path = detail::choose_path<ExecSpace>(
      func, opts.algorithm, impl::offer(true, detail::warp_shape(a, b, plain ? &pattern : nullptr, opts)));
  detail::profiling_region region("bitgraph::mxm_bits");
  impl::run(path, exec, c, pattern, margs, accum, a, b, opts.transpose_a, opts.transpose_b);
}

}  // namespace bitgraph
