// The floor of the multi-source BFS's levels pass on a GPU (docs/PERFORMANCE.md, 2026-11-27): 128 x n 32-bit levels
// written as the pass writes them (vertex-major, 16 threads per vertex, two 16-byte stores 256 bytes apart), alone and
// with the pass's loads (a vertex's seen word, then 9 frontier slots for the 57 % of vertices reached, as on kron:22),
// in blocks of 64, 256 and 1,024 threads, beside cudaMemset. Not part of the library.
// Build and run: nvcc -O3 -arch=sm_90 -std=c++17 -o levels_write_floor levels_write_floor.cu && ./levels_write_floor
#include <cuda_runtime.h>
#include <cstdio>
constexpr size_t n = 4194304, live = 2390000;
constexpr int depth = 8;
__global__ void write_only(int4* lv, size_t threads) {
  size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  size_t v = t >> 4, g = t & 15;
  int4 o = make_int4(-1, -1, -1, -1);
  lv[(v * 128 + 4 * g) / 4] = o;
  lv[(v * 128 + 64 + 4 * g) / 4] = o;
}
__global__ void expand_like(int4* lv, const int4* seen, const int4* slots, size_t threads) {
  size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  size_t v = t >> 4, g = t & 15;
  int4 o = make_int4(-1, -1, -1, -1);
  int4 s = seen[v];
  if (s.x | s.y | s.z | s.w) {
    int4 sl[depth + 1];
#pragma unroll
    for (int l = 0; l <= depth; ++l) sl[l] = slots[l * n + v];
    int acc = 0;
#pragma unroll
    for (int l = 0; l <= depth; ++l) acc += ((sl[l].x >> g) & 1) * l + ((sl[l].z >> g) & 1) * l;
    o = make_int4(acc, acc + 1, acc + 2, acc + 3);
  }
  lv[(v * 128 + 4 * g) / 4] = o;
  lv[(v * 128 + 64 + 4 * g) / 4] = o;
}
__global__ void init(int4* seen) {
  size_t v = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v < n) seen[v] = v < live ? make_int4(1, 2, 3, 4) : make_int4(0, 0, 0, 0);
}
int main() {
  int4 *lv, *seen, *slots;
  size_t bytes = n * 128 * 4;
  cudaMalloc(&lv, bytes);
  cudaMalloc(&seen, n * 16);
  cudaMalloc(&slots, n * 16 * (depth + 1));
  cudaMemset(slots, 0x5a, n * 16 * (depth + 1));
  init<<<(n + 255) / 256, 256>>>(seen);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  size_t threads = n * 16;
  auto time = [&](const char* name, auto launch) {
    float best = 1e9;
    for (int r = 0; r < 6; ++r) {
      cudaEventRecord(a);
      launch();
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms;
      cudaEventElapsedTime(&ms, a, b);
      if (r && ms < best) best = ms;
    }
    printf("%-34s %.3f ms  %.2f TB/s of level writes  (%s)\n", name, best, bytes / best / 1e9,
           cudaGetErrorString(cudaGetLastError()));
  };
  time("cudaMemset", [&] { cudaMemsetAsync(lv, 0xff, bytes); });
  for (int bs : {64, 256, 1024}) {
    char nm[64];
    snprintf(nm, 64, "write_only block %d", bs);
    time(nm, [&] { write_only<<<(threads + bs - 1) / bs, bs>>>(lv, threads); });
    snprintf(nm, 64, "expand_like block %d", bs);
    time(nm, [&] { expand_like<<<(threads + bs - 1) / bs, bs>>>(lv, seen, slots, threads); });
  }
}
