// Reductions with a monoid: a dense vector, a sparse vector's values or a bitmap to a scalar, and a
// matrix to a vector: row and column reductions of a B2SR pattern (popcounts: out- and in-degrees) and
// row reductions of a CSR graph over its weights.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/vectors.hpp"
#include "bitgraph/ops/ewise.hpp"
#include "bitgraph/ops/mask.hpp"
#include "bitgraph/semirings/semirings.hpp"

namespace bitgraph {

namespace detail {

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
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& s) const {
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

template <class M>
void check_monoid() {
  static_assert(has_identity<M>::value && has_combine<M, typename M::value_type>::value,
                "a reduction needs a monoid: value_type, identity() and combine(a, b)");
}

}  // namespace elementwise

/// Reduction of a vector to a scalar; portable.
template <class ExecSpace, class M, class Source>
struct reduce_vector_impl {
  static typename M::value_type run(const ExecSpace& exec, const Source& src, offset_t count) {
    using functor = elementwise::monoid_reduce_functor<M, Source>;
    typename functor::value_type result = static_cast<typename functor::value_type>(M::identity());
    functor f{src};
    Kokkos::parallel_reduce("bitgraph::reduce::vector", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, count),
                            f, result);
    return static_cast<typename M::value_type>(result);
  }
};

/// Row and column reductions of a B2SR pattern: one thread per tile row keeps T local counters (a
/// popcount per row-major word, or per set bit of a column-major word), so the work is O(tiles · T +
/// nnz). Column counts of every tile are added to the global counters with atomics. Portable.
template <class ExecSpace, int T, BITGRAPH_TU_LOCAL_PARAM>
struct b2sr_line_counts {
  using mem = memory_space_t<ExecSpace>;
  using word = tile_word_t<T>;

  /// counts(i) = entries in row i (rows = true) or column i (rows = false); `counts` is zero on entry.
  static void run(const ExecSpace& exec, const b2sr_matrix<mem>& a, const Kokkos::View<offset_t*, mem>& counts, bool rows) {
    auto ptr = a.tile_row_ptr;
    auto tcol = a.tile_col_idx;
    auto words = a.template tile_words<word>();
    auto cnt = counts;
    const bool row_major = a.order == bit_order::row_major;
    const vertex_t n = a.n;
    Kokkos::parallel_for(
        "bitgraph::reduce::b2sr_counts", Kokkos::RangePolicy<ExecSpace>(exec, 0, a.n_tile_rows),
        KOKKOS_LAMBDA(const vertex_t tr) {
          // Rows: accumulate over the tile row, write once. Columns: per tile, then add atomically.
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
        });
  }
};

/// Turns per-line entry counts into monoid values and merges them into w; portable.
template <class ExecSpace, class M, class Accum, BITGRAPH_TU_LOCAL_PARAM>
struct merge_counts_impl {
  using mem = memory_space_t<ExecSpace>;
  using T = typename M::value_type;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask,
                  const Kokkos::View<const offset_t*, mem>& counts) {
    const auto mbits = mask.bits;
    const bool masked = mask.masked, complement = mask.complement, replace = mask.replace;
    auto out = w;
    auto cnt = counts;
    Kokkos::parallel_for(
        "bitgraph::reduce::merge_counts", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, w.extent(0)),
        KOKKOS_LAMBDA(const offset_t i) {
          const bool allowed = mask_allows(mbits, masked, complement, i);
          const T t = allowed ? elementwise::combine_ones<M>(cnt(i)) : M::identity();
          out(i) = elementwise::merge_dense<Accum>(out(i), t, allowed, replace, M::identity());
        });
  }
};

/// B2SR w<mask> = accum(w, reduce(A)) along rows or columns; portable.
template <class ExecSpace, class M, class Accum>
struct b2sr_reduce_impl {
  using mem = memory_space_t<ExecSpace>;
  using T = typename M::value_type;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask,
                  const b2sr_matrix<mem>& a, bool rows) {
    auto counts = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::reduce::counts", a.n);
    dispatch_tile_dim(a.tile_dim, [&](auto td) { b2sr_line_counts<ExecSpace, decltype(td)::value>::run(exec, a, counts, rows); });
    merge_counts_impl<ExecSpace, M, Accum>::run(exec, w, mask, counts);
  }
};

/// CSR w<mask> = accum(w, row reductions over the weights (or 1)): one thread per row; portable.
template <class ExecSpace, class M, class Accum, BITGRAPH_TU_LOCAL_PARAM>
struct csr_reduce_rows_impl {
  using mem = memory_space_t<ExecSpace>;
  using T = typename M::value_type;
  static void run(const ExecSpace& exec, const Kokkos::View<T*, mem>& w, const mask_args<mem>& mask,
                  const csr_graph<mem>& g) {
    const auto mbits = mask.bits;
    const bool masked = mask.masked, complement = mask.complement, replace = mask.replace;
    auto out = w;
    auto row_ptr = g.row_ptr;
    auto weights = g.weights;
    const bool weighted = g.has_weights;
    Kokkos::parallel_for(
        "bitgraph::reduce::csr_rows", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.n),
        KOKKOS_LAMBDA(const offset_t i) {
          const bool allowed = mask_allows(mbits, masked, complement, i);
          T t = M::identity();
          if (allowed) {
            for (offset_t p = row_ptr(i); p < row_ptr(i + 1); ++p)
              t = M::combine(t, weighted ? static_cast<T>(weights(p)) : T(1));
          }
          out(i) = elementwise::merge_dense<Accum>(out(i), t, allowed, replace, M::identity());
        });
  }
};

template <class ExecSpace, class W, class Mask, class Accum, class M>
void check_matrix_reduce(const char* func, const W& w, const Mask& mask, std::uint64_t n) {
  static_assert(std::is_same_v<typename W::non_const_value_type, typename M::value_type>,
                "the output's value type must be the monoid's");
  elementwise::check_monoid<M>();
  elementwise::check_accumulator<Accum>(func);
  BITGRAPH_CHECK_ARG(w.extent(0) == n, func, "output has ", w.extent(0), " entries but the matrix has ", n);
  elementwise::check_mask_length(func, mask, n);
}

}  // namespace detail

/// The monoid sum of a dense vector's entries; entries equal to the identity are absent (skipped).
/// Returns the identity for an empty vector. O(n), a parallel reduction.
template <class ExecSpace, class M, class V>
  requires detail::is_dense<V>::value
typename M::value_type reduce(const ExecSpace& exec, const M&, const V& u) {
  using T = typename M::value_type;
  using mem = memory_space_t<ExecSpace>;
  detail::elementwise::check_monoid<M>();
  static_assert(std::is_same_v<typename V::non_const_value_type, T>, "the vector's value type must be the monoid's");
  detail::elementwise::dense_source<M, mem> src{Kokkos::View<const T*, mem>(u)};
  return detail::reduce_vector_impl<ExecSpace, M, decltype(src)>::run(exec, src, u.extent(0));
}

/// The monoid sum of a sparse vector's stored values (each 1 in a structure-only vector, so PLUS
/// counts the entries).
template <class ExecSpace, class M>
typename M::value_type reduce(const ExecSpace& exec, const M&,
                              const sparse_vector<typename M::value_type, memory_space_t<ExecSpace>>& u) {
  using T = typename M::value_type;
  using mem = memory_space_t<ExecSpace>;
  detail::elementwise::check_monoid<M>();
  detail::elementwise::check_sparse("reduce", "input", u);
  detail::elementwise::sparse_source<M, mem> src{Kokkos::View<const T*, mem>(u.values), u.values.extent(0) > 0};
  return detail::reduce_vector_impl<ExecSpace, M, decltype(src)>::run(exec, src, u.nnz);
}

/// The monoid sum of a bitmap read as a vector of ones at its set bits: with PLUS the number of set
/// bits (per-word popcounts), with LOR (or MAX) whether any bit is set. One thread per 32-bit word.
template <class ExecSpace, class M>
typename M::value_type reduce(const ExecSpace& exec, const M&, const bitmap<memory_space_t<ExecSpace>>& b) {
  using mem = memory_space_t<ExecSpace>;
  detail::elementwise::check_monoid<M>();
  detail::elementwise::check_bitmap("reduce", "input", b);
  detail::elementwise::bitmap_source<M, mem> src{b.words};
  return detail::reduce_vector_impl<ExecSpace, M, decltype(src)>::run(exec, src, b.words.extent(0));
}

/// w<mask> = accum(w, ⊕_j A(i, j)) for a B2SR pattern (every entry is 1): PLUS gives row popcounts
/// (out-degrees), LOR "row non-empty", MIN/MAX 1 or the identity. Empty rows yield the identity, which
/// is absent in the merge (rules of `ewise_add` with absent = the monoid's identity).
template <class ExecSpace, class W, class Mask, class Accum, class M>
  requires detail::is_dense<W>::value
void reduce_rows(const ExecSpace& exec, W& w, const Mask& mask, const Accum&, const M&,
                 const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  using mem = memory_space_t<ExecSpace>;
  detail::check_matrix_reduce<ExecSpace, W, Mask, Accum, M>("reduce_rows", w, mask, a.n);
  detail::b2sr_reduce_impl<ExecSpace, M, Accum>::run(exec, Kokkos::View<typename M::value_type*, mem>(w),
                                                     detail::to_mask_args<mem>(mask), a, true);
}

/// w<mask> = accum(w, ⊕_i A(i, j)) for a B2SR pattern: column reductions (PLUS: in-degrees), from
/// every tile's column counts added atomically. Rules as `reduce_rows`.
template <class ExecSpace, class W, class Mask, class Accum, class M>
  requires detail::is_dense<W>::value
void reduce_columns(const ExecSpace& exec, W& w, const Mask& mask, const Accum&, const M&,
                    const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  using mem = memory_space_t<ExecSpace>;
  detail::check_matrix_reduce<ExecSpace, W, Mask, Accum, M>("reduce_columns", w, mask, a.n);
  detail::b2sr_reduce_impl<ExecSpace, M, Accum>::run(exec, Kokkos::View<typename M::value_type*, mem>(w),
                                                     detail::to_mask_args<mem>(mask), a, false);
}

/// w<mask> = accum(w, ⊕_j A(i, j)) for a CSR graph, over the edge weights (converted to the monoid's
/// type) or 1 for an unweighted graph; duplicates, if kept, each contribute. One thread per row.
template <class ExecSpace, class W, class Mask, class Accum, class M>
  requires detail::is_dense<W>::value
void reduce_rows(const ExecSpace& exec, W& w, const Mask& mask, const Accum&, const M&,
                 const csr_graph<memory_space_t<ExecSpace>>& g) {
  using mem = memory_space_t<ExecSpace>;
  detail::check_matrix_reduce<ExecSpace, W, Mask, Accum, M>("reduce_rows", w, mask, g.n);
  detail::csr_reduce_rows_impl<ExecSpace, M, Accum>::run(exec, Kokkos::View<typename M::value_type*, mem>(w),
                                                         detail::to_mask_args<mem>(mask), g);
}

/// Out-degree (row popcount) of every vertex of a B2SR pattern.
template <class ExecSpace>
Kokkos::View<offset_t*, memory_space_t<ExecSpace>> out_degrees(const ExecSpace& exec,
                                                               const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  using mem = memory_space_t<ExecSpace>;
  auto d = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::out_degrees", a.n);
  detail::dispatch_tile_dim(a.tile_dim, [&](auto td) { detail::b2sr_line_counts<ExecSpace, decltype(td)::value>::run(exec, a, d, true); });
  exec.fence();
  return d;
}

/// In-degree (column popcount) of every vertex of a B2SR pattern.
template <class ExecSpace>
Kokkos::View<offset_t*, memory_space_t<ExecSpace>> in_degrees(const ExecSpace& exec,
                                                              const b2sr_matrix<memory_space_t<ExecSpace>>& a) {
  using mem = memory_space_t<ExecSpace>;
  auto d = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::in_degrees", a.n);
  detail::dispatch_tile_dim(a.tile_dim, [&](auto td) { detail::b2sr_line_counts<ExecSpace, decltype(td)::value>::run(exec, a, d, false); });
  exec.fence();
  return d;
}

}  // namespace bitgraph
