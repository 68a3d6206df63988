#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for BitGraph (Debian packages, Kokkos + Kokkos Kernels from Debian's
# trilinos source, cached) and passes the test suite: builds the host flavour and runs every host test.
#
# usage: scripts/test.sh            (environment: BITGRAPH_DEPS_DIR for the dependency cache,
#                                    BITGRAPH_JOBS for build parallelism)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
BITGRAPH_DEPS_PREFIX="$(scripts/bootstrap.sh --flavour host)"
export BITGRAPH_DEPS_PREFIX
echo "test.sh: dependencies in $BITGRAPH_DEPS_PREFIX"
cmake --preset host
cmake --build --preset host -j "${BITGRAPH_JOBS:-$(nproc)}"
ctest --preset host
