// Matrix-vector products on B2SR and CSR over any semiring: the six BMV schemes of Bit-GraphBLAS
// (bin·bin→bin, bin·bin→full, bin·full→full and their masked forms), row-based pull with early exit
// (mxv) and column-based push (vxm), with masks, structural complement, replace and accumulators.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "bitgraph/backends/mxv.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/formats/adopt.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/hybrid.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/ops/options.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// y<mask> = accum(y, A ⊕.⊗ x) on a B2SR matrix. The scheme follows the operand types: bitmap x and
/// bitmap y (bin·bin→bin, Boolean semirings only), bitmap x and dense y (bin·bin→full), dense x and dense
/// y (bin·full→full); with a `vector_mask` these are the masked schemes. The default direction is pull
/// (row-based, early exit for OR/ANY) unless x is sparse and a push form exists: for undirected
/// matrices (A = A^T) or when `at` (the B2SR of A^T) is given.
/// Work: O(tiles + n) for a pull (fewer with early exit), O(tiles of the active tile rows + n) for a push. A
/// pull gives each tile row to one group of lanes, or, when its longest tile row would outlast an even share
/// of the tiles, or on a GPU when rows are long and cannot stop early (or `opts.balance` says so), equal runs
/// of tiles to every warp or thread (atomics where runs share a row).
/// Throws `invalid_argument_error` on size mismatches, a bitmap output with a non-Boolean semiring, a NaN or
/// negative `opts.switch_ratio` or an impossible forced direction; `unsupported_error` for a forced kernel path the
/// operands cannot take. Asynchronous on `exec` (no fence), except that the automatic direction reads the input's
/// density back and an automatic pull over a matrix whose `longest_tile_row` is not recorded (0) measures it.
template <class ExecSpace, class S, class Y, class X, class Mask = no_mask, class Accum = no_accumulator>
void mxv(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&,
         const b2sr_matrix<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts = {},
         const b2sr_matrix<memory_space_t<ExecSpace>>* at = nullptr);

/// y<mask> = accum(y, x ⊕.⊗ A) = A^T x: the column-based (push) product over A's rows, or a pull over
/// the rows of `at` (B2SR of A^T) when x is dense. Same schemes, masks, checks and fencing as `mxv`.
template <class ExecSpace, class S, class Y, class X, class Mask = no_mask, class Accum = no_accumulator>
void vxm(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&, const X& x,
         const b2sr_matrix<memory_space_t<ExecSpace>>& a, const mxv_options& opts = {},
         const b2sr_matrix<memory_space_t<ExecSpace>>* at = nullptr);

/// y<mask> = accum(y, A ⊕.⊗ x) on a CSR graph: row-based (pull), using the edge weights as A's values
/// when the graph has them (1 otherwise). x may be a bitmap (entries 1 where set) or a dense vector whose
/// identity entries count as absent. Work O(nnz + n). On CUDA (path `cuda_warp`, preferred) a pull either
/// gives each row a group of lanes sized by the mean degree (rows may stop at their first contribution), or
/// gives every warp an equal run of stored entries (`opts.balance`; automatic: by entries unless rows can
/// stop early), so hub rows do not hold the kernel up. Host spaces run one thread per row.
/// Throws `invalid_argument_error` on size mismatches, a push direction (use `spmspv`) or a malformed CSR
/// (`check_csr_graph`: extents always; unless `a.validated`, the device pass over its structure, which reads its
/// verdict back), `unsupported_error` for a CUDA kernel path on a host space. Asynchronous on `exec` for a
/// validated graph (every graph of the library's builders).
template <class ExecSpace, class S, class Y, class X, class Mask = no_mask, class Accum = no_accumulator>
void mxv(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&,
         const csr_graph<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts = {});

/// y<mask> = accum(y, A ⊕.⊗ x) on a hybrid matrix (a pattern: A's values are 1): a pull over its bit bands
/// as `mxv` on B2SR does (any balance), then over its CSR bands as `mxv` on CSR does; the first leaves the CSR
/// bands' rows absent (so y keeps, or takes, what the mask and accumulator say), the second merges exactly
/// those rows. A part with nothing to do is skipped. Same schemes, masks, accumulators and checks as the B2SR
/// product; a push direction, or a matrix whose parts disagree on their sizes, throws `invalid_argument_error`
/// (hybrid products are pulls: for A^T x build the hybrid of A^T). Asynchronous on `exec`, except where the automatic
/// balance measures a part (see above).
template <class ExecSpace, class S, class Y, class X, class Mask = no_mask, class Accum = no_accumulator>
void mxv(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&,
         const hybrid_matrix<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts = {});

namespace detail {

template <class ExecSpace, class S, class Y, class X, class Mask, class Accum>
void check_mxv_args(const char* func, vertex_t n, const Y& y, const Mask& mask, const X& x) {
  if constexpr (is_bitmap<X>::value) {
    BITGRAPH_CHECK_ARG(x.n == n, func, "input bitmap has ", x.n, " bits but the matrix has ", n, " columns");
  } else {
    static_assert(is_dense<X>::value, "the input must be a bitmap or a dense vector (1-D view)");
    static_assert(std::is_same_v<typename X::non_const_value_type, typename S::value_type>,
                  "the input vector's value type must be the semiring's value type");
    BITGRAPH_CHECK_ARG(x.extent(0) == n, func, "input vector has ", x.extent(0), " entries but the matrix has ", n,
                       " columns");
  }
  if constexpr (is_bitmap<Y>::value) {
    BITGRAPH_CHECK_ARG(y.n == n, func, "output bitmap has ", y.n, " bits but the matrix has ", n, " rows");
    if (!is_boolean_semiring_v<S>) {
      throw invalid_argument_error(
          concat("bitgraph::", func, ": a bitmap output (scheme bin·*→bin) needs a Boolean (LOR) semiring"));
    }
    check_bitmap_accumulator<Accum>(func);
  } else {
    static_assert(is_dense<Y>::value, "the output must be a bitmap or a dense vector (1-D view)");
    static_assert(std::is_same_v<typename Y::non_const_value_type, typename S::value_type>,
                  "the output vector's value type must be the semiring's value type");
    check_accumulator<Accum>(func);
    BITGRAPH_CHECK_ARG(y.extent(0) == n, func, "output vector has ", y.extent(0), " entries but the matrix has ", n,
                       " rows");
  }
  check_mask_length(func, mask, n);
}

/// The one decision of a B2SR product: direction (pull over A computes A x, push over A scatters A^T x;
/// with `at` or a symmetric A the other product is available in the other direction; `automatic` pushes
/// when the input density is below `switch_ratio`), how a pull spreads its tiles (`opts.balance`;
/// automatic: see `pull_by_tiles`), then the kernel path the backend offers.
template <class ExecSpace, class S, class Y, class X, class Accum>
mxv_plan<memory_space_t<ExecSpace>> plan_mxv(const char* func, const ExecSpace& exec,
                                             const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                             const b2sr_matrix<memory_space_t<ExecSpace>>* at, const X& x,
                                             const mxv_options& opts, bool transpose_input) {
  check_algorithm<ExecSpace>(opts.algorithm, func);
  BITGRAPH_CHECK_ARG(opts.switch_ratio >= 0, func, "switch_ratio must be a non-negative density, not ",
                     opts.switch_ratio);
  bool use_push;
  if (opts.direction == mxv_direction::pull)
    use_push = false;
  else if (opts.direction == mxv_direction::push)
    use_push = true;
  else
    use_push = input_density<ExecSpace, S>(exec, x, a.n) < opts.switch_ratio;
  mxv_plan<memory_space_t<ExecSpace>> plan;
  plan.matrix = &a;
  plan.push = transpose_input;
  if (use_push != plan.push) {
    if (a.kind == graph_kind::undirected) {
      plan.push = use_push;
    } else if (at != nullptr) {
      plan.matrix = at;
      plan.push = use_push;
    } else if (opts.direction != mxv_direction::automatic) {
      throw invalid_argument_error(concat("bitgraph::", func, ": direction '", use_push ? "push" : "pull",
                                          "' needs the transposed matrix for a directed graph (pass it, or use the "
                                          "other direction)"));
    }
  }
  if (!plan.push && opts.balance != mxv_balance::by_rows) {
    const b2sr_matrix<memory_space_t<ExecSpace>>& m = *plan.matrix;
    plan.by_tiles = opts.balance == mxv_balance::by_tiles ||
                    pull_by_tiles(m.longest_tile_row ? m.longest_tile_row : longest_tile_row(exec, m), m.n_tiles,
                                  m.n_tile_rows, m.tile_dim, static_cast<std::int64_t>(exec.concurrency()),
                                  allows_early_exit_v<S> && opts.early_exit);
  }
  plan.path = choose_path<ExecSpace>(func, opts.algorithm, b2sr_mxv_impl<ExecSpace, S, Y, X, Accum>::offer(plan));
  return plan;
}

/// The plan of a B2SR product and its call, on arguments already checked.
template <class ExecSpace, class S, class Y, class X, class Mask, class Accum>
void b2sr_planned_product(const char* func, const ExecSpace& exec, Y& y, const Mask& mask,
                          const b2sr_matrix<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts,
                          const b2sr_matrix<memory_space_t<ExecSpace>>* at, bool transpose_input) {
  const auto plan = plan_mxv<ExecSpace, S, Y, X, Accum>(func, exec, a, at, x, opts, transpose_input);
  b2sr_mxv_impl<ExecSpace, S, Y, X, Accum>::run(plan.path, exec, y, to_mask_args<memory_space_t<ExecSpace>>(mask), plan,
                                                x, opts);
}

template <class ExecSpace, class S, class Y, class X, class Mask, class Accum>
void b2sr_product(const char* func, const ExecSpace& exec, Y& y, const Mask& mask,
                  const b2sr_matrix<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts,
                  const b2sr_matrix<memory_space_t<ExecSpace>>* at, bool transpose_input) {
  check_mxv_args<ExecSpace, S, Y, X, Mask, Accum>(func, a.n, y, mask, x);
  if (at != nullptr) BITGRAPH_CHECK_ARG(at->n == a.n, func, "the transposed matrix has ", at->n, " rows, not ", a.n);
  profiling_region region(transpose_input ? "bitgraph::vxm" : "bitgraph::mxv");
  b2sr_planned_product<ExecSpace, S, Y, X, Mask, Accum>(func, exec, y, mask, a, x, opts, at, transpose_input);
}

/// The one decision of a CSR product (kernel path, then rows or entries: `csr_pull_by_entries`) and its call.
template <class ExecSpace, class S, class Y, class X, class Mask, class Accum>
void csr_product(const ExecSpace& exec, Y& y, const Mask& mask, const csr_rows<memory_space_t<ExecSpace>>& a,
                 const X& x, const mxv_options& opts) {
  using impl = csr_mxv_impl<ExecSpace, S, Y, X, Accum>;
  const op_algorithm path = choose_path<ExecSpace>("mxv", opts.algorithm, impl::offer());
  const bool by_entries = csr_pull_by_entries<ExecSpace, S>(exec, a, opts, impl::group_lanes(path, a));
  impl::run(path, exec, y, to_mask_args<memory_space_t<ExecSpace>>(mask), a, x, opts, by_entries);
}

}  // namespace detail

template <class ExecSpace, class S, class Y, class X, class Mask, class Accum>
void mxv(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&,
         const b2sr_matrix<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts,
         const b2sr_matrix<memory_space_t<ExecSpace>>* at) {
  detail::b2sr_product<ExecSpace, S, Y, X, Mask, Accum>("mxv", exec, y, mask, a, x, opts, at, false);
}

template <class ExecSpace, class S, class Y, class X, class Mask, class Accum>
void vxm(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&, const X& x,
         const b2sr_matrix<memory_space_t<ExecSpace>>& a, const mxv_options& opts,
         const b2sr_matrix<memory_space_t<ExecSpace>>* at) {
  mxv_options o = opts;
  if (o.direction == mxv_direction::automatic && at == nullptr && a.kind != graph_kind::undirected) {
    o.direction = mxv_direction::push;  // the only form available
  }
  detail::b2sr_product<ExecSpace, S, Y, X, Mask, Accum>("vxm", exec, y, mask, a, x, o, at, true);
}

template <class ExecSpace, class S, class Y, class X, class Mask, class Accum>
void mxv(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&,
         const csr_graph<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts) {
  detail::check_mxv_args<ExecSpace, S, Y, X, Mask, Accum>("mxv", a.n, y, mask, x);
  check_csr_graph(exec, a, "mxv");
  if (opts.direction == mxv_direction::push) {
    throw invalid_argument_error("bitgraph::mxv: CSR products are row-based; use spmspv for the column-based form");
  }
  detail::profiling_region region("bitgraph::mxv");
  detail::csr_product<ExecSpace, S, Y, X, Mask, Accum>(exec, y, mask, detail::make_csr_rows(a), x, opts);
}

template <class ExecSpace, class S, class Y, class X, class Mask, class Accum>
void mxv(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&,
         const hybrid_matrix<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts) {
  detail::check_mxv_args<ExecSpace, S, Y, X, Mask, Accum>("mxv", a.n, y, mask, x);
  BITGRAPH_CHECK_ARG(a.bits.n == a.n, "mxv", "the hybrid matrix's bit part has ", a.bits.n, " rows, not ", a.n);
  // A matrix assembled by hand must at least agree with itself on its sizes (the kernels index by them).
  const std::uint64_t local_rows = std::uint64_t(a.csr_band_count()) * hybrid_band_rows;
  BITGRAPH_CHECK_ARG(a.csr_band_count() == 0 || a.csr_row_ptr.extent(0) == local_rows + 1, "mxv",
                     "the hybrid matrix's CSR part has ", a.csr_row_ptr.extent(0), " row pointers for ",
                     a.csr_band_count(), " bands (", local_rows + 1, " expected)");
  BITGRAPH_CHECK_ARG(a.csr_col_idx.extent(0) == a.csr_nnz, "mxv", "the hybrid matrix's CSR part has ",
                     a.csr_col_idx.extent(0), " column ids but csr_nnz = ", a.csr_nnz);
  if (opts.direction == mxv_direction::push) {
    throw invalid_argument_error("bitgraph::mxv: hybrid products are pulls; for A^T x build the hybrid matrix of A^T");
  }
  mxv_options pull = opts;
  pull.direction = mxv_direction::pull;
  const auto rows = detail::make_csr_rows(a);
  detail::profiling_region region("bitgraph::mxv");
  // The bit pass writes every row, so it runs first and only when some band is bits or nothing is CSR.
  if (a.bits.n_tiles > 0 || rows.banded || a.csr_band_count() == 0)
    detail::b2sr_planned_product<ExecSpace, S, Y, X, Mask, Accum>("mxv", exec, y, mask, a.bits, x, pull, nullptr,
                                                                  false);
  if (a.csr_band_count() > 0) detail::csr_product<ExecSpace, S, Y, X, Mask, Accum>(exec, y, mask, rows, x, pull);
}

}  // namespace bitgraph
