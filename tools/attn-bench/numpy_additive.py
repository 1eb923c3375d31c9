#!/usr/bin/env python3
"""numpy's best form of additive (Bahdanau) attention, the baseline of attn-bench's additive rows:
the query and key halves of W_a are applied once, then each query row against all keys, in place
(a full [Tq, Tk, d_a] broadcast page-faults on a 64 MiB temporary: ../shared/BASELINES.md).

Usage: numpy_additive.py B TQ TK D DA REPS [WARMUP_S]; calls it for WARMUP_S seconds (at least
once; attn-bench passes its warm-up time), then times REPS calls; prints {"ms": [...], "rss_mb": peak}.
"""
import json
import resource
import sys
import time

import numpy as np


def additive_attention(q, k, v, wa, va):
    """Per batch and query row, with preallocated buffers and in-place ufuncs: on Debian's numpy
    this measured faster than broadcasting 16 query rows at a time (27 ms vs 33 ms at S = 512)."""
    d = q.shape[-1]
    qp = q @ wa[:, :d].T          # [B, Tq, da]: W_a's query half, applied once
    kp = k @ wa[:, d:].T          # [B, Tk, da]: its key half
    out = np.empty((q.shape[0], q.shape[1], v.shape[-1]), np.float32)
    buf = np.empty(kp.shape[1:], np.float32)
    for b in range(q.shape[0]):
        for i in range(q.shape[1]):
            np.add(kp[b], qp[b, i], out=buf)
            np.tanh(buf, out=buf)
            s = buf @ va                 # scores of query i against every key
            s -= s.max()
            p = np.exp(s)
            p /= p.sum()
            out[b, i] = p @ v[b]
    return out


def main():
    b, tq, tk, d, da, reps = (int(x) for x in sys.argv[1:7])
    warmup_s = float(sys.argv[7]) if len(sys.argv) > 7 else 0.0
    rng = np.random.default_rng(1)
    f32 = np.float32
    q, k, v = (rng.uniform(-1, 1, (b, t, d)).astype(f32) for t in (tq, tk, tk))
    wa = rng.uniform(-1, 1, (da, 2 * d)).astype(f32)
    va = rng.uniform(-1, 1, da).astype(f32)
    start = time.perf_counter()
    additive_attention(q, k, v, wa, va)
    while time.perf_counter() - start < warmup_s:
        additive_attention(q, k, v, wa, va)
    ms = []
    for _ in range(reps):
        t0 = time.perf_counter()
        additive_attention(q, k, v, wa, va)
        ms.append((time.perf_counter() - t0) * 1e3)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({"ms": ms, "rss_mb": rss}))


if __name__ == "__main__":
    main()
