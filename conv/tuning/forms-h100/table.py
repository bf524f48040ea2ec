#!/usr/bin/env python3
"""A markdown table of the 2D and depthwise bench runs against the device copy.

    python3 conv/tuning/forms-h100/table.py RUN.json [RUN.json ...]

For each gk_bench JSON file (format gpukernels-bench-2) and each case in it
(parameters, size), one row per result in file order: the variant, its
median, GB/s, "% of copy" (the device copy's median in the same case over
the variant's: the share of the memory ceiling reached) and "% of fp32 peak"
(the case's declared FLOPs over the median, against the device's fp32 peak
from the same file). Results that did not run keep their row with the
reason. The table is printed; paste it between the page's markers.
A conv2d run also holds the cuFFT 2D row (the 2D variants' reference, case
cufft2d), listed here like a variant; scripts/pairs_table.py --ceiling
pairs each 2D variant with it and the copy. The depthwise cases have no
reference (the copy is a ceiling), so pairs_table.py gives no rows there.
"""
import json
import os
import sys

FORMAT = "gpukernels-bench-2"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    setups, dates, rows = set(), [], []
    for path in sys.argv[1:]:
        with open(path) as f:
            d = json.load(f)
        if d.get("format") != FORMAT:
            sys.exit(f"table.py: {path} is not a gk_bench JSON file of format {FORMAT}")
        dev, cuda = d["device"], d["cuda"]
        peak = dev["peak_fp32_tflops"]
        setups.add(f"{dev['name']} (fp32 peak {peak:.1f} TFLOP/s at {dev['sm_clock_mhz']} MHz), "
                   f"CUDA runtime {cuda['runtime']}, driver {cuda['driver']}, "
                   f"{d['timing']['l2']} L2, {d['timing']['statistic']}s")
        dates.append(f"{os.path.basename(path)} {d['date']}")
        cases = []
        for r in d["results"]:
            key = (r["params"], r["size"])
            if key not in cases:
                cases.append(key)
        for key in cases:
            group = [r for r in d["results"] if (r["params"], r["size"]) == key]
            copy = [r for r in group if r["role"] == "ceiling" and r.get("status") == "ok"]
            copy_ms = copy[0]["median_ms"] if copy else None
            for r in group:
                name = f"{r['id']} {r['name']}" if r["role"] == "variant" else r["name"]
                case = f"{r['params']}, {r['size']}"
                if r.get("status") != "ok":
                    rows.append(f"| {case} | {name} | not run ({r.get('status')}: the mask is above its limit) | | | |")
                    continue
                ms = r["median_ms"]
                pct_copy = f"{100 * copy_ms / ms:.1f}" if copy_ms else ""
                pct_peak = f"{100 * r['flops'] / (ms * 1e-3) / (peak * 1e12):.1f}"
                rows.append(f"| {case} | {name} | {ms:.4f} | {r['gbps']:.0f} | {pct_copy} | {pct_peak} |")
    print(f"Measured by `gk_bench` on {'; '.join(sorted(setups))} ({', '.join(dates)}). "
          "\"% of copy\" is the device copy's median in the same case over the variant's; "
          "\"% of fp32 peak\" is the case's FLOPs over the median against the fp32 peak. "
          "For the copy row, \"% of fp32 peak\" is the rate a convolution would reach at the copy's speed.")
    print()
    print("| case | variant | median ms | GB/s | % of copy | % of fp32 peak |")
    print("|---|---|---:|---:|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
