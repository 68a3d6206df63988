// Matrix-vector products on B2SR and CSR over any semiring: the six BMV schemes of Bit-GraphBLAS
// (bin·bin→bin, bin·bin→full, bin·full→full and their masked forms), row-based pull with early exit
// (mxv) and column-based push (vxm), with masks, structural complement, replace and accumulators.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/launch.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// Which way a matrix-vector product walks the matrix.
enum class mxv_direction : std::uint8_t {
  automatic,  ///< push when the input is sparse (nnz(x)/n < switch_ratio) and a push form exists, else pull
  pull,       ///< row-based: every (unmasked) output row reads its row of A (early exit for OR / ANY)
  push,       ///< column-based: every non-zero input scatters its column into the output
};

/// Options shared by `mxv` and `vxm`.
struct mxv_options {
  op_algorithm algorithm = op_algorithm::automatic;  ///< force the generic or a CUDA kernel
  mxv_direction direction = mxv_direction::automatic;
  bool early_exit = true;      ///< pull rows stop at the first contribution when the monoid allows it
  double switch_ratio = 0.01;  ///< α = β of Yang et al. §6.3: push below this input density
};

/// The kernel path to pass to a push (scatter) product when an algorithm was asked for `path`: the CUDA
/// warp kernels are pull kernels, so a forced `cuda_warp` applies to the pulls and pushes run the
/// automatic choice; `generic` and `automatic` pass through.
inline op_algorithm push_path(op_algorithm path) {
  return path == op_algorithm::cuda_warp ? op_algorithm::automatic : path;
}

/// The scheme names of Bit-GraphBLAS Table II, for reports.
enum class bmv_scheme : std::uint8_t { bin_bin_bin, bin_bin_full, bin_full_full };

namespace detail {

// ---------------------------------------------------------------------------------------- operands

template <class V>
struct is_bitmap : std::false_type {};
template <class Mem>
struct is_bitmap<bitmap<Mem>> : std::true_type {};

template <class V>
struct is_dense : std::false_type {};
template <class T, class... P>
struct is_dense<Kokkos::View<T*, P...>> : std::true_type {};

/// Reads the mask bit of output i (true when i may be written).
template <class MaskWords>
KOKKOS_FORCEINLINE_FUNCTION bool mask_allows(const MaskWords& m, bool has_mask, bool complement, std::uint64_t i) {
  return !has_mask || (bitmap_test(m, i) != complement);
}

/// The new value of one dense output element under GraphBLAS mask / accumulate / replace rules. `t` is
/// the product (identity = absent).
template <class S, class Accum>
KOKKOS_FORCEINLINE_FUNCTION typename S::value_type merge_output(typename S::value_type old, typename S::value_type t,
                                                                bool allowed, bool replace) {
  using T = typename S::value_type;
  if (!allowed) return replace ? S::identity() : old;
  if constexpr (std::is_same_v<Accum, no_accumulator>) {
    return t;
  } else {
    if (t == S::identity()) return old;
    return Accum::monoid::combine(old, static_cast<T>(t));
  }
}

/// The new 32-bit (or 64-bit) bitmap word under the same rules, for Boolean outputs. `t` holds the product
/// bits, `allowed` the mask bits of the word.
template <class Accum, class W>
KOKKOS_FORCEINLINE_FUNCTION W merge_output_bits(W old, W t, W allowed, bool replace) {
  W z;
  if constexpr (std::is_same_v<Accum, no_accumulator>) {
    z = t;
  } else {
    z = old | t;  // the only accumulator on bits is OR (checked by the caller)
  }
  return (allowed & z) | (~allowed & (replace ? W(0) : old));
}

// ------------------------------------------------------------------------------- B2SR pull (mxv)

/// Row-based product on B2SR, one "block" of R rows per team thread (R = 32, or 64 for T = 64: one
/// output bitmap word pair), one vector lane per row. Each lane walks its tile row and reduces its
/// row's bits against the input; Boolean outputs are assembled with a bitwise-OR vector reduction so
/// every output word is written by exactly one thread (no atomics).
template <class ExecSpace, int T, class S, bool XBits, bool YBits, class Accum>
struct b2sr_pull_functor {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  using value_type = typename S::value_type;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  static constexpr int R = T == 64 ? 64 : 32;

  vertex_t n;
  vertex_t n_blocks;
  bool row_major, early_exit, masked, complement, replace;
  Kokkos::View<const offset_t*, mem> ptr;
  Kokkos::View<const vertex_t*, mem> tcol;
  Kokkos::View<const word*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> words;
  Kokkos::View<const std::uint32_t*, mem> xbits;  // XBits
  Kokkos::View<const value_type*, mem> xval;     // !XBits
  Kokkos::View<std::uint32_t*, mem> ybits;       // YBits
  Kokkos::View<value_type*, mem> yval;           // !YBits
  Kokkos::View<const std::uint32_t*, mem> mbits;  // when masked

  /// The (unmasked) product for row i: identity when nothing contributes.
  KOKKOS_INLINE_FUNCTION value_type row_product(vertex_t i) const {
    const vertex_t tr = i / T;
    const int lr = static_cast<int>(i % T);
    value_type t = S::identity();
    for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) {
      std::uint64_t bits = tile_row_bits<T>(words, k, lr, row_major);
      const vertex_t j0 = tcol(k) * T;
      if constexpr (XBits) {
        bits &= static_cast<std::uint64_t>(bitmap_segment<T>(xbits, tcol(k)));
        if (!bits) continue;
        if constexpr (bit_reduction_v<S> == bit_reduction::or_and) {
          t = value_type(1);
          if (early_exit) return t;
          continue;
        } else if constexpr (bit_reduction_v<S> == bit_reduction::popcount) {
          t = S::add(t, static_cast<value_type>(popcount(bits)));
          continue;
        }
      }
      while (bits) {
        const vertex_t j = j0 + count_trailing_zeros(bits);
        bits &= bits - 1;
        value_type xj;
        if constexpr (XBits) {
          xj = S::one();
        } else {
          xj = xval(j);
          if (xj == S::identity()) continue;  // identity entries of a dense input are absent
        }
        t = S::add(t, S::multiply(S::one(), xj, i, j));
        if constexpr (allows_early_exit_v<S>) {
          if (early_exit && t != S::identity()) return t;
        }
      }
    }
    return t;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const vertex_t block = m.league_rank() * m.team_size() + m.team_rank();
    if (block >= n_blocks) return;
    const vertex_t base = block * R;
    if constexpr (YBits) {
      // Bit r of the result: product of row base + r (only rows the mask lets through are computed).
      std::uint64_t tbits = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(m, R),
          [&](const int r, std::uint64_t& acc) {
            const vertex_t i = base + r;
            if (i >= n) return;
            if (!mask_allows(mbits, masked, complement, i)) return;
            if (row_product(i) != S::identity()) acc |= std::uint64_t(1) << r;
          },
          Kokkos::BOr<std::uint64_t>(tbits));
      Kokkos::single(Kokkos::PerThread(m), [&]() {
        for (int w = 0; w < R / 32; ++w) {
          const std::uint64_t wi = std::uint64_t(base) / 32 + w;
          std::uint32_t allowed = ~std::uint32_t(0);
          if (masked) allowed = complement ? ~mbits(wi) : mbits(wi);
          // Bits beyond n stay zero.
          const std::uint64_t first = wi * 32;
          if (first + 32 > n) allowed &= n > first ? ((std::uint32_t(1) << (n - first)) - 1u) : 0u;
          const std::uint32_t t32 = static_cast<std::uint32_t>(tbits >> (32 * w));
          ybits(wi) = merge_output_bits<Accum>(ybits(wi), t32, allowed, replace);
        }
      });
    } else {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(m, R), [&](const int r) {
        const vertex_t i = base + r;
        if (i >= n) return;
        const bool allowed = mask_allows(mbits, masked, complement, i);
        const value_type t = allowed ? row_product(i) : S::identity();
        yval(i) = merge_output<S, Accum>(yval(i), t, allowed, replace);
      });
    }
  }
};

// ------------------------------------------------------------------------------- B2SR push (vxm)

/// Column-based product y = A^T x on B2SR: every tile row whose input segment is non-zero scatters
/// its tiles into a temporary result with atomics (OR on bitmap words, the monoid's atomic otherwise).
template <class ExecSpace, int T, class S, bool XBits, bool YBits>
struct b2sr_push_functor {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  using value_type = typename S::value_type;

  bool row_major;
  Kokkos::View<const offset_t*, mem> ptr;
  Kokkos::View<const vertex_t*, mem> tcol;
  Kokkos::View<const word*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> words;
  Kokkos::View<const std::uint32_t*, mem> xbits;
  Kokkos::View<const value_type*, mem> xval;
  Kokkos::View<std::uint32_t*, mem> tbits;  // YBits: temporary result bits
  Kokkos::View<value_type*, mem> tval;      // !YBits: temporary result values (identity-filled)
  vertex_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    // Active rows of this tile row.
    std::uint64_t active = 0;
    if constexpr (XBits) {
      active = static_cast<std::uint64_t>(bitmap_segment<T>(xbits, tr));
    } else {
      for (int r = 0; r < T; ++r) {
        const vertex_t i = tr * T + r;
        if (i < n && xval(i) != S::identity()) active |= std::uint64_t(1) << r;
      }
    }
    if (!active) return;
    for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) {
      const vertex_t tc = tcol(k);
      if constexpr (YBits && bit_reduction_v<S> == bit_reduction::or_and) {
        // OR of the active rows' words is the output segment.
        std::uint64_t seg = 0;
        std::uint64_t a = active;
        while (a) {
          const int r = count_trailing_zeros(a);
          a &= a - 1;
          seg |= tile_row_bits<T>(words, k, r, row_major);
        }
        if (!seg) continue;
        const std::uint64_t bit0 = std::uint64_t(tc) * T;
        for (int w = 0; w < (T + 31) / 32; ++w) {
          const std::uint32_t part =
              T >= 32 ? static_cast<std::uint32_t>(seg >> (32 * w)) : static_cast<std::uint32_t>(seg << (bit0 % 32));
          if (part) Kokkos::atomic_fetch_or(&tbits(bit0 / 32 + w), part);
        }
      } else {
        std::uint64_t a = active;
        while (a) {
          const int r = count_trailing_zeros(a);
          a &= a - 1;
          const vertex_t i = tr * T + r;  // the input index: A(i, j) contributes x(i) to y(j)
          std::uint64_t bits = tile_row_bits<T>(words, k, r, row_major);
          value_type xi;
          if constexpr (XBits) xi = S::one();
          else xi = xval(i);
          while (bits) {
            const vertex_t j = tc * T + count_trailing_zeros(bits);
            bits &= bits - 1;
            const value_type v = S::multiply(S::one(), xi, j, i);
            if constexpr (YBits) {
              if (v != S::identity()) Kokkos::atomic_fetch_or(&tbits(j >> 5), std::uint32_t(1) << (j & 31));
            } else {
              S::atomic_add(&tval(j), v);
            }
          }
        }
      }
    }
  }
};

/// Applies mask / accumulator / replace to move a temporary result into the output.
template <class ExecSpace, class S, bool YBits, class Accum>
BITGRAPH_TU_LOCAL void merge_temporary(const ExecSpace& exec, vertex_t n, Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>> tbits,
                     Kokkos::View<typename S::value_type*, memory_space_t<ExecSpace>> tval,
                     Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>> ybits,
                     Kokkos::View<typename S::value_type*, memory_space_t<ExecSpace>> yval,
                     Kokkos::View<const std::uint32_t*, memory_space_t<ExecSpace>> mbits, bool masked, bool complement,
                     bool replace) {
  if constexpr (YBits) {
    Kokkos::parallel_for(
        "bitgraph::mxv::merge_bits", Kokkos::RangePolicy<ExecSpace>(exec, 0, ybits.extent(0)),
        KOKKOS_LAMBDA(const std::size_t wi) {
          std::uint32_t allowed = ~std::uint32_t(0);
          if (masked) allowed = complement ? ~mbits(wi) : mbits(wi);
          const std::uint64_t first = wi * 32;
          if (first + 32 > n) allowed &= n > first ? ((std::uint32_t(1) << (n - first)) - 1u) : 0u;
          ybits(wi) = merge_output_bits<Accum>(ybits(wi), tbits(wi), allowed, replace);
        });
  } else {
    Kokkos::parallel_for(
        "bitgraph::mxv::merge_values", Kokkos::RangePolicy<ExecSpace>(exec, 0, n), KOKKOS_LAMBDA(const std::size_t i) {
          const bool allowed = mask_allows(mbits, masked, complement, i);
          yval(i) = merge_output<S, Accum>(yval(i), tval(i), allowed, replace);
        });
  }
}

// --------------------------------------------------------------------------- argument checks

template <class ExecSpace, class S, class Y, class X, class Mask, class Accum>
void check_mxv_args(const char* func, vertex_t n, const Y& y, const Mask& mask, const X& x, const mxv_options& opts) {
  check_algorithm<ExecSpace>(opts.algorithm, func);
  if constexpr (is_bitmap<X>::value) {
    BITGRAPH_CHECK_ARG(x.n == n, func, "input bitmap has ", x.n, " bits but the matrix has ", n, " columns");
  } else {
    BITGRAPH_CHECK_ARG(x.extent(0) == n, func, "input vector has ", x.extent(0), " entries but the matrix has ", n,
                       " columns");
    static_assert(std::is_same_v<typename X::non_const_value_type, typename S::value_type>,
                  "the input vector's value type must be the semiring's value type");
  }
  if constexpr (is_bitmap<Y>::value) {
    BITGRAPH_CHECK_ARG(y.n == n, func, "output bitmap has ", y.n, " bits but the matrix has ", n, " rows");
    if (!is_boolean_semiring_v<S>) {
      throw invalid_argument_error(concat("bitgraph::", func,
                                          ": a bitmap output (scheme bin·*→bin) needs a Boolean (LOR) semiring"));
    }
    if constexpr (!std::is_same_v<Accum, no_accumulator>) {
      if (!std::is_same_v<typename Accum::monoid, lor_monoid>)
        throw invalid_argument_error(concat("bitgraph::", func, ": the only accumulator on a bitmap output is LOR"));
    }
  } else {
    BITGRAPH_CHECK_ARG(y.extent(0) == n, func, "output vector has ", y.extent(0), " entries but the matrix has ", n,
                       " rows");
    static_assert(std::is_same_v<typename Y::non_const_value_type, typename S::value_type>,
                  "the output vector's value type must be the semiring's value type");
  }
  if constexpr (is_vector_mask_v<Mask>) {
    BITGRAPH_CHECK_ARG(mask.bits.n == n, func, "mask has ", mask.bits.n, " bits but the output has ", n);
  }
}

/// Density of the input (for the push/pull switch): set bits or non-identity entries over n.
template <class ExecSpace, class S, class X>
BITGRAPH_TU_LOCAL double input_density(const ExecSpace& exec, const X& x, vertex_t n) {
  if (n == 0) return 0.0;
  if constexpr (is_bitmap<X>::value) {
    return double(count(exec, x)) / double(n);
  } else {
    offset_t c = 0;
    Kokkos::parallel_reduce(
        "bitgraph::mxv::density", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
        KOKKOS_LAMBDA(const std::size_t i, offset_t& acc) { acc += x(i) != S::identity() ? 1 : 0; }, c);
    return double(c) / double(n);
  }
}

/// A mask reduced to what kernels need; `masked` false means "no mask".
template <class MemorySpace>
struct mask_args {
  Kokkos::View<const std::uint32_t*, MemorySpace> bits;
  bool masked = false;
  bool complement = false;
  bool replace = false;
};

template <class MemorySpace, class Mask>
mask_args<MemorySpace> to_mask_args(const Mask& mask) {
  mask_args<MemorySpace> m;
  if constexpr (is_vector_mask_v<Mask>) {
    m.bits = mask.bits.words;
    m.masked = true;
    m.complement = mask.complement;
    m.replace = mask.replace;
  }
  return m;
}

/// Which matrix's rows a B2SR product walks and whether it scatters (push) or gathers (pull).
template <class MemorySpace>
struct b2sr_plan {
  const b2sr_matrix<MemorySpace>* matrix;
  bool push;
};

/// Chooses the direction of a B2SR product. Pull over A computes A x by reading A's rows; push over A
/// scatters A's rows into A^T x. With `at` (or a symmetric A) the other product is available in the
/// other direction. `automatic` pushes when the input density is below `switch_ratio`.
template <class ExecSpace, class S, class X>
b2sr_plan<memory_space_t<ExecSpace>> plan_b2sr_product(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                       const b2sr_matrix<memory_space_t<ExecSpace>>* at, const X& x,
                                                       const mxv_options& opts, bool transpose_input) {
  bool use_push;
  if (opts.direction == mxv_direction::pull) {
    use_push = false;
  } else if (opts.direction == mxv_direction::push) {
    use_push = true;
  } else {
    use_push = input_density<ExecSpace, S>(exec, x, a.n) < opts.switch_ratio;
  }
  b2sr_plan<memory_space_t<ExecSpace>> plan{&a, transpose_input};
  if (use_push != plan.push) {
    if (a.kind == graph_kind::undirected) {
      plan.push = use_push;
    } else if (at != nullptr) {
      plan.matrix = at;
      plan.push = use_push;
    } else if (opts.direction != mxv_direction::automatic) {
      throw invalid_argument_error(concat(
          "bitgraph::", transpose_input ? "vxm" : "mxv", ": direction '", use_push ? "push" : "pull",
          "' needs the transposed matrix for a directed graph (pass it, or use the other direction)"));
    }
  }
  return plan;
}

/// The portable implementation of a B2SR product. `transpose_input` = false: y = A x (pull over A's
/// rows, or push over A^T's rows when `at` is given); true: y = A^T x (push over A's rows, or pull
/// over A^T's rows when given).
template <class ExecSpace, class S, class Y, class X, class Accum>
struct b2sr_mxv_generic {
  using mem = memory_space_t<ExecSpace>;
  using value_type = typename S::value_type;
  static constexpr bool XBits = is_bitmap<X>::value;
  static constexpr bool YBits = is_bitmap<Y>::value;

  template <int T>
  static void pull(const ExecSpace& exec, Y& y, const mask_args<mem>& mask, const b2sr_matrix<mem>& a, const X& x,
                   const mxv_options& opts) {
    b2sr_pull_functor<ExecSpace, T, S, XBits, YBits, Accum> f;
    constexpr int R = decltype(f)::R;
    f.n = a.n;
    f.n_blocks = static_cast<vertex_t>(ceil_div<std::uint64_t>(a.n, R));
    f.row_major = a.order == bit_order::row_major;
    f.early_exit = opts.early_exit;
    f.ptr = a.tile_row_ptr;
    f.tcol = a.tile_col_idx;
    f.words = a.template tile_words<tile_word_t<T>>();
    if constexpr (XBits) f.xbits = x.words;
    else f.xval = x;
    if constexpr (YBits) f.ybits = y.words;
    else f.yval = y;
    f.mbits = mask.bits;
    f.masked = mask.masked;
    f.complement = mask.complement;
    f.replace = mask.replace;
    if (f.n_blocks == 0) return;
    const auto shape = shape_for<ExecSpace>(R);
    const int league = static_cast<int>(ceil_div<std::uint64_t>(f.n_blocks, shape.team_size));
    Kokkos::parallel_for("bitgraph::mxv::b2sr_pull",
                         Kokkos::TeamPolicy<ExecSpace>(exec, league, shape.team_size, shape.vector_length), f);
  }

  template <int T>
  static void push(const ExecSpace& exec, Y& y, const mask_args<mem>& mask, const b2sr_matrix<mem>& a, const X& x) {
    b2sr_push_functor<ExecSpace, T, S, XBits, YBits> f;
    f.row_major = a.order == bit_order::row_major;
    f.ptr = a.tile_row_ptr;
    f.tcol = a.tile_col_idx;
    f.words = a.template tile_words<tile_word_t<T>>();
    f.n = a.n;
    if constexpr (XBits) f.xbits = x.words;
    else f.xval = x;
    Kokkos::View<std::uint32_t*, mem> ybits;
    Kokkos::View<value_type*, mem> yval;
    if constexpr (YBits) {
      f.tbits = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::vxm::tmp_bits", y.words.extent(0));
      ybits = y.words;
    } else {
      f.tval = allocate_view<Kokkos::View<value_type*, mem>>("bitgraph::vxm::tmp_values", a.n, false);
      Kokkos::deep_copy(exec, f.tval, S::identity());
      yval = y;
    }
    Kokkos::parallel_for("bitgraph::vxm::b2sr_push", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n_tile_rows), f);
    merge_temporary<ExecSpace, S, YBits, Accum>(exec, a.n, f.tbits, f.tval, ybits, yval, mask.bits, mask.masked,
                                                mask.complement, mask.replace);
  }

  static void run(const ExecSpace& exec, Y& y, const mask_args<mem>& mask, const b2sr_matrix<mem>& a,
                  const b2sr_matrix<mem>* at, const X& x, const mxv_options& opts, bool transpose_input) {
    const auto plan = plan_b2sr_product<ExecSpace, S>(exec, a, at, x, opts, transpose_input);
    dispatch_tile_dim(plan.matrix->tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      if (plan.push) push<T>(exec, y, mask, *plan.matrix, x);
      else pull<T>(exec, y, mask, *plan.matrix, x, opts);
    });
  }
};

/// Dispatch point for B2SR products; backends specialise it for their execution space.
template <class ExecSpace, class S, class Y, class X, class Accum>
struct b2sr_mxv_impl {
  static void run(const ExecSpace& exec, Y& y, const mask_args<memory_space_t<ExecSpace>>& mask,
                  const b2sr_matrix<memory_space_t<ExecSpace>>& a, const b2sr_matrix<memory_space_t<ExecSpace>>* at,
                  const X& x, const mxv_options& opts, bool transpose_input) {
    if (opts.algorithm == op_algorithm::cuda_mma) {
      throw unsupported_error("bitgraph::mxv: there is no tensor-core kernel for B2SR products (use cuda-warp)");
    }
    b2sr_mxv_generic<ExecSpace, S, Y, X, Accum>::run(exec, y, mask, a, at, x, opts, transpose_input);
  }
};

}  // namespace detail

/// y<mask> = accum(y, A ⊕.⊗ x) on a B2SR matrix. The scheme follows the operand types: bitmap x and
/// bitmap y (bin·bin→bin, Boolean semirings only), bitmap x and dense y (bin·bin→full), dense x and dense
/// y (bin·full→full); with a `vector_mask` these are the masked schemes. The default direction is pull
/// (row-based, early exit for OR/ANY) unless x is sparse and a push form exists: for undirected
/// matrices (A = A^T) or when `at` (the B2SR of A^T) is given. Throws `invalid_argument_error` on size
/// mismatches, a bitmap output with a non-Boolean semiring or an impossible forced direction.
template <class ExecSpace, class S, class Y, class X, class Mask = no_mask, class Accum = no_accumulator>
void mxv(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&,
         const b2sr_matrix<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts = {},
         const b2sr_matrix<memory_space_t<ExecSpace>>* at = nullptr) {
  detail::check_mxv_args<ExecSpace, S, Y, X, Mask, Accum>("mxv", a.n, y, mask, x, opts);
  if (at != nullptr) BITGRAPH_CHECK_ARG(at->n == a.n, "mxv", "the transposed matrix has ", at->n, " rows, not ", a.n);
  detail::b2sr_mxv_impl<ExecSpace, S, Y, X, Accum>::run(
      exec, y, detail::to_mask_args<memory_space_t<ExecSpace>>(mask), a, at, x, opts, false);
}

/// y<mask> = accum(y, x ⊕.⊗ A) = A^T x: the column-based (push) product over A's rows, or a pull over
/// the rows of `at` (B2SR of A^T) when x is dense. Same schemes, masks and checks as `mxv`.
template <class ExecSpace, class S, class Y, class X, class Mask = no_mask, class Accum = no_accumulator>
void vxm(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&, const X& x,
         const b2sr_matrix<memory_space_t<ExecSpace>>& a, const mxv_options& opts = {},
         const b2sr_matrix<memory_space_t<ExecSpace>>* at = nullptr) {
  detail::check_mxv_args<ExecSpace, S, Y, X, Mask, Accum>("vxm", a.n, y, mask, x, opts);
  if (at != nullptr) BITGRAPH_CHECK_ARG(at->n == a.n, "vxm", "the transposed matrix has ", at->n, " rows, not ", a.n);
  mxv_options o = opts;
  if (o.direction == mxv_direction::automatic && at == nullptr && a.kind != graph_kind::undirected) {
    o.direction = mxv_direction::push;  // the only form available
  }
  detail::b2sr_mxv_impl<ExecSpace, S, Y, X, Accum>::run(
      exec, y, detail::to_mask_args<memory_space_t<ExecSpace>>(mask), a, at, x, o, true);
}

// ------------------------------------------------------------------------------------------ CSR

namespace detail {

/// Row-based CSR product with edge weights (or 1 for an unweighted graph): one thread per row,
/// early exit for OR / ANY monoids.
template <class ExecSpace, class S, class Y, class X, class Accum, BITGRAPH_TU_LOCAL_PARAM>
struct csr_mxv_generic {
  static void run(const ExecSpace& exec, Y& y, const mask_args<memory_space_t<ExecSpace>>& mask,
                  const csr_graph<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts) {
    using T = typename S::value_type;
    constexpr bool XBits = is_bitmap<X>::value;
    constexpr bool YBits = is_bitmap<Y>::value;
    using mem = memory_space_t<ExecSpace>;
    auto row_ptr = a.row_ptr;
    auto col = a.col_idx;
    auto w = a.weights;
    const bool weighted = a.has_weights;
    const bool early = opts.early_exit;
    const vertex_t n = a.n;
    Kokkos::View<const std::uint32_t*, mem> xbits;
    Kokkos::View<const T*, mem> xval;
    if constexpr (XBits) xbits = x.words;
    else xval = x;
    const auto mbits = mask.bits;
    const bool masked = mask.masked, complement = mask.complement, replace = mask.replace;
    // Plain `if`s on compile-time constants: nvcc does not let an extended lambda capture a variable
    // for the first time inside `if constexpr`.
    const bool stop_early = early && allows_early_exit_v<S>;
    auto product = KOKKOS_LAMBDA(const vertex_t i) -> T {
      T t = S::identity();
      for (offset_t p = row_ptr(i); p < row_ptr(i + 1); ++p) {
        const vertex_t j = col(p);
        T xj;
        if (XBits) {
          if (!bitmap_test(xbits, j)) continue;
          xj = S::one();
        } else {
          xj = xval(j);
          if (xj == S::identity()) continue;  // identity entries of a dense input are absent
        }
        const T aij = weighted ? static_cast<T>(w(p)) : S::one();
        t = S::add(t, S::multiply(aij, xj, i, j));
        if (stop_early && t != S::identity()) break;
      }
      return t;
    };
    if constexpr (YBits) {
      auto yw = y.words;
      Kokkos::parallel_for(
          "bitgraph::mxv::csr_pull_bits", Kokkos::RangePolicy<ExecSpace>(exec, 0, yw.extent(0)),
          KOKKOS_LAMBDA(const std::size_t wi) {
            std::uint32_t allowed = ~std::uint32_t(0);
            if (masked) allowed = complement ? ~mbits(wi) : mbits(wi);
            const std::uint64_t first = wi * 32;
            if (first + 32 > n) allowed &= n > first ? ((std::uint32_t(1) << (n - first)) - 1u) : 0u;
            std::uint32_t t = 0;
            std::uint32_t todo = allowed;
            while (todo) {
              const int b = count_trailing_zeros(todo);
              todo &= todo - 1;
              if (product(static_cast<vertex_t>(first + b)) != S::identity()) t |= std::uint32_t(1) << b;
            }
            yw(wi) = merge_output_bits<Accum>(yw(wi), t, allowed, replace);
          });
    } else {
      Kokkos::parallel_for(
          "bitgraph::mxv::csr_pull", Kokkos::RangePolicy<ExecSpace>(exec, 0, n), KOKKOS_LAMBDA(const vertex_t i) {
            const bool allowed = mask_allows(mbits, masked, complement, i);
            const T t = allowed ? product(i) : S::identity();
            y(i) = merge_output<S, Accum>(y(i), t, allowed, replace);
          });
    }
  }
};

template <class ExecSpace, class S, class Y, class X, class Accum>
struct csr_mxv_impl {
  static void run(const ExecSpace& exec, Y& y, const mask_args<memory_space_t<ExecSpace>>& mask,
                  const csr_graph<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts) {
    if (opts.algorithm == op_algorithm::cuda_mma) {
      throw unsupported_error("bitgraph::mxv: there is no tensor-core kernel for CSR products");
    }
    csr_mxv_generic<ExecSpace, S, Y, X, Accum>::run(exec, y, mask, a, x, opts);
  }
};

}  // namespace detail

/// y<mask> = accum(y, A ⊕.⊗ x) on a CSR graph: row-based (pull), using the edge weights as A's values
/// when the graph has them (1 otherwise). x may be a bitmap (entries 1 where set) or a dense vector
/// whose identity entries count as absent.
template <class ExecSpace, class S, class Y, class X, class Mask = no_mask, class Accum = no_accumulator>
void mxv(const ExecSpace& exec, Y& y, const Mask& mask, const Accum&, const S&,
         const csr_graph<memory_space_t<ExecSpace>>& a, const X& x, const mxv_options& opts = {}) {
  detail::check_mxv_args<ExecSpace, S, Y, X, Mask, Accum>("mxv", a.n, y, mask, x, opts);
  if (opts.direction == mxv_direction::push) {
    throw invalid_argument_error("bitgraph::mxv: CSR products are row-based; use spmspv for the column-based form");
  }
  detail::csr_mxv_impl<ExecSpace, S, Y, X, Accum>::run(exec, y, detail::to_mask_args<memory_space_t<ExecSpace>>(mask), a,
                                                       x, opts);
}

}  // namespace bitgraph

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/mxv_cuda.hpp"
#endif
