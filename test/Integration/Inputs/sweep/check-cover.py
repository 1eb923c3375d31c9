#!/usr/bin/env python3
"""check-cover.py SCRIPTS_DIR TARGETS: the conformance sweep's covering set for TARGETS (comma-separated)
holds every pair of values of two axes that the constraints allow, each case is valid, and every
value of every axis appears. Prints the case count, or the first pair missing."""
import itertools
import os
import sys

sys.path.insert(0, sys.argv[1])
from attnsweep import axes as ax  # noqa: E402

sweep = __import__("importlib").import_module("importlib.util")
spec = sweep.spec_from_file_location("sweep", os.path.join(sys.argv[1], "conformance-sweep.py"))
module = sweep.module_from_spec(spec)
spec.loader.exec_module(module)

targets = sys.argv[2].split(",")
axes = ax.axes(targets)
rows = module.cover_rows(targets)
for r in rows:
    if not ax.valid(r) or set(r) != set(axes):
        sys.exit(f"check-cover: invalid case {r}")
seen = {(a, r[a], b, r[b]) for r in rows for a, b in itertools.combinations(axes, 2)}
for a, b in itertools.combinations(axes, 2):
    for va in axes[a]:
        for vb in axes[b]:
            if ax.valid({a: va, b: vb}) and (a, va, b, vb) not in seen:
                sys.exit(f"check-cover: no case has {a}={va} with {b}={vb}")
print(f"{len(rows)} cases cover every allowed pair of {len(axes)} axes")
