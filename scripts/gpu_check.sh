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
echo "== each CUDA test case alone (${BITGRAPH_GPU_JOBS:=8} at a time)"
case_dir=$(mktemp -d)
export tests case_dir
run_alone() {
  local log; log="$case_dir/$(printf '%s' "$1" | md5sum | cut -c1-12).log"
  "$tests" "${1//,/\\,}" --reporter compact > "$log" 2>&1 || { echo "FAILED alone: $1"; tail -n 5 "$log"; return 1; }
}
export -f run_alone
"$tests" "[gpu],*Kokkos::Cuda*" --list-tests --verbosity quiet 2>/dev/null | grep -v '^$' |
  xargs -d '\n' -P "$BITGRAPH_GPU_JOBS" -I{} bash -c 'run_alone "$1"' _ {} || status=1
echo "$(ls "$case_dir" | wc -l) cases run alone"
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
