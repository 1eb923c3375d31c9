#!/usr/bin/env python3
"""compare-npy.py GOT.npy WANT.npy [--atol A] [--rtol R]: checks two arrays agree elementwise
(|got - want| <= atol + rtol * |want|, same shape, same inf/nan positions); prints the largest error
and `match` or `MISMATCH` (exit 1). WANT comes from an independent computation (numpy)."""
import argparse
import sys

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("got")
p.add_argument("want")
p.add_argument("--atol", type=float, default=1e-6)
p.add_argument("--rtol", type=float, default=1e-5)
a = p.parse_args()
got = np.load(a.got).astype(np.float64)
want = np.load(a.want).astype(np.float64)
if got.shape != want.shape:
    print(f"MISMATCH: shape {got.shape} vs {want.shape}")
    sys.exit(1)
finite = np.isfinite(want)
special_ok = np.array_equal(np.isnan(got), np.isnan(want)) and np.array_equal(
    np.where(np.isinf(want), want, 0), np.where(np.isinf(got), got, 0))
err = np.abs(got - want)[finite]
worst = float(err.max()) if err.size else 0.0
ok = special_ok and np.all(err <= a.atol + a.rtol * np.abs(want[finite]))
print(f"{a.got}: max abs error {worst:.3g}: {'match' if ok else 'MISMATCH'}")
sys.exit(0 if ok else 1)
