// What a multi-source BFS's bottom-up levels scan (docs/PERFORMANCE.md, 2026-11-28): builds GAP's Kronecker graph
// of a scale (the bench's kron:S), relabels it in degree order, runs the 128-source bit-parallel BFS level by level on
// the host and counts, per level, the in-row entries a pull scans until its coverage test passes: over every missing
// source (the library before 2026-11-28), over the missing sources whose frontier is not empty ("alpha 0.00"), and
// over those whose frontier out-edges reach alpha x the vertices they have not reached (the others' frontier
// out-edges are the "push" column). Not part of the library; links against a host build of it. Build and run (from a
// configured host build in build/host):
//   K=<host Kokkos prefix>; g++ -O2 -std=c++20 -fopenmp -Imodules/core/include -Ibuild/host/generated/include
//     -Imodules/formats/include -Imodules/generators/include -isystem $K/include scripts/analysis/msbfs_pull_sim.cpp
//     build/host/modules/libbitgraph.a $K/lib/libkokkoscontainers.a $K/lib/libkokkoscore.a -ldl -lz -o msbfs_pull_sim
//   ./msbfs_pull_sim SCALE SEED GIANT_ONLY   (e.g. 22 1 1: sources only in the giant component, as the bench's are)
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <bitgraph/generators/generators.hpp>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>
using namespace bitgraph;
using u128 = unsigned __int128;
static int pc(u128 x) { return __builtin_popcountll(std::uint64_t(x)) + __builtin_popcountll(std::uint64_t(x >> 64)); }
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  unsigned scale = argc > 1 ? atoi(argv[1]) : 22;
  auto el = gen::kronecker(scale);
  const std::size_t n = std::size_t(1) << scale;
  std::vector<std::uint64_t> e;
  e.reserve(el.src.size() * 2);
  for (std::size_t i = 0; i < el.src.size(); ++i) {
    std::uint64_t a = el.src[i], b = el.dst[i];
    if (a == b) continue;
    e.push_back(a << 32 | b);
    e.push_back(b << 32 | a);
  }
  el = {};
  std::vector<std::uint64_t> deg0(n, 0);
  std::sort(e.begin(), e.end());
  e.erase(std::unique(e.begin(), e.end()), e.end());
  for (auto x : e) deg0[x >> 32]++;
  std::vector<std::uint32_t> ord(n);
  std::iota(ord.begin(), ord.end(), 0);
  std::stable_sort(ord.begin(), ord.end(), [&](auto a, auto b) { return deg0[a] > deg0[b]; });
  std::vector<std::uint32_t> nid(n);
  for (std::size_t i = 0; i < n; ++i) nid[ord[i]] = i;
  for (auto& x : e) x = std::uint64_t(nid[x >> 32]) << 32 | nid[std::uint32_t(x)];
  std::sort(e.begin(), e.end());
  std::vector<std::uint64_t> rp(n + 1, 0);
  for (auto x : e) rp[(x >> 32) + 1]++;
  for (std::size_t i = 0; i < n; ++i) rp[i + 1] += rp[i];
  std::vector<std::uint32_t> col(e.size());
  for (std::size_t i = 0; i < e.size(); ++i) col[i] = std::uint32_t(e[i]);
  e = {};
  std::size_t live = 0;
  while (live < n && rp[live + 1] > rp[live]) ++live;
  const int k = 128;
  std::mt19937_64 rng(argc > 2 ? atoi(argv[2]) : 1);
  std::vector<std::uint32_t> src;
  std::vector<char> giant(live, 0);
  {
    std::vector<std::uint32_t> q{0};
    giant[0] = 1;
    for (std::size_t h = 0; h < q.size(); ++h)
      for (auto j = rp[q[h]]; j < rp[q[h] + 1]; ++j)
        if (!giant[col[j]]) {
          giant[col[j]] = 1;
          q.push_back(col[j]);
        }
    printf("giant %zu of live %zu\n", q.size(), live);
  }
  const bool only_giant = argc > 3 && atoi(argv[3]) == 1;
  while ((int)src.size() < k) {
    std::uint32_t v = rng() % n;
    if (deg0[v] > 0 && (!only_giant || giant[nid[v]])) src.push_back(nid[v]);
  }
  {
    int out = 0;
    for (auto s : src) out += !giant[s];
    printf("sources outside the giant component: %d\n", out);
  }
  std::vector<u128> seen(live, 0), fr(live, 0), nx(live, 0);
  for (int i = 0; i < k; ++i) {
    seen[src[i]] |= u128(1) << i;
    fr[src[i]] |= u128(1) << i;
  }
  const u128 full = ~u128(0);
  const double alphas[] = {0, 0.25, 0.5, 1, 2};
  for (int l = 1; l < 12; ++l) {
    // per-source frontier out-edges and reached counts
    std::vector<double> size(k, 0), reached(k, 0);
    for (std::size_t u = 0; u < live; ++u) {
      for (u128 b = fr[u]; b; b &= b - 1) {
        int s = __builtin_ctzll(std::uint64_t(b));
        if (!std::uint64_t(b)) s = 64 + __builtin_ctzll(std::uint64_t(b >> 64));
        size[s] += double(rp[u + 1] - rp[u]);
      }
      for (u128 b = seen[u]; b; b &= b - 1) {
        int s = std::uint64_t(b) ? __builtin_ctzll(std::uint64_t(b)) : 64 + __builtin_ctzll(std::uint64_t(b >> 64));
        reached[s] += 1;
      }
    }
    u128 fast[5];
    double pushc[5];
    for (int a = 0; a < 5; ++a) {
      fast[a] = 0;
      pushc[a] = 0;
      for (int s = 0; s < k; ++s) {
        if (size[s] > 0 && size[s] >= alphas[a] * (double(live) - reached[s]))
          fast[a] |= u128(1) << s;
        else
          pushc[a] += size[s];
      }
    }
    double scan_all = 0, scan_all_long = 0, scan_f[5] = {}, scan_f_long[5] = {}, fe = 0;
    for (int s = 0; s < k; ++s) fe += size[s];
    std::size_t active = 0;
    for (std::size_t v = 0; v < live; ++v) {
      const u128 miss = ~seen[v] & full;
      nx[v] = 0;
      if (!miss) continue;
      u128 acc = 0;
      std::uint64_t len = rp[v + 1] - rp[v], at_all = len, at_f[5] = {len, len, len, len, len};
      bool done_all = false, done_f[5] = {};
      for (std::uint64_t j = 0; j < len; ++j) {
        acc |= fr[col[rp[v] + j]];
        if (!done_all && (acc & miss) == miss) {
          done_all = true;
          at_all = j + 1;
        }
        for (int a = 0; a < 5; ++a)
          if (!done_f[a] && (acc & miss & fast[a]) == (miss & fast[a])) {
            done_f[a] = true;
            at_f[a] = j + 1;
          }
      }
      nx[v] = acc & miss;
      const bool lg = len > 256;
      scan_all += at_all;
      if (lg) scan_all_long += at_all;
      for (int a = 0; a < 5; ++a) {
        scan_f[a] += at_f[a];
        if (lg) scan_f_long[a] += at_f[a];
      }
    }
    for (std::size_t v = 0; v < live; ++v) {
      fr[v] = nx[v];
      seen[v] |= nx[v];
      if (nx[v]) ++active;
    }
    printf("L%d: frontier edges %.3g (max source %.3g, min %.3g); pull scans %.3g (rows>256: %.3g)\n", l, fe,
           *std::max_element(size.begin(), size.end()), *std::min_element(size.begin(), size.end()), scan_all,
           scan_all_long);
    for (int a = 0; a < 5; ++a)
      printf("   alpha %.2f: fast %3d sources, pull scans %.3g (rows>256: %.3g) + push %.3g\n", alphas[a], pc(fast[a]),
             scan_f[a], scan_f_long[a], pushc[a]);
    if (!active) break;
  }
}
