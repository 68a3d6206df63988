#!/usr/bin/env bash
# Builds BitGraph's host test programs against Kokkos 4.6.01 (scripts/bootstrap_kokkos4.sh, cached) and
# runs them: bitgraph_tests on the Serial and OpenMP spaces, bitgraph_host_tests. The library must
# build and pass against Kokkos 4 as well as Debian's 3.4.01 (scripts/test.sh). Kokkos Kernels is not
# built for Kokkos 4, so the parts that need it compile out.
#
# usage: scripts/test_kokkos4.sh   (environment: BITGRAPH_KOKKOS4_BUILD_DIR, default build/host-kokkos4;
#                                   BITGRAPH_DEPS_DIR and BITGRAPH_JOBS as for scripts/test.sh)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${BITGRAPH_KOKKOS4_BUILD_DIR:-$root/build/host-kokkos4}"
jobs="${BITGRAPH_JOBS:-$(nproc)}"
start=$SECONDS
BITGRAPH_DEPS_PREFIX="$(scripts/bootstrap_kokkos4.sh)"
export BITGRAPH_DEPS_PREFIX
echo "test_kokkos4.sh: Kokkos 4 in $BITGRAPH_DEPS_PREFIX ($((SECONDS - start)) s)"
# The header self-containment check and the examples are covered by the 3.4 build; the tests include
# every public header an algorithm or op needs. Kokkos 4 warns unless extensions are off, as it forces.
# -O1: this step checks that BitGraph builds and answers right against Kokkos 4, not its speed; on 2 cores -O1
# compiles about twice as fast as the preset's -O3 (docs/build.md).
cmake --preset host -B "$build" -DBITGRAPH_CHECK_HEADERS=OFF -DBITGRAPH_ENABLE_EXAMPLES=OFF \
  -DCMAKE_CXX_EXTENSIONS=OFF "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" >/dev/null
grep -q "^Kokkos_DIR:PATH=$BITGRAPH_DEPS_PREFIX/" "$build/CMakeCache.txt" ||
  { echo "test_kokkos4.sh: error: $build did not find Kokkos under $BITGRAPH_DEPS_PREFIX" >&2; exit 1; }
t=$SECONDS
cmake --build "$build" -j "$jobs" --target bitgraph_tests bitgraph_host_tests
echo "test_kokkos4.sh: test programs built in $((SECONDS - t)) s"
# Two processes side by side would spin each other's OpenMP barriers (docs/build.md).
export OMP_WAIT_POLICY=passive
# The suite's reduced-input mode (tests/support/reduced.hpp: every tile size, path, direction and mask kind, fewer
# combinations of them): the full inputs run against Kokkos 3.4 in scripts/test.sh.
export BITGRAPH_TEST_REDUCED=1
"$build/tests/bitgraph_host_tests"
"$build/tests/bitgraph_tests" "~[gpu]~*Kokkos::Cuda*"
echo "test_kokkos4.sh: passed against Kokkos 4.6.01 in $((SECONDS - start)) s"
