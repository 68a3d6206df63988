// Baselines of the benchmark, written with plain Kokkos on CSR (no bits): a direction-optimising
// push-pull BFS, PageRank and SpMV with fp32 values — the comparison points the bit kernels must beat.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>

#include "bitgraph/core/execution.hpp"
#include "bitgraph/formats/csr.hpp"

namespace bitgraph::bench {

/// CSR with fp32 values of 1 and 32-bit indices, as cuSPARSE and the paper's baselines store it.
template <class MemorySpace>
struct csr_fp32 {
  std::int32_t n = 0;
  std::int64_t nnz = 0;
  Kokkos::View<std::int32_t*, MemorySpace> row_ptr;  // fits when nnz < 2^31; else `wide` is set
  Kokkos::View<std::int64_t*, MemorySpace> row_ptr64;
  Kokkos::View<std::int32_t*, MemorySpace> col;
  Kokkos::View<float*, MemorySpace> val;
  bool wide = false;
};

template <class ExecSpace>
BITGRAPH_TU_LOCAL csr_fp32<memory_space_t<ExecSpace>> make_csr_fp32(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& g) {
  using mem = memory_space_t<ExecSpace>;
  csr_fp32<mem> c;
  c.n = static_cast<std::int32_t>(g.n);
  c.nnz = static_cast<std::int64_t>(g.nnz);
  c.wide = g.nnz >= (offset_t(1) << 31);
  auto rp = g.row_ptr;
  auto ci = g.col_idx;
  if (c.wide) {
    c.row_ptr64 = Kokkos::View<std::int64_t*, mem>("bench::row_ptr64", g.n + 1);
    auto r = c.row_ptr64;
    Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n + 1), KOKKOS_LAMBDA(const std::size_t i) { r(i) = rp(i); });
  } else {
    c.row_ptr = Kokkos::View<std::int32_t*, mem>("bench::row_ptr", g.n + 1);
    auto r = c.row_ptr;
    Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n + 1),
                         KOKKOS_LAMBDA(const std::size_t i) { r(i) = static_cast<std::int32_t>(rp(i)); });
  }
  c.col = Kokkos::View<std::int32_t*, mem>("bench::col", g.nnz);
  c.val = Kokkos::View<float*, mem>("bench::val", g.nnz);
  auto col = c.col;
  Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.nnz),
                       KOKKOS_LAMBDA(const offset_t p) { col(p) = static_cast<std::int32_t>(ci(p)); });
  Kokkos::deep_copy(exec, c.val, 1.0f);
  exec.fence();
  return c;
}

/// y = A x with fp32 values, one team per row block and vector lanes over the row (Kokkos' own CSR
/// SpMV shape). The portable baseline where neither Kokkos Kernels nor cuSPARSE is available.
template <class ExecSpace>
BITGRAPH_TU_LOCAL void spmv_fp32(const ExecSpace& exec, const csr_fp32<memory_space_t<ExecSpace>>& a,
               Kokkos::View<const float*, memory_space_t<ExecSpace>> x, Kokkos::View<float*, memory_space_t<ExecSpace>> y) {
  using policy = Kokkos::TeamPolicy<ExecSpace>;
  const int vec = is_cuda_space_v<ExecSpace> ? 8 : 1;
  const int team = is_cuda_space_v<ExecSpace> ? 32 : 1;
  const std::int64_t n = a.n;
  auto rp = a.row_ptr;
  auto rp64 = a.row_ptr64;
  const bool wide = a.wide;
  auto col = a.col;
  auto val = a.val;
  Kokkos::parallel_for(
      "bench::spmv_fp32", policy(exec, static_cast<int>((n + team - 1) / team), team, vec),
      KOKKOS_LAMBDA(const typename policy::member_type& m) {
        const std::int64_t row = std::int64_t(m.league_rank()) * m.team_size() + m.team_rank();
        if (row >= n) return;
        const std::int64_t b = wide ? rp64(row) : rp(row), e = wide ? rp64(row + 1) : rp(row + 1);
        float sum = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(m, static_cast<int>(e - b)),
            [&](const int k, float& acc) { acc += val(b + k) * x(col(b + k)); }, sum);
        Kokkos::single(Kokkos::PerThread(m), [&]() { y(row) = sum; });
      });
}

/// Direction-optimising BFS on CSR (Beamer / GAP heuristic): top-down with a frontier queue and
/// atomics, bottom-up with one thread per unvisited vertex scanning its in-edges and stopping at the
/// first parent. Levels only. Returns the depth.
template <class ExecSpace>
BITGRAPH_TU_LOCAL int csr_pushpull_bfs(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& out,
                     const csr_graph<memory_space_t<ExecSpace>>& in, vertex_t source,
                     Kokkos::View<level_t*, memory_space_t<ExecSpace>> levels,
                     Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> queue_a,
                     Kokkos::View<vertex_t*, memory_space_t<ExecSpace>> queue_b,
                     Kokkos::View<offset_t*, memory_space_t<ExecSpace>> counter) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = out.n;
  Kokkos::deep_copy(exec, levels, unreached_level);
  Kokkos::deep_copy(exec, Kokkos::subview(levels, source), level_t(0));
  Kokkos::deep_copy(exec, Kokkos::subview(queue_a, 0), source);
  auto orp = out.row_ptr;
  auto oci = out.col_idx;
  auto irp = in.row_ptr;
  auto ici = in.col_idx;
  const double edges_per_vertex = n ? double(out.nnz) / n : 0.0;
  offset_t nq = 1;
  bool bottom_up = false;
  level_t d = 0;
  auto qa = queue_a, qb = queue_b;
  while (nq > 0) {
    ++d;
    // GAP's switch: bottom-up when the frontier's edges exceed a fraction (1/14) of the edges;
    // back to top-down when the frontier falls below n / 24.
    const double frontier_edges = double(nq) * edges_per_vertex;
    if (!bottom_up && frontier_edges > double(out.nnz) / 14.0) bottom_up = true;
    else if (bottom_up && double(nq) < double(n) / 24.0) bottom_up = false;
    Kokkos::deep_copy(exec, counter, offset_t(0));
    const level_t prev = d - 1;
    if (bottom_up) {
      Kokkos::parallel_for(
          "bench::bfs_bottom_up", Kokkos::RangePolicy<ExecSpace>(exec, 0, n), KOKKOS_LAMBDA(const vertex_t v) {
            if (levels(v) != unreached_level) return;
            for (offset_t p = irp(v); p < irp(v + 1); ++p) {
              if (levels(ici(p)) == prev) {
                levels(v) = prev + 1;
                qb(atomic_fetch_add_offset(&counter(0), 1)) = v;
                break;
              }
            }
          });
    } else {
      Kokkos::parallel_for(
          "bench::bfs_top_down", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nq),
          KOKKOS_LAMBDA(const offset_t q) {
            const vertex_t u = qa(q);
            for (offset_t p = orp(u); p < orp(u + 1); ++p) {
              const vertex_t v = oci(p);
              if (levels(v) == unreached_level &&
                  Kokkos::atomic_compare_exchange(&levels(v), unreached_level, level_t(prev + 1)) == unreached_level) {
                qb(atomic_fetch_add_offset(&counter(0), 1)) = v;
              }
            }
          });
    }
    Kokkos::deep_copy(exec, nq, Kokkos::subview(counter, 0));
    auto t = qa;
    qa = qb;
    qb = t;
  }
  (void)sizeof(mem);
  return d - 1;
}

/// One PageRank iteration on CSR (pull over in-edges, double precision): r(v) = teleport + Σ contrib(u),
/// contrib(u) = d r(u) / outdeg(u). Returns the L1 change.
template <class ExecSpace>
BITGRAPH_TU_LOCAL double csr_pagerank_iteration(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& out,
                              const csr_graph<memory_space_t<ExecSpace>>& in, Kokkos::View<double*, memory_space_t<ExecSpace>> r,
                              Kokkos::View<double*, memory_space_t<ExecSpace>> contrib, double damping) {
  const vertex_t n = out.n;
  auto orp = out.row_ptr;
  auto irp = in.row_ptr;
  auto ici = in.col_idx;
  double sink = 0;
  Kokkos::parallel_reduce(
      "bench::pr_contrib", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const vertex_t u, double& acc) {
        const offset_t deg = orp(u + 1) - orp(u);
        contrib(u) = deg ? damping * r(u) / double(deg) : 0.0;
        if (!deg) acc += r(u);
      },
      sink);
  const double teleport = (1.0 - damping) / n + damping * sink / n;
  double change = 0;
  Kokkos::parallel_reduce(
      "bench::pr_pull", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const vertex_t v, double& acc) {
        double s = teleport;
        for (offset_t p = irp(v); p < irp(v + 1); ++p) s += contrib(ici(p));
        acc += Kokkos::Experimental::fabs(s - r(v));
        r(v) = s;
      },
      change);
  return change;
}

}  // namespace bitgraph::bench
