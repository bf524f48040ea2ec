#!/usr/bin/env python3
"""One case against its reference over a sweep of shapes, from gk_bench JSON.

    scripts/shape_chart.py [--id ID] [--png OUT.png] RUN.json [RUN.json ...]

For every (parameters, size) group of the files, in their order, the row of
case ID (default 0: gemm's auto row, GK_GEMM_AUTO) and the row of its
reference: a markdown table on stdout (the group, the size, both medians,
the reference's over the case's: above 1 the case is faster), and with
--png a chart of that ratio against the shape (a bar per size, the line at
1 drawn), which names the GPU, the CUDA version and each file's date.
Nothing is typed by hand. Make a sweep with a file of shapes:
    gk_bench --module gemm --variant 0 --sizes @shapes.txt --json sweep.json
The chart needs matplotlib (scripts/requirements.txt); the table does not.
"""
import json
import os
import sys

FORMAT = "gpukernels-bench-2"


def rows_of(paths, case_id):
    rows, runs = [], []
    for path in paths:
        with open(path) as f:
            d = json.load(f)
        if d.get("format") != FORMAT:
            sys.exit(f"shape_chart.py: {path} is not a gk_bench JSON file of format {FORMAT}")
        stem = os.path.splitext(os.path.basename(path))[0]
        runs.append((f"{d['device']['name']}, CUDA runtime {d['cuda']['runtime']}", f"{stem} {d['date']}"))
        results = d["results"]
        for r in results:
            if r["role"] != "variant" or r.get("id") != case_id or r.get("status") != "ok":
                continue
            ref = next((q for q in results if q["role"] == "reference" and q.get("name") == r.get("reference_name")
                        and q["module"] == r["module"] and q["params"] == r["params"] and q["size"] == r["size"]
                        and q.get("status") == "ok"), None)
            if ref is None:
                continue
            rows.append((r["params"], r["size"], r["name"], r["median_ms"], ref["name"], ref["median_ms"]))
    return rows, runs


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
    devices = sorted({r[0] for r in runs})
    print(f"Measured by `gk_bench` on {'; '.join(devices)} (files with their dates: "
          f"{', '.join(r[1] for r in runs)}). \"ratio\" is the reference's median over the case's.\n")
    print("| run | size | row | median ms | reference | median ms | ratio |")
    print("|---|---|---|---:|---|---:|---:|")
    for params, size, name, ms, ref, ref_ms in rows:
        print(f"| {params} | {size} | {name} | {ms:.4f} | {ref} | {ref_ms:.4f} | {ref_ms / ms:.3f} |")
    if png and rows:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        labels = [f"{size}\n{params}" for params, size, *_ in rows]
        ratios = [ref_ms / ms for *_, ms, _, ref_ms in rows]
        fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(rows)), 4.5))
        ax.bar(range(len(rows)), ratios, color=["#4c72b0" if x >= 1 else "#dd8452" for x in ratios])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
        ax.set_ylabel("reference time / case time (above 1: faster)")
        ax.set_title(f"case {case_id} against its reference, {'; '.join(devices)}", fontsize=9)
        fig.text(0.01, 0.01, ", ".join(r[1] for r in runs), fontsize=6)
        fig.tight_layout()
        fig.savefig(png, dpi=120)


if __name__ == "__main__":
    main()
