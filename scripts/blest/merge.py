#!/usr/bin/env python3
"""Merges the per-graph outputs of side_by_side.sh into OUT/side_by_side.json and prints the table."""
import json
import math
import os
import subprocess
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def bfs_row(report):
    return [r for r in report["results"] if r["algo"] == "bfs"][0]


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def main():
    out, specs = sys.argv[1], sys.argv[2:]
    graphs, ratios, mismatches = [], [], 0
    print(f"{'graph':<16} {'blest ms':>10} {'tc ms':>10} {'do ms':>10} {'tc/blest':>9} {'best/blest':>10}  levels")
    for spec in specs:
        name = spec.replace(":", "_").replace("=", "_").replace(",", "_")
        w = os.path.join(out, "work", name)
        tc, do, bl = bfs_row(load(w + ".bitgraph-tc.json")), bfs_row(load(w + ".bitgraph-do.json")), load(w + ".blest.json")
        tc_ms = [s * 1e3 for s in tc["seconds"]]
        do_ms = [s * 1e3 for s in do["seconds"]]
        bl_ms = [r["ms"] for r in bl["runs"]]
        # Levels: same reached count, depth and level sum per source (Blest's depth = its largest level).
        bad = [i for i, r in enumerate(bl["runs"])
               if (r["reached"], r["depth"], r["level_sum"]) != (tc["reached"][i], tc["depth"][i], tc["level_sum"][i])]
        mismatches += len(bad)
        g = {
            "spec": spec, "n": bl["n"], "stored_entries": bl["stored_entries"], "sources": tc["sources"],
            "blest": {"mean_ms": mean(bl_ms), "warm_mean_ms": mean(bl_ms[1:]), "ms": bl_ms,
                      "reorder_seconds": bl["reorder_seconds"], "bvss_seconds": bl["bvss_seconds"],
                      "social": bl["social"], "lazy": bl["lazy"], "update_divergence": bl["update_divergence"],
                      "full_padding": bl["full_padding"],
                      "timer": "omp_get_wtime from cudaLaunchCooperativeKernel to cudaDeviceSynchronize (kernel only)"},
            "bitgraph_tc": {"mean_ms": mean(tc_ms), "warm_mean_ms": mean(tc_ms[1:]), "ms": tc_ms,
                            "reorder": tc.get("reorder"), "reorder_seconds": tc.get("reorder_seconds"),
                            "bvss_build_seconds": tc.get("bvss_build_seconds"), "lazy": tc.get("lazy_updates"),
                            "update_divergence": tc.get("update_divergence"),
                            "timer": "bfs_tensor_core call to levels ready on the device, caller's ids"},
            "bitgraph_do": {"mean_ms": mean(do_ms), "warm_mean_ms": mean(do_ms[1:]), "ms": do_ms,
                            "timer": "bfs call (direction-optimised, no parents) to levels ready on the device"},
            "level_mismatches": bad,
        }
        g["tc_speedup_vs_blest"] = g["blest"]["warm_mean_ms"] / g["bitgraph_tc"]["warm_mean_ms"]
        best = min(g["bitgraph_tc"]["warm_mean_ms"], g["bitgraph_do"]["warm_mean_ms"])
        g["best_speedup_vs_blest"] = g["blest"]["warm_mean_ms"] / best
        ratios.append(g["tc_speedup_vs_blest"])
        graphs.append(g)
        print(f"{spec:<16} {g['blest']['warm_mean_ms']:>10.3f} {g['bitgraph_tc']['warm_mean_ms']:>10.3f} "
              f"{g['bitgraph_do']['warm_mean_ms']:>10.3f} {g['tc_speedup_vs_blest']:>8.2f}x "
              f"{g['best_speedup_vs_blest']:>9.2f}x  {'equal' if not bad else f'{len(bad)} differ'}")
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")
    print(f"geomean tc speed-up vs Blest (warm means): {geo:.3f}x; level mismatches: {mismatches}")
    try:  # merged on the GPU machine; elsewhere (outputs merged later) the GPU is not known here
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                             text=True).stdout.strip()
    except OSError:
        gpu = "unknown (merged without nvidia-smi)"
    with open(os.path.join(out, "side_by_side.json"), "w") as f:
        merged = {"gpu": gpu, "graphs": graphs, "geomean_tc_speedup_vs_blest": geo, "level_mismatches": mismatches,
                  "note": "warm means leave out each tool's first (cold) source"}
        for key, var in (("blest_commit", "BLEST_COMMIT"), ("bitgraph_tree", "BITGRAPH_TREE"),
                         ("bitgraph_run_args", "BITGRAPH_RUN_ARGS"), ("blest_args", "BLEST_ARGS")):
            if os.environ.get(var):
                merged[key] = os.environ[var]
        json.dump(merged, f, indent=1)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
