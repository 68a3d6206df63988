// The structural check of a `csr_graph` that enters the library from the caller (its members possibly filled
// by hand), shared by the CSR transforms (csr.hpp), the adoption (adopt.hpp) and every entry point that takes a
// caller's CSR: O(1) extent checks always, one device pass unless the graph is marked `validated`.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/detail/adopt_kernels.hpp"

namespace bitgraph {

template <class MemorySpace>
struct csr_graph;

/// Checks a `csr_graph` that enters the library from the caller (its members possibly filled by hand) before a
/// kernel reads it; `func` names the entry point in the message. Always (O(1)): row_ptr has n + 1 entries,
/// col_idx exactly nnz, weights exactly nnz when `has_weights` (kernels size their work by the extents). Unless
/// `g.validated` (a graph of the library's builders, or one this function passed), one device pass with
/// `make_csr_graph`'s kernels over row_ptr and the first nnz column ids: row_ptr(0) == 0, not decreasing, row_ptr(n) ==
/// nnz, ids < n, rows ascending, duplicate-free unless `has_duplicates`; and for an undirected graph the symmetry pass
/// (O(nnz log(max degree))). Throws `invalid_argument_error` ("bitgraph::<func>: the CSR graph's ..." or
/// "bitgraph::<func>: row u: <problem>"). Reads the result back (fences `exec`) when it runs the device pass.
template <class ExecSpace>
void check_csr_graph(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g, const char* func);

/// `check_csr_graph`, then `g` marked `validated` (so the library's next entry points skip the device pass).
template <class ExecSpace>
void validate_csr_graph(const ExecSpace& exec, csr_graph<memory_space_t<ExecSpace>>& g, const char* func) {
  check_csr_graph(exec, g, func);
  g.validated = true;
}

namespace detail {

/// An integral value of any type, printable (8-bit types as numbers, not characters).
template <class T>
auto adopt_printable(T v) {
  if constexpr (std::is_signed_v<T>) {
    return static_cast<long long>(v);
  } else {
    return static_cast<unsigned long long>(v);
  }
}

/// The structural check of `row_map` / `entries` (see `adopt_check_rows`): its min-reduction key.
template <class ExecSpace, class RowMap, class Entries>
std::uint64_t adopt_check(const ExecSpace& exec, vertex_t n, const RowMap& row_map, const Entries& entries,
                          bool unsorted_fatal, bool duplicate_fatal) {
  std::uint64_t key = adopt_no_problem;
  Kokkos::parallel_reduce(
      "bitgraph::make_csr_graph::check", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, n),
      adopt_check_rows<RowMap, Entries>{row_map, entries, n, entries.extent(0), unsorted_fatal, duplicate_fatal},
      Kokkos::Min<std::uint64_t>(key));
  return key;
}

/// The message of the problem `key` found by `adopt_check`, re-reading the row on the host (error path).
template <class RowMap, class Entries>
std::string adopt_problem_text(std::uint64_t key, vertex_t n, const RowMap& row_map, const Entries& entries) {
  const std::uint64_t u = adopt_key_row(key);
  const auto code = adopt_key_code(key);
  const auto lo = adopt_printable(read_element(row_map, u));
  const auto hi = adopt_printable(read_element(row_map, u + 1));
  const std::uint64_t nnz = entries.extent(0);
  const std::string row = concat("row ", u, ": ");
  switch (code) {
    case adopt_start_not_zero:
      return concat(row, "row_map(0) = ", lo, ", must be 0");
    case adopt_negative_offset:
      return concat(row, "negative row offset: row_map(", u, ") = ", lo, ", row_map(", u + 1, ") = ", hi);
    case adopt_decreasing:
      return concat(row, "the row map decreases: row_map(", u, ") = ", lo, " > row_map(", u + 1, ") = ", hi);
    case adopt_beyond_entries:
      return concat(row, "row_map(", u + 1, ") = ", hi, " is beyond the ", nnz, " entries");
    case adopt_short_end:
      return concat(row, "row_map(n) = ", hi, " but entries has ", nnz,
                    " elements (they must be equal; pass a subview to adopt a prefix)");
    default:
      break;
  }
  // A problem among the row's entries: find the first one of its kind.
  auto seg = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace{},
      Kokkos::subview(entries, Kokkos::make_pair(static_cast<std::size_t>(lo), static_cast<std::size_t>(hi))));
  for (std::size_t i = 0; i < seg.extent(0); ++i) {
    const auto v = seg(i);
    const auto pv = adopt_printable(v);
    const std::uint64_t p = static_cast<std::uint64_t>(lo) + i;
    const bool neg = adopt_negative(v);
    const std::uint64_t x = neg ? 0 : static_cast<std::uint64_t>(v);
    if (code == adopt_negative_id && neg) {
      return concat(row, "column id ", pv, " at entry ", p, " is negative");
    }
    if (code == adopt_id_overflow && !neg && x > std::uint64_t(std::numeric_limits<vertex_t>::max())) {
      return concat(row, "column id ", pv, " at entry ", p, " does not fit the 32-bit vertex type");
    }
    if (code == adopt_id_out_of_range && !neg && x >= n) {
      return concat(row, "column id ", pv, " at entry ", p, " is >= n = ", n);
    }
    if (code == adopt_unsorted && i > 0 && seg(i - 1) > v) {
      return concat(row, "columns are not ascending (", pv, " after ", adopt_printable(seg(i - 1)), " at entry ", p,
                    "); set adopt_options::sort_rows to sort a copy");
    }
    if (code == adopt_duplicate && i > 0 && seg(i - 1) == v) {
      return concat(row, "column ", pv, " is stored more than once (entry ", p,
                    "); set adopt_options::duplicates to merge or keep them");
    }
  }
  return concat(row, "malformed");  // not reached: the device found the problem in this row
}

}  // namespace detail

template <class ExecSpace>
void check_csr_graph(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g, const char* func) {
  using mem = memory_space_t<ExecSpace>;
  const std::uint64_t n = g.n;
  BITGRAPH_CHECK_ARG(g.row_ptr.extent(0) == n + 1, func, "the CSR graph's row_ptr has ", g.row_ptr.extent(0),
                     " entries, expected n + 1 = ", n + 1);
  BITGRAPH_CHECK_ARG(g.col_idx.extent(0) == g.nnz, func, "the CSR graph's col_idx has ", g.col_idx.extent(0),
                     " entries but nnz = ", g.nnz, " (they must be equal; a subview keeps a prefix)");
  BITGRAPH_CHECK_ARG(!g.has_weights || g.weights.extent(0) == g.nnz, func,
                     "the CSR graph has has_weights set but its weights view has ", g.weights.extent(0),
                     " entries for nnz = ", g.nnz);
  if (g.validated) return;
  detail::profiling_region region("bitgraph::check_csr_graph");
  const auto entries = Kokkos::subview(g.col_idx, Kokkos::make_pair(offset_t(0), g.nnz));
  if (n == 0) {  // no rows for the device check to look at
    const offset_t start = read_element(g.row_ptr, 0);
    BITGRAPH_CHECK_ARG(start == 0, func, "row 0: row_ptr(0) = ", start, ", must be 0");
    BITGRAPH_CHECK_ARG(g.nnz == 0, func, "the CSR graph has no vertices but nnz = ", g.nnz);
    return;
  }
  const std::uint64_t key = detail::adopt_check(exec, g.n, g.row_ptr, entries, true, !g.has_duplicates);
  if (key != detail::adopt_no_problem && detail::adopt_key_class(key) == detail::adopt_class_fatal) {
    throw invalid_argument_error(
        detail::concat("bitgraph::", func, ": ", detail::adopt_problem_text(key, g.n, g.row_ptr, entries)));
  }
  if (g.kind == graph_kind::undirected) {
    std::uint64_t missing = detail::adopt_no_problem;
    Kokkos::parallel_reduce("bitgraph::check_csr_graph::symmetry",
                            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.n),
                            detail::adopt_check_symmetry<mem>{g.row_ptr, g.col_idx},
                            Kokkos::Min<std::uint64_t>(missing));
    BITGRAPH_CHECK_ARG(missing == detail::adopt_no_problem, func, "row ", missing >> 32, ": entry (", missing >> 32,
                       ", ", missing & 0xffffffffu, ") has no mirror (", missing & 0xffffffffu, ", ", missing >> 32,
                       ") in an undirected graph");
  }
}

}  // namespace bitgraph
