// The portable reductions, primary templates of the reduce dispatch: a vector (dense, sparse values or
// bitmap popcounts) to a scalar with any monoid, and a matrix to a vector by rows or columns (B2SR line
// popcounts, CSR rows over the weights).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/detail/kokkos_compat.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/detail/graphblas.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph::detail {

namespace elementwise {

template <class M>
struct is_plus_monoid : std::false_type {};
template <class T>
struct is_plus_monoid<plus_monoid<T>> : std::true_type {};

/// The monoid sum of c ones: c itself for PLUS; otherwise ones are combined until the value stops
/// changing, which is exact for any monoid (a fixed point of x -> combine(x, 1) stays fixed) and takes
/// one step for the idempotent ones (MIN, MAX, LOR, ANY).
template <class M>
KOKKOS_INLINE_FUNCTION typename M::value_type combine_ones(offset_t c) {
  using T = typename M::value_type;
  if constexpr (is_plus_monoid<M>::value) {
    return static_cast<T>(c);
  } else {
    T acc = M::identity();
    for (offset_t k = 0; k < c; ++k) {
      const T next = M::combine(acc, T(1));
      if (next == acc) break;
      acc = next;
    }
    return acc;
  }
}

/// The type a reduction carries values of type T in: T itself, widened to 32 bits for smaller types
/// because Kokkos 3.4's CUDA reductions do not return 1-byte results (the caller reads stale bytes).
template <class T>
using reduction_carrier_t =
    std::conditional_t<(sizeof(T) < 4), std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>, T>;

/// parallel_reduce body combining `Source::visit(i, acc)` with a monoid (Kokkos 3.4 functor reducer).
/// Values stay in the monoid's range; only their storage is widened.
template <class M, class Source>
struct monoid_reduce_functor {
  using T = typename M::value_type;
  using value_type = reduction_carrier_t<T>;
  Source src;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i, value_type& acc) const {
    T a = static_cast<T>(acc);
    src.visit(i, a);
    acc = static_cast<value_type>(a);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = static_cast<value_type>(M::identity()); }
  KOKKOS_INLINE_FUNCTION void join(BITGRAPH_JOIN_VOLATILE value_type& dst,
                                   const BITGRAPH_JOIN_VOLATILE value_type& s) const {
    dst = static_cast<value_type>(M::combine(static_cast<T>(dst), static_cast<T>(s)));
  }
};

/// Entries of a dense vector; identity entries are absent and skipped.
template <class M, class Mem>
struct dense_source {
  using T = typename M::value_type;
  Kokkos::View<const T*, Mem> x;
  KOKKOS_INLINE_FUNCTION void visit(offset_t i, T& acc) const {
    const T v = x(i);
    if (v != M::identity()) acc = M::combine(acc, v);
  }
};

/// Values of a sparse vector (1 for a structure-only vector).
template <class M, class Mem>
struct sparse_source {
  using T = typename M::value_type;
  Kokkos::View<const T*, Mem> values;
  bool has_values;
  KOKKOS_INLINE_FUNCTION void visit(offset_t p, T& acc) const { acc = M::combine(acc, has_values ? values(p) : T(1)); }
};

/// The set bits of a bitmap, each a 1, one 32-bit word per index.
template <class M, class Mem>
struct bitmap_source {
  using T = typename M::value_type;
  Kokkos::View<const std::uint32_t*, Mem> words;
  KOKKOS_INLINE_FUNCTION void visit(offset_t wi, T& acc) const {
    const std::uint32_t w = words(wi);
    if (!w) return;
    if constexpr (is_plus_monoid<M>::value) {
      acc = M::combine(acc, static_cast<T>(popcount(w)));
    } else {
      acc = M::combine(acc, combine_ones<M>(static_cast<offset_t>(popcount(w))));
    }
  }
};

}  // namespace elementwise

/// Reduction of a vector to a scalar.
template <class ExecSpace, class M, class Source>
struct reduce_vector_generic {
  static typename M::value_type run(const ExecSpace& exec, const Source& src, offset_t count) {
    using functor = elementwise::monoid_reduce_functor<M, Source>;
    typename functor::value_type result = static_cast<typename functor::value_type>(M::identity());
    Kokkos::parallel_reduce("bitgraph::reduce::vector",
                            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, count), functor{src},
                            result);
    return static_cast<typename M::value_type>(result);
  }
};

template <class ExecSpace, class M, class Source>
struct reduce_vector_impl : reduce_vector_generic<ExecSpace, M, Source> {};

/// Row or column entry counts of a B2SR pattern: one thread per tile row keeps T local counters (a
/// popcount per word along the wanted lines, else one per set bit). Rows: accumulate over the tile row,
/// write once. Columns: per tile, then add atomically. O(tiles · T + nnz).
template <class Mem, int T>
struct b2sr_line_counts_functor {
  using word = tile_word_t<T>;
  Kokkos::View<const offset_t*, Mem> ptr;
  Kokkos::View<const vertex_t*, Mem> tcol;
  Kokkos::View<const word*, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> words;
  Kokkos::View<offset_t*, Mem> cnt;
  bool rows, row_major;
  vertex_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t tr) const {
    offset_t local[T];
    for (int r = 0; r < T; ++r) local[r] = 0;
    for (offset_t k = ptr(tr); k < ptr(tr + 1); ++k) {
      // Counts along word index (popcount) when the wanted lines are the words, else per bit.
      const bool along_words = rows == row_major;
      for (int wi = 0; wi < T; ++wi) {
        std::uint64_t bits = static_cast<std::uint64_t>(words(k * T + wi));
        if (along_words) {
          local[wi] += static_cast<offset_t>(popcount(bits));
        } else {
          while (bits) {
            local[count_trailing_zeros(bits)] += 1;
            bits &= bits - 1;
          }
        }
      }
      if (!rows) {
        const vertex_t c0 = tcol(k) * T;
        for (int c = 0; c < T; ++c) {
          if (local[c]) {
            atomic_fetch_add_offset(&cnt(c0 + c), local[c]);
            local[c] = 0;
          }
        }
      }
    }
    if (rows) {
      for (int r = 0; r < T; ++r) {
        const vertex_t i = tr * T + r;
        if (i < n) cnt(i) = local[r];
      }
    }
  }
};

/// counts(i) = entries in row i (rows = true) or column i (rows = false) of a B2SR pattern; `counts` is
/// zero on entry. Asynchronous.
template <class ExecSpace>
void b2sr_line_counts(const ExecSpace& exec, const b2sr_matrix<memory_space_t<ExecSpace>>& a,
                      const Kokkos::View<offset_t*, memory_space_t<ExecSpace>>& counts, bool rows) {
  using mem = memory_space_t<ExecSpace>;
  dispatch_tile_dim(a.tile_dim, [&](auto td) {
    constexpr int T = decltype(td)::value;
    Kokkos::parallel_for(
        "bitgraph::reduce::b2sr_counts", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n_tile_rows),
        b2sr_line_counts_functor<mem, T>{a.tile_row_ptr, a.tile_col_idx, a.template tile_words<tile_word_t<T>>(),
                                         counts, rows, a.order == bit_order::row_major, a.n});
  });
}

/// Turns per-line entry counts into monoid values and merges them into w.
template <class Mem, class M, class Accum>
struct merge_counts_functor {
  using T = typename M::value_type;
  Kokkos::View<T*, Mem> out;
  Kokkos::View<const offset_t*, Mem> cnt;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i) const {
    const bool allowed = mask.allows(i);
    const T t = allowed ? elementwise::combine_ones<M>(cnt(i)) : M::identity();
    out(i) = merge_value<Accum>(out(i), t, allowed, mask.replace, M::identity());
  }
};

/// B2SR w<mask> = accum(w, reduce(A)) along rows or columns.
template <class ExecSpace, class M, class Accum>
struct b2sr_reduce_generic {
  using mem = memory_space_t<ExecSpace>;
  using T = typename M::value_type;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask,
                  const b2sr_matrix<mem>& a, bool rows) {
    auto counts = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::reduce::counts", a.n);
    b2sr_line_counts(exec, a, counts, rows);
    Kokkos::parallel_for("bitgraph::reduce::merge_counts",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, w.extent(0)),
                         merge_counts_functor<mem, M, Accum>{w, counts, mask});
  }
};

template <class ExecSpace, class M, class Accum>
struct b2sr_reduce_impl : b2sr_reduce_generic<ExecSpace, M, Accum> {};

/// One row of a CSR graph reduced over its weights (or 1), merged into w.
template <class Mem, class M, class Accum>
struct csr_reduce_rows_functor {
  using T = typename M::value_type;
  Kokkos::View<T*, Mem> out;
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const double*, Mem> weights;
  bool weighted;
  mask_args<Mem> mask;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i) const {
    const bool allowed = mask.allows(i);
    T t = M::identity();
    if (allowed) {
      for (offset_t p = row_ptr(i); p < row_ptr(i + 1); ++p)
        t = M::combine(t, weighted ? static_cast<T>(weights(p)) : T(1));
    }
    out(i) = merge_value<Accum>(out(i), t, allowed, mask.replace, M::identity());
  }
};

/// CSR w<mask> = accum(w, row reductions over the weights (or 1)): one thread per row.
template <class ExecSpace, class M, class Accum>
struct csr_reduce_rows_generic {
  using mem = memory_space_t<ExecSpace>;
  using T = typename M::value_type;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask,
                  const csr_graph<mem>& g) {
    Kokkos::parallel_for("bitgraph::reduce::csr_rows",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.n),
                         csr_reduce_rows_functor<mem, M, Accum>{w, g.row_ptr, g.weights, g.has_weights, mask});
  }
};

template <class ExecSpace, class M, class Accum>
struct csr_reduce_rows_impl : csr_reduce_rows_generic<ExecSpace, M, Accum> {};

/// Out- (rows) or in-degrees (columns) of a B2SR pattern: the line counts as a new view.
template <class ExecSpace>
struct b2sr_degrees_generic {
  using mem = memory_space_t<ExecSpace>;
  static Kokkos::View<offset_t*, mem> run(const ExecSpace& exec, const b2sr_matrix<mem>& a, bool rows) {
    auto d = allocate_view<Kokkos::View<offset_t*, mem>>(rows ? "bitgraph::out_degrees" : "bitgraph::in_degrees", a.n);
    b2sr_line_counts(exec, a, d, rows);
    return d;
  }
};

template <class ExecSpace>
struct b2sr_degrees_impl : b2sr_degrees_generic<ExecSpace> {};

}  // namespace bitgraph::detail
