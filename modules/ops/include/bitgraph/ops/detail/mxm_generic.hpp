// The portable matrix-matrix products on B2SR (Bit-GraphBLAS Table III), primary templates of the mxm
// dispatch: the popcount sum of A·B, the same masked by a B2SR mask (the kernel of triangle counting), and
// Boolean SpGEMM producing a B2SR matrix.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph::detail {

// ------------------------------------------------------------------------------------ bmm_sum

/// Σ (A·B)(i, j) over one tile row of A: for every tile pair A(I,K), B(K,J) the sum over the tile product
/// is Σ_k (bits in column k of A's tile) × (bits in row k of B's tile).
template <class Mem, int T>
struct bmm_sum_functor {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> aptr;
  Kokkos::View<const vertex_t*, Mem> acol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> aw;
  Kokkos::View<const offset_t*, Mem> bptr;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> bw;
  bool arow, brow;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr, std::uint64_t& acc) const {
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
  }
};

/// The unmasked popcount sum; one thread per tile row of A.
template <class ExecSpace>
struct bmm_sum_generic {
  using mem = memory_space_t<ExecSpace>;
  static path_offer offer(const b2sr_matrix<mem>&, const b2sr_matrix<mem>&) {
    return path_offer{}
        .refuse(op_algorithm::cuda_warp, "the CUDA kernels cover the masked sum only; use 'generic'")
        .refuse(op_algorithm::cuda_mma, "there is no tensor-core kernel for the unmasked sum");
  }
  static std::uint64_t run(op_algorithm, const ExecSpace& exec, const b2sr_matrix<mem>& a, const b2sr_matrix<mem>& b) {
    return dispatch_tile_dim(a.tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      using word = tile_word_t<T>;
      std::uint64_t total = 0;
      Kokkos::parallel_reduce("bitgraph::bmm_sum", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n_tile_rows),
                              bmm_sum_functor<mem, T>{a.tile_row_ptr, a.tile_col_idx, a.template tile_words<word>(),
                                                      b.tile_row_ptr, b.template tile_words<word>(),
                                                      a.order == bit_order::row_major, b.order == bit_order::row_major},
                              total);
      return total;
    });
  }
};

template <class ExecSpace>
struct bmm_sum_impl : bmm_sum_generic<ExecSpace> {};

// ----------------------------------------------------------------------------- bmm_sum_masked

/// The tile row of each tile of M, so that work can be spread per tile rather than per tile row.
template <class Mem>
struct tile_rows_of {
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<vertex_t*, Mem> row_of;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) row_of(k) = tr;
  }
};

/// Fills `row_of(k)` = the tile row of tile k of `m` (asynchronous).
template <class ExecSpace>
Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> tile_row_of_tiles(const ExecSpace& exec,
                                                                     const b2sr_matrix<memory_space_t<ExecSpace>>& m) {
  using mem = memory_space_t<ExecSpace>;
  auto row_of = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::bmm_masked::tile_rows", m.n_tiles, false);
  Kokkos::parallel_for("bitgraph::bmm_masked::rows", Kokkos::RangePolicy<ExecSpace>(exec, 0, m.n_tile_rows),
                       tile_rows_of<mem>{m.tile_row_ptr, row_of});
  return row_of;
}

/// The masked dot-product kernel of every masked B2SR product, written once: for one tile M(I,J) it
/// intersects the sorted tile rows I of A and J of bt and, for each common K and each set bit (r, c) of the mask
/// tile, hands popcount(A row r AND bt row c) to a sink. `q` is the rank of c among the set bits of mask row r
/// (the entry's place in the output row). Sinks: `masked_sum_sink` (bmm_sum_masked, triangle counting),
/// `masked_count_sink` (counts into CSR slots) and `masked_bits_sink` (a Boolean product tile).
template <class Mem, int T>
struct masked_dot_operands {
  using word = tile_word_t<T>;
  using words_view = Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<const vertex_t*, Mem> mrow_of, mcol;
  words_view mw;
  Kokkos::View<const offset_t*, Mem> aptr;
  Kokkos::View<const vertex_t*, Mem> acol;
  words_view aw;
  Kokkos::View<const offset_t*, Mem> bptr;
  Kokkos::View<const vertex_t*, Mem> bcol;
  words_view bw;
  bool mrow, arow, brow;

  template <class Sink>
  KOKKOS_INLINE_FUNCTION void tile(const offset_t km, const Sink& sink) const {
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
          for (int q = 0; mbits; ++q) {
            const int c = count_trailing_zeros(mbits);
            mbits &= mbits - 1;
            sink.add(km, r, c, q, popcount(arow_bits & tile_row_bits<T>(bw, pb, c, brow)));
          }
        }
        ++pa;
        ++pb;
      }
    }
  }
};

/// The operands of the masked dot kernel for tile dimension T (views of m, a, bt; `mrow_of` from
/// `tile_row_of_tiles`).
template <int T, class Mem>
masked_dot_operands<Mem, T> make_masked_dot(Kokkos::View<const vertex_t*, Mem> mrow_of, const b2sr_matrix<Mem>& m,
                                            const b2sr_matrix<Mem>& a, const b2sr_matrix<Mem>& bt) {
  using word = tile_word_t<T>;
  return masked_dot_operands<Mem, T>{mrow_of,
                                     m.tile_col_idx,
                                     m.template tile_words<word>(),
                                     a.tile_row_ptr,
                                     a.tile_col_idx,
                                     a.template tile_words<word>(),
                                     bt.tile_row_ptr,
                                     bt.tile_col_idx,
                                     bt.template tile_words<word>(),
                                     m.order == bit_order::row_major,
                                     a.order == bit_order::row_major,
                                     bt.order == bit_order::row_major};
}

/// Sink of the masked sum: every popcount adds to the reduction's value.
struct masked_sum_sink {
  std::uint64_t& acc;
  KOKKOS_INLINE_FUNCTION void add(offset_t, int, int, int, std::uint64_t v) const { acc += v; }
};

/// Σ_{(i,j) ∈ M} (A·B)(i, j): the masked kernel with the sum sink, one thread per tile of M.
template <class Mem, int T>
struct bmm_sum_masked_functor {
  masked_dot_operands<Mem, T> dot;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t km, std::uint64_t& acc) const {
    masked_sum_sink sink{acc};
    dot.tile(km, sink);
  }
};

/// Σ_{(i,j) ∈ M} (A·B)(i, j) with B given by its transpose `bt`; one thread per tile of M.
template <class ExecSpace>
struct bmm_sum_masked_generic {
  using mem = memory_space_t<ExecSpace>;
  /// The tile dimension (row-major) the fastest kernel of the space reads; 0: all run the same kernel.
  static constexpr int preferred_tile = 0;
  static path_offer offer(const b2sr_matrix<mem>&, const b2sr_matrix<mem>&, const b2sr_matrix<mem>&) {
    return path_offer{}.refuse(op_algorithm::cuda_mma, "there is no tensor-core kernel for this product");
  }
  static std::uint64_t run(op_algorithm, const ExecSpace& exec, const b2sr_matrix<mem>& m, const b2sr_matrix<mem>& a,
                           const b2sr_matrix<mem>& bt) {
    return dispatch_tile_dim(m.tile_dim, [&](auto td) {
      constexpr int T = decltype(td)::value;
      auto mrow_of = tile_row_of_tiles(exec, m);
      std::uint64_t total = 0;
      Kokkos::parallel_reduce("bitgraph::bmm_sum_masked",
                              Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, m.n_tiles),
                              bmm_sum_masked_functor<mem, T>{make_masked_dot<T, mem>(mrow_of, m, a, bt)}, total);
      return total;
    });
  }
};

template <class ExecSpace>
struct bmm_sum_masked_impl : bmm_sum_masked_generic<ExecSpace> {};

// --------------------------------------------------------------------------------- Boolean SpGEMM

/// Symbolic phase 1: an upper bound of candidate tiles per tile row.
template <class Mem>
struct spgemm_bound {
  Kokkos::View<const offset_t*, Mem> aptr;
  Kokkos::View<const vertex_t*, Mem> acol;
  Kokkos::View<const offset_t*, Mem> bptr;
  Kokkos::View<offset_t*, Mem> cand_ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    offset_t c = 0;
    for (offset_t ka = aptr(tr); ka < aptr(tr + 1); ++ka) c += bptr(acol(ka) + 1) - bptr(acol(ka));
    cand_ptr(tr) = c;
  }
};

/// Symbolic phase 2: fill, sort, unique in place; the unique count goes to ptr.
template <class Mem>
struct spgemm_symbolic {
  Kokkos::View<const offset_t*, Mem> aptr;
  Kokkos::View<const vertex_t*, Mem> acol;
  Kokkos::View<const offset_t*, Mem> bptr;
  Kokkos::View<const vertex_t*, Mem> bcol;
  Kokkos::View<const offset_t*, Mem> cand_ptr;
  Kokkos::View<vertex_t*, Mem> cand;
  Kokkos::View<offset_t*, Mem> ptr;
  Kokkos::View<std::uint8_t*, Mem> no_vals{};  // keys only
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    offset_t q = cand_ptr(tr);
    for (offset_t ka = aptr(tr); ka < aptr(tr + 1); ++ka)
      for (offset_t kb = bptr(acol(ka)); kb < bptr(acol(ka) + 1); ++kb) cand(q++) = bcol(kb);
    sort_segment(cand, no_vals, cand_ptr(tr), cand_ptr(tr + 1));
    offset_t u = 0;
    for (offset_t p = cand_ptr(tr); p < cand_ptr(tr + 1); ++p)
      if (p == cand_ptr(tr) || cand(p) != cand(p - 1)) cand(cand_ptr(tr) + u++) = cand(p);
    ptr(tr) = u;
  }
};

/// Numeric phase: C(I,J) row r |= OR of B(K,J) rows k for every bit k of A(I,K) row r; each thread owns a
/// tile row of C (Gustavson over tiles).
template <class Mem, int T>
struct spgemm_numeric {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> aptr;
  Kokkos::View<const vertex_t*, Mem> acol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> aw;
  Kokkos::View<const offset_t*, Mem> bptr;
  Kokkos::View<const vertex_t*, Mem> bcol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> bw;
  Kokkos::View<const offset_t*, Mem> ptr, cand_ptr;
  Kokkos::View<const vertex_t*, Mem> cand;
  Kokkos::View<vertex_t*, Mem> tcol;
  Kokkos::View<word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> cw;
  bool arow, brow;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    const offset_t c0 = ptr(tr), c1 = ptr(tr + 1);
    for (offset_t p = c0; p < c1; ++p) tcol(p) = cand(cand_ptr(tr) + (p - c0));
    for (offset_t ka = aptr(tr); ka < aptr(tr + 1); ++ka) {
      const vertex_t kt = acol(ka);
      for (offset_t kb = bptr(kt); kb < bptr(kt + 1); ++kb) {
        // Position of tile column bcol(kb) in C's tile row (binary search).
        offset_t lo = c0, hi = c1;
        while (lo < hi) {
          const offset_t mid = (lo + hi) / 2;
          if (tcol(mid) < bcol(kb))
            lo = mid + 1;
          else
            hi = mid;
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
  }
};

/// Non-empty product tiles per tile row.
template <class Mem, int T>
struct spgemm_count_nonempty {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> cw;
  Kokkos::View<offset_t*, Mem> keep_ptr;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    offset_t c = 0;
    for (offset_t p = ptr(tr); p < ptr(tr + 1); ++p) {
      bool any = false;
      for (int r = 0; r < T; ++r) any |= cw(p * T + r) != 0;
      c += any ? 1 : 0;
    }
    keep_ptr(tr) = c;
  }
};

/// Copies the non-empty tiles into the result, transposing them when the output is column-major.
template <class Mem, int T>
struct spgemm_compact {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> ptr, keep_ptr;
  Kokkos::View<const vertex_t*, Mem> tcol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> cw;
  Kokkos::View<vertex_t*, Mem> ocol;
  Kokkos::View<word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> ow;
  bool col_out;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
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
  }
};

/// Boolean SpGEMM C = A·B on B2SR (row-major output; col-major when A is). Symbolic: gather the candidate
/// tile columns of each tile row, sort, unique. Numeric: Gustavson over tiles. Empty product tiles are
/// dropped at the end.
template <class ExecSpace>
struct spgemm_generic {
  using mem = memory_space_t<ExecSpace>;
  static path_offer offer(const b2sr_matrix<mem>&, const b2sr_matrix<mem>&) {
    return path_offer{}
        .refuse(op_algorithm::cuda_warp, "Boolean SpGEMM has the portable kernel only; use 'generic'")
        .refuse(op_algorithm::cuda_mma, "there is no tensor-core Boolean SpGEMM");
  }

  static b2sr_matrix<mem> run(op_algorithm, const ExecSpace& exec, const b2sr_matrix<mem>& a,
                              const b2sr_matrix<mem>& b) {
    return dispatch_tile_dim(a.tile_dim, [&](auto td) { return product<decltype(td)::value>(exec, a, b); });
  }

  template <int T>
  static b2sr_matrix<mem> product(const ExecSpace& exec, const b2sr_matrix<mem>& a, const b2sr_matrix<mem>& b) {
    using word = tile_word_t<T>;
    using words_view = Kokkos::View<word*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    using range = Kokkos::RangePolicy<ExecSpace>;
    const vertex_t ntr = a.n_tile_rows;
    const bool arow = a.order == bit_order::row_major, brow = b.order == bit_order::row_major;
    auto cand_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::spgemm::cand_ptr", offset_t(ntr) + 1);
    Kokkos::parallel_for("bitgraph::spgemm::bound", range(exec, 0, ntr),
                         spgemm_bound<mem>{a.tile_row_ptr, a.tile_col_idx, b.tile_row_ptr, cand_ptr});
    const offset_t ncand = exclusive_scan(exec, cand_ptr, "bitgraph::spgemm::bound_scan");
    auto cand = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::spgemm::candidates", ncand, false);
    auto ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);
    Kokkos::parallel_for(
        "bitgraph::spgemm::symbolic", range(exec, 0, ntr),
        spgemm_symbolic<mem>{a.tile_row_ptr, a.tile_col_idx, b.tile_row_ptr, b.tile_col_idx, cand_ptr, cand, ptr});
    const offset_t ntiles = exclusive_scan(exec, ptr, "bitgraph::spgemm::scan");
    auto tcol = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::spgemm::tile_col_idx", ntiles, false);
    auto bytes = allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::spgemm::tile_bits",
                                                                 checked_bytes<word>(ntiles * T, "spgemm tile bits"));
    words_view cw(reinterpret_cast<word*>(bytes.data()), ntiles * T);
    Kokkos::parallel_for("bitgraph::spgemm::numeric", range(exec, 0, ntr),
                         spgemm_numeric<mem, T>{a.tile_row_ptr, a.tile_col_idx, a.template tile_words<word>(),
                                                b.tile_row_ptr, b.tile_col_idx, b.template tile_words<word>(), ptr,
                                                cand_ptr, cand, tcol, cw, arow, brow});
    // Drop tiles whose product is empty.
    auto keep_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::b2sr::tile_row_ptr", offset_t(ntr) + 1);
    Kokkos::parallel_for("bitgraph::spgemm::count_nonempty", range(exec, 0, ntr),
                         spgemm_count_nonempty<mem, T>{ptr, cw, keep_ptr});
    const offset_t nkeep = exclusive_scan(exec, keep_ptr, "bitgraph::spgemm::keep_scan");
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
    auto ow = c.template tile_words<word>();
    Kokkos::parallel_for(
        "bitgraph::spgemm::compact", range(exec, 0, ntr),
        spgemm_compact<mem, T>{ptr, keep_ptr, tcol, cw, c.tile_col_idx, ow, c.order == bit_order::col_major});
    c.nnz = count_tile_bits<ExecSpace, T>(exec, c, "bitgraph::spgemm::nnz");
    c.longest_tile_row = longest_tile_row(exec, c);
    return c;
  }
};

template <class ExecSpace>
struct spgemm_impl : spgemm_generic<ExecSpace> {};

}  // namespace bitgraph::detail
