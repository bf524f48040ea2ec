#!/usr/bin/env python3
"""Turn gk_bench's JSON into each module's README tables and charts.

    scripts/report.py RESULTS.json [--root DIR] [--module NAME]

For every module that has results in the JSON (or only --module NAME), the
tables replace whatever stands between the markers <!-- bench:begin --> and
<!-- bench:end --> in DIR/<module>/README.md (DIR: the repository root), and
one chart per (parameters, size) group is written next to it as
DIR/<module>/bench-<params>-<size>.png. Everything comes from the JSON: the
module's main metric (GB/s or TFLOP/s), its second peak if it has one (a
column of % of that peak for every case), its cases and their roles
(variant, reference, ceiling), the GPU, the CUDA version and the date, which
the tables and the charts name. Nothing here is typed by hand, and nothing here names a
module: rerun it on a new JSON to refresh the pages.

The charts need matplotlib (scripts/requirements.txt). Without it the tables
are still written, and the script says what to install.
"""
import argparse
import json
import math
import os
import re
import sys

FORMAT = "gpukernels-bench-2"
REQUIREMENTS = "python3 -m pip install -r scripts/requirements.txt"


def load(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"report.py: cannot read {path}: {e}")
    if data.get("format") != FORMAT:
        sys.exit(f"report.py: {path} is not a gk_bench JSON file of format {FORMAT} "
                 f"(found {data.get('format')!r}); rerun gk_bench --json")
    return data


def provenance(d):
    dev = d["device"]
    # The compute peaks are lanes (or tensor-core FLOPs) per clock x SMs x the
    # SM clock the device reports, which is its boost clock. NVIDIA's
    # published dense figures for the H100/H200 SXM use 1830 MHz instead;
    # name the clock, and give those figures beside ours where they apply.
    flops = []
    for key, label in (("peak_fp32_tflops", "fp32"), ("peak_tf32_tflops", "TF32"), ("peak_bf16_tflops", "BF16")):
        v = dev.get(key)
        flops.append(f"{label} {v:.1f} TFLOP/s" if v else f"{label} n/a")
    mhz = dev.get("sm_clock_mhz")
    clock = f"at the {mhz} MHz boost clock the device reports, " if mhz else ""
    published = ""
    if mhz and dev["cc"] == "9.0" and dev["sm_count"] == 132 and dev.get("peak_tf32_tflops"):
        scale = 1830.0 / mhz
        published = (f" (NVIDIA's published dense figures, at 1830 MHz: TF32 "
                     f"{dev['peak_tf32_tflops'] * scale:.1f}, BF16 {dev['peak_bf16_tflops'] * scale:.1f} TFLOP/s)")
    t = d["timing"]
    return (f"{dev['name']} (sm_{dev['cc'].replace('.', '')}, {dev['sm_count']} SMs; peaks DRAM "
            f"{dev['peak_dram_gbps']:.0f} GB/s; {clock}{', '.join(flops)}{published}), CUDA runtime "
            f"{d['cuda']['runtime']}, driver {d['cuda']['driver']}, "
            f"{d['date']}; {t['l2']} L2, median of >= {t['min_iters']} timed calls after {t['warmup']} warm-up")


def slug(s):
    return re.sub(r"[^A-Za-z0-9.]+", "_", s).strip("_") or "all"


def groups(d, module):
    out = {}
    for r in d["results"]:
        if r["module"] == module:
            out.setdefault((r["params"], r["size"]), []).append(r)
    return out


def num(v, fmt):
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, fmt)


def baseline_label(d):
    b = str(d.get("baseline") or "1")
    return f"variant {b}" if b.isdigit() else b


FLOP_PEAKS = ("fp32", "TF32", "BF16")


def table(d, meta, rows):
    metric = meta.get("metric", "gbps")
    second = meta.get("second_peak")  # a peak every case is also measured against, or None
    main = ("GB/s", "gbps", ".0f") if metric == "gbps" else ("TFLOP/s", "tflops", ".2f")
    other = ("TFLOP/s", "tflops", ".3f") if metric == "gbps" else ("GB/s", "gbps", ".0f")
    has = lambda key: any(r.get(key) is not None for r in rows if r["status"] == "ok")
    cols = [("id", None), ("case", None), ("precision", None), ("median ms", None), (main[0], main)]
    # A GB/s module shows TFLOP/s only when its second peak is a FLOP peak
    # (otherwise its "flops" count something else, such as increments).
    if has(other[1]) and (metric != "gbps" or second in FLOP_PEAKS):
        cols.append((other[0], other))
    cols.append(("% of peak", None))
    if second:
        cols.append((f"% of {second} peak", None))
    if has("vs_reference"):
        cols.append(("vs its reference", None))
    if has("vs_baseline"):
        cols.append((f"vs {baseline_label(d)}", None))
    if has("pct_ceiling"):
        cols.append(("% of ceiling", None))
    out = ["| " + " | ".join(c[0] for c in cols) + " |",
           "|" + "|".join("---:" if i not in (1, 2) else "---" for i in range(len(cols))) + "|"]
    for r in rows:
        ident = {"variant": str(r["id"]), "reference": "ref", "ceiling": "ceiling"}[r["role"]]
        cells = [ident, r["name"], r.get("precision") or ""]
        if r["status"] != "ok":
            cells.append(f"{r['status']}: {r.get('why', '')}".replace("|", "/"))
            cells += [""] * (len(cols) - len(cells))
            out.append("| " + " | ".join(cells) + " |")
            continue
        cells.append(num(r["median_ms"], ".4f"))
        for title, spec in cols[4:]:
            if spec is not None:
                cells.append(num(r.get(spec[1]), spec[2]))
            elif title == "% of peak":
                p = r.get("pct_peak")
                cells.append(f"{p:.1f} ({r['peak']})" if p is not None else f"n/a ({r['peak']})")
            elif title == f"% of {second} peak":
                p = r.get("pct_second_peak")
                cells.append(f"{p:.1f}" if p is not None else "n/a")
            elif title == "vs its reference":
                v = r.get("vs_reference")
                cells.append(f"{v:.2f}x {r.get('reference_name') or ''}".strip() if v is not None else "")
            elif title.startswith("vs "):
                cells.append(num(r.get("vs_baseline"), ".1f") + ("x" if r.get("vs_baseline") is not None else ""))
            elif title == "% of ceiling":
                cells.append(num(r.get("pct_ceiling"), ".1f"))
        out.append("| " + " | ".join(cells) + " |")
    return out


def chart(d, meta, module, params, size, rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metric = meta.get("metric", "gbps")
    unit = "GB/s" if metric == "gbps" else "TFLOP/s"
    ok = [r for r in rows if r["status"] == "ok" and r.get(metric) is not None]
    var = [r for r in ok if r["role"] == "variant"]
    if not var:
        return False
    fig, ax = plt.subplots(figsize=(10, 5))
    xs = range(len(var))
    palette = ["#4c72b0", "#dd8452", "#55a868", "#8172b3"]
    precisions = sorted({r.get("precision") or "" for r in var})
    colours = [palette[precisions.index(r.get("precision") or "") % len(palette)] for r in var]
    ax.bar(xs, [r[metric] for r in var], color=colours)
    if len(precisions) > 1:
        from matplotlib.patches import Patch
        ax.legend(handles=[Patch(color=palette[i % len(palette)], label=p) for i, p in enumerate(precisions)],
                  fontsize=8, loc="upper left", bbox_to_anchor=(0.0, 0.93))
    styles = {"reference": ("dashed", "#c44e52"), "ceiling": ("solid", "black")}
    for r in ok:
        if r["role"] in styles:
            ls, col = styles[r["role"]]
            ax.axhline(r[metric], linestyle=ls, color=col, linewidth=1)
            # References labelled at the left end of their line, the ceiling at
            # the right end, so that lines close together keep readable labels.
            left = r["role"] == "reference"
            ax.text(-0.45 if left else len(var) - 0.55, r[metric], f"{r['role']}: {r['name']} {r[metric]:.4g}",
                    va="bottom", ha="left" if left else "right", fontsize=8, color=col)
    values = [r[metric] for r in ok]
    if max(values) / max(min(values), 1e-12) > 100:
        ax.set_yscale("log")
        ax.set_ylabel(f"{unit} (log scale)")
    else:
        ax.set_ylabel(unit)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{r['id']} {r['name']}" for r in var], rotation=30, ha="right", fontsize=8)
    dev = d["device"]
    ax.set_title(f"{module} {params}, {meta.get('axes', 'size')} = {size}: {dev['name']}, "
                 f"CUDA {d['cuda']['runtime']}, {d['date']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def report_module(d, meta, root, can_chart):
    module = meta["name"]
    readme = os.path.join(root, module, "README.md")
    try:
        text = open(readme).read()
    except OSError as e:
        sys.exit(f"report.py: cannot read {readme}: {e}")
    second = (f"\"% of {meta['second_peak']} peak\" is of that peak, for every case; "
              if meta.get("second_peak") else "")
    lines = [f"Measured by `gk_bench` on {provenance(d)}. \"% of peak\" is of the peak named in brackets; {second}"
             f"\"vs its reference\" is the reference's time over the case's (above 1: faster than the reference); "
             f"\"vs {baseline_label(d)}\" is the speed-up over it; \"% of ceiling\" is the ceiling's time over "
             f"the case's.", ""]
    written = []
    for (params, size), rows in groups(d, module).items():
        lines.append(f"**{params}, {meta.get('axes', 'size')} = {size}**")
        lines.append("")
        lines += table(d, meta, rows)
        lines.append("")
        if can_chart:
            name = f"bench-{slug(params)}-{slug(size)}.png"
            if chart(d, meta, module, params, size, rows, os.path.join(root, module, name)):
                lines.append(f"![{module} {params}, {size}]({name})")
                lines.append("")
                written.append(name)
    new, count = re.subn(r"(<!-- bench:begin -->\n).*?(<!-- bench:end -->)",
                         lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), text, flags=re.S)
    if count != 1:
        sys.exit(f"report.py: {readme}: the markers <!-- bench:begin --> and <!-- bench:end --> were not found")
    with open(readme, "w") as f:
        f.write(new)
    print(f"report.py: wrote the tables of {readme}" + (f" and {len(written)} chart(s)" if written else ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir),
                    help="the repository root that holds <module>/README.md (default: this script's repository)")
    ap.add_argument("--module", help="only this module")
    a = ap.parse_args()
    d = load(a.json)
    try:
        import matplotlib  # noqa: F401
        can_chart = True
    except ImportError:
        can_chart = False
        print(f"report.py: matplotlib is not installed, so no chart was written (the tables were). "
              f"For the charts: {REQUIREMENTS}", file=sys.stderr)
    metas = [m for m in d.get("modules", []) if any(r["module"] == m["name"] for r in d["results"])]
    if a.module:
        metas = [m for m in metas if m["name"] == a.module]
    if not metas:
        sys.exit(f"report.py: {a.json} has no results" + (f" for module {a.module}" if a.module else ""))
    for meta in metas:
        report_module(d, meta, a.root, can_chart)


if __name__ == "__main__":
    main()
