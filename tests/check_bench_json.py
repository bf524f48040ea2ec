#!/usr/bin/env python3
"""Checks the module descriptions gk_bench --list --json writes: each module
has axes, a metric, a second peak that is null or a known peak, default
sizes, parameters whose defaults are among their values (an open parameter,
which takes values no list holds, at least has a default), variants with
distinct positive ids in increasing order (a module's forms may share one
numbering, as conv2d's 8-13 follow conv's 1-7) and at most one auto row (id
0, key "auto": gemm's GK_GEMM_AUTO), every variant's reference naming a
reference case of the same module, and unique keys."""
import json
import sys

d = json.load(open(sys.argv[1]))
errors = []
assert d["format"] == "gpukernels-bench-2", d["format"]
assert d["results"] == [], "a --list document has no results"
for m in d["modules"]:
    name = m["name"]
    for field in ("axes", "size_help", "metric"):
        if not m.get(field):
            errors.append(f"{name}: no {field}")
    if m["metric"] not in ("gbps", "tflops"):
        errors.append(f"{name}: metric {m['metric']}")
    if not m["default_sizes"]:
        errors.append(f"{name}: no default sizes")
    if m.get("second_peak", "missing") not in (None, "DRAM", "fp32", "TF32", "BF16"):
        errors.append(f"{name}: second_peak {m.get('second_peak', 'missing')!r}")
    for p in m["params"]:
        if p.get("open") not in (True, False):
            errors.append(f"{name}: param {p['key']} does not say whether it is open")
        if p.get("open"):
            if not p["default"] or "" in p["default"].split(","):
                errors.append(f"{name}: open param {p['key']} has no default")
            continue
        values = p["values"].split(",")
        for v in p["default"].split(","):
            if v not in values:
                errors.append(f"{name}: param {p['key']} default {v} not in {values}")
    variants = [c for c in m["cases"] if c["role"] == "variant"]
    refs = {c["key"] for c in m["cases"] if c["role"] == "reference"}
    keys = [c["key"] for c in m["cases"] if c["role"] != "variant"]
    autos = [c for c in variants if c["id"] == 0]
    ids = [c["id"] for c in variants if c["id"] != 0]
    if ids != sorted(set(ids)) or not ids or ids[0] < 1:
        errors.append(f"{name}: variant ids are not distinct, positive and increasing: {ids}")
    if len(autos) > 1 or any(c.get("key") != "auto" for c in autos):
        errors.append(f"{name}: a variant of id 0 must be the one auto row (key 'auto')")
    if len(keys) != len(set(keys)) or None in keys:
        errors.append(f"{name}: comparison keys missing or repeated: {keys}")
    for c in variants:
        if c["reference"] is not None and c["reference"] not in refs:
            errors.append(f"{name}: variant {c['id']} names reference {c['reference']}, not one of {sorted(refs)}")
        if not c["name"] or not c["idea"] or not c["precision"]:
            errors.append(f"{name}: variant {c['id']} lacks a name, idea or precision")
    print(f"{name}: {len(variants)} variants, references {sorted(refs)}, "
          f"{sum(c['role'] == 'ceiling' for c in m['cases'])} ceiling(s)"
          + (f", second peak {m['second_peak']}" if m.get("second_peak") else ""))
if errors:
    print("\n".join(errors))
    sys.exit(1)
