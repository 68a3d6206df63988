// An uncompressed bit matrix (BitMat's "bitmat"): the dense counterpart of B2SR that fold and unfold also
// run on.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <new>
#include <stdexcept>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"

namespace bitgraph {

/// An uncompressed rows x cols bit matrix (BitMat's "bitmat"). Row i is `words(i, 0 .. words_per_row)`
/// laid out exactly like a `bitmap` of `cols` bits: bit j is bit j % 32 of word j / 32, rows are padded
/// with zero bits to a multiple of 64, and bits >= cols are always zero. LayoutRight keeps each row
/// contiguous on every space, so a row is one coalesced run of words.
template <class MemorySpace>
struct dense_bit_matrix {
  using memory_space = MemorySpace;
  using words_view = Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, MemorySpace>;
  vertex_t rows = 0;  ///< number of rows
  vertex_t cols = 0;  ///< number of columns (bits per row)
  words_view words;   ///< rows x words_per_row(cols)

  /// 32-bit words of one row of `cols` bits (padded to 64-bit multiples, as a bitmap).
  static constexpr std::uint64_t words_per_row(std::uint64_t cols) { return 2 * ((cols + 63) / 64); }
};

/// An all-zero rows x cols bit matrix in `exec`'s memory space. Throws `allocation_error` when it
/// does not fit.
template <class ExecSpace>
dense_bit_matrix<memory_space_t<ExecSpace>> make_dense_bit_matrix(const ExecSpace&, vertex_t rows, vertex_t cols) {
  using mat = dense_bit_matrix<memory_space_t<ExecSpace>>;
  mat m;
  m.rows = rows;
  m.cols = cols;
  const std::uint64_t wpr = mat::words_per_row(cols);
  const std::size_t bytes =
      detail::checked_bytes<std::uint32_t>(std::uint64_t(rows) * wpr, "bitgraph::dense_bit_matrix");
  try {
    m.words = typename mat::words_view("bitgraph::dense_bit_matrix", rows, wpr);
  } catch (const std::bad_alloc& e) {
    throw allocation_error(
        detail::concat("bitgraph: allocation of 'bitgraph::dense_bit_matrix' (", bytes, " bytes) failed: ", e.what()));
  } catch (const std::runtime_error& e) {
    throw allocation_error(
        detail::concat("bitgraph: allocation of 'bitgraph::dense_bit_matrix' (", bytes, " bytes) failed: ", e.what()));
  }
  return m;
}

}  // namespace bitgraph
