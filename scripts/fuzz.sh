#!/usr/bin/env bash
# Builds the libFuzzer targets of the io module (Matrix Market reader, edge-list reader, graph cache
# loader, DIMACS reader) and of the graph spec parser with clang, ASan and UBSan, and runs each for a share of the
# given time.
#
# usage: scripts/fuzz.sh [seconds]      (default 60, split evenly over the targets)
#
# Environment:
#   BITGRAPH_FUZZ_DIR   build and work directory (default build/fuzz in this checkout, so that two
#                       checkouts never share a CMake cache); the growing corpora and any crash
#                       artifacts stay there between runs
#   BITGRAPH_FUZZ_CXX   the clang++ to use (default clang++; CXX is ignored, it often names g++)
#   BITGRAPH_JOBS       parallel build jobs (default 2)
#
# Configures tests/fuzz as a project of its own, so neither Kokkos nor the rest of BitGraph is needed.
# Prints the executions, corpus size and findings of each target; exits non-zero if any target crashed,
# leaked, timed out or ran out of memory (the reproducer is named in the output).
set -euo pipefail

total="${1:-60}"
[[ "$total" =~ ^[0-9]+$ ]] || { echo "fuzz: seconds must be a whole number, not '$total'" >&2; exit 2; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${BITGRAPH_FUZZ_DIR:-$root/build/fuzz}"
build="$work/build"
cxx="${BITGRAPH_FUZZ_CXX:-clang++}"
# A fresh Debian 12 machine has no clang: install Debian's (libFuzzer and the sanitizer runtimes come
# with libclang-rt-14-dev) unless the caller named a compiler of their own.
if ! command -v "$cxx" >/dev/null 2>&1 && [[ -z "${BITGRAPH_FUZZ_CXX:-}" ]]; then
  sudo_cmd=()
  [[ $(id -u) == 0 ]] || sudo_cmd=(sudo)
  echo "fuzz: installing clang and libclang-rt-14-dev from Debian" >&2
  "${sudo_cmd[@]}" apt-get update -qq >&2
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    clang libclang-rt-14-dev >&2
fi
command -v "$cxx" >/dev/null 2>&1 || { echo "fuzz: $cxx not found (set BITGRAPH_FUZZ_CXX)" >&2; exit 1; }
mkdir -p "$work"
log_dir="$work/logs"
mkdir -p "$log_dir"
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
cmake -S "$root/tests/fuzz" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_COMPILER="$cxx" >"$log_dir/configure.log" 2>&1 \
  || { cat "$log_dir/configure.log" >&2; echo "fuzz: configuration failed" >&2; exit 1; }
cmake --build "$build" --target bitgraph_fuzzers -j "${BITGRAPH_JOBS:-2}"

# The targets are those the configuration lists (tests/fuzz/CMakeLists.txt); gzip only where zlib is found.
mapfile -t targets < "$build/fuzz_targets.txt"
[[ " ${targets[*]} " == *" gzip "* ]] || echo "fuzz: no zlib found, so no gzip target"
per=$(( total / ${#targets[@]} ))
(( per >= 1 )) || per=1
status=0
for t in "${targets[@]}"; do
  corpus="$work/corpus/$t"
  artifacts="$work/artifacts/$t"
  log="$log_dir/fuzz_$t.log"
  mkdir -p "$corpus" "$artifacts"
  seeds=("$root/tests/fuzz/corpus/$t")
  # LAGraph's files (valid and mangled) are good Matrix Market seeds; -max_len keeps the big ones short.
  [[ $t == matrix_market ]] && seeds+=("$root/tests/data")
  echo "fuzz: running fuzz_$t for ${per}s"
  rc=0
  "$build/fuzz_$t" "$corpus" "${seeds[@]}" -max_total_time="$per" -max_len=4096 -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1 || rc=$?
  execs="$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -n 1)"
  speed="$(awk '/stat::average_exec_per_sec/ {print $2}' "$log" | tail -n 1)"
  units="$(find "$corpus" -type f | wc -l)"
  printf 'fuzz: %-14s exit %d, %s executions (%s/s), corpus %s inputs\n' "$t" "$rc" "${execs:-?}" \
         "${speed:-?}" "$units"
  if (( rc != 0 )); then
    status=1
    echo "fuzz: fuzz_$t FAILED; the end of $log:" >&2
    tail -n 60 "$log" >&2
    echo "fuzz: reproducers in $artifacts:" >&2
    ls -l "$artifacts" >&2
  fi
done
if (( status == 0 )); then
  echo "fuzz: no findings"
fi
exit "$status"
