#!/usr/bin/python3
"""Turns the JSON of `bitgraph bench` into PNG charts next to docs/PERFORMANCE.md.

usage: scripts/plot_bench.py BENCH.json OUT_DIR

Charts: speedup over the baseline measured in the same run, per graph and kernel; and the achieved
fraction of the bytes-moved floor per graph and kernel. Every bar names what it is compared with (the
speedup chart prints each bar's baseline under it; the legend says "kernel vs baseline" when a kernel's
rows share one). A row whose baseline failed or was skipped, or a kernel missing on a graph, is drawn as
an empty hatched bar labelled as such rather than left out. The legend sits outside the axes, so it never
covers a bar. Needs Debian's python3-matplotlib.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def status_of(row, needs_baseline):
    """None when the row has a value to plot, else the word drawn on its empty bar."""
    if row is None:
        return "not run"
    base = row.get("baseline", "")
    if needs_baseline:
        if "failed" in base:
            return "baseline failed"
        if "skipped" in base:
            return "baseline skipped"
        if row.get("baseline_median_seconds", 0) <= 0:
            return "no baseline"
    if row.get("median_seconds", 0) <= 0:
        return "failed"
    return None


def grouped_bars(ax, rows, value, kernels, graphs, ylabel, title, needs_baseline, log=False, line=None):
    width = 0.8 / max(1, len(kernels))
    tops = [value(r) for r in rows if status_of(r, needs_baseline) is None]
    # Empty bars reach a fixed share of the axis, so their labels stay readable on a log scale too.
    placeholder = (max(tops) if tops else 1.0) * (0.5 if log else 0.25)
    for k, kernel in enumerate(kernels):
        bases = {r.get("baseline", "") for r in rows if r["kernel"] == kernel and status_of(r, needs_baseline) is None}
        one_base = needs_baseline and len(bases) == 1
        label = f"{kernel} vs {next(iter(bases))}" if one_base else kernel
        color = plt.get_cmap("tab20")(k % 20)  # one colour per kernel, whatever bars are empty
        for i, g in enumerate(graphs):
            hit = [r for r in rows if r["graph"] == g and r["kernel"] == kernel]
            row = hit[0] if hit else None
            x = i + k * width
            why = status_of(row, needs_baseline)
            # Labels sit at the bottom of the axes (axes-fraction y), inside the bar.
            where = dict(xy=(x, 0.01), xycoords=("data", "axes fraction"), rotation=90, fontsize=5, ha="center",
                         va="bottom")
            if why is None:
                ax.bar(x, value(row), width, label=label, color=color)
                label = None
                if needs_baseline and not one_base:
                    ax.annotate("vs " + row.get("baseline", ""), **where)
            else:
                ax.bar(x, placeholder, width, fill=False, hatch="//", edgecolor="grey", linewidth=0.5)
                ax.annotate(f"{kernel}: {why}", color="black", backgroundcolor="white", **where)
    ax.set_xticks([i + width * (len(kernels) - 1) / 2 for i in range(len(graphs))])
    ax.set_xticklabels(graphs, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    if log:
        ax.set_yscale("log")
    if line is not None:
        ax.axhline(line, color="black", linewidth=0.8, linestyle="--")
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


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
    width = max(9, len(graphs) * 1.3)

    # Every kernel that names a baseline in any row, its failed and skipped rows included.
    with_base = [r for r in rows if r.get("baseline")]
    kernels = list(dict.fromkeys(r["kernel"] for r in with_base))
    fig, ax = plt.subplots(figsize=(width, 5))
    grouped_bars(ax, with_base, lambda r: r["speedup"], kernels, graphs, "speedup over baseline (x)",
                 f"{suite}: speedup over the baseline measured in the same run ({data.get('space', '')})",
                 needs_baseline=True, log=True, line=1.0)
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"bench-{suite}-speedup.png"), dpi=120)

    gbs = [r for r in rows if r.get("unit") == "GB/s"]
    kernels = list(dict.fromkeys(r["kernel"] for r in gbs))
    fig, ax = plt.subplots(figsize=(width, 5))
    grouped_bars(ax, gbs,
                 lambda r: 100.0 * r["floor_seconds"] / r["median_seconds"],
                 kernels, graphs, "% of the bytes-moved floor",
                 f"{suite}: achieved fraction of the bytes-moved floor (copy bandwidth "
                 f"{data.get('copy_bandwidth_bytes_per_second', 0) / 1e9:.0f} GB/s)", needs_baseline=False, line=100.0)
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"bench-{suite}-floor.png"), dpi=120)
    print(f"wrote {out}/bench-{suite}-speedup.png and {out}/bench-{suite}-floor.png")


if __name__ == "__main__":
    main()
