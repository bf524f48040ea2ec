#!/usr/bin/env python3
"""What CUB's HistogramEven does at the edges, counted from test_histogram_cub_gpu's output.

    histogram/tuning/forms-h100/edges.py [cub_edges.txt]

Prints the per-layout summaries as the test wrote them, then splits the
differing samples ("cub-edge:" lines) by what CUB did against the exact
rule: one bin too high, one bin too low, another bin, or not counted, and
prints every line that is not "one bin too high". The page's figures on
the edges are read from this output.
"""
import os
import re
import sys

LINE = re.compile(r"exact bin (\d+|not counted), CUB bin (\d+|not counted)$")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "cub_edges.txt")
    kinds, other = {}, []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("cub-edge-summary:"):
                print(line)
                continue
            m = LINE.search(line)
            if not line.startswith("cub-edge:") or not m:
                continue
            exact, cub = m.groups()
            if cub == "not counted":
                kind = "not counted by CUB"
            elif exact == "not counted":
                kind = "counted by CUB only"
            elif int(cub) == int(exact) + 1:
                kind = "one bin too high"
            elif int(cub) == int(exact) - 1:
                kind = "one bin too low"
            else:
                kind = "another bin"
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind != "one bin too high":
                other.append(line)
    print(f"differing samples: {sum(kinds.values())}: " + ", ".join(f"{v} {k}" for k, v in sorted(kinds.items())))
    for line in other:
        print(line)


if __name__ == "__main__":
    main()
