#!/usr/bin/env python3
"""Inputs that make attn.softmax over rows [0, x] (x <= 0) show its exp: the weights are
1 / (1 + e^x) and e^x / (1 + e^x). Two sweeps, with numpy's float64 weights of the same float32
arguments as the expected results:
  wide:   x over [-87, 0], near 0, and the edges (past the -88 clamp, -inf, NaN): absolute error;
  narrow: x over [-8, 0], the weights that carry a weighted sum: relative error.
Usage: exp_sweep.py OUT_DIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, x):
    x = np.asarray(x, np.float32)
    np.save(os.path.join(out, name + ".npy"), np.stack([np.zeros_like(x), x], axis=1))
    e = np.exp(x.astype(np.float64))
    with np.errstate(invalid="ignore"):
        want = np.stack([1 / (1 + e), e / (1 + e)], axis=1)
    want[np.isnan(x)] = np.nan
    np.save(os.path.join(out, name + "_expected.npy"), want)


save("wide", np.concatenate([np.linspace(-87, 0, 20001), np.linspace(-1e-3, 0, 1001),
                             [-1e-30, -0.5, -1.5, -87.9, -88.0, -88.5, -100, -1e30, -np.inf,
                              np.nan]]))
save("narrow", np.linspace(-8, 0, 16001))
