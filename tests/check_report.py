#!/usr/bin/env python3
"""scripts/report.py on a made-up run (tests/test_bench_results.c wrote it):
the table lands between the markers of <root>/fake/README.md, the prose
around it is kept, the GPU, CUDA version and date are named, each case's
numbers are there, with the module's second peak in a column of its own;
a second run replaces the table instead of adding one;
missing markers are a clear error, not a traceback.

    check_report.py scripts/report.py fake_results.json WORKDIR
"""
import os
import shutil
import subprocess
import sys

script, results, root = sys.argv[1:4]
shutil.rmtree(root, ignore_errors=True)
os.makedirs(os.path.join(root, "fake"))
readme = os.path.join(root, "fake", "README.md")
with open(readme, "w") as f:
    f.write("# fake\n\nProse before.\n\n<!-- bench:begin -->\nold table\n<!-- bench:end -->\n\nProse after.\n")


def run(*args):
    p = subprocess.run([sys.executable, script, results, "--root", root, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


failures = []
for attempt in (1, 2):
    rc, out = run()
    text = open(readme).read()
    checks = {
        "exit 0": rc == 0,
        "no traceback": "Traceback" not in out,
        "prose kept": "Prose before." in text and "Prose after." in text,
        "old table gone": "old table" not in text,
        "one table": text.count("<!-- bench:begin -->") == 1 and text.count("| id |") == 1,
        "provenance": "Test GPU" in text and "CUDA runtime 13.0" in text and "2026-11-23 12:00 UTC" in text,
        "variant row": "| 1 | slow | fp32 | 8.0000 | 250.00 |" in text,
        "second peak column": "| % of peak | % of DRAM peak |" in text and "| 625 | 6.2 (fp32) | 6.2 |" in text,
        "own reference": "0.25x Lib fp32" in text,
        "n/a with reason": "n/a: why" in text,
        "ceiling row": "| ceiling | device copy |" in text,
        "unknown peak": "BF16 n/a" in text,
    }
    failures += [f"run {attempt}: {k}" for k, ok in checks.items() if not ok]
with open(readme, "w") as f:
    f.write("# no markers\n")
rc, out = run()
if rc == 0 or "markers" not in out or "Traceback" in out:
    failures.append(f"missing markers: rc {rc}, {out!r}")
if failures:
    print("\n".join(failures))
    print(open(readme).read())
    sys.exit(1)
print("report.py: table between the markers, provenance, roles, idempotent, clear errors")
