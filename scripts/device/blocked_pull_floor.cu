// Whether a bottom-up multi-source BFS level that scans every in-edge (urand:22's levels 4 and 5) gathers faster in
// column blocks (docs/PERFORMANCE.md, 2026-11-28): a synthetic urand:22 (4 M rows of 32 random in-neighbours, sorted
// per row), 16-byte frontier words (128 sources, 64 MB: more than L2), one thread per row ORing its neighbours' words
// in batches of 4 as the library's pull does, without early exit. Blocked: B passes, pass b scanning each row's
// entries whose column lies in block b (per-row split offsets, 16-bit, made on the host), so that the words a pass
// gathers fit in L2. Not part of the library. Build and run:
//   nvcc -O3 -arch=sm_90 -std=c++17 -o blocked_pull_floor blocked_pull_floor.cu && ./blocked_pull_floor
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

struct alignas(16) bits2 {
  unsigned long long x, y;
};

__device__ __forceinline__ void scan(const unsigned* __restrict__ col, const bits2* __restrict__ f, size_t b, size_t e,
                                     bits2& acc) {
  for (; b < e; b += 4) {
    unsigned u[4];
    for (int q = 0; q < 4; ++q) u[q] = b + q < e ? col[b + q] : 0;
    bits2 w[4];
    for (int q = 0; q < 4; ++q) w[q] = b + q < e ? f[u[q]] : bits2{0, 0};
    for (int q = 0; q < 4; ++q) {
      acc.x |= w[q].x;
      acc.y |= w[q].y;
    }
    if (acc.x == ~0ull && acc.y == ~0ull) break;
  }
}

__global__ void pull_all(const size_t* __restrict__ rp, const unsigned* __restrict__ col, const bits2* __restrict__ f,
                         bits2* __restrict__ visit, unsigned n) {
  const unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  bits2 acc{0, 0};
  scan(col, f, rp[v], rp[v + 1], acc);
  visit[v] = acc;
}

// Pass `b`: entries split[b - 1] .. split[b] of each row (split 0 and B implicit: the row's ends).
__global__ void pull_block(const size_t* __restrict__ rp, const unsigned* __restrict__ col, const bits2* __restrict__ f,
                           bits2* __restrict__ visit, const unsigned short* __restrict__ split, unsigned n, int b,
                           int blocks, bool first) {
  const unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const size_t r = rp[v];
  const size_t s = b == 0 ? r : r + split[size_t(b - 1) * n + v];
  const size_t e = b == blocks - 1 ? rp[v + 1] : r + split[size_t(b) * n + v];
  bits2 acc = first ? bits2{0, 0} : visit[v];
  scan(col, f, s, e, acc);
  visit[v] = acc;
}

int main() {
  const unsigned n = 1u << 22, deg = 32;
  const size_t m = size_t(n) * deg;
  std::vector<size_t> rp(n + 1);
  std::vector<unsigned> col(m);
  std::mt19937 rng(7);
  for (unsigned v = 0; v <= n; ++v) rp[v] = size_t(v) * deg;
  for (unsigned v = 0; v < n; ++v) {
    for (unsigned i = 0; i < deg; ++i) col[rp[v] + i] = rng() % n;
    std::sort(col.begin() + rp[v], col.begin() + rp[v + 1]);
  }
  std::vector<bits2> fr(n);
  for (auto& w : fr) w = {(unsigned long long)rng() << 32 | rng(), 0};  // sparse enough never to cover all 128
  size_t* d_rp;
  unsigned* d_col;
  bits2 *d_f, *d_visit;
  cudaMalloc(&d_rp, (n + 1) * 8);
  cudaMalloc(&d_col, m * 4);
  cudaMalloc(&d_f, n * 16);
  cudaMalloc(&d_visit, n * 16);
  cudaMemcpy(d_rp, rp.data(), (n + 1) * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col.data(), m * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_f, fr.data(), n * 16, cudaMemcpyHostToDevice);
  cudaEvent_t a, z;
  cudaEventCreate(&a);
  cudaEventCreate(&z);
  const unsigned tb = 256, grid = (n + tb - 1) / tb;
  auto best_of = [&](auto&& launch) {
    float best = 1e9;
    for (int r = 0; r < 5; ++r) {
      cudaEventRecord(a);
      launch();
      cudaEventRecord(z);
      cudaEventSynchronize(z);
      float t;
      cudaEventElapsedTime(&t, a, z);
      if (r > 0) best = std::min(best, t);
    }
    return best;
  };
  std::vector<bits2> ref(n), got(n);
  const float t0 = best_of([&] { pull_all<<<grid, tb>>>(d_rp, d_col, d_f, d_visit, n); });
  cudaMemcpy(ref.data(), d_visit, n * 16, cudaMemcpyDeviceToHost);
  printf("one pass: %.3f ms\n", t0);
  for (int blocks : {2, 3, 4, 6, 8}) {
    const unsigned width = (n + blocks - 1) / blocks;
    std::vector<unsigned short> split(size_t(blocks - 1) * n);
    for (unsigned v = 0; v < n; ++v)
      for (int b = 1; b < blocks; ++b)
        split[size_t(b - 1) * n + v] = static_cast<unsigned short>(
            std::lower_bound(col.begin() + rp[v], col.begin() + rp[v + 1], unsigned(b) * width) - (col.begin() + rp[v]));
    unsigned short* d_split;
    cudaMalloc(&d_split, split.size() * 2);
    cudaMemcpy(d_split, split.data(), split.size() * 2, cudaMemcpyHostToDevice);
    float per[8] = {};
    const float t = best_of([&] {
      for (int b = 0; b < blocks; ++b) pull_block<<<grid, tb>>>(d_rp, d_col, d_f, d_visit, d_split, n, b, blocks, b == 0);
    });
    for (int b = 0; b < blocks; ++b)
      per[b] = best_of([&] { pull_block<<<grid, tb>>>(d_rp, d_col, d_f, d_visit, d_split, n, b, blocks, false); });
    cudaMemcpy(got.data(), d_visit, n * 16, cudaMemcpyDeviceToHost);
    // The extra per-block passes above OR into visit again: the same bits (idempotent).
    bool same = true;
    for (unsigned v = 0; v < n && same; ++v) same = got[v].x == ref[v].x && got[v].y == ref[v].y;
    printf("%d blocks (%u MB of words each): %.3f ms, passes", blocks, unsigned(size_t(width) * 16 >> 20), t);
    for (int b = 0; b < blocks; ++b) printf(" %.3f", per[b]);
    printf(", %s\n", same ? "same bits" : "DIFFERENT BITS");
    cudaFree(d_split);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
