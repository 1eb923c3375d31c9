#!/usr/bin/env python3
"""Writes good and bad .npy files for the attn-run bad-input tests. Usage: make_bad_npy.py OUT_DIR"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, a):
    np.save(os.path.join(out, name), a)


save("q_4x8.npy", np.ones((4, 8), np.float32))
save("k_6x8.npy", np.ones((6, 8), np.float32))
save("k_6x5.npy", np.ones((6, 5), np.float32))
save("v_6x8.npy", np.ones((6, 8), np.float32))
save("q_f64.npy", np.ones((4, 8), np.float64))
save("q_bool.npy", np.ones((4, 8), bool))
save("q_3x8.npy", np.ones((3, 8), np.float32))
save("q_rank3.npy", np.ones((1, 4, 8), np.float32))
save("q_0x8.npy", np.ones((0, 8), np.float32))
save("q_fortran.npy", np.asfortranarray(np.arange(32, dtype=np.float32).reshape(4, 8)))
save("big.npy", np.zeros((1024, 1024), np.float32))  # 4 MiB
with open(os.path.join(out, "q_4x8.npy"), "rb") as f:
    data = f.read()
with open(os.path.join(out, "truncated.npy"), "wb") as f:
    f.write(data[:-20])
with open(os.path.join(out, "not_npy.npy"), "wb") as f:
    f.write(b"this is not a numpy file\n")
with open(os.path.join(out, "bad_header.npy"), "wb") as f:
    f.write(b"\x93NUMPY\x01\x00\x20\x00{'descr': '<f4', 'shape': (4, 8)}\n")
