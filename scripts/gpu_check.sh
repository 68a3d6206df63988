#!/usr/bin/env bash
# Runs the cuda flavour's checks on a machine with an sm_90 GPU: the CUDA test suite, then each CUDA test
# case in its own process (a case that only passes after others have run hides a cross-translation-unit
# bug, docs/build.md), and validated CLI runs of every algorithm (Cuda space, and Serial — nvcc-built
# host code — through the CLI).
#
# usage: scripts/gpu_check.sh [BIN_DIR]   (default build/cuda; needs bitgraph_tests and bitgraph)
# The test data is looked up at the path the binaries were built with (tests/data of that checkout).
set -uo pipefail
bin="${1:-build/cuda}"
tests="$bin/bitgraph_tests"; [[ -x "$tests" ]] || tests="$bin/tests/bitgraph_tests"
cli="$bin/bitgraph"; [[ -x "$cli" ]] || cli="$bin/examples/bitgraph"
export OMP_PROC_BIND=false
status=0
echo "== CUDA test suite"
"$tests" "[gpu],*Kokkos::Cuda*" --reporter compact || status=1
echo "== each CUDA test case alone"
while IFS= read -r name; do
  [[ -z "$name" ]] && continue
  "$tests" "${name//,/\\,}" --reporter compact > /tmp/bitgraph_case.log 2>&1 || { echo "FAILED alone: $name"; tail -n 5 /tmp/bitgraph_case.log; status=1; }
done < <("$tests" "[gpu],*Kokkos::Cuda*" --list-tests --verbosity quiet 2>/dev/null | grep -v '^$')
for spec in kron:20 grid2d:2048 urand:18:weighted mycielski:12 rgg:18; do
  echo "== $spec"
  "$cli" run --graph "$spec" --algo all --validate --repeat 3 --space cuda --no-cache | tail -n 9 || status=1
done
for spec in kron:20 grid2d:2048; do
  echo "== $spec (tensor-core BFS)"
  "$cli" run --graph "$spec" --bfs tc --validate --repeat 16 --space cuda --no-cache | tail -n 4 || status=1
done
echo "== Serial in the cuda flavour"
"$cli" run --graph kron:12 --algo all --validate --space serial --no-cache | tail -n 8 || status=1
exit $status
