#!/usr/bin/env bash
# Differential tests against SuiteSparse:GraphBLAS + LAGraph: installs the host dependencies and the
# oracle's (scripts/bootstrap.sh, scripts/bootstrap_oracle.sh), builds bitgraph_oracle (preset oracle)
# and runs its ctest entries: >= 1000 random graphs plus every LAGraph data file, then the self-test
# that plants a fault in every comparison on 120 random graphs and fails unless each one is reported.
#
# usage: scripts/oracle.sh            (environment: BITGRAPH_DEPS_DIR, BITGRAPH_JOBS as for test.sh)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
BITGRAPH_DEPS_PREFIX="$(scripts/bootstrap.sh --flavour host)"
BITGRAPH_LAGRAPH_ROOT="$(scripts/bootstrap_oracle.sh)"
export BITGRAPH_DEPS_PREFIX BITGRAPH_LAGRAPH_ROOT
echo "oracle.sh: LAGraph in $BITGRAPH_LAGRAPH_ROOT"
cmake --preset oracle
cmake --build --preset oracle -j "${BITGRAPH_JOBS:-$(nproc)}"
ctest --preset oracle
