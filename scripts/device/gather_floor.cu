// The floor of a bottom-up multi-source BFS level on a GPU (docs/PERFORMANCE.md, 2026-11-27): 134 M random gathers of
// 8- or 16-byte words (urand:22's entries) from arrays of 8 MB to 128 MB, the indices streamed as a pull streams its
// column ids, every load independent (a grid-stride loop, 8 blocks of 256 threads per SM). Shows whether frontier
// words that fit in L2 (halves or quarters of the sources in separate passes) would gather faster. Not part of the
// library. Build and run: nvcc -O3 -arch=sm_90 -std=c++17 -o gather_floor gather_floor.cu && ./gather_floor
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

template <class T>
__global__ void gather(const unsigned* __restrict__ idx, const T* __restrict__ x, size_t m, unsigned long long* out) {
  size_t stride = size_t(gridDim.x) * blockDim.x;
  unsigned long long acc = 0;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < m; i += stride) {
    T v = x[idx[i]];
    if constexpr (sizeof(T) == 16)
      acc |= v.x ^ v.y;
    else
      acc |= v;
  }
  if (acc == 0x12345) out[0] = acc;
}
struct u128 {
  unsigned long long x, y;
};
int main() {
  const size_t m = 134217728;  // gathers per pass (urand:22's entries)
  unsigned* idx;
  cudaMalloc(&idx, m * 4);
  unsigned long long* out;
  cudaMalloc(&out, 8);
  void* x;
  cudaMalloc(&x, size_t(256) << 20);
  cudaMemset(x, 1, size_t(256) << 20);
  std::vector<unsigned> h(m);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  for (int bytes : {8, 16})
    for (size_t mb : {8, 16, 24, 32, 40, 48, 64, 128}) {
      size_t n = (mb << 20) / bytes;
      std::mt19937 rng(1);
      for (size_t i = 0; i < m; ++i) h[i] = rng() % n;
      cudaMemcpy(idx, h.data(), m * 4, cudaMemcpyHostToDevice);
      float best = 1e9;
      for (int r = 0; r < 4; ++r) {
        cudaEventRecord(a);
        if (bytes == 8)
          gather<<<sms * 8, 256>>>(idx, (const unsigned long long*)x, m, out);
        else
          gather<<<sms * 8, 256>>>(idx, (const u128*)x, m, out);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float t;
        cudaEventElapsedTime(&t, a, b);
        if (r > 0 && t < best) best = t;
      }
      printf("%2d-byte words, array %4zu MB: %.3f ms, %.1f Ggathers/s\n", bytes, mb, best, m / best / 1e6);
    }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
