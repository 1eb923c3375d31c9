#!/usr/bin/env python3
"""Checks what examples/main.cpp printed against numpy: the same inputs (the formulas in main.cpp),
the additive and scaled-dot weights computed by the seed demo's formulas."""
import sys

import numpy as np

D, T, DA = 8, 3, 4
h = np.array([[np.sin(1.0 + d + 8 * t) for d in range(D)] for t in range(T)], np.float32)
q = (h[0] + h[1] + h[2]) / 3
wa = np.array([[0.5 * np.cos(1.0 + c + 16 * a) for c in range(2 * D)] for a in range(DA)], np.float32)
va = np.array([0.5 * (a - 1.5) for a in range(DA)], np.float32)
h, q, wa, va = (x.astype(np.float64) for x in (h, q, wa, va))


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


w_add = softmax(np.array([va @ np.tanh(wa @ np.concatenate([q, h[j]])) for j in range(T)]))
w_dot = softmax(h @ q / np.sqrt(D))
printed = {}
for line in open(sys.argv[1]):
    name, values = line.split("weights")
    printed[name.strip()] = np.array([float(v) for v in values.split()])
ok = np.allclose(printed["additive"], w_add, atol=2e-6) and np.allclose(printed["dot"], w_dot, atol=2e-6)
print("additive", np.round(w_add, 6), "dot", np.round(w_dot, 6), "match" if ok else "MISMATCH")
sys.exit(0 if ok else 1)
