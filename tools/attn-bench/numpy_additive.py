#!/usr/bin/env python3
"""numpy's best form of additive (Bahdanau) attention, the baseline of attn-bench's additive rows:
the query and key halves of W_a are applied once, then each query row against all keys, in place
(a full [Tq, Tk, d_a] broadcast page-faults on a 64 MiB temporary: docs/TOOLCHAIN.md).

Usage: numpy_additive.py B TQ TK D DA REPS [WARMUP_S [ROWS]]; calls it for WARMUP_S seconds (at
least once more after the first; attn-bench passes its warm-up time), then times REPS calls; prints
{"ms": [...], "rss_mb": peak, "check_error": e}: the first call's result against the textbook
formula in float64 on the rows attn-bench checks its other schemes on (the first, middle and last
ROWS queries, default 4; attn-bench passes SpotCheck.h's kSpotRows), its max error over the
reference's largest magnitude there.
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


def check_error(q, k, v, wa, va, out, rows):
    """v_a . tanh(W_a [q_i; k_j]) for every (i, j) of the windows, softmax over j, then the weighted
    sum of v, all in float64, against `out`."""
    tq = q.shape[1]
    n = min(rows, tq)
    kd, vd, wd, vad = (x.astype(np.float64) for x in (k, v, wa, va))
    worst = 0.0
    for r0 in sorted({0, (tq - n) // 2, tq - n}):
        qw = q[:, r0:r0 + n].astype(np.float64)
        pairs = np.concatenate(np.broadcast_arrays(qw[:, :, None, :], kd[:, None, :, :]), axis=-1)
        s = np.tanh(pairs @ wd.T) @ vad             # [B, n, Tk]
        p = np.exp(s - s.max(axis=-1, keepdims=True))
        want = (p / p.sum(axis=-1, keepdims=True)) @ vd
        worst = max(worst, float(np.abs(out[:, r0:r0 + n] - want).max() / np.abs(want).max()))
    return worst


def main():
    b, tq, tk, d, da, reps = (int(x) for x in sys.argv[1:7])
    warmup_s = float(sys.argv[7]) if len(sys.argv) > 7 else 0.0
    rows = int(sys.argv[8]) if len(sys.argv) > 8 else 4
    rng = np.random.default_rng(1)
    f32 = np.float32
    q, k, v = (rng.uniform(-1, 1, (b, t, d)).astype(f32) for t in (tq, tk, tk))
    wa = rng.uniform(-1, 1, (da, 2 * d)).astype(f32)
    va = rng.uniform(-1, 1, da).astype(f32)
    error = check_error(q, k, v, wa, va, additive_attention(q, k, v, wa, va), rows)
    start = time.perf_counter()
    while time.perf_counter() - start < warmup_s:
        additive_attention(q, k, v, wa, va)
    ms = []
    for _ in range(reps):
        t0 = time.perf_counter()
        additive_attention(q, k, v, wa, va)
        ms.append((time.perf_counter() - t0) * 1e3)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps({"ms": ms, "rss_mb": rss, "check_error": error}))


if __name__ == "__main__":
    main()
