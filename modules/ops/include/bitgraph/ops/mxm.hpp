// Matrix-matrix products on B2SR (BMM, Bit-GraphBLAS Table III): the popcount sum of A·B, the same
// masked by a B2SR mask (bmm_bin_bin_sum_masked, the kernel of triangle counting), and Boolean SpGEMM
// producing a B2SR matrix.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "bitgraph/backends/mxm.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/b2sr.hpp"
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
/// other semirings need values, which B2SR does not hold. Throws `invalid_argument_error` for a shape
/// mismatch or another semiring, `unsupported_error` for a CUDA path. Fences `exec`.
template <class ExecSpace, class S>
b2sr_matrix<memory_space_t<ExecSpace>> mxm(const ExecSpace& exec, const S&,
                                           const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                           const b2sr_matrix<memory_space_t<ExecSpace>>& b,
                                           const mxm_options& opts = {});

namespace detail {
template <class Mem>
void check_same_shape(const char* func, const b2sr_matrix<Mem>& a, const b2sr_matrix<Mem>& b, const char* an,
                      const char* bn) {
  BITGRAPH_CHECK_ARG(a.n == b.n, func, an, " has ", a.n, " rows but ", bn, " has ", b.n);
  BITGRAPH_CHECK_ARG(a.tile_dim == b.tile_dim, func, an, " uses ", a.tile_dim, "-bit tiles but ", bn, " uses ",
                     b.tile_dim);
}
}  // namespace detail

template <class ExecSpace>
std::uint64_t bmm_sum(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                      const b2sr_matrix<memory_space_t<ExecSpace>>& b, const mxm_options& opts) {
  using impl = detail::bmm_sum_impl<ExecSpace>;
  detail::check_algorithm<ExecSpace>(opts.algorithm, "bmm_sum");
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
  detail::check_same_shape("bmm_sum_masked", m, a, "the mask", "A");
  detail::check_same_shape("bmm_sum_masked", a, bt, "A", "B^T");
  const op_algorithm path = detail::choose_path<ExecSpace>("bmm_sum_masked", opts.algorithm, impl::offer(m, a, bt));
  detail::profiling_region region("bitgraph::bmm_sum_masked");
  return impl::run(path, exec, m, a, bt);
}

template <class ExecSpace, class S>
b2sr_matrix<memory_space_t<ExecSpace>> mxm(const ExecSpace& exec, const S&,
                                           const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                           const b2sr_matrix<memory_space_t<ExecSpace>>& b, const mxm_options& opts) {
  using impl = detail::spgemm_impl<ExecSpace>;
  detail::check_algorithm<ExecSpace>(opts.algorithm, "mxm");
  detail::check_same_shape("mxm", a, b, "A", "B");
  if (bit_reduction_v<S> != bit_reduction::or_and) {
    throw invalid_argument_error("bitgraph::mxm: a B2SR product needs a Boolean semiring (LOR_LAND)");
  }
  const op_algorithm path = detail::choose_path<ExecSpace>("mxm", opts.algorithm, impl::offer(a, b));
  detail::profiling_region region("bitgraph::mxm");
  auto c = impl::run(path, exec, a, b);
  exec.fence();
  return c;
}

}  // namespace bitgraph
