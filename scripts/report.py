#!/usr/bin/env python3
"""Turn gk_bench's JSON into the reduce README's table and ladder chart.

    scripts/report.py RESULTS.json [--readme reduce/README.md] [--png reduce/ladder.png]

The table replaces whatever stands between the markers
<!-- bench:begin --> and <!-- bench:end --> in the README; the chart is a PNG
(matplotlib). Both name the GPU, the CUDA version and the date of the run.
Nothing here is typed by hand: rerun it on a new JSON to refresh the page.
"""
import argparse
import json
import re
import sys


def fmt_size(n):
    for k in range(62, 9, -1):
        p = 1 << k
        if n == p:
            return f"2^{k}"
        if 0 < n - p < 1000:
            return f"2^{k}+{n - p}"
    return str(n)


def load(path):
    with open(path) as f:
        data = json.load(f)
    if data.get("format") != "gpukernels-bench-1":
        sys.exit(f"{path}: not a gk_bench JSON file")
    return data


def provenance(d):
    dev = d["device"]
    return (f"{dev['name']} (sm_{dev['cc'].replace('.', '')}, {dev['sm_count']} SMs, "
            f"peak DRAM {dev['peak_dram_gbps']:.0f} GB/s), CUDA runtime {d['cuda']['runtime']}, "
            f"driver {d['cuda']['driver']}, {d['date']}; "
            f"{d['timing']['l2']} L2, median of >= {d['timing']['min_iters']} timed calls")


def groups(d, module):
    out = {}
    for r in d["results"]:
        if r["module"] == module:
            out.setdefault((r["params"], r["size"]), []).append(r)
    return out


def table(d, module):
    lines = [f"Measured by `gk_bench` on {provenance(d)}.", ""]
    for (params, size), rows in groups(d, module).items():
        lines.append(f"**{params}, n = {fmt_size(size)}**")
        lines.append("")
        lines.append("| id | variant | median ms | GB/s | % of peak | vs variant 1 | vs CUB |")
        lines.append("|---:|---|---:|---:|---:|---:|---:|")
        for r in rows:
            ident = "ref" if r["is_reference"] else str(r["id"])
            if r["status"] != "ok":
                lines.append(f"| {ident} | {r['name']} | {r['status']} | | | | |")
                continue
            lines.append(f"| {ident} | {r['name']} | {r['median_ms']:.4f} | {r['gbps']:.0f} | "
                         f"{r['pct_peak']:.1f} | {r['speedup_vs_first']:.1f}x | {r['vs_reference']:.2f}x |")
        lines.append("")
    return "\n".join(lines)


def chart(d, module, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    g = groups(d, module)
    fig, ax = plt.subplots(figsize=(11, 5.5))
    width = 0.8 / max(1, len(g))
    names = None
    for gi, ((params, size), rows) in enumerate(g.items()):
        var = [r for r in rows if not r["is_reference"] and r["status"] == "ok"]
        ref = [r for r in rows if r["is_reference"] and r["status"] == "ok"]
        names = names or [f"{r['id']} {r['name']}" for r in var]
        xs = [i + (gi - (len(g) - 1) / 2) * width for i in range(len(var))]
        bars = ax.bar(xs, [r["gbps"] for r in var], width, label=f"n = {fmt_size(size)}")
        if ref:
            ax.hlines(ref[0]["gbps"], -0.5, len(var) - 0.5, colors=bars.patches[0].get_facecolor(),
                      linestyles="dashed", linewidth=1)
    peak = d["device"]["peak_dram_gbps"]
    ax.axhline(peak, color="black", linewidth=1)
    ax.text(len(names) - 0.5, peak, f" peak {peak:.0f} GB/s", va="bottom", ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("GB/s (log scale)")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    ax.set_title(f"reduce ladder, {list(g)[0][0]}: {d['device']['name']}, CUDA {d['cuda']['runtime']}, {d['date']}",
                 fontsize=10)
    from matplotlib.lines import Line2D
    handles, labels = ax.get_legend_handles_labels()
    handles.append(Line2D([], [], color="gray", linestyle="dashed"))
    labels.append("cub::DeviceReduce at the same n")
    ax.legend(handles, labels, fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("--module", default="reduce")
    ap.add_argument("--readme", default="reduce/README.md")
    ap.add_argument("--png", default="reduce/ladder.png")
    a = ap.parse_args()
    d = load(a.json)
    text = open(a.readme).read()
    new, count = re.subn(r"(<!-- bench:begin -->\n).*?(<!-- bench:end -->)",
                         lambda m: m.group(1) + table(d, a.module) + "\n" + m.group(2), text, flags=re.S)
    if count != 1:
        sys.exit(f"{a.readme}: markers <!-- bench:begin --> / <!-- bench:end --> not found")
    open(a.readme, "w").write(new)
    chart(d, a.module, a.png)
    print(f"wrote {a.readme} and {a.png} from {a.json}")


if __name__ == "__main__":
    main()
