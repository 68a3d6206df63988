#!/usr/bin/env bash
# Several bitgraph CLIs timed against each other on one machine (the A/B of a kernel change): rounds of one process
# per graph and CLI, the CLIs' order reversed every other round so that none always runs first; per cell the median
# and the warm mean (first source left out) of the BFS's per-source times; one JSON (OUT_DIR/ab.json) with every cell
# and, per graph and CLI, the range of its medians and its best median against the first CLI's.
#
#   scripts/device/ab_bfs.sh OUT_DIR NAME=CLI [NAME=CLI ...] -- GRAPH [GRAPH ...]
#
# A cell runs `CLI run --graph GRAPH --algo bfs --bfs $BFS --repeat $REPEAT --no-parents $RUN_ARGS --json FILE`
# (BFS default tc, REPEAT default 16). ROUNDS (default 2). PIN, when set, names the cores the runs are held to
# (taskset), so that a build beside them on the other cores leaves their timings alone. A run that fails is recorded
# with its exit status, the rest go on, and the script exits 1 at the end.
set -uo pipefail
usage="usage: ab_bfs.sh OUT_DIR NAME=CLI [NAME=CLI ...] -- GRAPH [GRAPH ...]"
out="${1:?$usage}"
shift
names=()
clis=()
while [[ $# -gt 0 && "$1" != "--" ]]; do
  [[ "$1" == *=* ]] || { echo "ab_bfs: '$1' is not NAME=CLI; $usage" >&2; exit 2; }
  names+=("${1%%=*}")
  clis+=("${1#*=}")
  shift
done
[[ $# -gt 0 ]] && shift
graphs=("$@")
[[ ${#names[@]} -gt 0 && ${#graphs[@]} -gt 0 ]] || { echo "ab_bfs: $usage" >&2; exit 2; }
for n in "${names[@]}"; do
  [[ "$n" =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "ab_bfs: name '$n' must be letters, digits, '_', '.', '-'" >&2; exit 2; }
done
rounds="${ROUNDS:-2}"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ab_bfs: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2; }
pin=()
[[ -z "${PIN:-}" ]] || pin=(taskset -c "$PIN")
mkdir -p "$out/cells"
cells="$out/cells.tsv"
: > "$cells"
for ((r = 1; r <= rounds; ++r)); do
  order=("${!names[@]}")
  if ((r % 2 == 0)); then
    rev=()
    for ((i = ${#order[@]} - 1; i >= 0; --i)); do rev+=("${order[i]}"); done
    order=("${rev[@]}")
  fi
  for g in "${graphs[@]}"; do
    for i in "${order[@]}"; do
      base="$out/cells/${names[i]}.${g//[^A-Za-z0-9_.-]/_}.r$r"
      # shellcheck disable=SC2086  # RUN_ARGS is a list of words
      "${pin[@]}" "${clis[i]}" run --graph "$g" --algo bfs --bfs "${BFS:-tc}" --repeat "${REPEAT:-16}" --no-parents \
        ${RUN_ARGS:-} --json "$base.json" > "$base.log" 2>&1
      rc=$?
      printf '%s\t%s\t%s\t%s\t%s\n' "${names[i]}" "$g" "$r" "$rc" "$base.json" >> "$cells"
    done
  done
done
# The summary sets the exit status: 1 where any run failed (every run's status is in cells.tsv).
python3 - "$out" "$cells" "${names[@]}" <<'PY' || exit 1
import json, statistics, sys
out, cells_path, names = sys.argv[1], sys.argv[2], sys.argv[3:]
cells = []
for line in open(cells_path):
    name, graph, rnd, rc, path = line.rstrip("\n").split("\t")
    cell = {"cli": name, "graph": graph, "round": int(rnd), "exit_status": int(rc)}
    if cell["exit_status"] == 0:
        try:
            bfs = [x for x in json.load(open(path))["results"] if x["algo"] == "bfs"][0]
            ms = [t * 1e3 for t in bfs["seconds"]]
            warm = ms[1:] if len(ms) > 1 else ms
            cell.update(ms=ms, median_ms=statistics.median(warm), warm_mean_ms=statistics.mean(warm))
        except (OSError, ValueError, KeyError, IndexError) as e:
            cell["error"] = f"no BFS times in {path}: {e}"
    cells.append(cell)
graphs = list(dict.fromkeys(c["graph"] for c in cells))
summary = []
for g in graphs:
    row = {"graph": g}
    for n in names:
        med = [c["median_ms"] for c in cells if c["graph"] == g and c["cli"] == n and "median_ms" in c]
        row[n] = {"median_ms_min": min(med), "median_ms_max": max(med)} if med else None
    first = row[names[0]]
    for n in names[1:]:
        if row[n] and first:
            row[n]["best_vs_" + names[0]] = row[n]["median_ms_min"] / first["median_ms_min"]
    summary.append(row)
json.dump({"clis": names, "cells": cells, "summary": summary}, open(f"{out}/ab.json", "w"), indent=1)
width = max(12, *(len(n) + 2 for n in names))
# Two spaces before every cell: a cell wider than its column (times of 10 ms and more) must not run into the last.
print(f"{'graph':<16}" + "".join(f"  {n:>{2 * width}}" for n in names))
for row in summary:
    line = f"{row['graph']:<16}"
    for n in names:
        v = row[n]
        text = "failed" if v is None else f"{v['median_ms_min']:.4f}-{v['median_ms_max']:.4f}"
        if v is not None and n != names[0] and "best_vs_" + names[0] in v:
            text += f" ({v['best_vs_' + names[0]]:.3f}x)"
        line += f"  {text:>{2 * width}}"
    print(line)
bad = [c for c in cells if c["exit_status"] != 0 or "error" in c]
for c in bad:
    print(f"ab_bfs: {c['cli']} on {c['graph']} round {c['round']}: "
          + (c.get("error") or f"exit status {c['exit_status']}"), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
