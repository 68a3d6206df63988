#!/usr/bin/env bash
# The differential oracle with BitGraph on the GPU: bitgraph_oracle built in the cuda flavour with
# -DBITGRAPH_ENABLE_ORACLE=ON -DBITGRAPH_ORACLE_ON_DEVICE=ON (scripts/device/build.sh does it with ORACLE=1), so every
# BitGraph call runs on Kokkos::Cuda while SuiteSparse:GraphBLAS + LAGraph compute the answers on the same machine's
# CPU. Runs GRAPHS random graphs plus LAGraph's data files, then the self-test (a fault planted in every comparison
# on 120 random graphs, each of which must be reported). Exits 1 if either run fails.
#
# usage: scripts/gpu_oracle.sh [GRAPHS=1000] [BIN_DIR=build/cuda] [DATA_DIR=<the LAGraph data the build names>]
# (OUT_DIR, default BIN_DIR/gpu-oracle, receives both runs' logs)
set -uo pipefail
graphs=${1:-1000} bin=${2:-build/cuda} data=${3:-}
oracle="$bin/tests/oracle/bitgraph_oracle"
[[ -x "$oracle" ]] || { echo "gpu_oracle.sh: no $oracle (build the cuda preset with the oracle options)" >&2; exit 2; }
out=${OUT_DIR:-$bin/gpu-oracle}
mkdir -p "$out"
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
files=(); [[ -n "$data" ]] && files=(--data-dir "$data")
status=0
s=$SECONDS
"$oracle" --graphs "$graphs" "${files[@]}" > "$out/oracle.log" 2>&1 || status=1
echo "oracle: rc $status in $((SECONDS - s)) s"; tail -n 40 "$out/oracle.log"
s=$SECONDS
"$oracle" --self-test --graphs 120 --no-files --max-reports 5 > "$out/self-test.log" 2>&1 || status=1
echo "self-test: done in $((SECONDS - s)) s (status so far $status)"; tail -n 40 "$out/self-test.log"
exit $status
