#!/usr/bin/env bash
# Runs compute-sanitizer (memcheck with leak check, racecheck, synccheck or initcheck) over every CUDA
# test case, each in its own process, PAR at a time, until BUDGET seconds have passed; cases still running
# then are cut and reported as such. Writes to OUT_DIR (default build/sanitize-TOOL): summary.txt (one
# line per case: exit code, seconds, the sanitizer's summary, Catch2's totals), kernels.txt (kernels
# named in reports, counted per case) and failures.txt (failed assertions and sanitizer errors).
#
# usage: scripts/gpu_sanitize.sh TOOL [BUDGET=540] [PAR=14] [BIN_DIR=build/cuda]
# (FILTER, a Catch2 test spec, narrows the cases; default "[gpu],*Kokkos::Cuda*"; BITGRAPH_TEST_REDUCED=0 runs the
# full inputs)
set -uo pipefail
tool=${1:?usage: gpu_sanitize.sh memcheck|racecheck|synccheck|initcheck [BUDGET] [PAR] [BIN_DIR]}
budget=${2:-540} par=${3:-14} bin=${4:-build/cuda}
tests="$bin/bitgraph_tests"; [[ -x "$tests" ]] || tests="$bin/tests/bitgraph_tests"
out=${OUT_DIR:-build/sanitize-$tool}
# racecheck reports errors only (RACE_LEVEL=warn brings back the warnings): its warnings are the "warp level programming"
# hazards of Kokkos 3.4's shared-memory reductions, hundreds of thousands per case, and collecting them made cases take
# 10-100 times longer (docs/build.md).
case $tool in
  memcheck) flags=(--leak-check full --print-limit 20) ;;
  racecheck) flags=(--racecheck-report hazard --racecheck-detect-level "${RACE_LEVEL:-error}" --show-backtrace no
                    --print-limit 20) ;;
  *) flags=(--print-limit 20) ;;
esac
# The test suite's reduced-input mode (tests/support/reduced.hpp): the largest property tests run a thinned subset.
export BITGRAPH_TEST_REDUCED=${BITGRAPH_TEST_REDUCED:-1}
export OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
logs=$(mktemp -d); mkdir -p "$out"; : > "$out/kernels.txt"; : > "$out/failures.txt"
deadline=$((SECONDS + budget)); i=0
while IFS= read -r name; do
  [[ -z "$name" ]] && continue
  while (( $(jobs -rp | wc -l) >= par )); do sleep 0.5; done
  left=$((deadline - SECONDS)); (( left < 15 )) && break
  ( echo "case: $name"; s=$SECONDS
    timeout -k 5 "$left" compute-sanitizer --tool "$tool" "${flags[@]}" "$tests" "${name//,/\\,}" --reporter compact 2>&1
    echo "rc=$? time=$((SECONDS - s))" ) > "$logs/$(printf %03d $i).log" &
  i=$((i + 1))
done < <("$tests" "${FILTER:-[gpu],*Kokkos::Cuda*}" --list-tests --verbosity quiet 2>/dev/null | grep -v '^$')
wait
for f in "$logs"/*.log; do
  [[ -e "$f" ]] || continue
  name=$(head -n 1 "$f" | cut -c7-)
  rc=$(grep -oE "^rc=[0-9]+ time=[0-9]+" "$f" | tail -n 1)
  summ=$(grep -E "(RACECHECK|ERROR|LEAK) SUMMARY" "$f" | sed -E 's/.*SUMMARY: //' | paste -sd ';' -)
  res=$(grep -m1 -E "All tests passed|test cases" "$f")
  printf '%-72s | %-16s | %-40s | %s\n' "$name" "$rc" "${summ:-no summary (cut)}" "$res"
  grep -E "^=========  +(Write|Read) Thread|^=========  +(Invalid|Uninitialized)|^=========     at " "$f" \
    | sed -E 's/.* at (void )?//; s/\+0x[0-9a-f]+$//; s/^(Kokkos::Impl::cuda_parallel_launch_[a-z_]+<Kokkos::Impl::Parallel[A-Za-z]+<[^<(]*<?[^<(]*).*/\1/' \
    | cut -c1-160 | sort | uniq -c | sed "s|^|$(basename "$f" .log) |" >> "$out/kernels.txt"
  { echo "## $name"; grep -B2 -A14 -E "FAILED|failed:|Error:|ERROR|Invalid|Program hit|terminate|what\(\)" "$f" | grep -v "Warp Level" | head -n 60; } >> "$out/failures.txt"
done | tee "$out/summary.txt"
rm -rf "$logs"
