#!/usr/bin/env python3
"""make_lowest_mask.py OUTDIR: an additive mask that uses float32's lowest value for "masked" (the
idiom of PyTorch's and Hugging Face's attention masks), and what numpy (float64, max-subtracting
softmax) makes of it.

q, k, v: [1, 2, 8, 16] (batch 1, 2 heads, 8 positions, D = 16), random in [-1, 1); mask [8, 8]:
  - row 0 entirely lowest -> every score is lowest + s, which rounds to lowest: uniform weights, the
    output row is the mean of v's rows (not zeros: the mask is finite)
  - rows 1-7: causal (keys past the row's position lowest), plus 0.25 on the diagonal
Outputs: expected.npy [1, 2, 8, 16].
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
q, k, v = (rng.uniform(-1, 1, (1, 2, 8, 16)).astype(np.float32) for _ in range(3))
lowest = np.finfo(np.float32).min
mask = np.where(np.tril(np.ones((8, 8), bool)), 0, lowest).astype(np.float32)
mask[np.arange(1, 8), np.arange(1, 8)] = 0.25
mask[0, :] = lowest
for name, a in (("q", q), ("k", k), ("v", v), ("mask", mask)):
    np.save(os.path.join(out, name + ".npy"), a)
s = q.astype(np.float64) @ k.astype(np.float64).transpose(0, 1, 3, 2) / 4.0 + mask
s = s.astype(np.float32).astype(np.float64)  # the masked scores as float32 holds them
w = np.exp(s - s.max(axis=-1, keepdims=True))
w /= w.sum(axis=-1, keepdims=True)
np.save(os.path.join(out, "expected.npy"), w @ v.astype(np.float64))
