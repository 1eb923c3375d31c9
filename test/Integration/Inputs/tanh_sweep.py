#!/usr/bin/env python3
"""Inputs that make attn.score additive compute tanh over a sweep of arguments: with Dq = Dk = d_a = 1,
W_a = [[1, 0]] and v_a = [1], s[i, 0] = tanh(q[i]). Also writes numpy's tanh of the same float32
arguments as the expected result, and a second v_a, [-0.75], with its expected -0.75 tanh(q[i]) (the
kernel folds v_a into the rational's coefficients). Usage: tanh_sweep.py OUT_DIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
x = np.concatenate([np.linspace(-20, 20, 40001), np.linspace(-1e-3, 1e-3, 2001),
                    [-1e30, -100, -9.5, 9.5, 100, 1e30, 1e-30, -1e-30, 0.0,
                     7.99, 8.0, 8.01, -8.0, np.inf, -np.inf, np.nan]]).astype(np.float32)
np.save(os.path.join(out, "q.npy"), x.reshape(-1, 1))
np.save(os.path.join(out, "k.npy"), np.zeros((1, 1), np.float32))
np.save(os.path.join(out, "w_a.npy"), np.array([[1, 0]], np.float32))
np.save(os.path.join(out, "v_a.npy"), np.ones(1, np.float32))
np.save(os.path.join(out, "expected.npy"), np.tanh(x.astype(np.float64)).reshape(-1, 1))
np.save(os.path.join(out, "v_a_scaled.npy"), np.array([-0.75], np.float32))
np.save(os.path.join(out, "expected_scaled.npy"), -0.75 * np.tanh(x.astype(np.float64)).reshape(-1, 1))
