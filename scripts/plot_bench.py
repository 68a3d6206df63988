#!/usr/bin/python3
"""Turns the JSON of `bitgraph bench` into PNG charts next to docs/PERFORMANCE.md.

usage: scripts/plot_bench.py BENCH.json OUT_DIR

Charts: speedup over the baseline measured in the same run, per graph and kernel; and the achieved
fraction of the bytes-moved floor per graph and kernel. Needs Debian's python3-matplotlib.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def grouped_bars(ax, rows, value, kernels, graphs, ylabel, title, log=False, line=None):
    width = 0.8 / max(1, len(kernels))
    for k, kernel in enumerate(kernels):
        ys = []
        for g in graphs:
            hit = [r for r in rows if r["graph"] == g and r["kernel"] == kernel]
            ys.append(value(hit[0]) if hit else 0.0)
        ax.bar([i + k * width for i in range(len(graphs))], ys, width, label=kernel)
    ax.set_xticks([i + width * (len(kernels) - 1) / 2 for i in range(len(graphs))])
    ax.set_xticklabels(graphs, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if log:
        ax.set_yscale("log")
    if line is not None:
        ax.axhline(line, color="black", linewidth=0.8, linestyle="--")
    ax.legend(fontsize=7)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    rows = data["rows"]
    suite = data.get("suite", "bench")
    graphs = list(dict.fromkeys(r["graph"] for r in rows))

    with_base = [r for r in rows if r.get("baseline_median_seconds", 0) > 0]
    kernels = list(dict.fromkeys(r["kernel"] for r in with_base))
    fig, ax = plt.subplots(figsize=(max(8, len(graphs) * 1.1), 4.5))
    grouped_bars(ax, with_base, lambda r: r["speedup"], kernels, graphs, "speedup over baseline (x)",
                 f"{suite}: speedup over the baseline measured in the same run ({data.get('space', '')})",
                 log=True, line=1.0)
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"bench-{suite}-speedup.png"), dpi=120)

    kernels = list(dict.fromkeys(r["kernel"] for r in rows if r.get("unit") == "GB/s"))
    fig, ax = plt.subplots(figsize=(max(8, len(graphs) * 1.1), 4.5))
    grouped_bars(ax, [r for r in rows if r.get("unit") == "GB/s"],
                 lambda r: 100.0 * r["floor_seconds"] / r["median_seconds"] if r["median_seconds"] > 0 else 0,
                 kernels, graphs, "% of the bytes-moved floor",
                 f"{suite}: achieved fraction of the bytes-moved floor (copy bandwidth "
                 f"{data.get('copy_bandwidth_bytes_per_second', 0) / 1e9:.0f} GB/s)", line=100.0)
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"bench-{suite}-floor.png"), dpi=120)
    print(f"wrote {out}/bench-{suite}-speedup.png and {out}/bench-{suite}-floor.png")


if __name__ == "__main__":
    main()
