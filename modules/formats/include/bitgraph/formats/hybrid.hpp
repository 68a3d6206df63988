// Hybrid bit matrices: the rows in bands of 32, each band stored as B2SR tiles where bits pay (a product over its
// tiles is predicted to take no longer than over its CSR entries, or, by the bytes rule, its tiles take no more
// bytes) and as CSR otherwise. Unordered power-law and random graphs (about one bit per tile) then keep CSR's size
// and speed, graphs with many bits per tile keep their bits, and graphs with a dense core and a sparse tail get
// both. Products run over both parts in one call (ops/mxv.hpp).
#pragma once

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/b2sr.hpp"
#include "bitgraph/formats/b2sr_profile.hpp"
#include "bitgraph/formats/csr.hpp"

namespace bitgraph {

/// Rows per band of a hybrid matrix: one bitmap word, so the two parts never share an output word.
inline constexpr vertex_t hybrid_band_rows = 32;

/// Bands of an n-row matrix (the last one may be short).
constexpr vertex_t hybrid_band_count(vertex_t n) {
  return static_cast<vertex_t>((std::uint64_t(n) + hybrid_band_rows - 1) / hybrid_band_rows);
}

/// The matrix row of local row k of a banded row set whose band k / 32 is `band`.
KOKKOS_INLINE_FUNCTION std::uint64_t hybrid_band_row(vertex_t band, offset_t k) {
  return std::uint64_t(band) * hybrid_band_rows + k % hybrid_band_rows;
}

/// What decides a band: the predicted time of a product over it (`time`, the default) or its stored bytes.
enum class hybrid_split_rule : std::uint8_t { time, bytes };

/// A product's cost model, in picoseconds: a CSR band costs `csr_entry` per entry (its column id and its gather of
/// x); a bit band `bits_byte` per stored byte plus `bits_entry` per set bit (the bit kernels gather x once per set
/// bit, so a bit is not free: bits pay only where tiles hold enough of them to save more than that); a split matrix
/// `split_row` per row for the products' second pass. `hybrid_default_costs` gives fitted values per kind of space.
struct hybrid_costs {
  double csr_entry = 0, bits_byte = 0, bits_entry = 0, split_row = 0;
};

/// The models fitted to measured products (docs/PERFORMANCE.md, 2026-11-25). GPU (H100): CSR 3.0-3.3 ps per entry
/// on grids and rgg; B2SR-8 5.9 ps per tile (0.49 ps per byte) plus 2.35 ps per set bit, so a band pays as bits
/// from about 8 bits per 8 x 8 tile; the split's pass 24 bytes per row at 3 TB/s. Host (2 cores, OpenMP): the
/// bit kernels decode per row and per bit, 1.0 ns per set bit against 0.32 ns per CSR entry, so bits never pay.
inline constexpr hybrid_costs hybrid_gpu_costs{3.1, 0.49, 2.35, 8.0};
inline constexpr hybrid_costs hybrid_host_costs{320.0, 1.0, 1000.0, 1000.0};

/// The model of `ExecSpace`'s kernels: the host one where its memory is host-accessible, else the GPU one.
template <class ExecSpace>
constexpr hybrid_costs hybrid_default_costs() {
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible)
    return hybrid_host_costs;
  else
    return hybrid_gpu_costs;
}

/// Options for `to_hybrid`.
struct hybrid_options {
  int tile_dim = 0;  ///< 4, 8, 16 or 32 for the bit part; 0: the one whose split costs least under the rule
  /// A band goes to bits when its bit form costs at most `bits_bias` times its CSR form under `rule`: 1 compares
  /// them; 0 puts every non-empty band in CSR, infinity every band in bits.
  double bits_bias = 1.0;
  /// Charge a split for the pass over every row it costs products (`hybrid_split_overhead_bytes`, or
  /// `split_row` under the time rule): a split that then costs more than all-CSR or all-bits becomes that (only
  /// with a finite, positive bias).
  bool charge_split = true;
  hybrid_split_rule rule = hybrid_split_rule::time;  ///< predicted product time, or stored bytes
  std::optional<hybrid_costs> costs = std::nullopt;  ///< the time rule's model; empty: hybrid_default_costs
};

/// A square pattern matrix split by bands of `hybrid_band_rows` rows. `bits` spans all n rows; the tile rows
/// of the bands stored as CSR are empty there. The CSR part holds the rows of its bands only, band after
/// band: local row k is row 32 · csr_bands(k / 32) + k % 32 (rows past n are empty), its entries are
/// `csr_col_idx[csr_row_ptr(k) .. csr_row_ptr(k + 1))`, ascending global column ids.
template <class MemorySpace>
struct hybrid_matrix {
  using memory_space = MemorySpace;
  vertex_t n = 0;                                    ///< rows = columns
  offset_t nnz = 0;                                  ///< entries of the pattern (both parts)
  graph_kind kind = graph_kind::directed;            ///< carried over from the CSR it was built from
  b2sr_matrix<MemorySpace> bits;                     ///< the bands where bits pay
  Kokkos::View<vertex_t*, MemorySpace> csr_bands;    ///< ascending ids of the bands stored as CSR
  Kokkos::View<offset_t*, MemorySpace> csr_row_ptr;  ///< 32 · csr_bands.extent(0) + 1 offsets
  Kokkos::View<vertex_t*, MemorySpace> csr_col_idx;  ///< csr_nnz global column ids
  offset_t csr_nnz = 0;                              ///< entries stored as CSR
  offset_t csr_longest_row = 0;                      ///< entries in the CSR part's longest row (products balance by it)
  /// Bytes of each part by the storage reports' convention (32-bit pointers and indices), for `info`.
  std::uint64_t bits_bytes = 0, csr_bytes = 0;
  hybrid_split_rule rule = hybrid_split_rule::time;  ///< how the bands were decided
  /// What the rule predicted for the chosen split: a product's time in picoseconds (time rule) or bytes.
  double predicted_cost = 0;

  /// Bands stored as CSR.
  vertex_t csr_band_count() const { return static_cast<vertex_t>(csr_bands.extent(0)); }
  /// Bands in all.
  vertex_t band_count() const { return hybrid_band_count(n); }
};

/// Splits a CSR graph into a hybrid matrix on `exec`: counts every band's entries and, for each candidate tile
/// dimension, its non-empty tiles; gives each band to the part a product over it is predicted to take less time
/// on (or, by the bytes rule, that stores it in fewer bytes; see `hybrid_options`); keeps the tile dimension whose
/// split costs least in all; then builds both parts on the device. Weights are dropped (a pattern). O(nnz · candidates)
/// counting plus one B2SR build. Throws `invalid_argument_error` for a tile dimension other than 0, 4, 8, 16, 32, a
/// negative / NaN bias, a CSR that keeps duplicates or a malformed CSR (`check_csr_graph`: extents always, the device
/// pass unless `g.validated`), `allocation_error` when it does not fit. Fences `exec`.
template <class ExecSpace>
hybrid_matrix<memory_space_t<ExecSpace>> to_hybrid(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                                   const hybrid_options& opts = {});

namespace detail {

/// Bytes of a band stored as CSR: its row pointers and column ids (32-bit, as the storage reports count).
KOKKOS_INLINE_FUNCTION std::uint64_t hybrid_csr_band_bytes(offset_t entries) {
  return 4 * std::uint64_t(entries) + 4 * hybrid_band_rows;
}
/// Bytes of a band stored as T x T tiles: its tile-row pointers, tile columns and tile words.
KOKKOS_INLINE_FUNCTION std::uint64_t hybrid_bits_band_bytes(offset_t tiles, int t) {
  return std::uint64_t(tiles) * (4 + std::uint64_t(t) * (t <= 8 ? 1 : t / 8)) + 4 * (hybrid_band_rows / t);
}

/// The decision for one band: bits (1) or CSR (0), and the bytes of the part chosen.
template <class Mem, int T>
struct hybrid_choose_bands {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const offset_t*, Mem> tiles_per_tile_row;  // exclusive-scanned: tiles before each tile row
  vertex_t n, n_tile_rows;
  double bias;
  bool by_time;  // the time rule (costs), else bytes
  hybrid_costs costs;
  Kokkos::View<std::uint8_t*, Mem> to_bits;  // may be empty: count only
  int sum = 0;                               // 0: the split's cost; 1: every band as CSR; 2: every band as bits
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t b, double& cost) const {
    constexpr vertex_t per_band = hybrid_band_rows / T;
    const vertex_t r0 = b * hybrid_band_rows;
    const vertex_t r1 = r0 + hybrid_band_rows < n ? r0 + hybrid_band_rows : n;
    const vertex_t t0 = b * per_band;
    const vertex_t t1 = t0 + per_band < n_tile_rows ? t0 + per_band : n_tile_rows;
    const offset_t entries = row_ptr(r1) - row_ptr(r0);
    const double bits_bytes = double(hybrid_bits_band_bytes(tiles_per_tile_row(t1) - tiles_per_tile_row(t0), T));
    const double csr = by_time ? costs.csr_entry * double(entries) : double(hybrid_csr_band_bytes(entries));
    const double bits = by_time ? costs.bits_byte * bits_bytes + costs.bits_entry * double(entries) : bits_bytes;
    const bool use_bits = bits <= bias * csr;
    if (sum != 0) {
      cost += sum == 1 ? csr : bits;
      return;
    }
    if (to_bits.extent(0) > 0) to_bits(b) = use_bits ? 1 : 0;
    cost += use_bits ? bits : csr;
  }
};

/// Bytes a product moves for the split itself, per matrix row: the bit pass's write of y and read of the
/// tile-row pointers, and the CSR bands' temporary (fill, read) and merge (read and write of y), 4-byte values.
KOKKOS_INLINE_FUNCTION std::uint64_t hybrid_split_overhead_bytes(vertex_t n) { return 24 * std::uint64_t(n); }

/// Row counts of a CSR restricted to some bands: the row's degree where `keep(band) == want`, else 0.
template <class Mem>
struct hybrid_filter_counts {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const std::uint8_t*, Mem> to_bits;
  std::uint8_t want;
  Kokkos::View<offset_t*, Mem> counts;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    counts(i) = to_bits(i / hybrid_band_rows) == want ? row_ptr(i + 1) - row_ptr(i) : 0;
  }
};

/// Copies the kept rows' column ids into a CSR with `new_ptr` (same rows).
template <class Mem>
struct hybrid_copy_rows {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  Kokkos::View<const offset_t*, Mem> new_ptr;
  Kokkos::View<vertex_t*, Mem> new_col;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i) const {
    const offset_t len = new_ptr(i + 1) - new_ptr(i);
    for (offset_t p = 0; p < len; ++p) new_col(new_ptr(i) + p) = col_idx(row_ptr(i) + p);
  }
};

/// 1 for a band stored as CSR (for the scan that lists them).
template <class Mem>
struct hybrid_csr_band_flags {
  Kokkos::View<const std::uint8_t*, Mem> to_bits;
  Kokkos::View<offset_t*, Mem> slot;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t b) const { slot(b) = to_bits(b) == 0 ? 1 : 0; }
};

/// The CSR bands' ids: a compaction of the bands whose flag is 0.
template <class Mem>
struct hybrid_list_bands {
  Kokkos::View<const std::uint8_t*, Mem> to_bits;
  Kokkos::View<const offset_t*, Mem> slot;  // exclusive scan of (flag == 0)
  Kokkos::View<vertex_t*, Mem> bands;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t b) const {
    if (to_bits(b) == 0) bands(slot(b)) = b;
  }
};

/// Local row k of the CSR part: its entry count (for the scan into csr_row_ptr).
template <class Mem>
struct hybrid_local_counts {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> bands;
  vertex_t n;
  Kokkos::View<offset_t*, Mem> counts;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k) const {
    const std::uint64_t i = hybrid_band_row(bands(k / hybrid_band_rows), k);
    counts(k) = i < n ? row_ptr(i + 1) - row_ptr(i) : 0;
  }
};

/// Copies the entries of local row k.
template <class Mem>
struct hybrid_local_fill {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col_idx;
  Kokkos::View<const vertex_t*, Mem> bands;
  Kokkos::View<const offset_t*, Mem> local_ptr;
  Kokkos::View<vertex_t*, Mem> local_col;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k) const {
    const std::uint64_t i = hybrid_band_row(bands(k / hybrid_band_rows), k);
    const offset_t len = local_ptr(k + 1) - local_ptr(k);
    for (offset_t p = 0; p < len; ++p) local_col(local_ptr(k) + p) = col_idx(row_ptr(i) + p);
  }
};

/// Cost (bytes, or picoseconds by the time rule) of the split with tile dimension T, and (when `to_bits` is not
/// empty) the bands' decisions and, in `pure`, the cost of every band as CSR and of every band as bits.
template <class ExecSpace, int T>
double hybrid_split_cost(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g, double bias,
                         bool by_time, const hybrid_costs& costs,
                         Kokkos::View<std::uint8_t*, memory_space_t<ExecSpace>> to_bits, double* pure = nullptr) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t ntr = static_cast<vertex_t>(ceil_div<std::uint64_t>(g.n, T));
  const vertex_t n_bands = hybrid_band_count(g.n);
  auto tiles = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::hybrid::tiles", offset_t(ntr) + 1);
  Kokkos::parallel_for("bitgraph::hybrid::count_tiles", Kokkos::RangePolicy<ExecSpace>(exec, 0, ntr),
                       b2sr_count_tiles<mem, T>{g.row_ptr, g.col_idx, tiles, g.n});
  exclusive_scan(exec, tiles, "bitgraph::hybrid::scan_tiles");
  double cost = 0;
  Kokkos::parallel_reduce("bitgraph::hybrid::choose_bands", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_bands),
                          hybrid_choose_bands<mem, T>{g.row_ptr, tiles, g.n, ntr, bias, by_time, costs, to_bits, 0},
                          cost);
  for (int k = 0; pure != nullptr && k < 2; ++k)
    Kokkos::parallel_reduce("bitgraph::hybrid::pure_cost", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_bands),
                            hybrid_choose_bands<mem, T>{g.row_ptr, tiles, g.n, ntr, bias, by_time, costs, {}, k + 1},
                            pure[k]);
  return cost;
}

}  // namespace detail

template <class ExecSpace>
hybrid_matrix<memory_space_t<ExecSpace>> to_hybrid(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g,
                                                   const hybrid_options& opts) {
  using mem = memory_space_t<ExecSpace>;
  using policy = Kokkos::RangePolicy<ExecSpace>;
  if (!(opts.tile_dim == 0 || (valid_tile_dim(opts.tile_dim) && opts.tile_dim <= 32))) {
    throw invalid_argument_error(detail::concat("bitgraph::to_hybrid: tile dimension ", opts.tile_dim,
                                                " is not one of 0 (automatic), 4, 8, 16, 32"));
  }
  if (g.has_duplicates) {
    throw invalid_argument_error(
        "bitgraph::to_hybrid: the CSR keeps duplicate entries; a pattern needs them removed (build_csr's default)");
  }
  check_csr_graph(exec, g, "to_hybrid");
  if (!(opts.bits_bias >= 0)) {
    throw invalid_argument_error(
        detail::concat("bitgraph::to_hybrid: bits_bias must be zero or positive, not ", opts.bits_bias));
  }
  const bool by_time = opts.rule == hybrid_split_rule::time;
  const hybrid_costs costs = opts.costs ? *opts.costs : hybrid_default_costs<ExecSpace>();
  if (by_time && !(costs.csr_entry >= 0 && costs.bits_byte >= 0 && costs.bits_entry >= 0 && costs.split_row >= 0 &&
                   std::isfinite(costs.csr_entry + costs.bits_byte + costs.bits_entry + costs.split_row))) {
    throw invalid_argument_error("bitgraph::to_hybrid: the costs must be finite and zero or positive");
  }
  const vertex_t n_bands = hybrid_band_count(g.n);
  auto split_cost = [&](int t, Kokkos::View<std::uint8_t*, mem> flags, double* pure = nullptr) {
    return detail::dispatch_tile_dim(t, [&](auto td) -> double {
      if constexpr (decltype(td)::value <= 32)
        return detail::hybrid_split_cost<ExecSpace, decltype(td)::value>(exec, g, opts.bits_bias, by_time, costs, flags,
                                                                         pure);
      else
        return 0;  // not a candidate (checked above)
    });
  };
  // Each candidate's decisions are kept (a byte per band) so that the winner's tiles are counted once.
  auto to_bits = allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::hybrid::to_bits", n_bands);
  double pure[2] = {0, 0};  // every band as CSR, every band as bits
  int t = opts.tile_dim;
  double split = 0;
  if (t != 0) {
    split = split_cost(t, to_bits, pure);
  } else {
    auto trial = allocate_view<Kokkos::View<std::uint8_t*, mem>>("bitgraph::hybrid::to_bits_trial", n_bands);
    split = std::numeric_limits<double>::infinity();
    for (int c : {4, 8, 16, 32}) {
      double p[2] = {0, 0};
      const double b = split_cost(c, trial, p);
      if (b < split) {
        split = b;
        t = c;
        pure[0] = p[0];
        pure[1] = p[1];
        std::swap(to_bits, trial);
      }
    }
  }
  // A split costs products a pass over every row besides the bytes they read (the bit pass writes all of y
  // and reads every tile-row pointer, the CSR bands go through a temporary): charged that, a split must beat
  // both one-part forms, which products run in one pass.
  double predicted = split;
  if (opts.charge_split && std::isfinite(opts.bits_bias) && opts.bits_bias > 0) {
    const double charged =
        split + (by_time ? costs.split_row * double(g.n) : double(detail::hybrid_split_overhead_bytes(g.n)));
    predicted = charged;
    if (pure[0] <= pure[1] && pure[0] <= charged) {
      Kokkos::deep_copy(exec, to_bits, std::uint8_t(0));
      predicted = pure[0];
    } else if (pure[1] < pure[0] && pure[1] <= charged) {
      Kokkos::deep_copy(exec, to_bits, std::uint8_t(1));
      predicted = pure[1];
    }
  }

  hybrid_matrix<mem> h;
  h.n = g.n;
  h.kind = g.kind;
  h.rule = opts.rule;
  h.predicted_cost = predicted;
  // Where each CSR band goes in the CSR part (a scan of the flags).
  auto slot = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::hybrid::band_slot", offset_t(n_bands) + 1);
  Kokkos::parallel_for("bitgraph::hybrid::csr_band_flags", policy(exec, 0, n_bands),
                       detail::hybrid_csr_band_flags<mem>{to_bits, slot});
  const offset_t csr_bands = detail::exclusive_scan(exec, slot, "bitgraph::hybrid::scan_bands");
  // The bit part: B2SR of the CSR with the CSR bands' rows emptied (of the CSR itself when no band is CSR,
  // which spares a copy of every column id).
  if (csr_bands == 0) {
    h.bits = to_b2sr(exec, g, {t, bit_order::row_major});
  } else {
    csr_graph<mem> kept;
    kept.n = g.n;
    kept.kind = g.kind;
    kept.row_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::hybrid::bit_rows", offset_t(g.n) + 1);
    Kokkos::parallel_for("bitgraph::hybrid::bit_counts", policy(exec, 0, g.n),
                         detail::hybrid_filter_counts<mem>{g.row_ptr, to_bits, 1, kept.row_ptr});
    kept.nnz = detail::exclusive_scan(exec, kept.row_ptr, "bitgraph::hybrid::scan_bit_rows");
    kept.col_idx = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::hybrid::bit_cols", kept.nnz, false);
    Kokkos::parallel_for("bitgraph::hybrid::bit_fill", policy(exec, 0, g.n),
                         detail::hybrid_copy_rows<mem>{g.row_ptr, g.col_idx, kept.row_ptr, kept.col_idx});
    h.bits = to_b2sr(exec, kept, {t, bit_order::row_major});
  }
  // The CSR part: the other bands' rows, band after band.
  h.csr_bands = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::hybrid::csr_bands", csr_bands, false);
  Kokkos::parallel_for("bitgraph::hybrid::list_bands", policy(exec, 0, n_bands),
                       detail::hybrid_list_bands<mem>{to_bits, slot, h.csr_bands});
  const offset_t local_rows = csr_bands * hybrid_band_rows;
  h.csr_row_ptr = allocate_view<Kokkos::View<offset_t*, mem>>("bitgraph::hybrid::csr_row_ptr", local_rows + 1);
  using offset_policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
  Kokkos::parallel_for("bitgraph::hybrid::csr_counts", offset_policy(exec, 0, local_rows),
                       detail::hybrid_local_counts<mem>{g.row_ptr, h.csr_bands, g.n, h.csr_row_ptr});
  h.csr_nnz = detail::exclusive_scan(exec, h.csr_row_ptr, "bitgraph::hybrid::scan_csr_rows");
  h.csr_col_idx = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::hybrid::csr_col_idx", h.csr_nnz, false);
  Kokkos::parallel_for("bitgraph::hybrid::csr_fill", offset_policy(exec, 0, local_rows),
                       detail::hybrid_local_fill<mem>{g.row_ptr, g.col_idx, h.csr_bands, h.csr_row_ptr, h.csr_col_idx});
  h.csr_longest_row = detail::longest_span(exec, h.csr_row_ptr, local_rows, "bitgraph::hybrid::csr_longest_row");
  h.nnz = h.bits.nnz + h.csr_nnz;
  const auto bits_report = detail::make_storage_report(t, g.n, h.bits.nnz, h.bits.n_tiles);
  h.bits_bytes = h.bits.n_tiles ? bits_report.b2sr_bytes : 0;
  h.csr_bytes = csr_bands ? 4 * (local_rows + 1) + 4 * h.csr_nnz + 4 * csr_bands : 0;
  return h;
}

}  // namespace bitgraph
