#!/usr/bin/env python3
"""scripts/device/ab_bfs.sh without a GPU: stand-in CLIs write known per-source times, and the JSON and table must carry
their medians (first source left out), the order of the runs must alternate between rounds, and a failing run must be
recorded and make the script exit 1 after the others ran."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "device", "ab_bfs.sh")

# A stand-in CLI: its file name is its key; MS_<key> gives its per-source times (ms), FAIL_<key> a graph on which it
# exits 3; every call is appended to CALLS as "key graph" and must carry the fixed arguments.
STANDIN = r'''#!/usr/bin/env python3
import json, os, sys
key = os.path.basename(sys.argv[0])
a = sys.argv[1:]
graph = a[a.index("--graph") + 1]
open(os.environ["CALLS"], "a").write(f"{key} {graph}\n")
assert a[0] == "run" and a[a.index("--bfs") + 1] == os.environ.get("WANT_BFS", "tc") and "--no-parents" in a
assert a[a.index("--repeat") + 1] == "16"
if os.environ.get("FAIL_" + key) == graph:
    sys.exit(3)
ms = [float(x) for x in os.environ["MS_" + key].split(",")]
json.dump({"results": [{"algo": "bfs", "seconds": [x / 1e3 for x in ms]}]}, open(a[a.index("--json") + 1], "w"))
'''


def run(tmp, clis, graphs, env_extra):
    bins = []
    for name in clis:
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(STANDIN)
        os.chmod(path, 0o755)
        bins.append(f"{name}={path}")
    env = dict(os.environ, CALLS=os.path.join(tmp, "calls"), **env_extra)
    out = os.path.join(tmp, "out")
    p = subprocess.run(["bash", SCRIPT, out, *bins, "--", *graphs], env=env, capture_output=True, text=True)
    calls = open(env["CALLS"]).read().split("\n")[:-1] if os.path.exists(env["CALLS"]) else []
    ab = json.load(open(os.path.join(out, "ab.json"))) if os.path.exists(os.path.join(out, "ab.json")) else None
    return p, calls, ab


def main():
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        # The first source (50 ms) is left out of both statistics: base's median 2, new's 1.
        p, calls, ab = run(tmp, ["base", "new"], ["kron:20", "grid2d:64"],
                           {"MS_base": "50,1,2,3", "MS_new": "50,1,1,1", "ROUNDS": "3"})
        check(p.returncode == 0, f"exit status {p.returncode}: {p.stderr}")
        check(len(calls) == 12, f"12 runs expected, got {len(calls)}")
        check(calls[:4] == ["base kron:20", "new kron:20", "base grid2d:64", "new grid2d:64"], f"round 1 order {calls[:4]}")
        check(calls[4:8] == ["new kron:20", "base kron:20", "new grid2d:64", "base grid2d:64"], f"round 2 {calls[4:8]}")
        check(calls[8:10] == ["base kron:20", "new kron:20"], f"round 3 order {calls[8:10]}")
        check(ab is not None and len(ab["cells"]) == 12, "12 cells in ab.json")
        if ab:
            base = [c for c in ab["cells"] if c["cli"] == "base"]
            check(all(c["median_ms"] == 2.0 and c["warm_mean_ms"] == 2.0 for c in base), f"base cells {base[:1]}")
            row = ab["summary"][0]
            check(row["graph"] == "kron:20" and row["new"]["best_vs_base"] == 0.5, f"summary {row}")
        check("kron:20" in p.stdout and "(0.500x)" in p.stdout, f"table: {p.stdout}")

    with tempfile.TemporaryDirectory() as tmp:
        # Times of 100 ms and more fill a column: the table's cells must still stand apart (graph, base's range, new's
        # range and ratio).
        p, calls, ab = run(tmp, ["base", "new"], ["grid2d:2048"],
                           {"MS_base": "150,114.0886,114.2111", "MS_new": "150,114.6240,114.7993", "ROUNDS": "1"})
        rows = [line.split() for line in p.stdout.splitlines() if line.startswith("grid2d:2048")]
        check(len(rows) == 1 and len(rows[0]) == 4, f"table cells run together: {p.stdout}")

    with tempfile.TemporaryDirectory() as tmp:
        # new fails on one graph: recorded, the other runs still made, exit status 1.
        p, calls, ab = run(tmp, ["base", "new"], ["kron:20", "urand:20"],
                           {"MS_base": "1,1", "MS_new": "1,1", "FAIL_new": "kron:20", "ROUNDS": "1", "WANT_BFS": "do",
                            "BFS": "do"})
        check(p.returncode == 1, f"a failed run must give exit status 1, got {p.returncode}")
        check(len(calls) == 4, f"every run still made: {calls}")
        failed = [c for c in ab["cells"] if c["exit_status"] != 0] if ab else []
        check(len(failed) == 1 and failed[0]["cli"] == "new" and failed[0]["exit_status"] == 3, f"failed cells {failed}")
        check("new on kron:20 round 1: exit status 3" in p.stderr, f"stderr: {p.stderr}")

    with tempfile.TemporaryDirectory() as tmp:
        for args, what in ((["base"], "no graphs"), (["notapair", "--", "g"], "an argument without '='"),
                           (["a b=/bin/true", "--", "g"], "a name with a space")):
            p = subprocess.run(["bash", SCRIPT, os.path.join(tmp, "o"), *args], capture_output=True, text=True)
            check(p.returncode == 2 and "ab_bfs:" in p.stderr, f"{what}: exit {p.returncode}, {p.stderr}")
        p = subprocess.run(["bash", SCRIPT, os.path.join(tmp, "o"), "a=/bin/true", "--", "g"],
                           env=dict(os.environ, ROUNDS="0"), capture_output=True, text=True)
        check(p.returncode == 2 and "ROUNDS" in p.stderr, f"ROUNDS=0: exit {p.returncode}, {p.stderr}")

    for f in failures:
        print("FAILED:", f)
    print(f"test_ab_bfs: {'failed' if failures else 'passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
