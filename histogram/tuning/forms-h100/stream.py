#!/usr/bin/env python3
"""Each case of gk_bench JSON files against the read-only stream of the same bytes.

    histogram/tuning/forms-h100/stream.py README.md NAME RUN.json [RUN.json ...]

For each file, in the order given, and each (parameters, size) group in it
that has a "read-only stream" ceiling row, every variant and reference row
becomes a row: the file, the case, the row, its median, the stream's median
and the stream's median over the row's as a percentage (100: as fast as a
kernel that only reads the samples). The table, with a line naming the GPU,
the CUDA version and each file's date, replaces what stands between
<!-- NAME:begin --> and <!-- NAME:end --> in README.md. Nothing is typed by
hand: rerun it on the same files to check the page.
"""
import json
import os
import re
import sys

FORMAT = "gpukernels-bench-2"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    readme, name, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows, setups, dates = [], set(), []
    for path in files:
        with open(path) as f:
            d = json.load(f)
        if d.get("format") != FORMAT:
            sys.exit(f"stream.py: {path} is not a gk_bench JSON file of format {FORMAT}")
        stem = os.path.splitext(os.path.basename(path))[0]
        cuda = d["cuda"]
        setups.add(f"{d['device']['name']}, CUDA runtime {cuda['runtime']}, driver {cuda['driver']}, "
                   f"{d['timing']['l2']} L2, {d['timing']['statistic']}s")
        dates.append(f"{stem} {d['date']}")
        ok = [r for r in d["results"] if r.get("status") == "ok"]
        for r in ok:
            if r["role"] not in ("variant", "reference"):
                continue
            ceil = [q for q in ok if q["role"] == "ceiling" and q["name"] == "read-only stream"
                    and q["params"] == r["params"] and q["size"] == r["size"]]
            if not ceil:
                continue
            c = ceil[0]
            label = f"{r['id']} {r['name']}" if r["role"] == "variant" else r["name"]
            rows.append(f"| {stem} | {r['params']}, {r['size']} | {label} | {r['median_ms']:.4f} | "
                        f"{c['median_ms']:.4f} | {100.0 * c['median_ms'] / r['median_ms']:.1f} |")
    lines = [f"Measured by `gk_bench` on {'; '.join(sorted(setups))} (files in order, with their dates: "
             f"{', '.join(dates)}). \"% of stream\" is the read-only stream's median over the row's.", "",
             "| file | case, size | row | median ms | stream ms | % of stream |",
             "|---|---|---|---:|---:|---:|"] + rows
    text = open(readme).read()
    new, count = re.subn(rf"(<!-- {re.escape(name)}:begin -->\n).*?(<!-- {re.escape(name)}:end -->)",
                         lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), text, flags=re.S)
    if count != 1:
        sys.exit(f"stream.py: {readme}: the markers <!-- {name}:begin --> and <!-- {name}:end --> were not found")
    with open(readme, "w") as f:
        f.write(new)
    print(f"stream.py: wrote {len(rows)} rows between the {name} markers of {readme}")


if __name__ == "__main__":
    main()
