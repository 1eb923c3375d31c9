#!/usr/bin/env python3
"""long_chain.py write OUT.mlir N | expect PRINTED.txt N: the long-graphs test's chain of N ops on a
[4, 8] tensor, alternately x + x and softmax along the last axis (so that the values keep moving);
`expect` recomputes it with numpy from the input long_chain.cpp fills in, and compares."""
import sys

import numpy as np

mode, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
if mode == "write":
    body = []
    for i in range(n):
        op = (f"arith.addf %s{i}, %s{i} : tensor<4x8xf32>" if i % 2 == 0
              else f"attn.softmax %s{i} : tensor<4x8xf32>")
        body.append(f"  %s{i + 1} = {op}")
    with open(path, "w") as f:
        f.write("func.func @long_chain(%s0: tensor<4x8xf32>) -> tensor<4x8xf32> {\n" +
                "\n".join(body) + f"\n  return %s{n} : tensor<4x8xf32>\n}}\n")
    sys.exit(0)
x = np.array([[np.sin(0.1 * (8 * r + c)) for c in range(8)] for r in range(4)], dtype=np.float64)
for i in range(n):
    if i % 2 == 0:
        x = x + x
    else:
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        x = e / e.sum(axis=-1, keepdims=True)
got = np.array([float(v) for v in open(path).read().split()]).reshape(4, 8)
err = np.abs(got - x).max()
print(f"max error {err:.2e}: {'match' if err <= 1e-5 * np.abs(x).max() else 'MISMATCH'}")
