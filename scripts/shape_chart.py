#!/usr/bin/env python3
"""One case against its reference over a sweep of shapes, from gk_bench JSON.

    scripts/shape_chart.py [--id ID] [--png OUT.png] RUN.json [RUN.json ...]

For every (parameters, size) group of the files, in their order, the row of
case ID (default 0: gemm's auto row, GK_GEMM_AUTO) and the row of its
reference: a markdown table on stdout (the group, the size, both medians,
the reference's over the case's: above 1 the case is faster), and with
--png a chart of that ratio against the shape, which names the GPU, the
CUDA version and each file's date. Nothing is typed by hand.

A run (one file's parameter set) of 16 shapes or more is a sweep: beneath
the table, a line per sweep gives the geometric mean of its ratios, the
lowest with its shape, and how many fall below 0.95 and 0.7; and the chart
is a scatter of the ratio against the product's FLOPs (log scale), one
marker per run, with the lines at 1.0, 0.95 and 0.7 drawn and named and
each run's lowest point labelled with its shape. Fewer shapes keep the bar
per size. Make a sweep with gk_bench's own shapes (100 shapes, each side
drawn log-uniformly from 1 to 8192, seeded: the same on every run) or with
a file of shapes:
    gk_bench --module gemm --variant 0 --sizes sweep:100 --param dtype=bf16 --json sweep.json
    gk_bench --module gemm --variant 0 --sizes @shapes.txt --json sweep.json
The chart needs matplotlib (scripts/requirements.txt); the table does not.
"""
import json
import math
import os
import sys

FORMAT = "gpukernels-bench-2"
SWEEP_MIN = 16         # shapes in one run from which it is a sweep (the default lists have fewer)
LINES = (1.0, 0.95, 0.7)  # the ratios the chart draws: parity, and two bars a sweep is held to


def rows_of(paths, case_id):
    """The case's rows with their references: dicts in file order."""
    rows, runs = [], []
    for path in paths:
        with open(path) as f:
            d = json.load(f)
        if d.get("format") != FORMAT:
            sys.exit(f"shape_chart.py: {path} is not a gk_bench JSON file of format {FORMAT}")
        stem = os.path.splitext(os.path.basename(path))[0]
        runs.append({"device": f"{d['device']['name']}, CUDA runtime {d['cuda']['runtime']}",
                     "date": d["date"], "stem": stem})
        results = d["results"]
        for r in results:
            if r["role"] != "variant" or r.get("id") != case_id or r.get("status") != "ok":
                continue
            ref = next((q for q in results if q["role"] == "reference" and q.get("name") == r.get("reference_name")
                        and q["module"] == r["module"] and q["params"] == r["params"] and q["size"] == r["size"]
                        and q.get("status") == "ok"), None)
            if ref is None:
                continue
            shape = r.get("shape") or []
            flops = r.get("flops") or 2.0 * math.prod(shape)
            rows.append({"file": stem, "params": r["params"], "size": r["size"], "name": r["name"],
                         "ms": r["median_ms"], "ref": ref["name"], "ref_ms": ref["median_ms"],
                         "ratio": ref["median_ms"] / r["median_ms"], "flops": flops})
    return rows, runs


def groups_of(rows):
    """The runs: rows of one file and one parameter set, in their order. A
    run's name is its parameters, with its file's name where another file
    has the same parameters."""
    groups = {}
    for r in rows:
        groups.setdefault((r["file"], r["params"]), []).append(r)
    files_of = {}
    for f, p in groups:
        files_of.setdefault(p, set()).add(f)
    return [(p if len(files_of[p]) == 1 else f"{p} ({f})", g) for (f, p), g in groups.items()]


def summary(group):
    """Geometric mean of the ratios, the lowest row, the counts below 0.95 and 0.7."""
    gmean = math.exp(sum(math.log(r["ratio"]) for r in group) / len(group))
    low = min(group, key=lambda r: r["ratio"])
    return gmean, low, sum(r["ratio"] < 0.95 for r in group), sum(r["ratio"] < 0.7 for r in group)


def refs_of(group):
    """The references of a run's rows, each named once, in their order."""
    return " / ".join(dict.fromkeys(r["ref"] for r in group))


def chart(png, rows, groups, runs, case_id):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    devices = "; ".join(sorted({r["device"] for r in runs}))
    dates = ", ".join(sorted({r["date"] for r in runs}))
    if not any(len(g) >= SWEEP_MIN for _, g in groups):
        labels = [f"{r['size']}\n{r['params']}" for r in rows]
        ratios = [r["ratio"] for r in rows]
        fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(rows)), 4.5))
        ax.bar(range(len(rows)), ratios, color=["#4c72b0" if x >= 1 else "#dd8452" for x in ratios])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
        ax.set_ylabel("reference time / case time (above 1: faster)")
        ax.set_title(f"case {case_id} against its reference, {devices}", fontsize=9)
        fig.text(0.01, 0.01, ", ".join(f"{r['stem']} {r['date']}" for r in runs), fontsize=6)
        fig.tight_layout()
        fig.savefig(png, dpi=120)
        return
    fig, ax = plt.subplots(figsize=(9, 6))
    markers = "os^Dv<>Px*"
    lowest = min(r["ratio"] for r in rows)
    for i, (name, g) in enumerate(groups):
        gmean, low, _, _ = summary(g)
        ax.scatter([r["flops"] for r in g], [r["ratio"] for r in g], s=18, marker=markers[i % len(markers)],
                   alpha=0.75, label=f"{name} vs {refs_of(g)}: {len(g)} shapes, geo. mean {gmean:.2f}x")
        ax.annotate(low["size"], (low["flops"], low["ratio"]), textcoords="offset points", xytext=(4, -10),
                    fontsize=6)
    styles = {1.0: ("-", "1.0x: as fast as the reference"), 0.95: ("--", "0.95x"), 0.7: (":", "0.7x")}
    for y in LINES:
        ax.axhline(y, color="black", linewidth=0.8, linestyle=styles[y][0])
        ax.text(1.0, y, " " + styles[y][1], transform=ax.get_yaxis_transform(), fontsize=7, va="center",
                ha="left")
    ax.set_xscale("log")
    ax.set_ylim(bottom=min(0.5, 0.9 * lowest))
    ax.set_xlabel("FLOPs per call, 2 m n k (log scale)")
    ax.set_ylabel("reference time / case time (above 1: faster)")
    counts = " + ".join(str(len(g)) for _, g in groups)
    ax.set_title(f"case {case_id} against its reference, {counts} shapes\n{devices}, {dates}", fontsize=9)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=1, frameon=False)
    ax.grid(True, which="major", linewidth=0.3, alpha=0.5)
    fig.text(0.01, 0.01, ", ".join(f"{r['stem']} {r['date']}" for r in runs), fontsize=6)
    fig.tight_layout()
    fig.savefig(png, dpi=130)


def main():
    args, case_id, png = sys.argv[1:], 0, None
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--id" and args:
            case_id = int(args.pop(0))
        elif opt == "--png" and args:
            png = args.pop(0)
        else:
            sys.exit(__doc__.strip().splitlines()[2].strip())
    if not args:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    rows, runs = rows_of(args, case_id)
    devices = sorted({r["device"] for r in runs})
    print(f"Measured by `gk_bench` on {'; '.join(devices)} (files with their dates: "
          f"{', '.join(r['stem'] + ' ' + r['date'] for r in runs)}). \"ratio\" is the reference's median over the "
          f"case's.\n")
    print("| run | size | row | median ms | reference | median ms | ratio |")
    print("|---|---|---|---:|---|---:|---:|")
    for r in rows:
        print(f"| {r['params']} | {r['size']} | {r['name']} | {r['ms']:.4f} | {r['ref']} | {r['ref_ms']:.4f} "
              f"| {r['ratio']:.3f} |")
    groups = groups_of(rows)
    sweeps = [(name, g) for name, g in groups if len(g) >= SWEEP_MIN]
    if sweeps:
        print(f"\nSweeps ({SWEEP_MIN} shapes or more in a run): the geometric mean of the ratio, and its lowest.\n")
        print("| run | reference | shapes | geometric mean | lowest | at | below 0.95 | below 0.7 |")
        print("|---|---|---:|---:|---:|---|---:|---:|")
        for name, g in sweeps:
            gmean, low, below95, below70 = summary(g)
            print(f"| {name} | {refs_of(g)} | {len(g)} | {gmean:.3f} | {low['ratio']:.3f} | {low['size']} "
                  f"| {below95} | {below70} |")
    if png and rows:
        chart(png, rows, groups, runs, case_id)


if __name__ == "__main__":
    main()
