#!/usr/bin/env python3
"""check_bench_json.py RESULTS.json RESULTS.csv: checks an attn-bench run's files.

Recomputes every derived column from the raw timings (median, GFLOP/s, % of the recorded peak, the
ratio to the best baseline of the same shape and thread count, each side-by-side pair's median of
per-round ratios), checks each pair's sides (and that every unmasked prefill row of the fused
kernel has its FMA probe pair) instead of trusting attn-bench's own arithmetic, checks that the rows of T threads ran on the first T CPUs this process may use, that the recorded L2
size is the host's, and checks
the CSV holds the same rows. Prints one line per row and "ok" at the end.
"""
import csv
import json
import os
import re
import statistics
import subprocess
import sys

doc = json.load(open(sys.argv[1]))
rows = doc["rows"]
assert doc["tool"] == "attn-bench" and doc["complete"] is True, "the run is not marked complete"
assert rows, "no rows"
peak = {int(t): g for t, g in doc["peak_gflops"].items()}
assert all(g > 1 for g in peak.values()), f"implausible FMA peak {peak}"
cpus = {int(t): c for t, c in doc["cpus"].items()}
allowed = sorted(os.sched_getaffinity(0))
for t in peak:
    assert cpus[t] == allowed[:t], f"{t}-thread rows ran on CPUs {cpus[t]}, not the first {t} of {allowed}"
# The host's L2 per core, which the schedule heuristics read, as getconf reports it (the attn
# schemes ran on the host: no --target).
if "--target" not in doc["command"]:
    l2 = subprocess.run(["getconf", "LEVEL2_CACHE_SIZE"], capture_output=True, text=True).stdout.strip()
    expected = int(l2) if l2.isdigit() else 0
    assert doc["l2_bytes"] == expected, f"l2_bytes {doc['l2_bytes']}, getconf says {expected}"


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def median(ms):
    s = sorted(ms)
    return s[min(len(s) - 1, int(0.5 * (len(s) - 1) + 0.5))]


best = {}
for r in rows:
    assert r["measured"] and r["ok"], f"{r['shape']} {r['scheme']}: {r['error']}"
    assert len(r["ms"]) == doc["reps"], "one timing per repetition"
    assert close(r["median_ms"], median(r["ms"]))
    assert r["min_ms"] <= r["median_ms"] <= r["max_ms"]
    if r["scheme"] in ("openblas", "onednn", "numpy"):
        key = (r["shape"], r["threads"])
        best[key] = min(best.get(key, float("inf")), r["median_ms"])

for r in rows:
    secs = r["median_ms"] / 1e3
    if r["group"] == "additive":
        assert r["gflops"] == 0
        tanhs = r["B"] * r["Tq"] * r["Tk"] * r["Da"]
        assert close(r["gtanh_per_s"], tanhs / secs / 1e9)
    else:
        flops = 4 * r["B"] * r["H"] * r["Tq"] * r["Tk"] * r["D"]
        assert close(r["gflops"], flops / secs / 1e9), (r["gflops"], flops / secs / 1e9)
        assert close(r["pct_peak"], 100 * r["gflops"] / peak[r["threads"]])
    if r["group"] == "decode":
        assert r["gbps"] > 0
    key = (r["shape"], r["threads"])
    if key in best:
        assert close(r["ratio_to_best_baseline"], best[key] / r["median_ms"])
    assert r["rss_mb"] > 1
    # The first call's result against the double-precision reference (numpy's: against float64).
    assert 0 <= r["check_error"] <= 1e-4, r["check_error"]
    # attn-tuned: what the tuner's side-by-side check of its pick found ("" when nothing was faster).
    if r["scheme"] == "attn-tuned":
        assert re.fullmatch(r"(side by side, \d+ rounds: \d+\.\d{3} of the heuristic's time"
                            r"(, not 1% faster: the heuristic's schedule kept)?)?"
                            r"|the side-by-side check could not run: the heuristic's schedule kept",
                            r["tuning"]), r["tuning"]
    else:
        assert "tuning" not in r
    # CPU time over wall time while timed: at most the row's threads (give or take the ~0.2 a
    # late-accounted tick can add); 0 from numpy's script and for timed runs under 20 ms together
    # (most of the quick shapes').
    used = r["cpus_used"]
    assert used == 0 or (r["scheme"] != "numpy" and 0 < used <= r["threads"] + 0.25), used
    if r["scheme"] != "numpy" and sum(r["ms"]) >= 20:
        assert used > 0, "no CPU count for runs of 20 ms or more"
    print(f"{r['shape']} {r['scheme']} {r['threads']}T ok")

# The side-by-side pairs: one timing of each side per round, the ratio the median of the rounds'.
shapes = {r["shape"]: r for r in rows}
for p in doc["pairs"]:
    assert p["measured"] and p["ok"], f"{p['comparison']} {p['shape_a']}: {p['error']}"
    # (The quick shapes' pairs take well under a minute: all their rounds.)
    assert len(p["ms_a"]) == len(p["ms_b"]) == p["rounds"] == doc["pair_rounds"] == 2 * doc["reps"]
    ratios = [a / b for a, b in zip(p["ms_a"], p["ms_b"])]
    assert close(p["ratio_median"], median(ratios)), (p["ratio_median"], median(ratios))
    assert close(p["ratio_min"], min(ratios)) and close(p["ratio_max"], max(ratios))
    if p["comparison"] == "heuristic/tuned":
        tuned = [r for r in rows if r["scheme"] == "attn-tuned" and r["shape"] == p["shape_a"]
                 and r["threads"] == p["threads"]]
        assert p["shape_a"] == p["shape_b"] and p["schedule_a"] == ""
        assert p["schedule_b"] == tuned[0]["schedule"], "side B runs the tuner's pick"
    elif p["comparison"] == "peak/fused":
        # The FMA probe (side A: its ms the time at its measured rate for the shape's flops)
        # against the fused kernel's heuristic schedule: an unmasked prefill or score-kind row.
        a = shapes[p["shape_a"]]
        assert p["baseline_a"] == "peak" and p["shape_a"] == p["shape_b"] and p["schedule_b"] == ""
        assert a["group"] in ("prefill", "kinds") and not a["causal"]
        assert all(ms > 0 for ms in p["ms_a"])
    elif p["comparison"].endswith("/fused"):
        # The fastest library baseline of the shape and thread count (side A) against the fused
        # kernel's heuristic schedule (side B).
        libs = [r for r in rows if r["scheme"] in ("openblas", "onednn") and r["ok"]
                and r["shape"] == p["shape_a"] and r["threads"] == p["threads"]]
        fastest = min(libs, key=lambda r: r["median_ms"])
        assert p["comparison"] == fastest["scheme"] + "/fused" and p["baseline_a"] == fastest["scheme"]
        assert p["shape_a"] == p["shape_b"] and p["schedule_b"] == ""
    else:
        assert p["baseline_a"] == ""
        a, b = shapes[p["shape_a"]], shapes[p["shape_b"]]
        assert not a["causal"] and b["causal"]
        assert all(a[k] == b[k] for k in ("B", "H", "Hkv", "Tq", "Tk", "D", "kind"))
    print(f"pair {p['comparison']} {p['shape_a']} {p['shape_b']} {p['threads']}T ok")

# Every unmasked prefill or score-kind row of the fused kernel has its probe pair.
probed = {(p["shape_a"], p["threads"]) for p in doc["pairs"] if p["comparison"] == "peak/fused"}
for r in rows:
    if r["scheme"] == "attn-fused" and r["group"] in ("prefill", "kinds") and not r["causal"]:
        assert (r["shape"], r["threads"]) in probed, f"no peak/fused pair for {r['shape']} {r['threads']}T"

with open(sys.argv[2]) as f:
    table = list(csv.DictReader(f))
assert len(table) == len(rows), (len(table), len(rows))
for c, r in zip(table, rows):
    assert c["shape"] == r["shape"] and c["scheme"] == r["scheme"]
    assert close(float(c["median_ms"]), r["median_ms"])
    assert abs(float(c["check_error"]) - r["check_error"]) <= 0.01 * r["check_error"]  # (3 digits)
print("ok")
