#!/usr/bin/env python3
"""Fixtures for multi-head attention against PyTorch's nn.MultiheadAttention formula.

PyTorch is not installed here, so its forward pass (torch.nn.functional.multi_head_attention_forward,
batch_first=True, no dropout, key_padding_mask) is written out in numpy, step for step, on PyTorch's
own parameter layout: in_proj_weight [3E, E], in_proj_bias [3E], out_proj.weight [E, E],
out_proj.bias [E], computing x W^T + b. The inputs of attn.multi_head are then derived the way the
README says to load PyTorch weights: W_q = in_proj_weight[0:E].T (likewise K, V), W_o = out_proj.weight.T,
and key_lengths[b] = the number of unpadded keys.

Usage: make_fixtures.py OUT_DIR   (this directory holds the committed output)
"""
import os
import sys

import numpy as np


def linear(x, weight, bias):  # torch.nn.functional.linear
    return x @ weight.T + bias


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def torch_mha_forward(query, key, value, num_heads, in_proj_weight, in_proj_bias, out_proj_weight,
                      out_proj_bias, key_padding_mask):
    # batch_first=True: PyTorch transposes to (seq, batch, embed) first.
    query, key, value = (x.transpose(1, 0, 2) for x in (query, key, value))
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    head_dim = embed_dim // num_heads
    w_q, w_k, w_v = np.split(in_proj_weight, 3)
    b_q, b_k, b_v = np.split(in_proj_bias, 3)
    q, k, v = linear(query, w_q, b_q), linear(key, w_k, b_k), linear(value, w_v, b_v)
    # (L, N, E) -> (N * H, L, head_dim)
    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(1, 0, 2)
    k = k.reshape(src_len, bsz * num_heads, head_dim).transpose(1, 0, 2)
    v = v.reshape(src_len, bsz * num_heads, head_dim).transpose(1, 0, 2)
    # key_padding_mask (N, S), True = ignore -> an additive -inf mask per (batch, head)
    mask = np.where(key_padding_mask, -np.inf, 0.0)
    mask = np.repeat(mask[:, None, None, :], num_heads, axis=1).reshape(bsz * num_heads, 1, src_len)
    attn = softmax(q @ k.transpose(0, 2, 1) / np.sqrt(head_dim) + mask, axis=-1)
    out = attn @ v  # (N * H, L, head_dim)
    out = out.transpose(1, 0, 2).reshape(tgt_len * bsz, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, embed_dim)
    return out.transpose(1, 0, 2)


def main(out):
    rng = np.random.default_rng(2024)
    B, T, E, H = 2, 6, 16, 4
    x = rng.standard_normal((B, T, E))
    in_proj_weight = rng.standard_normal((3 * E, E)) / np.sqrt(E)
    in_proj_bias = rng.standard_normal(3 * E) * 0.1
    out_proj_weight = rng.standard_normal((E, E)) / np.sqrt(E)
    out_proj_bias = rng.standard_normal(E) * 0.1
    lengths = np.array([6, 4], dtype=np.int32)
    key_padding_mask = np.arange(T)[None, :] >= lengths[:, None]
    y = torch_mha_forward(x, x, x, H, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
                          key_padding_mask)
    os.makedirs(out, exist_ok=True)
    f32 = np.float32
    w_q, w_k, w_v = np.split(in_proj_weight, 3)
    b_q, b_k, b_v = np.split(in_proj_bias, 3)
    arrays = {"x": x, "w_q": w_q.T, "w_k": w_k.T, "w_v": w_v.T, "w_o": out_proj_weight.T,
              "b_q": b_q, "b_k": b_k, "b_v": b_v, "b_o": out_proj_bias}
    for name, a in arrays.items():
        np.save(os.path.join(out, name + ".npy"), np.ascontiguousarray(a, dtype=f32))
    np.save(os.path.join(out, "key_lengths.npy"), lengths)
    np.save(os.path.join(out, "expected.npy"), y)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
