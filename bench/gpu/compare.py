#!/usr/bin/env python3
"""compare.py OUT_DIR [--torch-reps=N]: the GPU measurement's report, from the driver's timings.

Reads OUT_DIR/shapes.json and OUT_DIR/driver.json (and the inputs and results the driver saved) and
writes OUT_DIR/results.json, printing a table. Per shape:
  - attn's median time, TFLOP/s and the fraction of the GPU's fp32 peak (SMs x fp32 lanes per SM x 2
    x the maximum SM clock, from PyTorch and nvidia-smi);
  - correctness: the largest error of attn's result against a float64 evaluation of the same
    attention on the same inputs (PyTorch when present, else numpy), relative to the largest |ref|;
  - PyTorch's scaled_dot_product_attention in fp32 (TF32 off), fp16 and bf16 on the same shapes,
    timed with CUDA events in the same run, and attn's speed ratio to each (additive attention has
    no SDPA: an eager PyTorch formulation is timed instead).
Without PyTorch on a CUDA device (the dry run) the torch columns are absent and numpy checks results.
"""
import datetime
import json
import os
import subprocess
import sys

import numpy as np

out_dir = sys.argv[1]
torch_reps = 20
for a in sys.argv[2:]:
    if a.startswith("--torch-reps="):
        torch_reps = int(a.split("=", 1)[1])

shapes = {s["kernel"]: s for s in json.load(open(os.path.join(out_dir, "shapes.json")))}
driver = {d["kernel"]: d for d in json.load(open(os.path.join(out_dir, "driver.json")))}

try:
    import torch
    cuda = torch.cuda.is_available()
except ImportError:
    torch, cuda = None, False


def gpu_info():
    if not cuda:
        return {"device": "cpu (dry run)"}
    p = torch.cuda.get_device_properties(0)
    clock_mhz = None
    try:
        q = subprocess.run(["nvidia-smi", "--query-gpu=clocks.max.sm", "--format=csv,noheader,nounits"],
                           capture_output=True, text=True, timeout=30)
        clock_mhz = float(q.stdout.split()[0])
    except Exception:
        pass
    lanes = 64 if (p.major, p.minor) == (8, 0) else 128  # fp32 lanes per SM (A100: 64)
    peak = p.multi_processor_count * lanes * 2 * clock_mhz * 1e6 / 1e12 if clock_mhz else None
    return {"device": p.name, "capability": f"{p.major}.{p.minor}", "sms": p.multi_processor_count,
            "max_sm_clock_mhz": clock_mhz, "fp32_peak_tflops": peak, "torch": torch.__version__}


def reference(s, arrays):
    """float64 attention of the saved inputs (the same definition as attn's reference evaluator)."""
    q, k, v = (a.astype(np.float64) for a in arrays[:3])
    if s["kind"] == "additive":
        wa, va = arrays[3].astype(np.float64), arrays[4].astype(np.float64)
        d = q.shape[-1]
        qp, kp = q @ wa[:, :d].T, k @ wa[:, d:].T  # [B, Tq, da], [B, Tk, da]
        scores = np.tanh(qp[:, :, None, :] + kp[:, None, :, :]) @ va
    else:
        if s["kind"] == "bilinear":
            q = q @ arrays[3].astype(np.float64)
        group = s["H"] // s["Hkv"]
        k, v = np.repeat(k, group, axis=1), np.repeat(v, group, axis=1)
        scores = q @ np.swapaxes(k, -1, -2)
        if s["kind"] == "scaled_dot":
            scores = scores / np.sqrt(q.shape[-1])
        if s["causal"]:
            tq, tk = scores.shape[-2:]
            keep = np.arange(tk)[None, :] <= np.arange(tq)[:, None] + (tk - tq)
            scores = np.where(keep, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    p = p / p.sum(axis=-1, keepdims=True)
    return p @ v


def time_torch(fn):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(torch_reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return float(np.median(times))


def torch_times(s):
    import torch.nn.functional as F
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    gen = torch.Generator(device="cuda").manual_seed(0)
    res = {}
    for name, dtype in [("fp32", torch.float32), ("fp16", torch.float16), ("bf16", torch.bfloat16)]:
        args = [torch.rand(a, device="cuda", dtype=dtype, generator=gen) * 2 - 1 for a in s["args"]]
        if s["kind"] == "additive":
            d = s["D"]
            q, k, v, wa, va = args
            def run():
                qp, kp = q @ wa[:, :d].T, k @ wa[:, d:].T
                sc = torch.tanh(qp[:, :, None, :] + kp[:, None, :, :]) @ va
                return torch.softmax(sc, -1) @ v
        else:
            q, k, v = args[:3]
            group = s["H"] // s["Hkv"]
            if group > 1:
                k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
            scale = None if s["kind"] == "scaled_dot" else 1.0
            w = args[3] if s["kind"] == "bilinear" else None
            def run():
                qq = q @ w if w is not None else q
                return F.scaled_dot_product_attention(qq, k, v, is_causal=s["causal"], scale=scale)
        try:
            res[name] = time_torch(run)
        except RuntimeError as e:  # out of memory, an unsupported dtype
            res[name] = None
            res[name + "_error"] = str(e).splitlines()[0]
    return res


info = gpu_info()
rows = []
for kernel, s in shapes.items():
    d = driver.get(kernel, {"ok": False, "error": "not run"})
    row = {"shape": s["name"], "describe": s["describe"], "kernel": kernel, "ok": d.get("ok", False)}
    if not d.get("ok"):
        row["error"] = d.get("error", "")
        rows.append(row)
        continue
    ms = d["median_ms"]
    row.update(median_ms=ms, min_ms=d["min_ms"], max_ms=d["max_ms"], reps=d["reps"],
               tflops=s["flops"] / (ms / 1e3) / 1e12 if s["kind"] != "additive" else None)
    if info.get("fp32_peak_tflops") and row["tflops"]:
        row["fraction_of_fp32_peak"] = row["tflops"] / info["fp32_peak_tflops"]
    if d.get("saved"):
        data = os.path.join(out_dir, "data", kernel)
        arrays = [np.load(f"{data}_arg{i}.npy") for i in range(len(s["args"]))]
        ours = np.load(f"{data}_out.npy").astype(np.float64)
        ref = reference(s, arrays)
        err = float(np.abs(ours - ref).max())
        scale = float(np.abs(ref).max())
        row.update(max_abs_error=err, max_abs_ref=scale, correct=bool(err <= 1e-4 * max(scale, 1e-30)))
    if cuda:
        t = torch_times(s)
        for name in ("fp32", "fp16", "bf16"):
            row[f"torch_{name}_ms"] = t.get(name)
            if t.get(name):
                row[f"speed_vs_torch_{name}"] = t[name] / ms
    rows.append(row)

doc = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
       "gpu": info, "rows": rows}
with open(os.path.join(out_dir, "results.json.tmp"), "w") as f:
    json.dump(doc, f, indent=2)
os.replace(os.path.join(out_dir, "results.json.tmp"), os.path.join(out_dir, "results.json"))

columns = [("ms", "median_ms", 9, ".3f"), ("TFLOP/s", "tflops", 8, ".2f"),
           ("%peak", "fraction_of_fp32_peak", 6, ".1%"), ("correct", "correct", 8, ""),
           ("torch32", "torch_fp32_ms", 8, ".3f"), ("x32", "speed_vs_torch_fp32", 6, ".2f"),
           ("x16", "speed_vs_torch_fp16", 6, ".2f"), ("xbf16", "speed_vs_torch_bf16", 6, ".2f")]
print(f"{'shape':<16}" + "".join(f" {title:>{width}}" for title, _, width, _ in columns))
for r in rows:
    cells = []
    for _, key, width, fmt in columns:
        v = r.get(key)
        text = "-" if v is None else str(v) if isinstance(v, bool) else format(v, fmt)
        cells.append(f" {text:>{width}}")
    print(f"{r['shape']:<16}" + "".join(cells) + ("" if r["ok"] else f"  ({r.get('error', '')})"))
sys.exit(0 if all(r["ok"] and r.get("correct", True) for r in rows) else 1)
