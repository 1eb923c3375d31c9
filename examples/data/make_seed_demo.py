#!/usr/bin/env python3
"""Makes the seed demo's fixtures exactly as the lesson's numpy demo draws them
(a machine-translation lesson on attention, the one this project started from; its numpy code is
reproduced below): np.random.seed(42), then the three embeddings, then W_a, then v_a.

Writes the inputs of examples/seed_demo.mlir (q, h, w_a, v_a) and the demo's own results (weights
and context vectors for the additive and the scaled-dot scorer), computed by the demo's functions.

One fix to the demo: its bahdanau_score returns `v_a @ np.tanh(concat @ W_a.T)`, which fails (v_a is
[d_a], the tanh is [T, d_a]: "mismatch in its core dimension"). The formula it implements,
score_j = v_a^T tanh(W_a [q; k_j]), is `np.tanh(concat @ W_a.T) @ v_a`, used here.

Usage: make_seed_demo.py OUT_DIR   (examples/data/seed_demo holds the committed output)
"""
import os
import sys

import numpy as np


def softmax(x):
    e_x = np.exp(x - np.max(x))
    return e_x / np.sum(e_x)


def bahdanau_score(query, keys, W_a, v_a):
    T, D = keys.shape
    concat = np.concatenate([np.tile(query, (T, 1)), keys], axis=1)
    return np.tanh(concat @ W_a.T) @ v_a  # the demo writes v_a @ np.tanh(...): a shape error


def dot_score(query, keys, d_k):
    return (keys @ query) / np.sqrt(d_k)


def attend(query, keys, values, scorer):
    if scorer is None:
        scores = dot_score(query, keys, keys.shape[1])
    else:
        scores = scorer(query, keys)
    weights = softmax(scores)
    return weights @ values, weights


def main(out):
    src = ["je", "suis", "content"]
    np.random.seed(42)
    D = 8
    emb = {w: np.random.randn(D) for w in src}
    H = np.stack([emb[w] for w in src])
    s_prev = H.mean(axis=0)
    d_a = 4
    W_a = np.random.randn(d_a, 2 * D) * 0.1
    v_a = np.random.randn(d_a) * 0.1
    ctx_add, w_add = attend(s_prev, H, H, lambda q, k: bahdanau_score(q, k, W_a, v_a))
    ctx_dot, w_dot = attend(s_prev, H, H, None)

    os.makedirs(out, exist_ok=True)
    f32 = np.float32
    arrays = {
        # inputs of @seed_demo: the query as a [1, D] row
        "q": s_prev.reshape(1, D), "h": H, "w_a": W_a, "v_a": v_a,
        # the demo's results, in float64 as numpy computed them
        "expected_w_add": w_add.reshape(1, 3), "expected_c_add": ctx_add.reshape(1, D),
        "expected_w_dot": w_dot.reshape(1, 3), "expected_c_dot": ctx_dot.reshape(1, D),
    }
    for name, a in arrays.items():
        np.save(os.path.join(out, name + ".npy"), a.astype(f32 if not name.startswith("expected") else np.float64))
    print("加性注意力权重:    ", np.round(w_add, 3))
    print("缩放点积注意力权重:", np.round(w_dot, 3))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "seed_demo"))
