// CUDA leaf of bvss_bfs: Blest's persistent cooperative kernel (blest_kernel.hpp), all levels in one launch
// with b1 tensor-core MMAs, on devices with cooperative launch and sm_80+. `generic` goes back to the
// generic core.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

#include "bitgraph/backends/cuda/blest_kernel.hpp"
#include "bitgraph/backends/cuda/check.hpp"
#include "bitgraph/core/dispatch.hpp"
#include "bitgraph/core/execution.hpp"
#include "bitgraph/ops/detail/bvss_bfs_generic.hpp"
#include "bitgraph/ops/options.hpp"

namespace bitgraph::detail {

template <>
struct bvss_bfs_impl<Kokkos::Cuda> {
  using mem = Kokkos::CudaSpace;
  using generic = bvss_bfs_generic<Kokkos::Cuda>;

  /// What a launch needs to know of the current device, queried once per device and thread (the queries cost
  /// microseconds; a whole traversal of kron:20 takes 0.2 ms): the SM count (0 without cooperative launch or
  /// b1 MMA, sm_80+), the SM's shared memory and what each block reserves of it, and per kernel the co-resident
  /// blocks for the last shared-memory size asked and its static shared memory.
  struct device_facts {
    int dev = -1, sms = 0, smem_per_sm = 0, reserved_per_block = 0;
    std::size_t smem[3][2] = {
        {~std::size_t(0), ~std::size_t(0)}, {~std::size_t(0), ~std::size_t(0)}, {~std::size_t(0), ~std::size_t(0)}};
    int per_sm[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    int static_smem[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};  // -1: not queried yet
  };

  /// A kernel's shared-memory carve-out is an attribute every host thread shares, so it is set, and the occupancy it
  /// bears on is counted, under one process-wide lock held until the launch is queued; beside it the percent last set
  /// per device and kernel (-1: the driver's default). A per-thread record went stale when another thread set another
  /// value, and a launch could then meet a carve-out too small for its blocks.
  struct carveout_registry {
    std::mutex lock;
    std::map<int, std::array<int, 6>> percent;
  };

  static carveout_registry& carveouts() {
    static carveout_registry r;
    return r;
  }

  static device_facts& facts() {
    thread_local device_facts f;
    int dev = 0;
    BITGRAPH_CUDA_CHECK("bvss_bfs", "cudaGetDevice", cudaGetDevice(&dev));
    if (f.dev != dev) {
      int sms = 0, coop = 0, cc = 0;
      BITGRAPH_CUDA_CHECK("bvss_bfs", "device attribute",
                          cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
      BITGRAPH_CUDA_CHECK("bvss_bfs", "device attribute",
                          cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
      BITGRAPH_CUDA_CHECK("bvss_bfs", "device attribute",
                          cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, dev));
      f = device_facts{};
      f.dev = dev;
      f.sms = coop && cc >= 8 ? sms : 0;
      BITGRAPH_CUDA_CHECK("bvss_bfs", "device attribute",
                          cudaDeviceGetAttribute(&f.smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
      BITGRAPH_CUDA_CHECK("bvss_bfs", "device attribute",
                          cudaDeviceGetAttribute(&f.reserved_per_block, cudaDevAttrReservedSharedMemoryPerBlock, dev));
    }
    return f;
  }

  static int tensor_core_sms() { return facts().sms; }

  /// The kernel of an update scheme (cuda::blest_eager, _lazy or _lazy_levels) and block size.
  static void* kernel(int updates, bool big) {
    switch (updates) {
      case cuda::blest_lazy:
        return big ? reinterpret_cast<void*>(cuda::blest_kernel<cuda::blest_lazy, 1024>)
                   : reinterpret_cast<void*>(cuda::blest_kernel<cuda::blest_lazy, 256>);
      case cuda::blest_lazy_levels:
        return big ? reinterpret_cast<void*>(cuda::blest_kernel<cuda::blest_lazy_levels, 1024>)
                   : reinterpret_cast<void*>(cuda::blest_kernel<cuda::blest_lazy_levels, 256>);
      default:
        return big ? reinterpret_cast<void*>(cuda::blest_kernel<cuda::blest_eager, 1024>)
                   : reinterpret_cast<void*>(cuda::blest_kernel<cuda::blest_eager, 256>);
    }
  }

  /// Co-resident blocks per SM of a kernel (`updates`, 256 or 1024 (`big`) threads) with `smem` bytes of dynamic
  /// shared memory. The caller holds `carveouts().lock`.
  static int blocks_per_sm(int updates, bool big, void* fn, int threads, std::size_t smem) {
    device_facts& f = facts();
    if (f.smem[updates][big] != smem) {
      set_carveout(updates, big, fn, -1);  // counted at the driver's default, not at a carve-out set for other blocks
      int per_sm = 0;
      BITGRAPH_CUDA_CHECK("bvss_bfs", "occupancy",
                          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, threads, smem));
      f.smem[updates][big] = smem;
      f.per_sm[updates][big] = per_sm;
    }
    return f.per_sm[updates][big];
  }

  /// Sets the kernel's shared-memory carve-out preference (percent of the SM's shared memory; -1 the driver's
  /// default) unless it is set already. The caller holds `carveouts().lock`.
  static void set_carveout(int updates, bool big, void* fn, int percent) {
    auto [at, fresh] = carveouts().percent.try_emplace(facts().dev);
    if (fresh) at->second.fill(-1);
    int& last = at->second[std::size_t(updates) * 2 + (big ? 1 : 0)];
    if (last == percent) return;
    BITGRAPH_CUDA_CHECK("bvss_bfs", "shared-memory carve-out",
                        cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, percent));
    last = percent;
  }

  /// Asks for the smallest carve-out that holds `blocks` resident blocks per SM with `smem` dynamic bytes each: the
  /// rest of the SM's unified memory is L1, where the bottom-up row scans and the relabel's gather find their lines
  /// again. Left to itself the driver gave the kernel the largest carve-out even without dynamic shared memory
  /// (docs/PERFORMANCE.md, thirtieth session). The caller holds `carveouts().lock`.
  static void prefer_l1(int updates, bool big, void* fn, int blocks, std::size_t smem) {
    device_facts& f = facts();
    if (f.smem_per_sm <= 0) return;
    if (f.static_smem[updates][big] < 0) {
      cudaFuncAttributes attr{};
      BITGRAPH_CUDA_CHECK("bvss_bfs", "kernel attributes", cudaFuncGetAttributes(&attr, fn));
      f.static_smem[updates][big] = static_cast<int>(attr.sharedSizeBytes);
    }
    const std::size_t need = std::size_t(blocks) * (smem + std::size_t(f.static_smem[updates][big]) +
                                                    std::size_t(std::max(f.reserved_per_block, 0)));
    const std::size_t per_sm = std::size_t(f.smem_per_sm);
    set_carveout(updates, big, fn, static_cast<int>(std::min<std::size_t>(100, (100 * need + per_sm - 1) / per_sm)));
  }

  static path_offer offer(const bvss_matrix<mem>& b) {
    path_offer o = generic::offer(b);
    if (tensor_core_sms() == 0)
      return o.refuse(op_algorithm::cuda_mma, "the device lacks cooperative launch or b1 MMA (sm_80+)");
    return o.offer(op_algorithm::cuda_mma);
  }

  static bvss_bfs_stats run(op_algorithm path, const Kokkos::Cuda& exec, const bvss_matrix<mem>& b, vertex_t source,
                            Kokkos::View<level_t*, mem> levels, bool lazy, const bvss_bfs_workspace<mem>& ws,
                            const csr_graph<mem>* pull, const bvss_bfs_options& opts,
                            const bvss_bfs_relabel<mem>* relabel) {
    if (path != op_algorithm::cuda_mma)
      return run_generic<generic>(exec, b, source, levels, lazy, ws, pull, opts, relabel);
    const int sms = tensor_core_sms();
    bvss_bfs_stats st;
    st.lazy = lazy;
    st.tensor_cores = true;
    // The kernel's prologue resets levels, stamps or bitmaps, the first queue and the counters: one launch.
    cuda::blest_state s;
    s.n = b.n;
    s.n_slice_sets = b.n_slice_sets;
    s.source = source;
    s.real_ptrs = b.real_ptrs.data();
    s.v2r = b.virtual_to_real.data();
    s.rows = reinterpret_cast<const uint4*>(b.row_ids.data());
    s.masks = b.masks.data();
    const bool bottom_up = pull != nullptr && opts.bottom_up_factor > 0;
    s.pull_ptr = bottom_up ? pull->row_ptr.data() : nullptr;
    s.pull_col = bottom_up ? pull->col_idx.data() : nullptr;
    s.bottom_up_factor = opts.bottom_up_factor;
    s.bottom_up_min_queue = opts.bottom_up_min_queue;
    s.bottom_up_scan_cost = opts.bottom_up_scan_cost;
    s.bottom_up_dense_degree = opts.bottom_up_dense_degree;
    s.avg_degree = bottom_up && b.n > 0 ? double(pull->nnz) / double(b.n) : 0.0;
    s.lazy_level_min_queue = lazy ? 0.0 : opts.lazy_level_min_queue;
    s.lazy_level_max_fanout = opts.lazy_level_max_fanout;
    s.levels = levels.data();
    s.levels_aligned = reinterpret_cast<std::uintptr_t>(levels.data()) % 16 == 0;
    s.queue[0] = reinterpret_cast<uint2*>(ws.queue_a.data());
    s.queue[1] = reinterpret_cast<uint2*>(ws.queue_b.data());
    s.queue_capacity = std::min(ws.queue_a.extent(0), ws.queue_b.extent(0));
    s.counters = ws.counters.data();
    s.pushed = ws.pushed.data();
    s.visited = ws.visited.data();
    s.visited_before = ws.visited_before.data();
    s.relabel_out = relabel != nullptr ? relabel->out.data() : nullptr;
    s.relabel_ids = relabel != nullptr ? relabel->ids.data() : nullptr;
    s.stats = ws.stats.data();
    // A pull CSR whose longest row is recorded and short has no hub rows (0: not recorded).
    const bool hubs = bottom_up && (pull->longest_row == 0 || pull->longest_row > bvss_hub_row);
    s.hubs = hubs ? ws.hubs.data() : nullptr;
    s.hub_capacity = hubs ? ws.hubs.extent(0) : 0;
    const std::uint32_t words = static_cast<std::uint32_t>((std::uint64_t(b.n) + 31) / 32);
    s.frontier_words = bottom_up && words <= cuda::blest_max_frontier_words ? words : 0;
    const std::size_t smem = std::size_t(s.frontier_words) * sizeof(std::uint32_t);
    // Small graphs of average degree 8 or more (the bitmap fits) run 1024-thread blocks: a quarter as many blocks
    // meet at each grid sync and build the bitmap (mycielski:16 median 0.122 -> 0.076 ms on the H100,
    // docs/PERFORMANCE.md); kron:22 and grid2d:2048 lost with them, so larger graphs and meshes keep 256.
    const bool dense = b.n > 0 && double(b.nnz) >= 8.0 * double(b.n);
    const bool big_blocks =
        opts.block_threads == 0 ? dense && words <= cuda::blest_max_frontier_words : opts.block_threads == 1024;
    const int threads = big_blocks ? 1024 : 256;
    const int updates =
        lazy ? cuda::blest_lazy : (s.lazy_level_min_queue > 0 ? cuda::blest_lazy_levels : cuda::blest_eager);
    void* fn = kernel(updates, big_blocks);
    // The global frontier bitmap: large graphs' bottom-up levels, in the kernels with lazy sweeps (blest_kernel.hpp).
    s.frontier_bits = bottom_up && s.frontier_words == 0 && updates != cuda::blest_eager &&
                              ws.frontier.extent(0) >= 2 * std::size_t(words)
                          ? ws.frontier.data()
                          : nullptr;
    // As many blocks as can be co-resident (a cooperative launch requires it), counted, and the carve-out set, under
    // the lock that keeps other threads' carve-outs out until this launch is queued.
    std::unique_lock<std::mutex> attributes(carveouts().lock);
    const int per_sm = blocks_per_sm(updates, big_blocks, fn, threads, smem);
    // Fewer resident blocks make each grid sync cheaper, more warps hide the latency of wide levels: a mesh
    // (thousands of narrow levels, grid-sync bound) runs fastest with 8 warps per SM, a graph of average degree 8 or
    // more (few wide levels, bottom-up scans) with 32 (measured on the H100, docs/PERFORMANCE.md).
    // BITGRAPH_BLEST_BLOCKS_PER_SM overrides the choice (for tuning).
    const int want_warps = dense ? 32 : 8;
    const int want_bps = std::max(1, want_warps * 32 / threads);
    int bps = per_sm > 0 ? std::min(per_sm, want_bps) : 1;
    if (const char* env = std::getenv("BITGRAPH_BLEST_BLOCKS_PER_SM"); env && *env) {
      const int want = std::atoi(env);
      if (want > 0) bps = std::min(want, per_sm > 0 ? per_sm : 1);
    }
    prefer_l1(updates, big_blocks, fn, bps, smem);
    const int blocks = bps * sms;
    // Discoveries counted per block where an SM holds more than eight warps; with eight (meshes), the block barrier
    // that adds cost more than the contention it spares (docs/PERFORMANCE.md).
    s.block_found = blocks > sms || threads > 256;
    // The level trace: a page-locked buffer the kernel writes (mapped, like the stats), allocated per traced call.
    constexpr unsigned long long max_traced_levels = 1ull << 20;
    Kokkos::View<unsigned long long*, readback_space_t<mem>> trace;
    s.trace = nullptr;
    s.trace_levels = 0;
    if (opts.trace_levels) {
      s.trace_levels = std::min<unsigned long long>(static_cast<unsigned long long>(b.n) + 1, max_traced_levels);
      trace = allocate_view<Kokkos::View<unsigned long long*, readback_space_t<mem>>>("bitgraph::bvss_bfs::trace",
                                                                                      4 * (s.trace_levels + 1));
      s.trace = trace.data();
    }
    void* args[] = {&s};
    const auto h0 = std::chrono::steady_clock::now();
    BITGRAPH_CUDA_CHECK("bvss_bfs", "cooperative launch",
                        cudaLaunchCooperativeKernel(fn, dim3(blocks), dim3(threads), args, smem, exec.cuda_stream()));
    const auto h1 = std::chrono::steady_clock::now();
    attributes.unlock();
    exec.fence();
    const auto h2 = std::chrono::steady_clock::now();
    st.depth = static_cast<int>(ws.stats(bvss_stat_depth));
    st.vss_processed = static_cast<offset_t>(ws.stats(bvss_stat_pulled));
    st.bottom_up_levels = static_cast<int>(ws.stats(bvss_stat_bottom_up));
    st.lazy_levels = static_cast<int>(ws.stats(bvss_stat_lazy_levels));
    if (opts.trace_levels) {
      const unsigned long long run = std::min(trace(1), s.trace_levels);
      st.trace.reserve(run);
      for (unsigned long long l = 1; l <= run; ++l) {
        bvss_level_trace t;
        t.level = static_cast<level_t>(l);
        t.bottom_up = (trace(4 * l + 1) & 1u) != 0;
        t.lazy = (trace(4 * l + 1) & 2u) != 0;
        t.queued = static_cast<offset_t>(trace(4 * l + 2));
        t.found = static_cast<offset_t>(trace(4 * l + 3));
        t.microseconds = double(trace(4 * l) - trace(4 * (l - 1))) * 1e-3;
        st.trace.push_back(t);
      }
      const auto us = [](auto a, auto b) { return std::chrono::duration<double, std::micro>(b - a).count(); };
      st.launch_us = us(h0, h1);
      st.launch_to_ready_us = us(h0, h2);
      st.kernel_us = double(trace(3) - trace(2)) * 1e-3;
      st.prologue_us = double(trace(0) - trace(2)) * 1e-3;
      if (run == trace(1)) st.epilogue_us = double(trace(3) - trace(4 * run)) * 1e-3;  // else levels went untraced
    }
    return st;
  }
};

}  // namespace bitgraph::detail
