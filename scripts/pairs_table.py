#!/usr/bin/env python3
"""A table of variants against their references from several gk_bench JSON files.

    scripts/pairs_table.py README.md NAME RUN.json [RUN.json ...]

For each file, in the order given, and each (parameters, size) group in it,
every variant row that has a reference in the same group becomes a row:
the file, the case, the variant, its median, the reference, the reference's
median and their quotient (above 1: the variant is faster). The table, with
a line naming the GPU, the CUDA version and each file's date, replaces what
stands between <!-- NAME:begin --> and <!-- NAME:end --> in README.md.
Nothing is typed by hand: rerun it on the same files to check the page.
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
    rows, runs = [], []
    for path in files:
        with open(path) as f:
            d = json.load(f)
        if d.get("format") != FORMAT:
            sys.exit(f"pairs_table.py: {path} is not a gk_bench JSON file of format {FORMAT}")
        stem = os.path.splitext(os.path.basename(path))[0]
        dev, cuda = d["device"], d["cuda"]
        runs.append(f"{dev['name']}, CUDA runtime {cuda['runtime']}, driver {cuda['driver']}, "
                    f"{d['timing']['l2']} L2, {d['timing']['statistic']}s")
        dates = f"{stem} {d['date']}"
        runs[-1] = (runs[-1], dates)
        for r in d["results"]:
            if r["role"] != "variant" or r.get("status") != "ok" or not r.get("reference_name"):
                continue
            ref = [q for q in d["results"] if q["params"] == r["params"] and q["size"] == r["size"]
                   and q["role"] == "reference" and q["name"] == r["reference_name"] and q.get("status") == "ok"]
            if not ref:
                continue
            q = ref[0]
            rows.append(f"| {stem} | {r['params']}, {r['size']} | {r['id']} {r['name']} | {r['median_ms']:.4f} | "
                        f"{q['name']} | {q['median_ms']:.4f} | {q['median_ms'] / r['median_ms']:.3f} |")
    setups = sorted({s for s, _ in runs})
    lines = [f"Measured by `gk_bench` on {'; '.join(setups)} (files in order, with their dates: "
             f"{', '.join(dt for _, dt in runs)}). \"ratio\" is the reference's median over the variant's.", "",
             "| file | case, size | variant | median ms | reference | median ms | ratio |",
             "|---|---|---|---:|---|---:|---:|"] + rows
    text = open(readme).read()
    new, count = re.subn(rf"(<!-- {re.escape(name)}:begin -->\n).*?(<!-- {re.escape(name)}:end -->)",
                         lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), text, flags=re.S)
    if count != 1:
        sys.exit(f"pairs_table.py: {readme}: the markers <!-- {name}:begin --> and <!-- {name}:end --> were not found")
    with open(readme, "w") as f:
        f.write(new)
    print(f"pairs_table.py: wrote {len(rows)} rows between the {name} markers of {readme}")


if __name__ == "__main__":
    main()
