// Kernels of the CSR adoption (formats/adopt.hpp), as named functors: the one-pass structural check of a
// caller's row map and entries (any integral types), the symmetry check and the element-wise conversion.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "bitgraph/core/types.hpp"

namespace bitgraph::detail {

/// What the structural check found wrong with a row, in the order a row is examined. Codes up to
/// `adopt_id_out_of_range` are always fatal; unsorted and duplicate columns are fatal or fixable as the
/// options say.
enum adopt_problem : std::uint8_t {
  adopt_start_not_zero = 1,   ///< row_map(0) != 0
  adopt_negative_offset = 2,  ///< row_map(u) or row_map(u + 1) < 0
  adopt_decreasing = 3,       ///< row_map(u + 1) < row_map(u)
  adopt_beyond_entries = 4,   ///< row_map(u + 1) > entries.extent(0)
  adopt_short_end = 5,        ///< row_map(n) < entries.extent(0)
  adopt_negative_id = 6,      ///< a column id < 0
  adopt_id_overflow = 7,      ///< a column id that does not fit vertex_t
  adopt_id_out_of_range = 8,  ///< a column id >= n
  adopt_unsorted = 9,         ///< a column smaller than the one before it in the row
  adopt_duplicate = 10,       ///< a column equal to the one before it in the row
};

/// Classes of the reduction key, most severe first (the min-reduction returns the most severe class and,
/// within it, the smallest row).
inline constexpr std::uint64_t adopt_class_fatal = 0;
inline constexpr std::uint64_t adopt_class_unsorted = 1;
inline constexpr std::uint64_t adopt_class_duplicate = 2;
/// The key when nothing was found.
inline constexpr std::uint64_t adopt_no_problem = std::numeric_limits<std::uint64_t>::max();

/// The reduction key of a problem: class in bits 60..63, row in bits 8..39, code in bits 0..7.
KOKKOS_INLINE_FUNCTION constexpr std::uint64_t adopt_key(std::uint64_t cls, std::uint64_t row, std::uint8_t code) {
  return (cls << 60) | (row << 8) | code;
}
KOKKOS_INLINE_FUNCTION constexpr std::uint64_t adopt_key_class(std::uint64_t key) { return key >> 60; }
KOKKOS_INLINE_FUNCTION constexpr std::uint64_t adopt_key_row(std::uint64_t key) { return (key >> 8) & 0xffffffffu; }
KOKKOS_INLINE_FUNCTION constexpr std::uint8_t adopt_key_code(std::uint64_t key) {
  return static_cast<std::uint8_t>(key & 0xffu);
}

/// Whether an integral value is negative (false for unsigned types, without a comparison that warns).
template <class T>
KOKKOS_INLINE_FUNCTION constexpr bool adopt_negative(T v) {
  if constexpr (std::is_signed_v<T>) {
    return v < 0;
  } else {
    (void)v;
    return false;
  }
}

/// The one-pass structural check, one row per index: the row's two offsets (start at 0, not negative,
/// not decreasing, within the entries, the last one equal to their count), then its column ids (not
/// negative, fitting vertex_t, < n) and their order (ascending, distinct). A row whose offsets are bad is
/// not scanned. The result is the min-reduction of `adopt_key`s; `unsorted_fatal` / `duplicate_fatal`
/// put unsorted / repeated columns in the fatal class.
template <class RowMap, class Entries>
struct adopt_check_rows {
  RowMap row_map;
  Entries entries;
  std::uint64_t n;
  std::uint64_t nnz;  ///< entries.extent(0)
  bool unsorted_fatal, duplicate_fatal;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t u, std::uint64_t& best) const {
    using R = typename RowMap::non_const_value_type;
    using E = typename Entries::non_const_value_type;
    const R lo_raw = row_map(u), hi_raw = row_map(u + 1);
    std::uint64_t found = adopt_no_problem;
    if (adopt_negative(lo_raw) || adopt_negative(hi_raw)) {
      found = adopt_key(adopt_class_fatal, u, adopt_negative_offset);
    } else if (u == 0 && lo_raw != 0) {
      found = adopt_key(adopt_class_fatal, u, adopt_start_not_zero);
    } else if (hi_raw < lo_raw) {
      found = adopt_key(adopt_class_fatal, u, adopt_decreasing);
    } else if (static_cast<std::uint64_t>(hi_raw) > nnz) {
      found = adopt_key(adopt_class_fatal, u, adopt_beyond_entries);
    } else {
      const std::uint64_t lo = static_cast<std::uint64_t>(lo_raw), hi = static_cast<std::uint64_t>(hi_raw);
      if (u + 1 == n && hi != nnz) found = adopt_key(adopt_class_fatal, u, adopt_short_end);
      for (std::uint64_t p = lo; p < hi && adopt_key_class(found) != adopt_class_fatal; ++p) {
        const E v = entries(p);
        if (adopt_negative(v)) {
          found = adopt_key(adopt_class_fatal, u, adopt_negative_id);
        } else if (static_cast<std::uint64_t>(v) > std::uint64_t(invalid_vertex)) {  // the largest vertex_t
          found = adopt_key(adopt_class_fatal, u, adopt_id_overflow);
        } else if (static_cast<std::uint64_t>(v) >= n) {
          found = adopt_key(adopt_class_fatal, u, adopt_id_out_of_range);
        } else if (p > lo && entries(p - 1) > v) {
          const std::uint64_t k =
              adopt_key(unsorted_fatal ? adopt_class_fatal : adopt_class_unsorted, u, adopt_unsorted);
          if (k < found) found = k;
        } else if (p > lo && entries(p - 1) == v) {
          const std::uint64_t k =
              adopt_key(duplicate_fatal ? adopt_class_fatal : adopt_class_duplicate, u, adopt_duplicate);
          if (k < found) found = k;
        }
      }
    }
    if (found < best) best = found;
  }
};

/// The symmetry check of a sorted CSR: the smallest (u << 32 | v) over the entries (u, v) whose mirror
/// (v, u) is missing (a binary search in row v), `adopt_no_problem` when there is none.
template <class Mem>
struct adopt_check_symmetry {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t u, std::uint64_t& best) const {
    for (offset_t p = row_ptr(u); p < row_ptr(u + 1); ++p) {
      const vertex_t v = col_idx(p);
      offset_t lo = row_ptr(v), hi = row_ptr(v + 1);
      while (lo < hi) {  // first entry of row v >= u
        const offset_t mid = lo + (hi - lo) / 2;
        if (col_idx(mid) < u) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      if (lo == row_ptr(v + 1) || col_idx(lo) != u) {
        const std::uint64_t k = (std::uint64_t(u) << 32) | v;
        if (k < best) best = k;
        return;  // columns ascend: the first missing mirror of the row has its smallest v
      }
    }
  }
};

/// dst(i) = src(i) converted to dst's value type (the values were checked to fit before).
template <class Src, class Dst>
struct adopt_convert {
  Src src;
  Dst dst;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t i) const {
    dst(i) = static_cast<typename Dst::non_const_value_type>(src(i));
  }
};

}  // namespace bitgraph::detail
