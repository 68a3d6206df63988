#!/usr/bin/env python3
"""scripts/blest/side_by_side.sh and merge.py without a GPU: stand-ins for `bitgraph` and the Blest driver write
known timings and levels, and the merged JSON must carry them (speed-ups, geomean, level comparison, the graphs done
before a failure)."""
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "blest", "side_by_side.sh")

# bitgraph stand-in: `convert` touches the file; `run --bfs MODE --json F` writes a report whose BFS times are
# TC_MS (TCG_MS with `--level-ids graph`, when set) or DO_MS (per source) and whose levels are the fixed ones below;
# EXPECT_ARG, when set, must be among its arguments (BITGRAPH_RUN_ARGS reach it), and so must `--no-cache` unless
# EXPECT_CACHE names the `--cache-dir` it must get instead.
BITGRAPH = r'''#!/usr/bin/env python3
import json, os, sys
a = sys.argv[1:]
if a[0] == "convert":
    open(a[a.index("--to") + 1], "w").close()
    sys.exit(0)
if os.environ.get("EXPECT_ARG") and os.environ["EXPECT_ARG"] not in a:
    sys.exit(4)
cache = os.environ.get("EXPECT_CACHE")
if (cache and a[a.index("--cache-dir") + 1] != cache) or (not cache and "--no-cache" not in a):
    sys.exit(5)
mode, out = a[a.index("--bfs") + 1], a[a.index("--json") + 1]
graph_ids = "--level-ids" in a and a[a.index("--level-ids") + 1] == "graph"
key = "DO_MS" if mode != "tc" else ("TCG_MS" if graph_ids and "TCG_MS" in os.environ else "TC_MS")
ms = [float(x) for x in os.environ[key].split(",")]
r = {"algo": "bfs", "mode": mode, "seconds": [x / 1e3 for x in ms], "sources": list(range(10, 10 + len(ms))),
     "reached": [100] * len(ms), "depth": [5] * len(ms), "level_sum": [300] * len(ms), "reorder": "degree",
     "reorder_seconds": 0.1, "bvss_build_seconds": 0.2, "lazy_updates": False, "update_divergence": 1.0}
json.dump({"results": [r]}, open(out, "w"))
'''

# Blest driver stand-in: BLEST_MS per source; BLEST_BAD_DEPTH=i gives source i another depth; BLEST_FAIL=substring
# of the graph's path makes it fail on that graph.
DRIVER = r'''#!/usr/bin/env python3
import json, os, sys
a = sys.argv[1:]
graph, out = a[a.index("--graph") + 1], a[a.index("--json") + 1]
if os.environ.get("BLEST_FAIL") and os.environ["BLEST_FAIL"] in graph:
    sys.exit(3)
ms = [float(x) for x in os.environ["BLEST_MS"].split(",")]
bad = int(os.environ.get("BLEST_BAD_DEPTH", "-1"))
runs = [{"ms": x, "reached": 100, "depth": 6 if i == bad else 5, "level_sum": 300} for i, x in enumerate(ms)]
json.dump({"n": 100, "stored_entries": 400, "runs": runs, "reorder_seconds": 1.0, "bvss_seconds": 0.5,
           "social": False, "lazy": False, "update_divergence": 1.0, "full_padding": False}, open(out, "w"))
print("blest: stand-in")
'''


def run(tmp, env_extra, specs):
    out = os.path.join(tmp, "out")
    os.makedirs(os.path.join(out, "work"), exist_ok=True)
    bitgraph = os.path.join(tmp, "bitgraph")
    driver = os.path.join(out, "work", "blest_driver")  # present: the script does not build Blest
    for path, text in ((bitgraph, BITGRAPH), (driver, DRIVER)):
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
    env = dict(os.environ, BITGRAPH=bitgraph, **env_extra)
    p = subprocess.run(["bash", SCRIPT, os.path.join(tmp, "no-blest-checkout"), out] + specs, env=env,
                       capture_output=True, text=True)
    merged = os.path.join(out, "side_by_side.json")
    return p, (json.load(open(merged)) if os.path.exists(merged) else None)


def check(cond, what):
    if not cond:
        print("FAILED:", what)
        sys.exit(1)


def main():
    base = {"TC_MS": "9,1,1,1", "TCG_MS": "9,0.5,0.5,0.5", "DO_MS": "9,4,4,4", "BLEST_MS": "9,2,2,2"}
    with tempfile.TemporaryDirectory() as tmp:
        p, d = run(tmp, dict(base, BLEST_COMMIT="abc1234", BITGRAPH_TREE="tree", BITGRAPH_RUN_ARGS="--update eager",
                             EXPECT_ARG="--update"), ["kron:4", "grid2d:4"])
        check(p.returncode == 0, f"two graphs, levels equal: exit 0 (got {p.returncode}: {p.stderr})")
        check([g["spec"] for g in d["graphs"]] == ["kron:4", "grid2d:4"], "both graphs merged, in order")
        g = d["graphs"][0]
        check(math.isclose(g["blest"]["warm_mean_ms"], 2.0) and math.isclose(g["bitgraph_tc"]["warm_mean_ms"], 1.0),
              "warm means leave the first source out")
        check(math.isclose(g["tc_speedup_vs_blest"], 2.0) and math.isclose(d["geomean_tc_speedup_vs_blest"], 2.0),
              "speed-up = Blest's warm mean / tc's")
        check(d["level_mismatches"] == 0 and g["level_mismatches"] == [], "equal levels are not reported")
        check(d.get("blest_commit") == "abc1234" and d.get("bitgraph_tree") == "tree", "commits recorded")
        check(d.get("bitgraph_run_args") == "--update eager" and "blest_args" not in d, "extra arguments recorded")
        check(math.isclose(g["bitgraph_tcg"]["warm_mean_ms"], 0.5) and math.isclose(g["tcg_speedup_vs_blest"], 4.0)
              and math.isclose(d["geomean_tcg_speedup_vs_blest"], 4.0), "the graph-id row by default, with --level-ids")
        check("bitgraph_auto" not in g and d["geomean_auto_speedup_vs_blest"] is None, "the default BFS on request only")
        check("geomean speed-up vs Blest (warm means): tc 2.000x, tcg 4.000x" in p.stdout, "table printed")
    with tempfile.TemporaryDirectory() as tmp:
        p, d = run(tmp, dict(base, MODES="tc do", SBS_CACHE_DIR="/some/cache", EXPECT_CACHE="/some/cache"), ["kron:4"])
        check(p.returncode == 0, f"MODES and a shared cache: exit 0 (got {p.returncode}: {p.stderr})")
        check("bitgraph_tcg" not in d["graphs"][0] and d["geomean_tcg_speedup_vs_blest"] is None,
              "MODES leaves the graph-id row out")
    with tempfile.TemporaryDirectory() as tmp:
        p, d = run(tmp, dict(base, BLEST_BAD_DEPTH="2"), ["kron:4"])
        check(p.returncode == 1, f"a level mismatch fails the run (got {p.returncode})")
        check(d["level_mismatches"] == 1 and d["graphs"][0]["level_mismatches"] == [2], "the source that differs")
        check("1 differ" in p.stdout, "the table says so")
    with tempfile.TemporaryDirectory() as tmp:
        p, d = run(tmp, dict(base, BLEST_FAIL="grid2d"), ["kron:4", "grid2d:4"])
        check(p.returncode != 0, "a failing driver fails the run")
        check(d is not None and [g["spec"] for g in d["graphs"]] == ["kron:4"],
              "the graphs done before the failure are merged")
    with tempfile.TemporaryDirectory() as tmp:
        # Two stages, as two device calls: bitgraph's runs, then Blest (bitgraph not called again) and the merge.
        p, d = run(tmp, dict(base, SBS_STAGE="bitgraph", BLEST_FAIL="kron"), ["kron:4"])
        check(p.returncode == 0 and d is None, f"the bitgraph stage runs no driver and merges nothing ({p.stderr})")
        check(os.path.exists(os.path.join(tmp, "out", "work", "kron_4.bitgraph-tcg.json"))
              and not os.path.exists(os.path.join(tmp, "out", "work", "kron_4.blest.json")), "bitgraph's reports only")
        p, d = run(tmp, dict(base, SBS_STAGE="blest", EXPECT_ARG="--never-passed"), ["kron:4"])
        check(p.returncode == 0, f"the Blest stage: exit 0 (got {p.returncode}: {p.stderr})")
        check(d is not None and math.isclose(d["geomean_tc_speedup_vs_blest"], 2.0)
              and math.isclose(d["graphs"][0]["bitgraph_tcg"]["warm_mean_ms"], 0.5), "merged as in one run")
        p, d = run(tmp, dict(base, SBS_STAGE="blest"), ["grid2d:4"])
        check(p.returncode == 2 and "from a bitgraph stage" in p.stderr, f"Blest stage without bitgraph's: {p.stderr}")
        p, d = run(tmp, dict(base, SBS_STAGE="both"), ["kron:4"])
        check(p.returncode == 2 and "SBS_STAGE must be" in p.stderr, f"an unknown stage: {p.returncode} {p.stderr}")
    print("side_by_side.sh and merge.py: all checks passed")


if __name__ == "__main__":
    main()
