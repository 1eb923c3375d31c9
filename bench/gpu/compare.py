#!/usr/bin/env python3
"""compare.py OUT_DIR [--torch-reps=N]: the GPU measurement's report, from the driver's timings.

Reads OUT_DIR/shapes.json and OUT_DIR/driver.json (and the inputs and results the driver saved) and
writes OUT_DIR/results.json, printing a table. Per shape:
  - attn's median time, TFLOP/s and the fraction of the GPU's fp32 peak (SMs x fp32 lanes per SM x 2
    x the maximum SM clock, from PyTorch and nvidia-smi);
  - correctness: the largest error of attn's result against a float64 evaluation of the same
    attention on the same inputs (PyTorch on the GPU when present, else numpy), relative to the
    largest |ref|;
  - PyTorch's scaled_dot_product_attention in fp32 (TF32 off), fp16 and bf16 on the same shapes,
    timed with CUDA events in the same run, and attn's speed ratio to each (additive attention has
    no SDPA: an eager PyTorch formulation is timed instead).
Rows of schedule variants (gen_sweep.py) are printed in a second table with their speed relative to
the heuristic's schedule of the same shape; their PyTorch ratios use that shape's PyTorch times.
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


def reference(s, arrays, xp):
    """float64 attention of the saved inputs (the same definition as attn's reference evaluator), in
    numpy or, on the GPU machine, in PyTorch on the GPU (xp: the module; the few calls that differ
    are spelled per module)."""
    if xp is np:
        q, k, v, *rest = (a.astype(np.float64) for a in arrays)
        repeat = lambda t, n: np.repeat(t, n, axis=1)
        transpose = lambda t: np.swapaxes(t, -1, -2)
        rowmax = lambda t: t.max(axis=-1, keepdims=True)
        rowsum = lambda t: t.sum(axis=-1, keepdims=True)
    else:
        q, k, v, *rest = (torch.from_numpy(a).to("cuda", torch.float64) for a in arrays)
        repeat = lambda t, n: t.repeat_interleave(n, 1)
        transpose = lambda t: t.transpose(-1, -2)
        rowmax = lambda t: t.amax(-1, keepdim=True)
        rowsum = lambda t: t.sum(-1, keepdim=True)
    if s["kind"] == "additive":
        wa, va = rest
        d = q.shape[-1]
        qp, kp = q @ transpose(wa[:, :d]), k @ transpose(wa[:, d:])  # [B, Tq, da], [B, Tk, da]
        scores = xp.tanh(qp[:, :, None, :] + kp[:, None, :, :]) @ va
    else:
        if s["kind"] == "bilinear":
            q = q @ rest[0]
        group = s["H"] // s["Hkv"]
        k, v = repeat(k, group), repeat(v, group)
        scores = q @ transpose(k)
        if s["kind"] == "scaled_dot":
            scores = scores / float(np.sqrt(q.shape[-1]))
        if s["causal"]:
            tq, tk = scores.shape[-2:]
            keep = np.arange(tk)[None, :] <= np.arange(tq)[:, None] + (tk - tq)
            if xp is not np:
                keep = torch.from_numpy(keep).to("cuda")
            scores = xp.where(keep, scores, -float("inf"))
    scores = scores - rowmax(scores)
    p = xp.exp(scores)
    out = (p / rowsum(p)) @ v
    return out if xp is np else out.cpu().numpy()


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
torch_by_shape = {}  # a variant (gen_sweep.py) is compared with its shape's PyTorch times
for kernel, s in shapes.items():
    print(f"compare.py: {s['name']}", file=sys.stderr, flush=True)
    d = driver.get(kernel, {"ok": False, "error": "not run"})
    row = {"shape": s["name"], "describe": s["describe"], "kernel": kernel, "ok": d.get("ok", False)}
    if "variant_of" in s:
        row.update(variant_of=s["variant_of"], schedule=s["schedule"])
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
        try:
            ref = reference(s, arrays, torch if cuda else np)
        except Exception as e:  # the GPU's memory, say: numpy is slower but has the host's
            print(f"compare.py: {s['name']}: float64 reference on the GPU failed ({e}); numpy",
                  file=sys.stderr)
            ref = reference(s, arrays, np)
        err = float(np.abs(ours - ref).max())
        scale = float(np.abs(ref).max())
        row.update(max_abs_error=err, max_abs_ref=scale, correct=bool(err <= 1e-4 * max(scale, 1e-30)))
    if cuda:
        if "variant_of" in s:
            t = torch_by_shape.get(s["variant_of"], {})
        else:
            t = torch_by_shape[s["name"]] = torch_times(s)
        for name in ("fp32", "fp16", "bf16"):
            row[f"torch_{name}_ms"] = t.get(name)
            if t.get(name):
                row[f"speed_vs_torch_{name}"] = t[name] / ms
    rows.append(row)

# The sweep: each variant's speed relative to the heuristic's schedule of the same shape.
by_name = {r["shape"]: r for r in rows}
variants = [r for r in rows if "variant_of" in r]
for r in variants:
    base = by_name.get(r["variant_of"], {})
    if r.get("median_ms") and base.get("median_ms"):
        r["speed_vs_heuristic"] = base["median_ms"] / r["median_ms"]

doc = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
       "gpu": info, "rows": rows}
with open(os.path.join(out_dir, "results.json.tmp"), "w") as f:
    json.dump(doc, f, indent=2)
os.replace(os.path.join(out_dir, "results.json.tmp"), os.path.join(out_dir, "results.json"))

columns = [("ms", "median_ms", 9, ".3f"), ("TFLOP/s", "tflops", 8, ".2f"),
           ("%peak", "fraction_of_fp32_peak", 6, ".1%"), ("correct", "correct", 8, ""),
           ("torch32", "torch_fp32_ms", 8, ".3f"), ("x32", "speed_vs_torch_fp32", 6, ".2f"),
           ("x16", "speed_vs_torch_fp16", 6, ".2f"), ("xbf16", "speed_vs_torch_bf16", 6, ".2f")]


def print_table(rows, columns, extra=lambda r: ""):
    print(f"{'shape':<16}" + "".join(f" {title:>{width}}" for title, _, width, _ in columns))
    for r in rows:
        cells = []
        for _, key, width, fmt in columns:
            v = r.get(key)
            text = "-" if v is None else str(v) if isinstance(v, bool) else format(v, fmt)
            cells.append(f" {text:>{width}}")
        print(f"{r['shape']:<16}" + "".join(cells) + extra(r) +
              ("" if r["ok"] else f"  ({r.get('error', '')})"))


print_table([r for r in rows if "variant_of" not in r], columns)
if variants:
    print()
    print_table(variants, [("ms", "median_ms", 9, ".3f"), ("TFLOP/s", "tflops", 8, ".2f"),
                           ("vs-heur", "speed_vs_heuristic", 8, ".2f"), ("correct", "correct", 8, "")],
                lambda r: "  " + r["schedule"])
sys.exit(0 if all(r["ok"] and r.get("correct", True) for r in rows) else 1)
