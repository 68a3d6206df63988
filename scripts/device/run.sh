#!/usr/bin/env bash
# On the GPU machine after build.sh: the CUDA test cases (TESTS=0 skips them; SPEC, TEST_S), then the h100
# bench rows named by KERNELS on GRAPHS (BENCH_S), JSON and logs to $OUT.
set -uo pipefail
export OMP_PROC_BIND=false
B=build/cuda; T=$B/tests/bitgraph_tests; C=$B/examples/bitgraph
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [[ "${TESTS:-1}" == 1 ]]; then
  timeout "${TEST_S:-200}" "$T" "${SPEC:-*Kokkos::Cuda*,[gpu]}" --reporter compact > "$OUT/tests.log" 2>&1
  echo "tests rc $? at $((SECONDS - t0)) s"; tail -3 "$OUT/tests.log"; grep -A12 "FAILED" "$OUT/tests.log" | head -60
fi
timeout "${BENCH_S:-300}" "$C" bench --suite h100 --graphs "${GRAPHS:-kron:22,urand:22,grid2d:4096,mycielski:16}" \
  --kernels "${KERNELS:-bfs_do,pagerank_,sssp_unit_,cc_,tc_}" --json "$OUT/bench.json" > "$OUT/bench.log" 2>&1
echo "bench rc $? at $((SECONDS - t0)) s"
grep -vE "^\s*$" "$OUT/bench.log" | grep -E "ms|fail|error|Error" | head -80
