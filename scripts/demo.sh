#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for BitGraph (as scripts/test.sh does) and runs the main job on the
# host (OpenMP): BFS and PageRank on a generated Kronecker graph, printing results, times and the
# validators' verdict. Extra arguments are passed to `bitgraph run` (e.g. --graph grid2d:1024).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
BITGRAPH_DEPS_PREFIX="$(scripts/bootstrap.sh --flavour host)"
export BITGRAPH_DEPS_PREFIX
cmake --preset host >/dev/null
cmake --build --preset host -j "${BITGRAPH_JOBS:-$(nproc)}" --target bitgraph_cli
exec build/host/examples/bitgraph run --graph kron:18 --algo bfs,pr --validate --repeat 4 --space openmp "$@"
