#!/usr/bin/env bash
# Blest beside BitGraph's tensor-core BFS on the GPU machine, in one run: the same Matrix Market files (written by
# `bitgraph convert` from the graph specs), the same 16 GAP-style sources (bitgraph's `run` picks them and lists
# them in its JSON; the driver reads them), one JSON with both.
#
#   scripts/blest/side_by_side.sh BLEST_CHECKOUT OUT_DIR [SPEC ...]
#
# BLEST_CHECKOUT is a checkout of https://github.com/delbek/blest obtained separately (its code is never committed
# here); it is compiled with scripts/blest/blest_driver.cu (ours) instead of its main.cu, which needs libcurl and
# the network. BITGRAPH (default build/cuda/examples/bitgraph) is the CUDA CLI; NVCC_ARCH (default sm_90).
# Timers: Blest's own (cooperative launch to cudaDeviceSynchronize, kernel only, levels in its own ids); bitgraph's
# `run` rows, each the call to the levels ready on the device: `tc` bfs_tensor_core (levels in the caller's ids: queue
# init, kernel, counter read-back, unpermute), `tcg` the same with `--level-ids graph` (levels left in the BVSS's ids,
# as Blest leaves its own), `do` the direction-optimised BFS, and on request `auto`, the default (`--bfs auto`: a plan
# that keeps the faster engine where the 16 traversals pay for the tensor-core engine's preparation, which this
# comparison leaves out for both tools, so on kron:20 it keeps `do`; its making is not timed). MODES picks them
# (default: tc tcg do; tc and do are needed). Each graph's levels are compared per source (reached, depth, level
# sum). BITGRAPH_RUN_ARGS and BLEST_ARGS add arguments to every bitgraph run and to the driver; SBS_CACHE_DIR lets the
# runs share a binary graph cache. BLEST_COMMIT, BITGRAPH_TREE and those two, when set, are recorded in the JSON (a
# Blest checkout copied without .git does not know its commit). SBS_STAGE splits a run over two device calls where
# one call's limit does not hold both tools (Blest's host preparation takes minutes at scale 24): `bitgraph` writes
# the files and runs bitgraph's modes only; `blest` then runs the driver against the files and reports a `bitgraph`
# stage left in OUT_DIR (and stops where one is missing) and merges; `all` (the default) does both.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
blest="${1:?usage: side_by_side.sh BLEST_CHECKOUT OUT_DIR [SPEC ...]}"
out="${2:?usage: side_by_side.sh BLEST_CHECKOUT OUT_DIR [SPEC ...]}"
shift 2
specs=("$@")
[[ ${#specs[@]} -gt 0 ]] || specs=(kron:20 grid2d:2048)
stage="${SBS_STAGE:-all}"
case "$stage" in
  all | bitgraph | blest) ;;
  *) echo "side_by_side: SBS_STAGE must be all, bitgraph or blest, not '$stage'" >&2; exit 2 ;;
esac
bitgraph="${BITGRAPH:-build/cuda/examples/bitgraph}"
arch="${NVCC_ARCH:-sm_90}"
mkdir -p "$out/work"
driver="$out/work/blest_driver"
if [[ "$stage" != bitgraph && ! -x "$driver" ]]; then
  t0=$SECONDS
  nvcc -O3 -std=c++20 -arch="$arch" -Xcompiler -fopenmp -w \
    -I"$blest" -I"$blest/DataStructures" -I"$blest/BFS" -I"$blest/CC" -I"$blest/MBFS" -I"$blest/Gorder" \
    "$here/blest_driver.cu" "$blest/Gorder/Graph.cpp" "$blest/Gorder/Util.cpp" "$blest/Gorder/UnitHeap.cpp" \
    -o "$driver" -lcuda -lgomp
  echo "side_by_side: Blest driver built in $((SECONDS - t0)) s"
fi
# Each bitgraph run reads the text file, unless SBS_CACHE_DIR names a binary cache for them (the first run writes it).
cache=(--no-cache)
[[ -z "${SBS_CACHE_DIR:-}" ]] || cache=(--cache-dir "$SBS_CACHE_DIR")
merged=()
for spec in "${specs[@]}"; do
  name="${spec//[:=,]/_}"
  mtx="$out/work/$name.mtx"
  if [[ "$stage" == blest ]]; then
    for f in "$mtx" $(for mode in ${MODES:-tc tcg do}; do echo "$out/work/$name.bitgraph-$mode.json"; done); do
      [[ -f "$f" ]] || { echo "side_by_side: SBS_STAGE=blest needs $f from a bitgraph stage" >&2; exit 2; }
    done
  else
    [[ -f "$mtx" ]] || "$bitgraph" convert --graph "$spec" --to "$mtx" > "$out/work/$name.convert.log"
    for mode in ${MODES:-tc tcg do}; do
      case "$mode" in
        tcg) args=(--bfs tc --level-ids graph) ;;
        *) args=(--bfs "$mode") ;;
      esac
      "$bitgraph" run --graph "file:$mtx" "${cache[@]}" --algo bfs "${args[@]}" --repeat 16 --no-parents \
        ${BITGRAPH_RUN_ARGS:-} --json "$out/work/$name.bitgraph-$mode.json" > "$out/work/$name.bitgraph-$mode.log"
    done
  fi
  [[ "$stage" != bitgraph ]] || continue
  python3 - "$out/work/$name.bitgraph-tc.json" "$out/work/$name.sources" <<'PY'
import json, sys
r = [x for x in json.load(open(sys.argv[1]))["results"] if x["algo"] == "bfs"][0]
open(sys.argv[2], "w").write("".join(f"{s}\n" for s in r["sources"]))
PY
  "$driver" --graph "$mtx" --sources "$out/work/$name.sources" --json "$out/work/$name.blest.json" \
    ${BLEST_ARGS:-} > "$out/work/$name.blest.log"
  tail -1 "$out/work/$name.blest.log"
  # The graphs so far merged at once, so that a run cut short (a device call's time limit) still leaves its JSON.
  merged+=("$spec")
  python3 "$here/merge.py" "$out" "${merged[@]}" > /dev/null || true
done
if [[ "$stage" == bitgraph ]]; then
  echo "side_by_side: bitgraph's runs done for ${specs[*]}; SBS_STAGE=blest runs Blest and merges"
  exit 0
fi
python3 "$here/merge.py" "$out" "${specs[@]}"
