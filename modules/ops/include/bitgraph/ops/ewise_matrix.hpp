// GraphBLAS element-wise add (union) and multiply (intersection) of valued CSR matrices, like
// GrB_Matrix_eWiseAdd / GrB_Matrix_eWiseMult: C<M, replace> = accum(C, A op B) with a structural matrix mask
// (complement, replace), an accumulator and any binary operator of ops/operators.hpp; and the same on B2SR bit
// matrices (GrB_BOOL, every stored bit true): the union or intersection of the patterns.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr_matrix.hpp"
#include "bitgraph/ops/detail/ewise_bits_generic.hpp"
#include "bitgraph/ops/detail/ewise_matrix_generic.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/ops/mxm.hpp"
#include "bitgraph/ops/mxm_csr.hpp"
#include "bitgraph/ops/operators.hpp"

namespace bitgraph {

/// C<mask, replace> = accum(C, A ⊕ B) on CSR matrices of one shape (GraphBLAS GrB_Matrix_eWiseAdd).
///
/// T, the union: T(i, j) = op(A(i, j), B(i, j)) where both store (i, j), the one stored value where only one
/// does, no entry elsewhere. `op` is a binary operator of operators.hpp: a monoid (`plus_monoid<T>`, ...),
/// a struct with `apply(a, b)` (`minus_op` or a user's), or a multiply operator (`times_op`, `first_op`,
/// `second_op`, `pair_op`, ...), called as `apply(a, b, i, j)` with the entry's row and column (so
/// `secondi_op` yields the column j, GraphBLAS's SECONDJ). A's value is always the first operand. Then the
/// GraphBLAS merge, as for the CSR `mxm`: where the mask allows, C takes T (no accumulator; T's absence
/// deletes C's entry) or accum(C, T) where both exist and whichever exists otherwise; where it excludes, C
/// keeps its entry, or loses it under `replace`. `mask` is `no_mask{}` or `mask_of(matrix or graph,
/// complement, replace)` (structural: its values are not read); `accum` is `no_accumulator{}`,
/// `accumulate_with<Monoid>{}` or a binary operator of operators.hpp. C is given new arrays; views of its old
/// arrays are left as they were. C may be one of the operands. `opts.transpose_a` / `transpose_b` use Aᵀ / Bᵀ
/// (GrB_INP0 / GrB_INP1 = GrB_TRAN), materialised by `transpose` first (O(nnz + sort) each).
///
/// Kernel: one thread per row walks the rows of A, B, C and the mask together (count, scan, fill); T is never
/// stored. Work O(n_rows + nnz(A) + nnz(B) + nnz(C) + nnz(mask)), memory O(n_rows + nnz of the result).
///
/// Throws `invalid_argument_error` naming `ewise_add` when A, B (as transposed) and C differ in shape, the mask's
/// shape is not C's, or an operand's arrays do not fit its shape; `unsupported_error` for a forced CUDA path (there
/// is none); `allocation_error` when memory runs out. Fences `exec`.
template <class ExecSpace, class T, class Mask, class Accum, class Op>
void ewise_add(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
               const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a,
               const csr_matrix<T, memory_space_t<ExecSpace>>& b, const matrix_op_options& opts = {});

/// C<mask, replace> = accum(C, A ⊗ B) on CSR matrices of one shape (GraphBLAS GrB_Matrix_eWiseMult).
///
/// T, the intersection: T(i, j) = op(A(i, j), B(i, j)) where both store (i, j), no entry elsewhere. Operators,
/// mask, accumulator, merge, kernel, work, errors (naming `ewise_mult`) and fencing as for `ewise_add`.
template <class ExecSpace, class T, class Mask, class Accum, class Op>
void ewise_mult(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask,
                const Accum& accum, const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a,
                const csr_matrix<T, memory_space_t<ExecSpace>>& b, const matrix_op_options& opts = {});

/// A ⊕ B as a new matrix (no mask, no accumulator); as the full form otherwise.
template <class ExecSpace, class Op, class T>
csr_matrix<T, memory_space_t<ExecSpace>> ewise_add(const ExecSpace& exec, const Op& op,
                                                   const csr_matrix<T, memory_space_t<ExecSpace>>& a,
                                                   const csr_matrix<T, memory_space_t<ExecSpace>>& b) {
  csr_matrix<T, memory_space_t<ExecSpace>> c;
  c.n_rows = a.n_rows;
  c.n_cols = a.n_cols;
  ewise_add(exec, c, no_mask{}, no_accumulator{}, op, a, b);
  return c;
}

/// A ⊗ B as a new matrix (no mask, no accumulator); as the full form otherwise.
template <class ExecSpace, class Op, class T>
csr_matrix<T, memory_space_t<ExecSpace>> ewise_mult(const ExecSpace& exec, const Op& op,
                                                    const csr_matrix<T, memory_space_t<ExecSpace>>& a,
                                                    const csr_matrix<T, memory_space_t<ExecSpace>>& b) {
  csr_matrix<T, memory_space_t<ExecSpace>> c;
  c.n_rows = a.n_rows;
  c.n_cols = a.n_cols;
  ewise_mult(exec, c, no_mask{}, no_accumulator{}, op, a, b);
  return c;
}

/// C<mask, replace> = (C OR) (A ∪ B) on B2SR bit matrices (GraphBLAS GrB_Matrix_eWiseAdd on GrB_BOOL, every
/// stored bit `true`).
///
/// T, the union of the patterns: a bit where A or B has one. `op` is any binary operator of operators.hpp whose
/// value on two set bits is not 0 (`lor_monoid`, `land_op`, `pair_op`, `first_op`, `second_op`, `times_op`,
/// `min_monoid<T>`, `plus_monoid<T>`, ...): where both have a bit, op(true, true) is true, so every such op gives
/// the same pattern. It is tried once on the host on (1, 1) (its `value_type`, else std::uint8_t): an op giving 0
/// (`minus_op`, LXOR) would store an explicit false, which bits cannot hold, and a positional op (`secondi_op`,
/// whose value depends on the entry's row and column) neither; both throw. Then the merge of the Boolean B2SR `mxm`:
/// where the mask allows, C = T (no accumulator) or C OR T (`accumulate_with<lor_monoid>{}` or `lor_monoid{}`);
/// excluded positions keep C, or are cleared under `replace`. `mask` is `no_mask{}` or `mask_of(b2sr, complement,
/// replace)` (structural). C keeps its n, tile dimension and bit order and gets new arrays (a C without a
/// tile_row_ptr counts as empty); A, B, C and the mask share n and the tile dimension, any bit orders. C may be A
/// or B. `opts.transpose_a` / `transpose_b` use Aᵀ / Bᵀ, materialised by `transpose` (O(tiles · T), the packing
/// order flipped).
///
/// Kernel: the tile-row merge of the Boolean mxm, one thread per tile row, count / scan / fill, empty tiles dropped:
/// A with B (OR of the tiles) gives T, which a second merge puts into C under the mask and accumulator; without
/// either, C is that first merge. Work O(n / T + (tiles of A, B, C and the mask) · T), memory O(n / T + tiles of T
/// and of the result).
///
/// Throws `invalid_argument_error` naming `ewise_add` when A, B, C and the mask differ in n or tile dimension, an
/// operand's arrays do not fit its shape, or `op` is positional or gives 0 on two set bits; `unsupported_error` for a
/// forced CUDA path (there is none); `allocation_error` when memory runs out. Fences `exec`.
template <class ExecSpace, class Mask, class Accum, class Op>
void ewise_add(const ExecSpace& exec, b2sr_matrix<memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
               const Op& op, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
               const b2sr_matrix<memory_space_t<ExecSpace>>& b, const matrix_op_options& opts = {});

/// C<mask, replace> = (C OR) (A ∩ B) on B2SR bit matrices (GraphBLAS GrB_Matrix_eWiseMult on GrB_BOOL).
///
/// T, the intersection of the patterns: a bit where both A and B have one (the AND of the tiles; a tile only one
/// operand has is skipped). Operators, mask, accumulator, merge, kernel, work, errors (naming `ewise_mult`) and
/// fencing as for the B2SR `ewise_add`.
template <class ExecSpace, class Mask, class Accum, class Op>
void ewise_mult(const ExecSpace& exec, b2sr_matrix<memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
                const Op& op, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                const b2sr_matrix<memory_space_t<ExecSpace>>& b, const matrix_op_options& opts = {});

/// A ∪ B as a new B2SR matrix with A's n, tile dimension and bit order (no mask, no accumulator).
template <class ExecSpace, class Op>
b2sr_matrix<memory_space_t<ExecSpace>> ewise_add(const ExecSpace& exec, const Op& op,
                                                 const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                 const b2sr_matrix<memory_space_t<ExecSpace>>& b) {
  auto c = detail::empty_like(a);
  ewise_add(exec, c, no_mask{}, no_accumulator{}, op, a, b);
  return c;
}

/// A ∩ B as a new B2SR matrix with A's n, tile dimension and bit order (no mask, no accumulator).
template <class ExecSpace, class Op>
b2sr_matrix<memory_space_t<ExecSpace>> ewise_mult(const ExecSpace& exec, const Op& op,
                                                  const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                  const b2sr_matrix<memory_space_t<ExecSpace>>& b) {
  auto c = detail::empty_like(a);
  ewise_mult(exec, c, no_mask{}, no_accumulator{}, op, a, b);
  return c;
}

namespace detail {

template <bool Mult, class ExecSpace, class T, class Mask, class Accum, class Op>
void ewise_matrix(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask,
                  const Accum& accum, const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a_in,
                  const csr_matrix<T, memory_space_t<ExecSpace>>& b_in, const matrix_op_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  const char* func = Mult ? "ewise_mult" : "ewise_add";
  static_assert(std::is_same_v<Mask, no_mask> || is_matrix_mask_v<Mask>,
                "the mask of a matrix ewise op must be no_mask or a matrix_mask (mask_of a csr_matrix or csr_graph)");
  static_assert(is_csr_accumulator_v<Accum, T>,
                "accum must be no_accumulator, accumulate_with<Monoid> or a binary operator on the value type");
  static_assert(elementwise::is_binary_op_v<Op, T>, "op needs combine(a, b), apply(a, b) or apply(a, b, i, j)");
  choose_path<ExecSpace>(func, opts.algorithm, path_offer{});
  check_csr_matrix(func, "A", a_in);
  check_csr_matrix(func, "B", b_in);
  check_csr_matrix(func, "C", c);
  const auto a = opts.transpose_a ? transpose(exec, a_in) : a_in;
  const auto b = opts.transpose_b ? transpose(exec, b_in) : b_in;
  BITGRAPH_CHECK_ARG(a.n_rows == b.n_rows && a.n_cols == b.n_cols, func, "A", opts.transpose_a ? "ᵀ" : "", " is ",
                     a.n_rows, " x ", a.n_cols, " but B", opts.transpose_b ? "ᵀ" : "", " is ", b.n_rows, " x ",
                     b.n_cols);
  BITGRAPH_CHECK_ARG(c.n_rows == a.n_rows && c.n_cols == a.n_cols, func, "C is ", c.n_rows, " x ", c.n_cols,
                     " but A and B are ", a.n_rows, " x ", a.n_cols);
  check_matrix_mask(func, mask, c.n_rows, c.n_cols);
  profiling_region region(Mult ? "bitgraph::ewise_mult_matrix" : "bitgraph::ewise_add_matrix");

  // One all-zero row_ptr stands in for every missing one (array-less operands, mask, or a C that cannot
  // survive: no accumulator and no mask or a replacing one, where every old entry is overwritten or dropped).
  auto zeros = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::ewise_matrix::zeros", offset_t(c.n_rows) + 1);
  auto or_zeros = [&](csr_matrix<T, mem> m, bool drop) {
    if (drop || m.row_ptr.extent(0) == 0) {
      m.row_ptr = zeros;
      m.nnz = 0;
    }
    return m;
  };
  ewise_matrix_args<T, mem> args;
  args.mask = to_csr_mask_args<mem>(mask, zeros);
  constexpr bool accumulates = !std::is_same_v<Accum, no_accumulator>;
  args.a = or_zeros(a, false);
  args.b = or_zeros(b, false);
  args.c_old = or_zeros(c, !accumulates && (!args.mask.masked || args.mask.replace));
  c = ewise_matrix_impl<ExecSpace, Mult, Accum, Op, T>::run(exec, args, accum, op);
}

/// The type `op` is tried on for bits: its own `value_type` (monoids), else Booleans as bytes.
template <class Op, class = void>
struct bits_op_value {
  using type = std::uint8_t;
};
template <class Op>
struct bits_op_value<Op, std::void_t<typename Op::value_type>> {
  using type = typename Op::value_type;
};

/// The op's `name` for messages, or "(unnamed)".
template <class Op, class = void>
struct has_op_name : std::false_type {};
template <class Op>
struct has_op_name<Op, std::void_t<decltype(Op::name)>> : std::true_type {};
template <class Op>
std::string_view op_name() {
  if constexpr (has_op_name<Op>::value)
    return Op::name;
  else
    return "(unnamed)";
}

/// Throws unless op(true, true) is non-zero and the same at every position: only then is the op's result on two
/// set bits a set bit (a positional op is tried at a few (i, j); apply_binary alone would pass i for both).
template <class Op>
void check_bits_op(const char* func, const Op& op) {
  using V = typename bits_op_value<Op>::type;
  static_assert(elementwise::is_binary_op_v<Op, V>, "op needs combine(a, b), apply(a, b) or apply(a, b, i, j)");
  const V one(1);
  const V v = elementwise::apply_binary(op, one, one, vertex_t(0));
  if constexpr (!elementwise::has_combine<Op, V>::value && !elementwise::has_apply2<Op, V>::value) {
    constexpr vertex_t probes[][2] = {{0, 1}, {1, 0}, {2, 7}, {9, 4}};
    for (const auto& p : probes) {
      BITGRAPH_CHECK_ARG(static_cast<V>(op.apply(one, one, p[0], p[1])) == v, func, "op ", op_name<Op>(),
                         " is positional (its value depends on the entry's row and column): bits hold no values");
    }
  }
  BITGRAPH_CHECK_ARG(v != V(0), func, "op ", op_name<Op>(),
                     " gives 0 on two set bits: an explicit false, which a B2SR matrix cannot store (use a Boolean "
                     "op: lor, land, pair, first, ...)");
}

template <bool Mult, class ExecSpace, class Mask, class Accum, class Op>
void ewise_b2sr(const ExecSpace& exec, b2sr_matrix<memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum&,
                const Op& op, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                const b2sr_matrix<memory_space_t<ExecSpace>>& b, const matrix_op_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  const char* func = Mult ? "ewise_mult" : "ewise_add";
  static_assert(std::is_same_v<Mask, no_mask> || is_b2sr_mask_v<Mask>,
                "the mask of a B2SR ewise op must be no_mask or a b2sr_mask (mask_of a b2sr_matrix)");
  static_assert(is_lor_accumulator_v<Accum>,
                "a B2SR output accumulates with LOR only: no_accumulator, accumulate_with<lor_monoid> or lor_monoid");
  const op_algorithm path = choose_path<ExecSpace>(func, opts.algorithm, path_offer{});
  check_bits_operands(func, a, b, mask);
  check_b2sr(func, "C", c, true);
  BITGRAPH_CHECK_ARG(c.n == a.n && c.tile_dim == a.tile_dim, func, "C is ", c.n, " x ", c.n, " in ", c.tile_dim,
                     "-bit tiles but A and B are ", a.n, " x ", a.n, " in ", a.tile_dim, "-bit tiles");
  check_bits_op(func, op);
  b2sr_mask_args<mem> margs;
  if constexpr (is_b2sr_mask_v<Mask>) margs = {mask.m, true, mask.complement, mask.replace};
  profiling_region region(Mult ? "bitgraph::ewise_mult_bits" : "bitgraph::ewise_add_bits");
  ewise_bits_impl<ExecSpace>::run(path, exec, c, margs, !std::is_same_v<Accum, no_accumulator>, Mult, a, b,
                                  opts.transpose_a, opts.transpose_b);
}

}  // namespace detail

template <class ExecSpace, class T, class Mask, class Accum, class Op>
void ewise_add(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
               const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a,
               const csr_matrix<T, memory_space_t<ExecSpace>>& b, const matrix_op_options& opts) {
  detail::ewise_matrix<false>(exec, c, mask, accum, op, a, b, opts);
}

template <class ExecSpace, class T, class Mask, class Accum, class Op>
void ewise_mult(const ExecSpace& exec, csr_matrix<T, memory_space_t<ExecSpace>>& c, const Mask& mask,
                const Accum& accum, const Op& op, const csr_matrix<T, memory_space_t<ExecSpace>>& a,
                const csr_matrix<T, memory_space_t<ExecSpace>>& b, const matrix_op_options& opts) {
  detail::ewise_matrix<true>(exec, c, mask, accum, op, a, b, opts);
}

template <class ExecSpace, class Mask, class Accum, class Op>
void ewise_add(const ExecSpace& exec, b2sr_matrix<memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
               const Op& op, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
               const b2sr_matrix<memory_space_t<ExecSpace>>& b, const matrix_op_options& opts) {
  detail::ewise_b2sr<false>(exec, c, mask, accum, op, a, b, opts);
}

template <class ExecSpace, class Mask, class Accum, class Op>
void ewise_mult(const ExecSpace& exec, b2sr_matrix<memory_space_t<ExecSpace>>& c, const Mask& mask, const Accum& accum,
                const Op& op, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                const b2sr_matrix<memory_space_t<ExecSpace>>& b, const matrix_op_options& opts) {
  detail::ewise_b2sr<true>(exec, c, mask, accum, op, a, b, opts);
}

}  // namespace bitgraph
