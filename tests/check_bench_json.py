#!/usr/bin/env python3
"""Checks the module descriptions gk_bench --list --json writes: each module
has axes, a metric, default sizes, parameters whose defaults are among their
values, variants with ids 1..N in order, every variant's reference naming a
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
    for p in m["params"]:
        values = p["values"].split(",")
        for v in p["default"].split(","):
            if v not in values:
                errors.append(f"{name}: param {p['key']} default {v} not in {values}")
    variants = [c for c in m["cases"] if c["role"] == "variant"]
    refs = {c["key"] for c in m["cases"] if c["role"] == "reference"}
    keys = [c["key"] for c in m["cases"] if c["role"] != "variant"]
    if [c["id"] for c in variants] != list(range(1, len(variants) + 1)):
        errors.append(f"{name}: variant ids are not 1..N in order")
    if len(keys) != len(set(keys)) or None in keys:
        errors.append(f"{name}: comparison keys missing or repeated: {keys}")
    for c in variants:
        if c["reference"] is not None and c["reference"] not in refs:
            errors.append(f"{name}: variant {c['id']} names reference {c['reference']}, not one of {sorted(refs)}")
        if not c["name"] or not c["idea"] or not c["precision"]:
            errors.append(f"{name}: variant {c['id']} lacks a name, idea or precision")
    print(f"{name}: {len(variants)} variants, references {sorted(refs)}, "
          f"{sum(c['role'] == 'ceiling' for c in m['cases'])} ceiling(s)")
if errors:
    print("\n".join(errors))
    sys.exit(1)
