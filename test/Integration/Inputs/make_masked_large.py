#!/usr/bin/env python3
"""make_masked_large.py OUTDIR: attention inputs whose masked keys score far above every key a row
sees, and what numpy (float64, max-subtracting softmax) makes of them.

A kernel that let a masked key's score into the softmax's max (the fused kernel takes the max per
group of keys as it computes the scores, and a group may reach into the next block or past Tk)
would subtract ~2900 (base 2) from every visible score: all probabilities underflow to 0 and the
rows come out 0. The visible scores are in [-1, 1]; the masked keys' ~2000 (natural units).

q: [1, 4, 37, 24] (4 query heads on 2 kv heads), k and v: [1, 2, 53, 24]. Query i's feature 0 is 1,
the rest random in [-0.2, 0.2); key j's feature 0 is 10000 for j >= 37 (never visible under a
top-left causal mask: the last query is 36), else 0, the rest random likewise. keep: [37, 53],
True except for keys 37-52, so the boolean mask hides the same keys from every row.
Outputs: q, k, v, keep .npy; causal.npy and masked.npy, the expected results of the two graphs of
masked_large.mlir.
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)
q = rng.uniform(-0.2, 0.2, (1, 4, 37, 24)).astype(np.float32)
q[..., 0] = 1.0
k = rng.uniform(-0.2, 0.2, (1, 2, 53, 24)).astype(np.float32)
k[..., 0] = 0.0
k[:, :, 37:, 0] = 10000.0
v = rng.uniform(-1, 1, (1, 2, 53, 24)).astype(np.float32)
keep = np.ones((37, 53), bool)
keep[:, 37:] = False
for name, a in (("q", q), ("k", k), ("v", v), ("keep", keep)):
    np.save(os.path.join(out, name + ".npy"), a)


def attention(visible):
    kk = np.repeat(k.astype(np.float64), 2, axis=1)  # query head h reads kv head h // 2
    vv = np.repeat(v.astype(np.float64), 2, axis=1)
    s = q.astype(np.float64) @ kk.transpose(0, 1, 3, 2) / np.sqrt(24.0)
    s = np.where(visible, s, -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return (w @ vv).astype(np.float32)


np.save(os.path.join(out, "causal.npy"), attention(np.tril(np.ones((37, 53), bool))))
np.save(os.path.join(out, "masked.npy"), attention(keep))
