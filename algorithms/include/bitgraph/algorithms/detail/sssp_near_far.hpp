// Near-far SSSP (Davidson, Baxter, Garland, Owens 2014; delta-stepping with two buckets) for `sssp` on
// weighted graphs: a vertex queue is relaxed round after round while the distances it produces stay below a
// threshold; farther ones wait in a far pile, which the next phase (threshold + delta) splits.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "bitgraph/core/error.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/core/types.hpp"
#include "bitgraph/formats/csr.hpp"

namespace bitgraph::detail {

/// "bitgraph::sssp::near_relax", one thread per queued vertex u: every out-edge (u, v, w) lowers dist(v) to
/// dist(u) + w by an atomic min; a winner goes to the next near queue when below `threshold` (once per round:
/// the stamp), else to the far pile (duplicates there are harmless: the split drops stale ones).
template <class Mem>
struct sssp_near_relax_functor {
  Kokkos::View<const offset_t*, Mem> row_ptr;
  Kokkos::View<const vertex_t*, Mem> col;
  Kokkos::View<const double*, Mem> weight;
  Kokkos::View<double*, Mem> dist;
  Kokkos::View<const vertex_t*, Mem> near;
  Kokkos::View<vertex_t*, Mem> next;
  Kokkos::View<vertex_t*, Mem> far;
  Kokkos::View<std::uint32_t*, Mem> stamp;
  Kokkos::View<offset_t*, Mem> counters;  ///< [0] next length, [1] far length
  double threshold;
  std::uint32_t round;
  offset_t far_capacity;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    const vertex_t u = near(q);
    const double du = dist(u);
    for (offset_t p = row_ptr(u); p < row_ptr(u + 1); ++p) {
      const vertex_t v = col(p);
      const double nd = du + weight(p);
      if (!(nd < dist(v))) continue;  // a plain read first: most relaxations do not improve
      const double old = Kokkos::atomic_fetch_min(&dist(v), nd);
      if (!(nd < old)) continue;
      if (nd < threshold) {
        if (Kokkos::atomic_exchange(&stamp(v), round) != round) next(atomic_fetch_add_offset(&counters(0), 1)) = v;
      } else {
        const offset_t k = atomic_fetch_add_offset(&counters(1), 1);
        if (k < far_capacity) far(k) = v;
      }
    }
  }
};

/// "bitgraph::sssp::far_split", one thread per far entry: a vertex whose distance fell below the new threshold
/// joins the near queue (once: the stamp); one still at or beyond it stays (compacted into `kept`, once).
template <class Mem>
struct sssp_far_split_functor {
  Kokkos::View<const double*, Mem> dist;
  Kokkos::View<const vertex_t*, Mem> far;
  Kokkos::View<vertex_t*, Mem> near;
  Kokkos::View<vertex_t*, Mem> kept;
  Kokkos::View<std::uint32_t*, Mem> stamp;
  Kokkos::View<offset_t*, Mem> counters;  ///< [0] near length, [2] kept length
  double previous, threshold;
  std::uint32_t round;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k) const {
    const vertex_t v = far(k);
    // Below the last phase's threshold: it was queued and relaxed then, the entry is stale.
    if (dist(v) < previous) return;
    if (dist(v) < threshold) {
      if (Kokkos::atomic_exchange(&stamp(v), round) != round) near(atomic_fetch_add_offset(&counters(0), 1)) = v;
    } else if (Kokkos::atomic_exchange(&stamp(v), round) != round) {
      kept(atomic_fetch_add_offset(&counters(2), 1)) = v;  // each vertex kept once per split
    }
  }
};

/// "bitgraph::sssp::far_min": the smallest distance in the far pile (where the next phase starts).
template <class Mem>
struct sssp_far_min_functor {
  Kokkos::View<const double*, Mem> dist;
  Kokkos::View<const vertex_t*, Mem> far;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t k, double& acc) const {
    const double d = dist(far(k));
    if (d < acc) acc = d;
  }
};

/// "bitgraph::sssp::weight_stats": the weights' sum (for the automatic delta).
template <class Mem>
struct sssp_weight_sum_functor {
  Kokkos::View<const double*, Mem> weight;

  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p, double& acc) const { acc += weight(p); }
};

/// Near-far SSSP from `source` over `a`'s weights (non-negative, checked by the caller) into `dist` (filled with
/// +infinity except dist(source) = 0). `delta` > 0 is the phase width; `max_rounds` > 0 stops after that many
/// relaxation rounds (then the distances are upper bounds). Returns the rounds run and whether it finished.
/// Work: the out-edges of every vertex queued in a round (a vertex is queued again only when its distance
/// improves), plus the far pile's size per split. Reads three counters back per round and per split.
template <class ExecSpace>
std::pair<int, bool> sssp_near_far(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a,
                                   vertex_t source, Kokkos::View<double*, memory_space_t<ExecSpace>> dist, double delta,
                                   int max_rounds) {
  using mem = memory_space_t<ExecSpace>;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>;
  const vertex_t n = a.n;
  // A round adds at most one far entry per edge of its queue (each vertex is queued once per round: m), and a
  // split leaves at most n (each vertex once): m + n bounds the pile.
  const offset_t far_capacity = a.nnz + offset_t(n);
  auto near = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sssp::near", n, false);
  auto next = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sssp::next", n, false);
  auto far = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sssp::far", far_capacity, false);
  auto kept = allocate_view<Kokkos::View<vertex_t*, mem>>("bitgraph::sssp::kept", n, false);
  auto stamp = allocate_view<Kokkos::View<std::uint32_t*, mem>>("bitgraph::sssp::stamp", n);
  Kokkos::View<offset_t*, mem> counters("bitgraph::sssp::counters", 3);
  offset_t h[3] = {0, 0, 0};
  using host_view = Kokkos::View<offset_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::deep_copy(exec, Kokkos::subview(near, 0), source);
  offset_t near_len = 1, far_len = 0;
  double threshold = delta;
  std::uint32_t round = 0;  // stamps: 0 = never queued
  int rounds = 0;
  // Splits the far pile at `threshold`: entries below `previous` are stale (relaxed already), those below
  // `threshold` join the near queue, the rest stay, each vertex once. With previous == threshold it only compacts.
  const auto split = [&](double previous) {
    ++round;
    h[0] = near_len;
    h[2] = 0;
    Kokkos::deep_copy(exec, counters, host_view(h, 3));
    Kokkos::parallel_for(
        "bitgraph::sssp::far_split", range(exec, 0, far_len),
        sssp_far_split_functor<mem>{dist, far, near, kept, stamp, counters, previous, threshold, round});
    Kokkos::deep_copy(exec, host_view(h, 3), counters);
    exec.fence();
    near_len = h[0];
    far_len = h[2];
    if (far_len > 0)
      Kokkos::deep_copy(exec, Kokkos::subview(far, std::make_pair(offset_t(0), far_len)),
                        Kokkos::subview(kept, std::make_pair(offset_t(0), far_len)));
  };
  while (true) {
    while (near_len > 0) {
      if (max_rounds > 0 && rounds >= max_rounds) return {rounds, false};
      // A round adds at most m entries: compact the pile to at most n first when it could overflow.
      if (far_len > offset_t(n)) split(threshold);
      ++rounds;
      ++round;
      h[0] = 0;
      h[1] = far_len;
      Kokkos::deep_copy(exec, counters, host_view(h, 3));
      Kokkos::parallel_for("bitgraph::sssp::near_relax", range(exec, 0, near_len),
                           sssp_near_relax_functor<mem>{a.row_ptr, a.col_idx, a.weights, dist, near, next, far, stamp,
                                                        counters, threshold, round, far_capacity});
      Kokkos::deep_copy(exec, host_view(h, 3), counters);
      exec.fence();
      BITGRAPH_REQUIRE(h[1] <= far_capacity, error, "sssp", "the far pile outgrew its bound (", far_capacity, ")");
      std::swap(near, next);
      near_len = h[0];
      far_len = h[1];
    }
    if (far_len == 0) return {rounds, true};
    // Next phase: from the nearest far distance (skipping empty phases), then split the pile.
    double lo = std::numeric_limits<double>::infinity();
    Kokkos::parallel_reduce("bitgraph::sssp::far_min", range(exec, 0, far_len), sssp_far_min_functor<mem>{dist, far},
                            Kokkos::Min<double>(lo));
    const double previous = threshold;
    threshold = std::max(threshold, lo) + delta;
    // Where delta is lost to rounding (distances near DBL_MAX) the phases could not advance: the last one takes
    // everything (Bellman-Ford rounds from there).
    if (!(threshold > previous && threshold > lo)) threshold = std::numeric_limits<double>::infinity();
    split(previous);
  }
}

/// The automatic phase width: the mean weight times 32 over the mean degree (Davidson et al.: about a warp's
/// worth of relaxations per vertex and phase), never 0.
template <class ExecSpace>
double sssp_default_delta(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& a) {
  if (a.nnz == 0 || a.n == 0) return 1.0;
  double sum = 0;
  Kokkos::parallel_reduce("bitgraph::sssp::weight_sum",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, a.nnz),
                          sssp_weight_sum_functor<memory_space_t<ExecSpace>>{a.weights}, sum);
  const double mean_w = sum / double(a.nnz), mean_deg = double(a.nnz) / double(a.n);
  const double d = mean_w * 32.0 / std::max(1.0, mean_deg);
  return d > 0 && std::isfinite(d) ? d : 1.0;
}

}  // namespace bitgraph::detail
