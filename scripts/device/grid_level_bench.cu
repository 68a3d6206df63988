// What one level of a persistent cooperative kernel (the tensor-core BFS) costs on a GPU, piece by piece: the
// cooperative-groups grid sync alone; a barrier that arrives with red.release and polls with ld.acquire; every warp
// reading two counters of one line after the sync; one queue-space atomic per warp on one counter; one discovery count
// atomic per warp; a chain of four dependent L2 loads; the atomics aggregated per block; the queue atomics spread over
// eight counters; the counters read once per block. Used for docs/PERFORMANCE.md (2026-11-27); not part of the library.
//
//   nvcc -O3 -arch=sm_90 scripts/device/grid_level_bench.cu -o grid_level_bench && ./grid_level_bench
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
namespace cg = cooperative_groups;

__device__ __forceinline__ void my_sync(unsigned* bar, unsigned target) {
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(bar), "r"(1u) : "memory");
    unsigned v;
    do {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(bar) : "memory");
    } while (static_cast<int>(v - target) < 0);
  }
  __syncthreads();
}

__global__ void k(int mode, int iters, unsigned long long* ctr, unsigned* bar, const unsigned* chain, unsigned mask,
                  unsigned long long* sink) {
  cg::grid_group grid = cg::this_grid();
  const int lane = threadIdx.x & 31;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  __shared__ unsigned long long blk[2];
  unsigned long long acc = 0;
  unsigned p = warp * 97;
  for (int it = 0; it < iters; ++it) {
    const bool custom = mode >= 10;
    const int m = mode % 10;
    if (m == 3) {  // a dependent chain of 4 L2 loads per lane (pointer chase)
      for (int j = 0; j < 4; ++j) p = __ldcg(chain + ((p + lane) & mask));
      acc += p;
    }
    if (m == 1 || m == 2 || m == 3) {
      unsigned long long base = 0;
      if (lane == 31) base = atomicAdd(ctr + 0, 2ull);
      base = __shfl_sync(0xffffffffu, base, 31);
      acc += base;
      if (m >= 2 && lane == 0) atomicAdd(ctr + 16, 1ull);
    }
    if (m == 4) {  // block-aggregated: shared atomics, one global per block
      if (threadIdx.x == 0) blk[0] = 0;
      __syncthreads();
      unsigned long long off = 0;
      if (lane == 31) off = atomicAdd(&blk[0], 2ull);
      __syncthreads();
      if (threadIdx.x == 0) blk[1] = atomicAdd(ctr + 0, blk[0]), atomicAdd(ctr + 16, 1ull);
      __syncthreads();
      acc += blk[1] + __shfl_sync(0xffffffffu, off, 31);
    }
    if (m >= 6) {  // spread: warp alloc on one of 8 lines (block % 8), found aggregated per block
      unsigned long long base = 0;
      if (lane == 31) base = atomicAdd(ctr + 32 + 16 * (blockIdx.x % 8), 2ull);
      base = __shfl_sync(0xffffffffu, base, 31);
      acc += base;
      if (threadIdx.x == 0) blk[0] = 0;
      if (lane == 0) atomicAdd(&blk[0], 1ull);
      __syncthreads();
      if (threadIdx.x == 0) atomicAdd(ctr + 16, blk[0]);
    }
    if (m == 8) {
      for (int j = 0; j < 4; ++j) p = __ldcg(chain + ((p + lane) & mask));
      acc += p;
    }
    if (custom)
      my_sync(bar, gridDim.x * (it + 1));
    else
      grid.sync();
    if (m >= 1 && m <= 5) acc += *(volatile unsigned long long*)(ctr + 0) + *(volatile unsigned long long*)(ctr + 16);
    if (m == 6 || m == 8) {
      unsigned long long t = 0;
      for (int j = 0; j < 9; ++j) t += *(volatile unsigned long long*)(ctr + 32 + 16 * j);
      acc += t + *(volatile unsigned long long*)(ctr + 16);
    }
    if (m == 7) {
      __shared__ unsigned long long sz[10];
      if (threadIdx.x < 10) sz[threadIdx.x] = *(volatile unsigned long long*)(ctr + 16 + 16 * threadIdx.x);
      __syncthreads();
      for (int j = 0; j < 10; ++j) acc += sz[j];
    }
  }
  if (acc == 12345) sink[0] = acc;
}

int main() {
  const int iters = 4000;
  unsigned long long* ctr;
  unsigned* bar;
  unsigned* chain;
  unsigned long long* sink;
  const unsigned words = 1u << 20;
  cudaMalloc(&ctr, 4096);
  cudaMalloc(&bar, 256);
  cudaMalloc(&chain, words * 4);
  cudaMalloc(&sink, 64);
  unsigned* h = (unsigned*)malloc(words * 4);
  for (unsigned i = 0; i < words; ++i) h[i] = (i * 2654435761u) >> 12;
  cudaMemcpy(chain, h, words * 4, cudaMemcpyHostToDevice);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  // Modes of 10 and up use the red.release barrier instead of cg's grid sync.
  const int modes[] = {0, 10, 5, 1, 2, 3, 4, 6, 7, 8};
  const char* names[] = {"cg sync only",
                         "red/acquire barrier only",
                         "sync + every warp reads 2 counters",
                         "+ warp queue atomic",
                         "+ queue atomic + found atomic",
                         "+ 4-load chain + atomics",
                         "atomics aggregated per block",
                         "queue atomics on 8 lines + block found",
                         "8 lines + counters read per block",
                         "8 lines + block found + chain"};
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  // One and four 256-thread blocks per SM, as the BFS kernel runs meshes and dense graphs.
  for (int nb : {sms, 4 * sms})
    for (int threads : {256}) {
      for (int mi = 0; mi < 10; ++mi) {
        int mode = modes[mi];
        int it = iters;
        unsigned mask = words - 1;
        float best = 1e30f;
        for (int rep = 0; rep < 3; ++rep) {
          cudaMemset(ctr, 0, 4096);
          cudaMemset(bar, 0, 256);
          void* args[] = {&mode, &it, &ctr, &bar, &chain, &mask, &sink};
          cudaEventRecord(a);
          cudaError_t e = cudaLaunchCooperativeKernel((void*)k, nb, threads, args, 0, 0);
          cudaEventRecord(b);
          cudaEventSynchronize(b);
          if (e != cudaSuccess || cudaGetLastError() != cudaSuccess) {
            printf("%d x %d: launch failed: %s\n", nb, threads, cudaGetErrorString(e));
            best = -1;
            break;
          }
          float ms;
          cudaEventElapsedTime(&ms, a, b);
          if (ms < best) best = ms;
        }
        printf("%4d blocks x %4d: %-40s %.3f us per level\n", nb, threads, names[mi], best * 1e3 / iters);
      }
    }
  return 0;
}
