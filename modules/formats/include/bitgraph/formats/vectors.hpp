// Vectors for graph operations: dense bitmaps (readable in words of any tile width), sparse vectors
// (sorted indices + values) and dense full-precision vectors, with conversions between them.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "bitgraph/core/bits.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/b2sr_matrix.hpp"
#include "bitgraph/formats/bitmap_words.hpp"
#include "bitgraph/formats/detail/vector_kernels.hpp"

namespace bitgraph {

/// A dense vector of n bits. Bit i is bit (i % 32) of `words[i / 32]`; the word array is padded with
/// zero bits to a multiple of 64 bits, so it can be read as the T-bit segments of any tile width T in
/// {4, 8, 16, 32, 64} (`bitmap_segment`): segment j holds bits [j*T, j*T + T), exactly the bits a B2SR
/// tile column j multiplies. Bits at positions >= n are always zero.
template <class MemorySpace>
struct bitmap {
  using memory_space = MemorySpace;
  vertex_t n = 0;                                   ///< number of bits
  Kokkos::View<std::uint32_t*, MemorySpace> words;  ///< 2 * ceil(n / 64) words

  /// Number of 32-bit words for n bits (padded to 64-bit multiples).
  static constexpr std::uint64_t words_for(std::uint64_t n) { return 2 * ((n + 63) / 64); }
};

/// A sparse vector: `nnz` entries with strictly increasing `indices` (< n) and `values` parallel to them.
/// A structure-only vector (e.g. a BFS frontier) leaves `values` empty.
template <class T, class MemorySpace>
struct sparse_vector {
  using value_type = T;
  using memory_space = MemorySpace;
  vertex_t n = 0;                                ///< dimension
  offset_t nnz = 0;                              ///< number of stored entries
  Kokkos::View<vertex_t*, MemorySpace> indices;  ///< capacity >= nnz, first nnz used
  Kokkos::View<T*, MemorySpace> values;          ///< capacity >= nnz, or empty (structure only)

  /// True when the vector has entries but carries no values.
  bool structure_only() const noexcept { return nnz > 0 && values.extent(0) == 0; }
};

/// A dense full-precision vector is a plain 1-D view.
template <class T, class MemorySpace>
using dense_vector = Kokkos::View<T*, MemorySpace>;

namespace detail {
/// Operand kinds of the vector ops: a bitmap, or a dense vector (any rank-1 view).
template <class V>
struct is_bitmap : std::false_type {};
template <class Mem>
struct is_bitmap<bitmap<Mem>> : std::true_type {};

template <class V>
struct is_dense : std::false_type {};
template <class T, class... P>
struct is_dense<Kokkos::View<T*, P...>> : std::true_type {};
}  // namespace detail

/// Creates an all-zero bitmap of n bits on `exec`'s memory space.
template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> make_bitmap(const ExecSpace&, vertex_t n) {
  bitmap<memory_space_t<ExecSpace>> b;
  b.n = n;
  b.words = allocate_view<Kokkos::View<std::uint32_t*, memory_space_t<ExecSpace>>>(
      "bitgraph::bitmap", bitmap<Kokkos::HostSpace>::words_for(n));
  return b;
}

/// Number of set bits.
template <class ExecSpace>
offset_t count(const ExecSpace& exec, const bitmap<memory_space_t<ExecSpace>>& b) {
  offset_t c = 0;
  Kokkos::parallel_reduce("bitgraph::bitmap::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, b.words.extent(0)),
                          detail::popcount_words<memory_space_t<ExecSpace>>{b.words}, c);
  return c;
}

/// Bitmap with the given positions set. Throws `invalid_argument_error` if a position is >= n.
template <class ExecSpace>
bitmap<memory_space_t<ExecSpace>> bitmap_from_indices(const ExecSpace& exec, vertex_t n,
                                                      Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>> idx) {
  auto b = make_bitmap(exec, n);
  offset_t bad = 0;
  Kokkos::parallel_reduce("bitgraph::bitmap::from_indices", Kokkos::RangePolicy<ExecSpace>(exec, 0, idx.extent(0)),
                          detail::set_indices<memory_space_t<ExecSpace>>{idx, b.words, n}, bad);
  BITGRAPH_CHECK_ARG(bad == 0, "bitmap_from_indices", bad, " indices are >= n = ", n);
  return b;
}

/// Bitmap of the non-zero entries of a dense vector.
template <class ExecSpace, class T>
bitmap<memory_space_t<ExecSpace>> to_bitmap(const ExecSpace& exec,
                                            Kokkos::View<const T*, memory_space_t<ExecSpace>> x) {
  BITGRAPH_REQUIRE(x.extent(0) < max_vertices, size_error, "to_bitmap", "vector of ", x.extent(0),
                   " entries exceeds the vertex limit");
  const vertex_t n = static_cast<vertex_t>(x.extent(0));
  auto b = make_bitmap(exec, n);
  Kokkos::parallel_for("bitgraph::bitmap::from_dense",
                       Kokkos::RangePolicy<ExecSpace>(exec, 0, ceil_div<std::uint64_t>(n, 32)),
                       detail::dense_to_bits<memory_space_t<ExecSpace>, T>{x, b.words, n});
  return b;
}

/// Dense 0/1 vector of a bitmap (1 where the bit is set).
template <class T, class ExecSpace>
Kokkos::View<T*, memory_space_t<ExecSpace>> to_dense(const ExecSpace& exec,
                                                     const bitmap<memory_space_t<ExecSpace>>& b) {
  auto x = allocate_view<Kokkos::View<T*, memory_space_t<ExecSpace>>>("bitgraph::dense", b.n, false);
  Kokkos::parallel_for("bitgraph::bitmap::to_dense", Kokkos::RangePolicy<ExecSpace>(exec, 0, b.n),
                       detail::bits_to_dense<memory_space_t<ExecSpace>, T>{b.words, x});
  return x;
}

/// Sparse (structure-only) vector of the set bits, indices ascending.
template <class ExecSpace>
sparse_vector<std::uint8_t, memory_space_t<ExecSpace>> to_sparse(const ExecSpace& exec,
                                                                 const bitmap<memory_space_t<ExecSpace>>& b) {
  using mem = memory_space_t<ExecSpace>;
  const std::size_t nw = b.words.extent(0);
  auto offs = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::to_sparse::offsets", nw + 1, false);
  offset_t total = 0;
  Kokkos::parallel_scan("bitgraph::to_sparse::scan", Kokkos::RangePolicy<ExecSpace>(exec, 0, nw + 1),
                        detail::scan_word_counts<mem>{b.words, offs, nw}, total);
  sparse_vector<std::uint8_t, mem> s;
  s.n = b.n;
  s.nnz = total;
  s.indices = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sparse::indices", total, false);
  Kokkos::parallel_for("bitgraph::to_sparse::fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, nw),
                       detail::bits_to_indices<mem>{b.words, offs, s.indices});
  return s;
}

/// Sparse vector of the entries of `x` that differ from `zero`, with their values.
template <class ExecSpace, class T>
sparse_vector<T, memory_space_t<ExecSpace>> to_sparse(const ExecSpace& exec,
                                                      Kokkos::View<const T*, memory_space_t<ExecSpace>> x,
                                                      T zero = T{}) {
  using mem = memory_space_t<ExecSpace>;
  BITGRAPH_REQUIRE(x.extent(0) < max_vertices, size_error, "to_sparse", "vector of ", x.extent(0),
                   " entries exceeds the vertex limit");
  const std::size_t n = x.extent(0);
  auto offs = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::to_sparse::offsets", n + 1, false);
  offset_t total = 0;
  Kokkos::parallel_scan("bitgraph::to_sparse::scan_dense", Kokkos::RangePolicy<ExecSpace>(exec, 0, n + 1),
                        detail::scan_present<mem, T>{x, offs, n, zero}, total);
  sparse_vector<T, mem> s;
  s.n = static_cast<vertex_t>(n);
  s.nnz = total;
  s.indices = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sparse::indices", total, false);
  s.values = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", total, false);
  Kokkos::parallel_for("bitgraph::to_sparse::fill_dense", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                       detail::dense_to_sparse_fill<mem, T>{x, offs, s.indices, s.values, zero});
  return s;
}

/// Dense vector of a sparse one: `fill` everywhere, the stored values at their indices (1 for a
/// structure-only vector).
template <class ExecSpace, class T>
Kokkos::View<T*, memory_space_t<ExecSpace>> to_dense(const ExecSpace& exec,
                                                     const sparse_vector<T, memory_space_t<ExecSpace>>& s,
                                                     T fill = T{}) {
  auto x = allocate_view<Kokkos::View<T*, memory_space_t<ExecSpace>>>("bitgraph::dense", s.n, false);
  Kokkos::deep_copy(exec, x, fill);
  Kokkos::parallel_for(
      "bitgraph::sparse::to_dense", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, s.nnz),
      detail::sparse_to_dense_fill<memory_space_t<ExecSpace>, T>{s.indices, s.values, x, s.values.extent(0) > 0});
  return x;
}

/// Bitmap of a sparse vector's indices.
template <class ExecSpace, class T>
bitmap<memory_space_t<ExecSpace>> to_bitmap(const ExecSpace& exec,
                                            const sparse_vector<T, memory_space_t<ExecSpace>>& s) {
  return bitmap_from_indices(exec, s.n,
                             Kokkos::View<const vertex_t*, memory_space_t<ExecSpace>>(
                                 Kokkos::subview(s.indices, Kokkos::make_pair(offset_t(0), s.nnz))));
}

/// Makes a sparse vector from host data, checking that indices are strictly increasing and < n.
template <class ExecSpace, class T>
sparse_vector<T, memory_space_t<ExecSpace>> make_sparse_vector(const ExecSpace& exec, vertex_t n,
                                                               const std::vector<vertex_t>& indices,
                                                               const std::vector<T>& values) {
  using mem = memory_space_t<ExecSpace>;
  BITGRAPH_CHECK_ARG(values.empty() || values.size() == indices.size(), "make_sparse_vector", "values has ",
                     values.size(), " entries but indices has ", indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i) {
    BITGRAPH_CHECK_ARG(indices[i] < n, "make_sparse_vector", "index ", indices[i], " is >= n = ", n);
    BITGRAPH_CHECK_ARG(i == 0 || indices[i - 1] < indices[i], "make_sparse_vector",
                       "indices must be strictly increasing (position ", i, ")");
  }
  sparse_vector<T, mem> s;
  s.n = n;
  s.nnz = indices.size();
  s.indices = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sparse::indices", indices.size(), false);
  Kokkos::deep_copy(exec, s.indices,
                    Kokkos::View<const vertex_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        indices.data(), indices.size()));
  if (!values.empty()) {
    s.values = allocate_view<Kokkos::View<T*, mem>>("bitgraph::sparse::values", values.size(), false);
    Kokkos::deep_copy(exec, s.values,
                      Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                          values.data(), values.size()));
  }
  exec.fence();
  return s;
}

}  // namespace bitgraph
