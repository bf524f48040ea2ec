#!/usr/bin/env python3
"""scripts/shape_chart.py on made-up runs: every row of the case with its
reference and ratio in the table; beneath it, for each run of 16 shapes or
more (a sweep), the geometric mean of the ratios, the lowest with its
shape and the counts below 0.95 and 0.7, computed here from the same
made-up numbers; no such line for a run of a few shapes, nor for a file of
few shapes only; a run's name carries its file's name where two files
share its parameters; rows that failed or lack a reference are left out.
With matplotlib, --png writes a PNG for a sweep and for a few shapes;
without it, that part is skipped (the table needs nothing but Python).

    check_shape_chart.py scripts/shape_chart.py WORKDIR
"""
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys

script, work = sys.argv[1:3]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def document(date, groups):
    """A gk_bench JSON file: groups = [(params, reference name, [(m, n, k, ratio), ...])]."""
    results = []
    for params, ref, shapes in groups:
        for m, n, k, ratio in shapes:
            size = str(m) if m == n == k else f"{m}x{n}x{k}"
            common = {"module": "gemm", "params": params, "size": size, "shape": [m, n, k], "status": "ok",
                      "flops": 2.0 * m * n * k}
            results.append(dict(common, id=0, key=None, name="auto", role="variant", reference_name=ref,
                                median_ms=1.0 / ratio))
            results.append(dict(common, id=0, key="ref", name=ref, role="reference", reference_name=None,
                                median_ms=1.0))
    # A failed auto row and an auto row whose reference did not run: neither is charted.
    results.append({"module": "gemm", "params": groups[0][0], "size": "3x3x3", "shape": [3, 3, 3], "id": 0,
                    "name": "auto", "role": "variant", "reference_name": groups[0][1], "status": "failed"})
    results.append({"module": "gemm", "params": groups[0][0], "size": "5x5x5", "shape": [5, 5, 5], "id": 0,
                    "name": "auto", "role": "variant", "reference_name": groups[0][1], "status": "ok",
                    "median_ms": 1.0, "flops": 250.0})
    return {"format": "gpukernels-bench-2", "date": date,
            "device": {"name": "Test GPU"}, "cuda": {"runtime": "13.0", "driver": "13.0"},
            "modules": [], "results": results}


# A bf16 sweep of 20 shapes: nine at 1.25, nine at 0.8, one at 0.5 and one
# at 2: the geometric mean is 1, the lowest 0.5; ten below 0.95, one below 0.7.
bf16 = [(7 + i, 100 + 3 * i, 50 + i, 1.25 if i < 10 else 0.8) for i in range(20)]
bf16[12] = (7, 8, 9, 0.5)
bf16[3] = (4096, 4096, 4096, 2.0)
# An fp32 sweep of 16 shapes, each at 0.9 but one at 0.6; a small run of 3 shapes.
f32 = [(1 + i, 2 + i, 3 + i, 0.6 if i == 5 else 0.9) for i in range(16)]
small = [(256, 256, 256, 0.5), (512, 512, 512, 1.1), (1, 8192, 8192, 1.3)]
with open(os.path.join(work, "sweep1.json"), "w") as f:
    json.dump(document("2026-11-23 12:00 UTC", [("C = A*B, bf16", "Ref BF16", bf16), ("C = A*B", "Ref fp32", f32),
                                                ("C = A*B^T", "Ref fp32", small)]), f)
# A second file with the fp32 run's parameters again (another day's sweep).
with open(os.path.join(work, "sweep2.json"), "w") as f:
    json.dump(document("2026-11-24 08:00 UTC", [("C = A*B", "Ref fp32", [(s[0], s[1], s[2], 1.0) for s in f32])]), f)
with open(os.path.join(work, "small.json"), "w") as f:
    json.dump(document("2026-11-23 12:00 UTC", [("C = A*B^T", "Ref fp32", small)]), f)


def run(*args):
    p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def expected(shapes):
    """What the sweep line must say, computed from the made-up ratios."""
    ratios = [s[3] for s in shapes]
    low = min(range(len(shapes)), key=lambda i: ratios[i])
    m, n, k = shapes[low][:3]
    size = str(m) if m == n == k else f"{m}x{n}x{k}"
    gmean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    return (f"| {len(shapes)} | {gmean:.3f} | {ratios[low]:.3f} | {size} | {sum(x < 0.95 for x in ratios)} "
            f"| {sum(x < 0.7 for x in ratios)} |")


failures = []
files = [os.path.join(work, n) for n in ("sweep1.json", "sweep2.json")]
rc, out, err = run(*files)
table = [line for line in out.splitlines() if line.startswith("| C = A*B") and "| auto |" in line]
checks = {
    "exit 0": rc == 0 and "Traceback" not in err,
    "provenance": "Test GPU, CUDA runtime 13.0" in out and "sweep1 2026-11-23 12:00 UTC" in out
                  and "sweep2 2026-11-24 08:00 UTC" in out,
    # 20 + 16 + 3 + 16 rows of the case with a reference; the failed row and the one without a reference left out
    "every row": len(table) == 55 and "| 3x3x3 |" not in out and "| 5x5x5 |" not in out,
    "row text": "| C = A*B, bf16 | 7x8x9 | auto | 2.0000 | Ref BF16 | 1.0000 | 0.500 |" in out,
    "sweep header": "| run | reference | shapes | geometric mean | lowest | at | below 0.95 | below 0.7 |" in out,
    "bf16 sweep": f"| C = A*B, bf16 | Ref BF16 {expected(bf16)}" in out,
    "fp32 sweep, named by its file": f"| C = A*B (sweep1) | Ref fp32 {expected(f32)}" in out,
    "the other file's sweep": "| C = A*B (sweep2) | Ref fp32 | 16 | 1.000 | 1.000 | 1x2x3 | 0 | 0 |" in out,
    "no line for a small run": "| C = A*B^T | Ref fp32 | 3 |" not in out,
}
failures += [k for k, ok in checks.items() if not ok]
if "bf16 sweep" in failures or "fp32 sweep, named by its file" in failures:
    print("expected", expected(bf16), "and", expected(f32))
rc, small_out, err = run(os.path.join(work, "small.json"))
if rc != 0 or "Sweeps (" in small_out or small_out.count("| C = A*B^T |") != 3:
    failures.append(f"a file of few shapes: rc {rc}, no sweep lines, its 3 rows:\n{small_out}{err}")

if importlib.util.find_spec("matplotlib") is None:
    print("shape_chart.py: matplotlib is not installed: the PNG part is skipped")
else:
    for name, inputs in (("sweep.png", files), ("small.png", [os.path.join(work, "small.json")])):
        png = os.path.join(work, name)
        rc, _, err = run("--png", png, *inputs)
        with open(png, "rb") if os.path.exists(png) else open(os.devnull, "rb") as f:
            magic = f.read(8)
        if rc != 0 or magic != b"\x89PNG\r\n\x1a\n":
            failures.append(f"--png {name}: rc {rc}, {err}")
if failures:
    print("\n".join(failures))
    print(out)
    sys.exit(1)
print("shape_chart.py: every row, the sweeps' geometric mean and lowest, none for a small run, file names "
      "where parameters repeat")
