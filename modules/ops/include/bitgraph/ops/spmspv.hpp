// Sparse matrix × sparse vector (Yang, Wang, Owens 2015): gather the rows of A selected by x, then a
// k-way merge by no-sort (scatter into a dense bitmap), radix sort or merge sort, and a segmented
// reduction with any (⊕, ⊗) — the column-based (push) product of GraphBLAST.
#pragma once

#include <Kokkos_Core.hpp>

#include "bitgraph/backends/spmspv.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/options.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// y<mask> = x ⊕.⊗ A over semiring S: y(j) = ⊕_i x(i) ⊗ A(i, j), computed by gathering the rows of A that
/// x selects (push / column-based form). A's values are its edge weights (1 when unweighted); a
/// structure-only x counts as all ones. The output is a new sparse vector (sorted indices); positions the
/// mask excludes are left out (the output replaces y: there is no accumulator). Work O(gathered entries)
/// plus O(n / 32) for the no-sort merge. The merge is `opts.merge`; `automatic` takes no-sort for
/// structure-only or large inputs (nnz(x) · 64 > n) and the radix sort otherwise (always the radix sort
/// when `cuda_warp` is forced: the CUDA path is CUB's). Throws `invalid_argument_error` on size
/// mismatches, unsorted / out-of-range x, structure-only mode with a non-Boolean semiring or a malformed CSR
/// (`check_csr_graph`: extents always, the device pass unless `a.validated`),
/// `unsupported_error` for a path the merge does not have. Fences `exec` (it reads its input check back).
template <class ExecSpace, class S, class Mask = no_mask>
void spmspv(const ExecSpace& exec, sparse_vector<typename S::value_type, memory_space_t<ExecSpace>>& y,
            const Mask& mask, const S&, const sparse_vector<typename S::value_type, memory_space_t<ExecSpace>>& x,
            const csr_graph<memory_space_t<ExecSpace>>& a, const spmspv_options& opts = {}) {
  using mem = memory_space_t<ExecSpace>;
  using impl = detail::spmspv_impl<ExecSpace, S>;
  detail::check_algorithm<ExecSpace>(opts.algorithm, "spmspv");
  BITGRAPH_CHECK_ARG(x.n == a.n, "spmspv", "input vector has dimension ", x.n, " but the matrix has ", a.n, " rows");
  BITGRAPH_CHECK_ARG(x.nnz <= x.indices.extent(0), "spmspv", "input vector claims ", x.nnz, " entries but holds ",
                     x.indices.extent(0));
  BITGRAPH_CHECK_ARG(x.values.extent(0) == 0 || x.values.extent(0) >= x.nnz, "spmspv",
                     "input vector has fewer values than entries");
  if (opts.structure_only && !is_boolean_semiring_v<S>) {
    throw invalid_argument_error("bitgraph::spmspv: structure-only mode needs a Boolean (LOR) semiring");
  }
  detail::check_mask_length("spmspv", mask, a.n);
  check_csr_graph(exec, a, "spmspv");
  const offset_t bad = impl::count_bad_input(exec, x, a.n);
  BITGRAPH_CHECK_ARG(bad == 0, "spmspv", "input vector indices must be strictly increasing and < n (", bad,
                     " violations)");
  spmspv_merge merge = opts.merge;
  if (merge == spmspv_merge::automatic) {
    // No-sort touches O(n / 32) words for the bitmap; sorting pays when the gathered work is small.
    if (opts.algorithm == op_algorithm::cuda_warp)
      merge = spmspv_merge::radix_sort;
    else
      merge = (opts.structure_only || x.nnz * 64 > a.n) ? spmspv_merge::no_sort : spmspv_merge::radix_sort;
  }
  const op_algorithm path = detail::choose_path<ExecSpace>("spmspv", opts.algorithm, impl::offer(merge));
  detail::profiling_region region("bitgraph::spmspv");
  impl::run(path, exec, y, detail::to_mask_args<mem>(mask), a, x, opts.structure_only, merge);
}

}  // namespace bitgraph
