// Adoption of a CSR that already lives in a Kokkos application's memory: `make_csr_graph` takes the
// caller's row map, entries and weights (Views of any integral / arithmetic types), checks them on the
// device in one pass and shares them (types matching) or converts them once into a `csr_graph`.
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
#include "bitgraph/formats/csr.hpp"
#include "bitgraph/formats/detail/adopt_kernels.hpp"

namespace bitgraph {

/// What `make_csr_graph` does with a column stored more than once in a row.
enum class adopt_duplicates : std::uint8_t {
  reject,  ///< throw `invalid_argument_error` naming the first such row
  merge,   ///< merge them into one entry (minimum weight) in new arrays, as `remove_duplicates` does
  keep,    ///< adopt them; the graph gets `has_duplicates = true` (which `make_bit_graph` refuses)
};

/// Options of `make_csr_graph`. The checks that keep kernels in bounds (offsets, ids) always run; these
/// say what happens to the rest of `csr_graph`'s promises.
struct adopt_options {
  /// Rows whose columns are not ascending (csr_graph promises ascending rows): false rejects them with
  /// `invalid_argument_error`, true sorts the graph into new arrays (the caller's are never written).
  bool sort_rows = false;
  /// Columns stored twice in a row.
  adopt_duplicates duplicates = adopt_duplicates::reject;
  /// For `graph_kind::undirected`: check that every stored (u, v) has its mirror (v, u) (the pattern, not
  /// the weights); a second pass, O(nnz log(max degree)). Ignored for directed graphs.
  bool check_symmetry = true;
};

/// Adopts the CSR graph of `n` vertices given by `row_map` (n + 1 offsets), `entries` (column ids) and
/// `weights` (parallel to `entries`) as a `csr_graph` of `kind` on `exec`.
///
/// The views are rank 1, in `ExecSpace`'s memory space, of any layout and const-ness; `row_map` and
/// `entries` of any integral type, `weights` of any arithmetic type. An array whose value type is
/// BitGraph's (`offset_t` row map, `vertex_t` entries, `double` weights) and whose elements are contiguous is
/// shared, not copied: the graph holds a reference to the caller's allocation (counted like a View copy) and
/// its `data()` is the caller's pointer. BitGraph never writes to an adopted array; the caller must not modify
/// it while the graph is in use. Any other array is converted once on the device into a new one.
///
/// Checked on the device in one pass over the rows (a min-reduction, so an error names the smallest bad
/// row): row_map(0) == 0; no negative offsets; row_map(u) <= row_map(u + 1); row_map(n) == entries.extent(0)
/// exactly (to adopt a prefix of a longer array, pass a subview); every column id is not negative, fits the
/// 32-bit `vertex_t` and is < n; each row ascending (else rejected, or sorted with `opts.sort_rows`) and
/// duplicate-free (else per `opts.duplicates`). For an undirected graph with `opts.check_symmetry`, a second
/// pass checks that the pattern is symmetric. Fixing (sorting, merging) rebuilds the graph through the CSR
/// builder (`build_csr`'s row sort and duplicate merge) into new arrays.
///
/// Work: O(n + nnz) for the check and each conversion; sorting and merging as `build_csr`. Throws
/// `invalid_argument_error` ("bitgraph::make_csr_graph: row u: <problem>") for malformed input, a negative n,
/// a row map of other than n + 1 entries or weights of other than entries.extent(0); `size_error` when n does
/// not fit the 32-bit vertex ids; `allocation_error` when a conversion buffer does not fit. Reads the check's
/// result back (fences) and fences `exec` before it returns.
template <class ExecSpace, class Count, class RowMap, class Entries, class Weights>
csr_graph<memory_space_t<ExecSpace>> make_csr_graph(const ExecSpace& exec, Count n, const RowMap& row_map,
                                                    const Entries& entries, const Weights& weights, graph_kind kind,
                                                    const adopt_options& opts = {});

/// `make_csr_graph` of an unweighted graph (`has_weights` false).
template <class ExecSpace, class Count, class RowMap, class Entries>
csr_graph<memory_space_t<ExecSpace>> make_csr_graph(const ExecSpace& exec, Count n, const RowMap& row_map,
                                                    const Entries& entries, graph_kind kind,
                                                    const adopt_options& opts = {});

namespace detail {

/// Compile-time checks of an adopted view: a rank-1 Kokkos::View in `ExecSpace`'s memory space.
template <class ExecSpace, class View>
constexpr void adopt_static_checks() {
  static_assert(Kokkos::is_view<View>::value, "bitgraph::make_csr_graph: the arrays must be Kokkos::Views");
  static_assert(View::rank == 1, "bitgraph::make_csr_graph: the arrays must be rank-1 Views");
  static_assert(std::is_same_v<typename View::memory_space, memory_space_t<ExecSpace>>,
                "bitgraph::make_csr_graph: the Views must live in the execution space's memory space");
}

/// Whether `v`'s elements are contiguous (shareable as a plain 1-D array).
template <class View>
bool adopt_contiguous(const View& v) {
  return v.span_is_contiguous() && (v.extent(0) <= 1 || v.stride(0) == 1);
}

/// The array `src` as a view of type `Target` (rank 1, same memory space): shared when the value types
/// match and the elements are contiguous, else converted on `exec` into a new array labelled `label`.
template <class Target, class ExecSpace, class Source>
Target adopt_array(const ExecSpace& exec, const Source& src, const std::string& label) {
  using T = typename Target::non_const_value_type;
  if constexpr (std::is_same_v<typename Source::non_const_value_type, T>) {
    if (adopt_contiguous(src)) {
      // The caller's pointer in a view of BitGraph's type that shares (and counts) the caller's allocation.
      using plain = Kokkos::View<T*, typename Target::array_layout, typename Target::memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
      plain p(const_cast<T*>(src.data()), src.extent(0));
      return Target(src.impl_track(), p.impl_map());
    }
  }
  auto dst = allocate_view<Target>(label, src.extent(0), false);
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, src.extent(0)),
                       adopt_convert<Source, Target>{src, dst});
  return dst;
}

/// Throws `invalid_argument_error` for a fatal `key` of `adopt_check`.
template <class RowMap, class Entries>
void adopt_throw_if_fatal(std::uint64_t key, vertex_t n, const RowMap& row_map, const Entries& entries) {
  if (key != adopt_no_problem && adopt_key_class(key) == adopt_class_fatal) {
    throw invalid_argument_error(concat("bitgraph::make_csr_graph: ", adopt_problem_text(key, n, row_map, entries)));
  }
}

/// `make_csr_graph` of both overloads; `weighted` says whether `weights` was given.
template <class ExecSpace, class Count, class RowMap, class Entries, class Weights>
csr_graph<memory_space_t<ExecSpace>> adopt_csr(const ExecSpace& exec, Count n_in, const RowMap& row_map,
                                               const Entries& entries, const Weights& weights, bool weighted,
                                               graph_kind kind, const adopt_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  using graph = csr_graph<mem>;
  using R = typename RowMap::non_const_value_type;
  using E = typename Entries::non_const_value_type;
  static_assert(std::is_integral_v<Count> && !std::is_same_v<Count, bool>,
                "bitgraph::make_csr_graph: n must be an integer");
  static_assert(std::is_integral_v<R> && !std::is_same_v<R, bool>,
                "bitgraph::make_csr_graph: the row map must hold integers");
  static_assert(std::is_integral_v<E> && !std::is_same_v<E, bool>,
                "bitgraph::make_csr_graph: the entries must be integers");
  static_assert(std::is_arithmetic_v<typename Weights::non_const_value_type>,
                "bitgraph::make_csr_graph: the weights must be numbers");
  BITGRAPH_CHECK_ARG(!adopt_negative(n_in), "make_csr_graph", "n = ", adopt_printable(n_in), " is negative");
  const vertex_t n = checked_vertex_count(static_cast<std::uint64_t>(n_in), "make_csr_graph");
  BITGRAPH_CHECK_ARG(row_map.extent(0) == std::uint64_t(n) + 1, "make_csr_graph", "row_map has ", row_map.extent(0),
                     " entries, expected n + 1 = ", std::uint64_t(n) + 1);
  BITGRAPH_CHECK_ARG(!weighted || weights.extent(0) == entries.extent(0), "make_csr_graph", "weights has ",
                     weights.extent(0), " entries but entries has ", entries.extent(0));
  if (n == 0) {  // no rows for the device check to look at
    const auto start = adopt_printable(read_element(row_map, 0));
    BITGRAPH_CHECK_ARG(start == 0, "make_csr_graph", "row_map(0) = ", start, ", must be 0");
    BITGRAPH_CHECK_ARG(entries.extent(0) == 0, "make_csr_graph", "row_map(n) = 0 but entries has ", entries.extent(0),
                       " elements (they must be equal; pass a subview to adopt a prefix)");
  }

  // One pass over the caller's arrays; fatal problems (bounds, and whatever the options do not fix) throw.
  const std::uint64_t key =
      adopt_check(exec, n, row_map, entries, !opts.sort_rows, opts.duplicates == adopt_duplicates::reject);
  adopt_throw_if_fatal(key, n, row_map, entries);

  graph g;
  g.n = n;
  g.nnz = entries.extent(0);
  g.kind = kind;
  g.has_weights = weighted;
  g.row_ptr = adopt_array<typename graph::offsets_view>(exec, row_map, "bitgraph::make_csr_graph::row_ptr");
  g.col_idx = adopt_array<typename graph::indices_view>(exec, entries, "bitgraph::make_csr_graph::col_idx");
  if (weighted) {
    g.weights = adopt_array<typename graph::weights_view>(exec, weights, "bitgraph::make_csr_graph::weights");
  }

  std::uint64_t cls = key == adopt_no_problem ? adopt_no_problem : adopt_key_class(key);
  if (cls == adopt_class_unsorted) {  // sort_rows: rebuild sorted (duplicates kept), then look again
    auto src = row_sources(exec, g, "bitgraph::make_csr_graph");
    auto s = build_csr_from_coo<ExecSpace>(exec, n, src, g.col_idx, g.weights, false, false, false, false, kind);
    s.has_weights = weighted;
    s.has_duplicates = false;
    g = std::move(s);
    const std::uint64_t again =
        adopt_check(exec, n, g.row_ptr, g.col_idx, true, opts.duplicates == adopt_duplicates::reject);
    adopt_throw_if_fatal(again, n, g.row_ptr, g.col_idx);
    cls = again == adopt_no_problem ? adopt_no_problem : adopt_key_class(again);
  }
  if (cls == adopt_class_duplicate) {
    if (opts.duplicates == adopt_duplicates::merge) {  // as remove_duplicates, which would check g again
      auto src = row_sources(exec, g, "bitgraph::make_csr_graph");
      auto r = build_csr_from_coo<ExecSpace>(exec, n, src, g.col_idx, g.weights, false, false, false, true, kind);
      r.has_weights = weighted;
      g = std::move(r);
    } else {
      g.has_duplicates = true;
    }
  }

  if (kind == graph_kind::undirected && opts.check_symmetry) {
    std::uint64_t missing = adopt_no_problem;
    Kokkos::parallel_reduce("bitgraph::make_csr_graph::symmetry",
                            Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, n),
                            adopt_check_symmetry<mem>{g.row_ptr, g.col_idx}, Kokkos::Min<std::uint64_t>(missing));
    BITGRAPH_CHECK_ARG(missing == adopt_no_problem, "make_csr_graph", "row ", missing >> 32, ": entry (", missing >> 32,
                       ", ", missing & 0xffffffffu, ") has no mirror (", missing & 0xffffffffu, ", ", missing >> 32,
                       ") in an undirected graph");
  }
  g.longest_row = longest_span(exec, g.row_ptr, n, "bitgraph::make_csr_graph::longest_row");
  g.validated = kind != graph_kind::undirected || opts.check_symmetry;
  exec.fence();
  return g;
}

}  // namespace detail

template <class ExecSpace, class Count, class RowMap, class Entries, class Weights>
csr_graph<memory_space_t<ExecSpace>> make_csr_graph(const ExecSpace& exec, Count n, const RowMap& row_map,
                                                    const Entries& entries, const Weights& weights, graph_kind kind,
                                                    const adopt_options& opts) {
  detail::adopt_static_checks<ExecSpace, RowMap>();
  detail::adopt_static_checks<ExecSpace, Entries>();
  detail::adopt_static_checks<ExecSpace, Weights>();
  detail::profiling_region region("bitgraph::make_csr_graph");
  return detail::adopt_csr(exec, n, row_map, entries, weights, true, kind, opts);
}

template <class ExecSpace, class Count, class RowMap, class Entries>
csr_graph<memory_space_t<ExecSpace>> make_csr_graph(const ExecSpace& exec, Count n, const RowMap& row_map,
                                                    const Entries& entries, graph_kind kind,
                                                    const adopt_options& opts) {
  detail::adopt_static_checks<ExecSpace, RowMap>();
  detail::adopt_static_checks<ExecSpace, Entries>();
  detail::profiling_region region("bitgraph::make_csr_graph");
  return detail::adopt_csr(exec, n, row_map, entries, Kokkos::View<const double*, memory_space_t<ExecSpace>>(), false,
                           kind, opts);
}

}  // namespace bitgraph
