// Matrix-matrix products on B2SR (BMM, Bit-GraphBLAS Table III): the popcount sum of A·B, the same
// masked by a B2SR mask (bmm_bin_bin_sum_masked, the kernel of triangle counting), and Boolean SpGEMM
// producing a B2SR matrix.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

/// Options of the BMM ops.
struct mxm_options {
  op_algorithm algorithm = op_algorithm::automatic;  ///< generic, cuda_warp (warp-level BMM) or cuda_mma
};

/// The tile dimension (row-major) the fastest masked-BMM kernel of `ExecSpace` reads; 0 when every tile
/// dimension runs the same portable kernel. Algorithms may build their operands with it.
template <class ExecSpace>
struct bmm_preferred_tile : std::integral_constant<int, 0> {};

namespace detail {

template <class Mem>
void check_same_shape(const char* func, const b2sr_matrix<Mem>& a, const b2sr_matrix<Mem>& b, const char* an,
                      const char* bn) {
  BITGRAPH_CHECK_ARG(a.n == b.n, func, an, " has ", a.n, " rows but ", bn, " has ", b.n);
  BITGRAPH_CHECK_ARG(a.tile_dim == b.tile_dim, func, an, " uses ", a.tile_dim, "-bit tiles but ", bn, " uses ",
                     b.tile_dim);
}

/// Σ (A·B)(i, j): for every tile pair A(I,K), B(K,J) the sum over the tile product is
/// Σ_k (bits in column k of A's tile) × (bits in row k of B's tile). One thread per tile row of A.
template <class ExecSpace, int T>
BITGRAPH_TU_LOCAL std::uint64_t bmm_sum_generic(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                              const b2sr_matrix<memory_space_t<ExecSpace>>& b) {
  using word = tile_word_t<T>;
  auto aptr = a.tile_row_ptr;
  auto acol = a.tile_col_idx;
  auto aw = a.template tile_words<word>();
  auto bptr = b.tile_row_ptr;
  auto bw = b.template tile_words<word>();
  const bool arow = a.order == bit_order::row_major, brow = b.order == bit_order::row_major;
  std::uint64_t total = 0;
  Kokkos::parallel_reduce(
      "bitgraph::bmm_sum", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n_tile_rows),
      KOKKOS_LAMBDA(const vertex_t tr, std::uint64_t& acc) {
        for (offset_t ka = aptr(tr); ka < aptr(tr + 1); ++ka) {
          const vertex_t k_tile = acol(ka);
          // Column counts of A's tile.
          std::uint32_t colcnt[T];
          for (int k = 0; k < T; ++k) colcnt[k] = 0;
          for (int r = 0; r < T; ++r) {
            std::uint64_t row = tile_row_bits<T>(aw, ka, r, arow);
            while (row) {
              ++colcnt[count_trailing_zeros(row)];
              row &= row - 1;
            }
          }
          std::uint64_t rowsum[T];
          for (int k = 0; k < T; ++k) rowsum[k] = 0;
          for (offset_t kb = bptr(k_tile); kb < bptr(k_tile + 1); ++kb)
            for (int k = 0; k < T; ++k) rowsum[k] += popcount(tile_row_bits<T>(bw, kb, k, brow));
          for (int k = 0; k < T; ++k) acc += std::uint64_t(colcnt[k]) * rowsum[k];
        }
      },
      total);
  return total;
}

/// Σ_{(i,j) ∈ M} (A·B)(i, j) with B given by its transpose `bt` (rows of bt = columns of B): for every
/// tile M(I,J), intersect the sorted tile rows I of A and J of bt; each common K adds
/// popcount(A row r AND bt row c) for every set bit (r, c) of the mask tile. One thread per tile of M.
template <class ExecSpace, int T>
BITGRAPH_TU_LOCAL std::uint64_t bmm_sum_masked_generic(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& m,
                                     const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                     const b2sr_matrix<memory_space_t<ExecSpace>>& bt) {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  auto mptr = m.tile_row_ptr;
  auto mcol = m.tile_col_idx;
  auto mw = m.template tile_words<word>();
  auto aptr = a.tile_row_ptr;
  auto acol = a.tile_col_idx;
  auto aw = a.template tile_words<word>();
  auto bptr = bt.tile_row_ptr;
  auto bcol = bt.tile_col_idx;
  auto bw = bt.template tile_words<word>();
  const bool mrow = m.order == bit_order::row_major, arow = a.order == bit_order::row_major,
             brow = bt.order == bit_order::row_major;
  // The tile row of each mask tile, so that work is spread per tile rather than per tile row.
  auto mrow_of = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bmm_masked::tile_rows", m.n_tiles, false);
  Kokkos::parallel_for(
      "bitgraph::bmm_masked::rows", Kokkos::RangePolicy<ExecSpace>(exec, 0, m.n_tile_rows), KOKKOS_LAMBDA(const vertex_t tr) {
        for (offset_t k = mptr(tr); k < mptr(tr + 1); ++k) mrow_of(k) = tr;
      });
  std::uint64_t total = 0;
  Kokkos::parallel_reduce(
      "bitgraph::bmm_sum_masked", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, m.n_tiles),
      KOKKOS_LAMBDA(const offset_t km, std::uint64_t& acc) {
        const vertex_t ti = mrow_of(km), tj = mcol(km);
        offset_t pa = aptr(ti), ea = aptr(ti + 1), pb = bptr(tj), eb = bptr(tj + 1);
        while (pa < ea && pb < eb) {
          const vertex_t ka = acol(pa), kb = bcol(pb);
          if (ka < kb) {
            ++pa;
          } else if (kb < ka) {
            ++pb;
          } else {
            for (int r = 0; r < T; ++r) {
              std::uint64_t mbits = tile_row_bits<T>(mw, km, r, mrow);
              if (!mbits) continue;
              const std::uint64_t arow_bits = tile_row_bits<T>(aw, pa, r, arow);
              if (!arow_bits) continue;
              while (mbits) {
                const int c = count_trailing_zeros(mbits);
                mbits &= mbits - 1;
                acc += popcount(arow_bits & tile_row_bits<T>(bw, pb, c, brow));
              }
            }
            ++pa;
            ++pb;
          }
        }
      },
      total);
  return total;
}

/// Boolean SpGEMM C = A·B on B2SR (row-major output; col-major when A is). Symbolic: gather the
/// candidate tile columns of each tile row, sort, unique. Numeric: Gustavson over tiles, each thread
/// owning a tile row of C. Empty product tiles are dropped at the end.
template <class ExecSpace, int T>
BITGRAPH_TU_LOCAL b2sr_matrix<memory_space_t<ExecSpace>> spgemm_boolean_generic(const ExecSpace& exec,
                                                              const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                              const b2sr_matrix<memory_space_t<ExecSpace>>& b) {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;
  const vertex_t ntr = a.n_tile_rows;
  auto aptr = a.tile_row_ptr;
  auto acol = a.tile_col_idx;
  auto aw = a.template tile_words<word>();
  auto bptr = b.tile_row_ptr;
  auto bcol = b.tile_col_idx;
  auto bw = b.template tile_words<word>();
  const bool arow = a.order == bit_order::row_major, brow = b.order == bit_order::row_major;

  // Symbolic phase 1: upper bound of candidate tiles per tile row.
  auto cand_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::spgemm::cand_ptr", offset_t(ntr) + 1);
  Kokkos::parallel_for(
      "bitgraph::spgemm::bound", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr), KOKKOS_LAMBDA(const vertex_t tr) {
        offset_t c = 0;
        for (offset_t ka = aptr(tr); ka < aptr(tr + 1); ++ka) c += bptr(acol(ka) + 1) - bptr(acol(ka));
        cand_ptr(tr) = c;
      });
  offset_t ncand = detail::exclusive_scan(exec, cand_ptr, "bitgraph::spgemm::bound_scan");
  auto cand = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::spgemm::candidates", ncand, false);
  Kokkos::View<std::uint8_t*, mem> no_vals;
  auto ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);
  // Symbolic phase 2: fill, sort, unique in place; the unique count goes to ptr.
  Kokkos::parallel_for(
      "bitgraph::spgemm::symbolic", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr), KOKKOS_LAMBDA(const vertex_t tr) {
        offset_t q = cand_ptr(tr);
        for (offset_t ka = aptr(tr); ka < aptr(tr + 1); ++ka)
          for (offset_t kb = bptr(acol(ka)); kb < bptr(acol(ka) + 1); ++kb) cand(q++) = bcol(kb);
        sort_segment(cand, no_vals, cand_ptr(tr), cand_ptr(tr + 1));
        offset_t u = 0;
        for (offset_t p = cand_ptr(tr); p < cand_ptr(tr + 1); ++p)
          if (p == cand_ptr(tr) || cand(p) != cand(p - 1)) cand(cand_ptr(tr) + u++) = cand(p);
        ptr(tr) = u;
      });
  offset_t ntiles = detail::exclusive_scan(exec, ptr, "bitgraph::spgemm::scan");
  auto tcol = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::spgemm::tile_col_idx", ntiles, false);
  auto bytes = allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::spgemm::tile_bits",
                                                              checked_bytes<word>(ntiles * T, "spgemm tile bits"));
  auto cw = Kokkos::View<word*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(reinterpret_cast<word*>(bytes.data()),
                                                                              ntiles * T);
  // Numeric phase: C(I,J) row r |= OR of B(K,J) rows k for every bit k of A(I,K) row r.
  Kokkos::parallel_for(
      "bitgraph::spgemm::numeric", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr), KOKKOS_LAMBDA(const vertex_t tr) {
        const offset_t c0 = ptr(tr), c1 = ptr(tr + 1);
        for (offset_t p = c0; p < c1; ++p) tcol(p) = cand(cand_ptr(tr) + (p - c0));
        for (offset_t ka = aptr(tr); ka < aptr(tr + 1); ++ka) {
          const vertex_t kt = acol(ka);
          for (offset_t kb = bptr(kt); kb < bptr(kt + 1); ++kb) {
            // Position of tile column bcol(kb) in C's tile row (binary search).
            offset_t lo = c0, hi = c1;
            while (lo < hi) {
              const offset_t mid = (lo + hi) / 2;
              if (tcol(mid) < bcol(kb)) lo = mid + 1;
              else hi = mid;
            }
            for (int r = 0; r < T; ++r) {
              std::uint64_t abits = tile_row_bits<T>(aw, ka, r, arow);
              std::uint64_t acc = 0;
              while (abits) {
                const int k = count_trailing_zeros(abits);
                abits &= abits - 1;
                acc |= tile_row_bits<T>(bw, kb, k, brow);
              }
              cw(lo * T + r) |= static_cast<word>(acc);
            }
          }
        }
      });
  // Drop tiles whose product is empty.
  auto keep_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);
  Kokkos::parallel_for(
      "bitgraph::spgemm::count_nonempty", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr), KOKKOS_LAMBDA(const vertex_t tr) {
        offset_t c = 0;
        for (offset_t p = ptr(tr); p < ptr(tr + 1); ++p) {
          bool any = false;
          for (int r = 0; r < T; ++r) any |= cw(p * T + r) != 0;
          c += any ? 1 : 0;
        }
        keep_ptr(tr) = c;
      });
  offset_t nkeep = detail::exclusive_scan(exec, keep_ptr, "bitgraph::spgemm::keep_scan");
  b2sr_matrix<mem> c;
  c.n = a.n;
  c.tile_dim = T;
  c.order = a.order;
  c.n_tile_rows = ntr;
  c.n_tiles = nkeep;
  c.kind = graph_kind::directed;
  c.tile_row_ptr = keep_ptr;
  c.tile_col_idx = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::b2sr::tile_col_idx", nkeep, false);
  c.tile_bits = allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::b2sr::tile_bits",
                                                               checked_bytes<word>(nkeep * T, "spgemm tile bits"));
  auto ocol = c.tile_col_idx;
  auto ow = c.template tile_words<word>();
  const bool col_out = c.order == bit_order::col_major;
  Kokkos::parallel_for(
      "bitgraph::spgemm::compact", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr), KOKKOS_LAMBDA(const vertex_t tr) {
        offset_t q = keep_ptr(tr);
        for (offset_t p = ptr(tr); p < ptr(tr + 1); ++p) {
          bool any = false;
          for (int r = 0; r < T; ++r) any |= cw(p * T + r) != 0;
          if (!any) continue;
          ocol(q) = tcol(p);
          for (int i = 0; i < T; ++i) {
            if (!col_out) {
              ow(q * T + i) = cw(p * T + i);
            } else {
              word col = 0;
              for (int r = 0; r < T; ++r) col |= static_cast<word>(((cw(p * T + r) >> i) & 1u) << r);
              ow(q * T + i) = col;
            }
          }
          ++q;
        }
      });
  offset_t nnz = 0;
  Kokkos::parallel_reduce(
      "bitgraph::spgemm::nnz", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nkeep * T),
      KOKKOS_LAMBDA(const offset_t i, offset_t& acc) { acc += popcount(static_cast<std::uint64_t>(ow(i))); }, nnz);
  c.nnz = nnz;
  return c;
}

/// Dispatch points; backends specialise them.
template <class ExecSpace, BITGRAPH_TU_LOCAL_PARAM>
struct bmm_impl {
  static std::uint64_t sum(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                           const b2sr_matrix<memory_space_t<ExecSpace>>& b, const mxm_options& opts) {
    if (opts.algorithm == op_algorithm::cuda_mma)
      throw unsupported_error("bitgraph::bmm_sum: no tensor-core kernel for the unmasked sum");
    return dispatch_tile_dim(a.tile_dim, [&](auto td) { return bmm_sum_generic<ExecSpace, decltype(td)::value>(exec, a, b); });
  }
  static std::uint64_t sum_masked(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& m,
                                  const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                  const b2sr_matrix<memory_space_t<ExecSpace>>& bt, const mxm_options& opts) {
    if (opts.algorithm == op_algorithm::cuda_mma)
      throw unsupported_error("bitgraph::bmm_sum_masked: no tensor-core kernel for this product");
    return dispatch_tile_dim(m.tile_dim, [&](auto td) {
      return bmm_sum_masked_generic<ExecSpace, decltype(td)::value>(exec, m, a, bt);
    });
  }
  static b2sr_matrix<memory_space_t<ExecSpace>> spgemm(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                                      const b2sr_matrix<memory_space_t<ExecSpace>>& b,
                                                      const mxm_options& opts) {
    if (opts.algorithm == op_algorithm::cuda_mma)
      throw unsupported_error("bitgraph::mxm: no tensor-core Boolean SpGEMM");
    return dispatch_tile_dim(a.tile_dim,
                             [&](auto td) { return spgemm_boolean_generic<ExecSpace, decltype(td)::value>(exec, a, b); });
  }
};

}  // namespace detail

/// Σ_{i,j} (A·B)(i, j) over (+, AND): the popcount sum of the bit product (bmm_bin_bin_sum). A and B
/// must have the same size and tile dimension.
template <class ExecSpace>
std::uint64_t bmm_sum(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                      const b2sr_matrix<memory_space_t<ExecSpace>>& b, const mxm_options& opts = {}) {
  detail::check_algorithm<ExecSpace>(opts.algorithm, "bmm_sum");
  detail::check_same_shape("bmm_sum", a, b, "A", "B");
  const auto s = detail::bmm_impl<ExecSpace>::sum(exec, a, b, opts);
  return s;
}

/// Σ_{(i,j) ∈ M} (A·B)(i, j) (bmm_bin_bin_sum_masked): the masked product reduced to a scalar, fused.
/// B is passed as its transpose `bt` because the kernel takes dot products of A's rows with B's
/// columns; for triangle counting M = L, A = L, B = L^T, so `bt` = L.
template <class ExecSpace>
std::uint64_t bmm_sum_masked(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& m,
                             const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                             const b2sr_matrix<memory_space_t<ExecSpace>>& bt, const mxm_options& opts = {}) {
  detail::check_algorithm<ExecSpace>(opts.algorithm, "bmm_sum_masked");
  detail::check_same_shape("bmm_sum_masked", m, a, "the mask", "A");
  detail::check_same_shape("bmm_sum_masked", a, bt, "A", "B^T");
  return detail::bmm_impl<ExecSpace>::sum_masked(exec, m, a, bt, opts);
}

/// C = A·B over the Boolean semiring, as a new B2SR matrix with the tile dimension of A (row-major
/// tiles, or column-major when A is). Only `lor_land` is accepted: other semirings need values, which B2SR
/// does not hold.
template <class ExecSpace, class S>
b2sr_matrix<memory_space_t<ExecSpace>> mxm(const ExecSpace& exec, const S&, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                                           const b2sr_matrix<memory_space_t<ExecSpace>>& b, const mxm_options& opts = {}) {
  detail::check_algorithm<ExecSpace>(opts.algorithm, "mxm");
  detail::check_same_shape("mxm", a, b, "A", "B");
  if (bit_reduction_v<S> != bit_reduction::or_and) {
    throw invalid_argument_error("bitgraph::mxm: a B2SR product needs a Boolean semiring (LOR_LAND)");
  }
  auto c = detail::bmm_impl<ExecSpace>::spgemm(exec, a, b, opts);
  exec.fence();
  return c;
}

}  // namespace bitgraph

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "bitgraph/backends/cuda/bmm_warp.hpp"
#endif
