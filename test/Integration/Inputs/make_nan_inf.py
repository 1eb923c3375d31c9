#!/usr/bin/env python3
"""make_nan_inf.py OUTDIR: inputs with NaN and Inf entries, and what IEEE arithmetic makes of them,
computed independently in numpy (float64, the max-subtracting softmax every attention library uses).

q, k, v: [2, 6, 4] (batch 2, 6 positions, D = 4), random in [-1, 1) except, in batch 0:
  - q[0, 1, 2] = NaN        -> every score of query row 1 is NaN, so its output row is NaN
  - k[0, 3, 0] = +inf, q[0, :, 0] = 0.5, 0.3, -0.5, 0.4, -0.2, 0.6 -> key 3 scores +inf for rows
    0, 3 and 5: the softmax subtracts the row maximum (+inf), inf - inf = NaN, those rows are NaN
    (numpy, PyTorch and attn agree); it scores -inf for rows 2 and 4: weight exactly 0
  - bias[0, 2, :] = -inf    -> row 2 is fully masked: its weights and output are zeros
and in batch 1:
  - v[1, 4, 1] = -inf       -> every query gives key 4 a positive weight: column 1 of every output
    row is -inf
Outputs: expected_out.npy [2, 6, 4] and expected_w.npy [2, 6, 6] (the weights).
"""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(7)
q = rng.uniform(-1, 1, (2, 6, 4)).astype(np.float32)
k = rng.uniform(-1, 1, (2, 6, 4)).astype(np.float32)
v = rng.uniform(-1, 1, (2, 6, 4)).astype(np.float32)
bias = np.zeros((2, 6, 6), np.float32)
q[0, :, 0] = [0.5, 0.3, -0.5, 0.4, -0.2, 0.6]
q[0, 1, 2] = np.nan
k[0, 3, 0] = np.inf
bias[0, 2, :] = -np.inf
v[1, 4, 1] = -np.inf

with np.errstate(invalid="ignore", over="ignore"):
    s = np.einsum("bid,bjd->bij", q.astype(np.float64), k.astype(np.float64)) + bias
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    w = e / e.sum(axis=-1, keepdims=True)
    w[0, 2, :] = 0.0  # the spec: a fully masked row is all zeros (numpy alone would give NaN)
    o = np.einsum("bij,bjd->bid", w, v.astype(np.float64))
for name, a in [("q", q), ("k", k), ("v", v), ("bias", bias), ("expected_out", o), ("expected_w", w)]:
    np.save(os.path.join(out, name + ".npy"), a)
