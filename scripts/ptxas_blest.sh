#!/usr/bin/env bash
# Registers, spills and code size of the tensor-core BFS kernels in about 30 s, without a GPU: compiles one small
# unit that instantiates `cuda::blest_kernel<Updates, Threads>` for each pair given (default: the four the library
# launches) with the CUDA build's own flags, through ptxas -v, then reads each kernel's .text size from the cubin.
#
#   scripts/ptxas_blest.sh [BUILD_DIR] [UPDATES:THREADS ...]      e.g.  scripts/ptxas_blest.sh build/cuda 0:256 2:256
#
# BUILD_DIR is a configured CUDA build (default build/cuda); it needs ninja. Compiling the CLI's space_cuda.cpp for the
# same figures takes several minutes on two cores.
set -euo pipefail
build="$(cd "${1:-build/cuda}" && pwd)"
shift || true
pairs=("$@")
[[ ${#pairs[@]} -gt 0 ]] || pairs=(0:256 0:1024 1:256 1:1024)
obj=examples/CMakeFiles/bitgraph_cli.dir/bitgraph/space_cuda.cpp.o
cmd="$(cd "$build" && ninja -t commands "$obj" | tail -n 1)"
[[ "$cmd" == *space_cuda.cpp* ]] || { echo "ptxas_blest: no compile command for $obj in $build" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
{
  echo '#include "bitgraph/backends/cuda/blest_kernel.hpp"'
  echo 'namespace bitgraph::cuda {'
  for p in "${pairs[@]}"; do echo "template __global__ void blest_kernel<${p%%:*}, ${p##*:}>(blest_state);"; done
  echo '}'
} > "$tmp/k.cu.cpp"
# The build's command with this unit in, no dependency file, and a cubin for sm_90 (or the first real arch given).
arch="$(grep -o 'code=\[[^]]*\]' <<< "$cmd" | grep -o 'sm_[0-9a-z]*' | head -n 1)"
arch="${arch:-sm_90}"
c="$(sed -E -e 's# -MD -MT [^ ]+ -MF [^ ]+##' -e 's#"?--generate-code=[^ ]+"?##g' -e 's# -x cu -c [^ ]+ -o [^ ]+##' <<< "$cmd")"
(cd "$build" && eval "$c -arch=$arch -x cu -cubin $tmp/k.cu.cpp -o $tmp/k.cubin -Xptxas -v") > "$tmp/ptxas.log" 2>&1 ||
  { tail -n 30 "$tmp/ptxas.log" >&2; exit 1; }
printf '%-28s %9s %12s %10s\n' kernel registers "spill bytes" ".text"
# Mangled names: blest_kernelIL<b|i><updates>ELi<threads>E (the first parameter is a bool on some trees), read as
# "updates:threads" by both passes below.
key='function key(s, k) { match(s, /blest_kernelIL[bi][0-9]+ELi[0-9]+E/); k = substr(s, RSTART, RLENGTH)
       gsub(/blest_kernelIL[bi]|E$/, "", k); sub(/ELi/, ":", k); return k }'
awk "$key"'
     /Compiling entry function .*blest_kernel/ { name = key($0) }
     name != "" && /spill stores/ { spill = $5 }
     name != "" && /Used [0-9]+ registers/ { match($0, /Used [0-9]+/); print name, substr($0, RSTART + 5, RLENGTH - 5), spill; name = "" }' \
  "$tmp/ptxas.log" | sort > "$tmp/regs"
readelf -SW "$tmp/k.cubin" 2>/dev/null | awk "$key"' $2 ~ /^\.text\..*blest_kernel/ { print key($2), $6 }' | sort > "$tmp/size"
join "$tmp/regs" "$tmp/size" | while read -r k r s h; do
  printf 'blest_kernel<%-14s %9s %12s %10d\n' "${k/:/, }>" "$r" "$s" "$((16#$h))"
done
