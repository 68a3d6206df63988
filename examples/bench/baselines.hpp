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

/// Kernels of the baselines, as named functors (no extended lambdas in headers: docs/dispatch.md).
namespace kernels {

template <class Mem, class Out>
struct narrow_copy {
  Kokkos::View<const offset_t*, Mem> in;
  Kokkos::View<Out*, Mem> out;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { out(i) = static_cast<Out>(in(i)); }
};

template <class Mem>
struct narrow_columns {
  Kokkos::View<const vertex_t*, Mem> in;
  Kokkos::View<std::int32_t*, Mem> out;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t p) const { out(p) = static_cast<std::int32_t>(in(p)); }
};

template <class ExecSpace>
struct spmv_rows {
  using mem = memory_space_t<ExecSpace>;
  using member = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Kokkos::View<const std::int32_t*, mem> rp;
  Kokkos::View<const std::int64_t*, mem> rp64;
  Kokkos::View<const std::int32_t*, mem> col;
  Kokkos::View<const float*, mem> val;
  Kokkos::View<const float*, mem> x;
  Kokkos::View<float*, mem> y;
  std::int64_t n;
  bool wide;
  KOKKOS_INLINE_FUNCTION void operator()(const member& m) const {
    const std::int64_t row = std::int64_t(m.league_rank()) * m.team_size() + m.team_rank();
    if (row >= n) return;
    const std::int64_t b = wide ? rp64(row) : rp(row), e = wide ? rp64(row + 1) : rp(row + 1);
    float sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(m, static_cast<int>(e - b)),
        [&](const int k, float& acc) { acc += val(b + k) * x(col(b + k)); }, sum);
    Kokkos::single(Kokkos::PerThread(m), [&]() { y(row) = sum; });
  }
};

template <class Mem>
struct bfs_bottom_up {
  Kokkos::View<const offset_t*, Mem> irp;
  Kokkos::View<const vertex_t*, Mem> ici;
  Kokkos::View<level_t*, Mem> levels;
  Kokkos::View<vertex_t*, Mem> qb;
  Kokkos::View<offset_t*, Mem> counter;
  level_t prev;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v) const {
    if (levels(v) != unreached_level) return;
    for (offset_t p = irp(v); p < irp(v + 1); ++p) {
      if (levels(ici(p)) == prev) {
        levels(v) = prev + 1;
        qb(atomic_fetch_add_offset(&counter(0), 1)) = v;
        break;
      }
    }
  }
};

template <class Mem>
struct bfs_top_down {
  Kokkos::View<const offset_t*, Mem> orp;
  Kokkos::View<const vertex_t*, Mem> oci;
  Kokkos::View<const vertex_t*, Mem> qa;
  Kokkos::View<level_t*, Mem> levels;
  Kokkos::View<vertex_t*, Mem> qb;
  Kokkos::View<offset_t*, Mem> counter;
  level_t prev;
  KOKKOS_INLINE_FUNCTION void operator()(const offset_t q) const {
    const vertex_t u = qa(q);
    for (offset_t p = orp(u); p < orp(u + 1); ++p) {
      const vertex_t v = oci(p);
      if (levels(v) == unreached_level &&
          Kokkos::atomic_compare_exchange(&levels(v), unreached_level, level_t(prev + 1)) == unreached_level) {
        qb(atomic_fetch_add_offset(&counter(0), 1)) = v;
      }
    }
  }
};

template <class Mem>
struct pr_contrib {
  Kokkos::View<const offset_t*, Mem> orp;
  Kokkos::View<const double*, Mem> r;
  Kokkos::View<double*, Mem> contrib;
  double damping;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t u, double& acc) const {
    const offset_t deg = orp(u + 1) - orp(u);
    contrib(u) = deg ? damping * r(u) / double(deg) : 0.0;
    if (!deg) acc += r(u);
  }
};

template <class Mem>
struct pr_pull {
  Kokkos::View<const offset_t*, Mem> irp;
  Kokkos::View<const vertex_t*, Mem> ici;
  Kokkos::View<const double*, Mem> contrib;
  Kokkos::View<double*, Mem> r;
  double teleport;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t v, double& acc) const {
    double s = teleport;
    for (offset_t p = irp(v); p < irp(v + 1); ++p) s += contrib(ici(p));
    acc += s > r(v) ? s - r(v) : r(v) - s;
    r(v) = s;
  }
};

/// The scalar products of A·B row by row: Σ over A(i, k) of |B(k, :)| (SpGEMM's "flops"), to decide whether a
/// product fits before forming it.
template <class Mem>
struct product_count {
  Kokkos::View<const offset_t*, Mem> arp;
  Kokkos::View<const vertex_t*, Mem> aci;
  Kokkos::View<const offset_t*, Mem> brp;
  KOKKOS_INLINE_FUNCTION void operator()(const vertex_t i, std::uint64_t& acc) const {
    for (offset_t p = arp(i); p < arp(i + 1); ++p) acc += brp(aci(p) + 1) - brp(aci(p));
  }
};

/// Σ of a value array (64-bit), to check a product's counts.
template <class T, class Mem>
struct value_sum {
  Kokkos::View<const T*, Mem> v;
  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t i, std::uint64_t& acc) const { acc += v(i); }
};

}  // namespace kernels

template <class ExecSpace>
csr_fp32<memory_space_t<ExecSpace>> make_csr_fp32(const ExecSpace& exec,
                                                  const csr_graph<memory_space_t<ExecSpace>>& g) {
  using mem = memory_space_t<ExecSpace>;
  csr_fp32<mem> c;
  c.n = static_cast<std::int32_t>(g.n);
  c.nnz = static_cast<std::int64_t>(g.nnz);
  c.wide = g.nnz >= (offset_t(1) << 31);
  if (c.wide) {
    c.row_ptr64 = Kokkos::View<std::int64_t*, mem>("bench::row_ptr64", g.n + 1);
    Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n + 1),
                         kernels::narrow_copy<mem, std::int64_t>{g.row_ptr, c.row_ptr64});
  } else {
    c.row_ptr = Kokkos::View<std::int32_t*, mem>("bench::row_ptr", g.n + 1);
    Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n + 1),
                         kernels::narrow_copy<mem, std::int32_t>{g.row_ptr, c.row_ptr});
  }
  c.col = Kokkos::View<std::int32_t*, mem>("bench::col", g.nnz);
  c.val = Kokkos::View<float*, mem>("bench::val", g.nnz);
  Kokkos::parallel_for(Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, g.nnz),
                       kernels::narrow_columns<mem>{g.col_idx, c.col});
  Kokkos::deep_copy(exec, c.val, 1.0f);
  exec.fence();
  return c;
}

/// y = A x with fp32 values, one team per row block and vector lanes over the row (Kokkos' own CSR
/// SpMV shape). The portable baseline where neither Kokkos Kernels nor cuSPARSE is available.
template <class ExecSpace>
void spmv_fp32(const ExecSpace& exec, const csr_fp32<memory_space_t<ExecSpace>>& a,
               Kokkos::View<const float*, memory_space_t<ExecSpace>> x,
               Kokkos::View<float*, memory_space_t<ExecSpace>> y) {
  using policy = Kokkos::TeamPolicy<ExecSpace>;
  const int vec = is_cuda_space_v<ExecSpace> ? 8 : 1;
  const int team = is_cuda_space_v<ExecSpace> ? 32 : 1;
  const std::int64_t n = a.n;
  Kokkos::parallel_for("bench::spmv_fp32", policy(exec, static_cast<int>((n + team - 1) / team), team, vec),
                       kernels::spmv_rows<ExecSpace>{a.row_ptr, a.row_ptr64, a.col, a.val, x, y, n, a.wide});
}

/// Direction-optimising BFS on CSR (Beamer / GAP heuristic): top-down with a frontier queue and
/// atomics, bottom-up with one thread per unvisited vertex scanning its in-edges and stopping at the
/// first parent. Levels only. Returns the depth.
template <class ExecSpace>
int csr_pushpull_bfs(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& out,
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
    if (!bottom_up && frontier_edges > double(out.nnz) / 14.0)
      bottom_up = true;
    else if (bottom_up && double(nq) < double(n) / 24.0)
      bottom_up = false;
    Kokkos::deep_copy(exec, counter, offset_t(0));
    const level_t prev = d - 1;
    if (bottom_up) {
      Kokkos::parallel_for("bench::bfs_bottom_up", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                           kernels::bfs_bottom_up<mem>{in.row_ptr, in.col_idx, levels, qb, counter, prev});
    } else {
      Kokkos::parallel_for("bench::bfs_top_down",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<offset_t>>(exec, 0, nq),
                           kernels::bfs_top_down<mem>{out.row_ptr, out.col_idx, qa, levels, qb, counter, prev});
    }
    Kokkos::deep_copy(exec, nq, Kokkos::subview(counter, 0));
    auto t = qa;
    qa = qb;
    qb = t;
  }
  return d - 1;
}

/// One PageRank iteration on CSR (pull over in-edges, double precision): r(v) = teleport + Σ contrib(u),
/// contrib(u) = d r(u) / outdeg(u). Returns the L1 change.
template <class ExecSpace>
double csr_pagerank_iteration(const ExecSpace& exec, const csr_graph<memory_space_t<ExecSpace>>& out,
                              const csr_graph<memory_space_t<ExecSpace>>& in,
                              Kokkos::View<double*, memory_space_t<ExecSpace>> r,
                              Kokkos::View<double*, memory_space_t<ExecSpace>> contrib, double damping) {
  using mem = memory_space_t<ExecSpace>;
  const vertex_t n = out.n;
  double sink = 0;
  Kokkos::parallel_reduce("bench::pr_contrib", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                          kernels::pr_contrib<mem>{out.row_ptr, r, contrib, damping}, sink);
  const double teleport = (1.0 - damping) / n + damping * sink / n;
  double change = 0;
  Kokkos::parallel_reduce("bench::pr_pull", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                          kernels::pr_pull<mem>{in.row_ptr, in.col_idx, contrib, r, teleport}, change);
  return change;
}

}  // namespace bitgraph::bench
