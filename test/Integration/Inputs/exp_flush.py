#!/usr/bin/env python3
"""exp_flush.py INPUT.npy GOT.npy: the AVX-512 exp's flush, seen in exp_sweep's wide rows [0, x]:
e^x is exactly 0 where x log2(e) < -125 (e^x < 2^-125: vscalefps would make a subnormal there) and
a normal float above; prints "flush: ok" or what is wrong."""
import sys

import numpy as np

x = np.load(sys.argv[1])[:, 1].astype(np.float64)
got = np.load(sys.argv[2])[:, 1]
t = x * np.log2(np.e)
below = got[t < -125.001]  # margin: the kernel rounds x log2(e) in float32
above = got[(t > -124.999) & (x <= 0)]
errors = []
if below.size == 0 or np.any(below != 0):
    errors.append(f"{np.count_nonzero(below)} of {below.size} weights below 2^-125 are not 0")
if above.size == 0 or np.any(above < np.finfo(np.float32).tiny):
    errors.append(f"{np.count_nonzero(above < np.finfo(np.float32).tiny)} of {above.size} weights "
                  "above 2^-125 are 0 or subnormal")
print("flush: " + ("; ".join(errors) if errors else "ok"))
