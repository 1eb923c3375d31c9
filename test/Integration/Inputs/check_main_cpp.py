#!/usr/bin/env python3
"""Checks what examples/main.cpp printed against the lesson's own numpy results for the same data
(examples/data/seed_demo/expected_*.npy, float64, written by make_seed_demo.py from the demo's code).

Usage: check_main_cpp.py PRINTED.txt FIXTURE_DIR
"""
import os
import sys

import numpy as np

printed = {}
for line in open(sys.argv[1]):
    words = line.split()
    printed[f"{words[0]} {words[1]}"] = np.array([float(v) for v in words[2:]])
expected = {
    "additive weights": "expected_w_add", "additive context": "expected_c_add",
    "dot weights": "expected_w_dot", "dot context": "expected_c_dot",
}
ok = set(printed) == set(expected)
for name, fixture in expected.items():
    want = np.load(os.path.join(sys.argv[2], fixture + ".npy")).reshape(-1)
    got = printed.get(name, np.array([]))
    # printed with 6 decimals: within rounding (5e-7) plus float32 arithmetic
    match = got.shape == want.shape and np.allclose(got, want, rtol=0, atol=2e-6)
    print(name, "match" if match else f"MISMATCH: {got} vs {want}")
    ok = ok and match
sys.exit(0 if ok else 1)
