#!/usr/bin/env python3
"""A table of variants against their references from several gk_bench JSON files.

    scripts/pairs_table.py [--ceiling] README.md NAME RUN.json [RUN.json ...]

For each file, in the order given, and each (parameters, size) group in it,
every variant row that has a reference in the same group becomes a row:
the file, the case, the variant, its median, the reference, the reference's
median and their quotient (above 1: the variant is faster). The table, with
a line naming the GPU, the CUDA version and each file's date, replaces what
stands between <!-- NAME:begin --> and <!-- NAME:end --> in README.md.
With --ceiling, three more columns: the median of the group's ceiling row
(role "ceiling", e.g. reduce's read-only stream; "-" where the group has
none) and the ceiling's median over the variant's and over the reference's,
in percent (100: as fast as the ceiling). Without it the table is as before.
Nothing is typed by hand: rerun it on the same files to check the page.
"""
import json
import os
import re
import sys

FORMAT = "gpukernels-bench-2"


def main():
    args = sys.argv[1:]
    ceiling = "--ceiling" in args
    args = [a for a in args if a != "--ceiling"]
    if len(args) < 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    readme, name, files = args[0], args[1], args[2:]
    rows, runs, ceilings = [], [], set()
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
            if ceiling:
                c = [x for x in d["results"] if x["params"] == r["params"] and x["size"] == r["size"]
                     and x["role"] == "ceiling" and x.get("status") == "ok"]
                if c:
                    c = c[0]
                    ceilings.add(c["name"])
                    rows[-1] += (f" {c['median_ms']:.4f} | {100.0 * c['median_ms'] / r['median_ms']:.1f} | "
                                 f"{100.0 * c['median_ms'] / q['median_ms']:.1f} |")
                else:
                    rows[-1] += " - | - | - |"
    setups = sorted({s for s, _ in runs})
    lines = [f"Measured by `gk_bench` on {'; '.join(setups)} (files in order, with their dates: "
             f"{', '.join(dt for _, dt in runs)}). \"ratio\" is the reference's median over the variant's.", "",
             "| file | case, size | variant | median ms | reference | median ms | ratio |",
             "|---|---|---|---:|---|---:|---:|"] + rows
    if ceiling:
        lines[0] += (f" \"ceiling\" is the median of the same case's ceiling row ({', '.join(sorted(ceilings)) or 'none'});"
                     f" \"% of ceiling\" is the ceiling's median over the variant's, then over the reference's.")
        lines[2] += " ceiling ms | variant % of ceiling | reference % of ceiling |"
        lines[3] += "---:|---:|---:|"
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
