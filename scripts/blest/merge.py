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


def timings(ms, timer, **extra):
    """A tool's times per source (ms): their mean, the warm mean (without the first, cold source), the times."""
    return {"mean_ms": mean(ms), "warm_mean_ms": mean(ms[1:]), "ms": ms, **extra, "timer": timer}


def cell(value, width, unit=""):
    """A table cell: the value to 3 decimals and its unit, or '-' where the row was not run."""
    return f"{value:>{width - len(unit)}.3f}{unit}" if value is not None else f"{'-':>{width}}"


def main():
    out, specs = sys.argv[1], sys.argv[2:]
    graphs, mismatches = [], 0
    ratios = {"tc": [], "tcg": [], "auto": []}
    print(f"{'graph':<16} {'blest ms':>10} {'tc ms':>10} {'tcg ms':>10} {'do ms':>10} {'auto ms':>10} "
          f"{'tc/blest':>9} {'tcg/blest':>10} {'auto/blest':>11}  levels")
    for spec in specs:
        name = spec.replace(":", "_").replace("=", "_").replace(",", "_")
        w = os.path.join(out, "work", name)
        tc, do, bl = bfs_row(load(w + ".bitgraph-tc.json")), bfs_row(load(w + ".bitgraph-do.json")), load(w + ".blest.json")
        # The optional rows: levels in the BVSS's ids (tcg) and the default BFS (auto).
        extra = {m: bfs_row(load(w + f".bitgraph-{m}.json")) for m in ("tcg", "auto")
                 if os.path.exists(w + f".bitgraph-{m}.json")}
        ms = {m: [s * 1e3 for s in row["seconds"]] for m, row in {"tc": tc, "do": do, **extra}.items()}
        # Levels: same reached count, depth and level sum per source (Blest's depth = its largest level), for every
        # bitgraph row.
        bad = sorted({i for row in [tc, do, *extra.values()] for i, r in enumerate(bl["runs"])
                      if (r["reached"], r["depth"], r["level_sum"]) !=
                      (row["reached"][i], row["depth"][i], row["level_sum"][i])})
        mismatches += len(bad)
        g = {
            "spec": spec, "n": bl["n"], "stored_entries": bl["stored_entries"], "sources": tc["sources"],
            "blest": timings([r["ms"] for r in bl["runs"]],
                             "omp_get_wtime from cudaLaunchCooperativeKernel to cudaDeviceSynchronize (kernel only)",
                             reorder_seconds=bl["reorder_seconds"], bvss_seconds=bl["bvss_seconds"],
                             social=bl["social"], lazy=bl["lazy"], update_divergence=bl["update_divergence"],
                             full_padding=bl["full_padding"]),
            "bitgraph_tc": timings(ms["tc"], "bfs_tensor_core call to levels ready on the device, caller's ids",
                                   reorder=tc.get("reorder"), reorder_seconds=tc.get("reorder_seconds"),
                                   bvss_build_seconds=tc.get("bvss_build_seconds"), lazy=tc.get("lazy_updates"),
                                   update_divergence=tc.get("update_divergence")),
            "bitgraph_do": timings(ms["do"],
                                   "bfs call (direction-optimised, no parents) to levels ready on the device"),
            "level_mismatches": bad,
        }
        if "tcg" in extra:
            g["bitgraph_tcg"] = timings(ms["tcg"], "bfs_tensor_core_graph_ids call to levels ready on the device, the "
                                                   "BVSS's ids (no unpermute, as Blest's)")
        if "auto" in extra:
            g["bitgraph_auto"] = timings(ms["auto"], "bfs(plan) call (the default: the plan's engine) to levels ready, "
                                                     "caller's ids; the plan's making not timed",
                                         engine=extra["auto"].get("engine"))
        g["tc_speedup_vs_blest"] = g["blest"]["warm_mean_ms"] / g["bitgraph_tc"]["warm_mean_ms"]
        best = min(g["bitgraph_tc"]["warm_mean_ms"], g["bitgraph_do"]["warm_mean_ms"])
        g["best_speedup_vs_blest"] = g["blest"]["warm_mean_ms"] / best
        ratios["tc"].append(g["tc_speedup_vs_blest"])
        for m in ("tcg", "auto"):
            if f"bitgraph_{m}" in g:
                g[f"{m}_speedup_vs_blest"] = g["blest"]["warm_mean_ms"] / g[f"bitgraph_{m}"]["warm_mean_ms"]
                ratios[m].append(g[f"{m}_speedup_vs_blest"])
        graphs.append(g)
        warm = {m: g.get(f"bitgraph_{m}", {}).get("warm_mean_ms") for m in ("tc", "tcg", "do", "auto")}
        engine = g.get("bitgraph_auto", {}).get("engine") or ""
        print(f"{spec:<16} {g['blest']['warm_mean_ms']:>10.3f} {cell(warm['tc'], 10)} {cell(warm['tcg'], 10)} "
              f"{cell(warm['do'], 10)} {cell(warm['auto'], 10)} {cell(g['tc_speedup_vs_blest'], 9, 'x')} "
              f"{cell(g.get('tcg_speedup_vs_blest'), 10, 'x')} {cell(g.get('auto_speedup_vs_blest'), 11, 'x')}  "
              f"{'equal' if not bad else f'{len(bad)} differ'} {engine}")

    def geomean(xs):
        return math.exp(sum(math.log(r) for r in xs) / len(xs)) if xs else float("nan")
    geo = geomean(ratios["tc"])
    print(f"geomean speed-up vs Blest (warm means): tc {geo:.3f}x, tcg {geomean(ratios['tcg']):.3f}x "
          f"({len(ratios['tcg'])} graphs), auto {geomean(ratios['auto']):.3f}x ({len(ratios['auto'])} graphs); "
          f"level mismatches: {mismatches}")
    try:  # merged on the GPU machine; elsewhere (outputs merged later) the GPU is not known here
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                             text=True).stdout.strip()
    except OSError:
        gpu = "unknown (merged without nvidia-smi)"
    with open(os.path.join(out, "side_by_side.json"), "w") as f:
        merged = {"gpu": gpu, "graphs": graphs, "geomean_tc_speedup_vs_blest": geo,
                  "geomean_tcg_speedup_vs_blest": geomean(ratios["tcg"]) if ratios["tcg"] else None,
                  "geomean_auto_speedup_vs_blest": geomean(ratios["auto"]) if ratios["auto"] else None,
                  "level_mismatches": mismatches,
                  "note": "warm means leave out each tool's first (cold) source"}
        for key, var in (("blest_commit", "BLEST_COMMIT"), ("bitgraph_tree", "BITGRAPH_TREE"),
                         ("bitgraph_run_args", "BITGRAPH_RUN_ARGS"), ("blest_args", "BLEST_ARGS")):
            if os.environ.get(var):
                merged[key] = os.environ[var]
        json.dump(merged, f, indent=1)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
