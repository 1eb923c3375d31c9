#!/usr/bin/env python3
"""Inputs that make the fused additive kernel show its tanh(a + b) (tanhOfSumTerm in
lib/CodeGen/Halide/Algorithm): with Dq = Dk = d_a = Dv = 1, W_a = [[1, 1]], two keys per
batch, k = [0, b] and v = [0, 1], query row a of batch b gets the weight of key 1,
    sigmoid(v_a (tanh(a + b) - tanh(a))),
which is the row's result. Writes two cases, each with numpy's float64 value of that expression
for the same float32 a and b as the expected result:
  inside:  a over [-15, 15] (step 1/40) and b over [-15, 15] (step 1/4), kTanhSplitBound's
           range, so that a + b sweeps [-30, 30] and cancels to 0, +-0.025, ... where both are
           large (the kernel's split form; v_a = 1);
  outside: a and b over [-60, 60], past the bound: the kernel must take its other form (the
           split form would clamp a = 50, b = -50 to 15, -15), v_a = -0.75;
  zero:    the inside case with v_a = 0, past kTanhSplitWeightBound (the split form divides by
           v_a): every weight 1/2.
Usage: tanh_split.py OUT_DIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, a, b, va):
    a = np.asarray(a, np.float32)
    b = np.asarray(b, np.float32)
    q = np.broadcast_to(a.reshape(1, -1, 1), (b.size, a.size, 1))
    k = np.stack([np.zeros_like(b), b], axis=1).reshape(-1, 2, 1)
    v = np.broadcast_to(np.array([0, 1], np.float32).reshape(1, 2, 1), (b.size, 2, 1))
    files = {"q": q, "k": k, "v": v, "w_a": np.array([[1, 1]], np.float32),
             "v_a": np.array([va], np.float32)}
    for key, arr in files.items():
        np.save(os.path.join(out, f"{name}_{key}.npy"), np.ascontiguousarray(arr, np.float32))
    a64 = a.astype(np.float64).reshape(1, -1)
    b64 = b.astype(np.float64).reshape(-1, 1)
    delta = np.float64(np.float32(va)) * (np.tanh(a64 + b64) - np.tanh(a64))
    np.save(os.path.join(out, f"{name}_expected.npy"), (1 / (1 + np.exp(-delta)))[..., None])


save("inside", np.linspace(-15, 15, 1201), np.linspace(-15, 15, 121), 1.0)
save("outside", np.linspace(-60, 60, 1201), np.linspace(-60, 60, 49), -0.75)
save("zero", np.linspace(-15, 15, 1201), np.linspace(-15, 15, 121), 0.0)
