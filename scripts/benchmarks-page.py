#!/usr/bin/env python3
"""Writes BENCHMARKS.md, the page of current results, from the benchmark JSON under bench/results.

For every machine class and every (shape, threads) the page shows the newest attn-bench run that
measured the fused kernel there, with the library peers and the side-by-side pairs *of that same
run* (ratios are only ever taken within one run). GPU runs are shown per GPU the same way.
`--check` compares the page with the committed one instead of writing it (the test suite runs it).
"""
import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
HISTORY = "docs/benchmarks-history.md"
SHAPE_ORDER = ["S512", "S1024", "S2048", "S4096", "S16384", "S2048-causal", "S2048-D128",
               "S2048-D128-GQA4", "B4H12-S256", "decode-Tk2048", "additive-S512", "dot-S1024",
               "bilinear-S1024"]
PEERS = ["onednn", "openblas", "numpy"]


class PageError(Exception):
    pass


def load_json(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise PageError(f"{path}: not a readable benchmark JSON ({err})")


def machine_class(path, classes):
    """The class is the file name's last word; files from before classes were named have none."""
    word = path.stem.rsplit("-", 1)[-1]
    return word if word in classes else "first"


def link_of(path, results_dir):
    """The run's path as the page links it, from the repository root, wherever --results points."""
    return "bench/results/" + path.relative_to(results_dir).as_posix()


def is_current_candidate(path):
    """Runs of the kernels *before* a change are history, never current results."""
    return "-before" not in path.stem


def shape_key(shape):
    return (SHAPE_ORDER.index(shape), "") if shape in SHAPE_ORDER else (len(SHAPE_ORDER), shape)


def cpu_runs(results_dir, classes):
    runs = []
    for path in sorted((results_dir / "cpu").glob("*.json")):
        if not is_current_candidate(path):
            continue
        run = load_json(path)
        if not isinstance(run, dict) or "rows" not in run or "date" not in run:
            raise PageError(f"{path}: not an attn-bench JSON (no 'rows' or 'date')")
        run["file"] = link_of(path, results_dir)
        run["class"] = machine_class(path, classes)
        runs.append(run)
    return runs


def newest_fused_rows(runs):
    """(class, shape, threads) -> (run, row): the newest run's successful attn-fused row."""
    newest = {}
    for run in sorted(runs, key=lambda r: (r["date"], r["file"])):
        for row in run["rows"]:
            if row.get("scheme") == "attn-fused" and row.get("ok"):
                newest[(run["class"], row["shape"], row["threads"])] = (run, row)
    return newest


def rate(row):
    if row["group"] == "decode":
        return f"{row['gbps']:.1f} GB/s"
    if row["group"] == "additive":
        return f"{row['gtanh_per_s']:.2f} G tanh/s"
    return f"{row['gflops']:.1f} GFLOP/s"


def best_peer(run, row):
    peers = [r for r in run["rows"] if r.get("scheme") in PEERS and r.get("ok")
             and r["shape"] == row["shape"] and r["threads"] == row["threads"]]
    return min(peers, key=lambda r: r["median_ms"]) if peers else None


def pair(run, comparison, shape_b, threads):
    for p in run.get("pairs", []):
        if p["comparison"] == comparison and p["shape_b"] == shape_b and p["threads"] == threads \
                and p.get("ok"):
            return p["ratio_median"]
    return None


def peer_pair(run, row):
    for peer in PEERS:
        ratio = pair(run, f"{peer}/fused", row["shape"], row["threads"])
        if ratio is not None:
            return f"{ratio:.3f} ({peer})"
    return ""


def other_pairs(run, row):
    found = []
    for comparison in ("unmasked/causal", "heuristic/tuned"):
        ratio = pair(run, comparison, row["shape"], row["threads"])
        if ratio is not None:
            found.append(f"{comparison} {ratio:.3f}")
    return ", ".join(found)


def percent_of_peak(row):
    """Only where the FLOP count is the work done: not for causal rows (dense FLOPs), decode or tanh."""
    if row["causal"] or row["group"] in ("decode", "additive"):
        return ""
    return f"{row['pct_peak']:.1f}%"


def cpu_table_line(run, row, run_number):
    peer = best_peer(run, row)
    peer_cell = f"{peer['scheme']} {peer['median_ms']:.3f}" if peer else ""
    peak = pair(run, "peak/fused", row["shape"], row["threads"])
    cells = [row["shape"], str(row["threads"]), f"{row['median_ms']:.3f}", rate(row),
             percent_of_peak(row), f"{peak:.3f}" if peak is not None else "", peer_cell,
             peer_pair(run, row), other_pairs(run, row), f"[{run_number}]"]
    return "| " + " | ".join(cells) + " |"


def run_lines(runs, number):
    """The numbered list of the runs a section's rows come from: date, file, and command if any."""
    return [f"{number[id(run)]}. {run['date']}, [`{pathlib.Path(run['file']).name}`]({run['file']})"
            + (f": `{run['command']}`" if run.get("command") else "") for run in runs]


CPU_HEADING = ("| shape | threads | attn-fused ms | rate | % of peak (row) | peak/fused (pair) "
               "| fastest peer, ms | peer/fused (pair) | other pairs | run |\n"
               "|---|--:|--:|--:|--:|--:|---|--:|---|---|")


def cpu_section(cls, description, entries):
    runs = sorted({id(run): run for run, _ in entries.values()}.values(), key=lambda r: r["date"])
    number = {id(run): i + 1 for i, run in enumerate(runs)}
    lines = [f"## CPU: {description}", "",
             f"Halide target `{runs[-1]['target']}` (newest run). Newest run per row: "
             f"{runs[0]['date'][:10]} to {runs[-1]['date'][:10]}.", "", CPU_HEADING]
    for key in sorted(entries, key=lambda k: (shape_key(k[1]), k[2])):
        run, row = entries[key]
        lines.append(cpu_table_line(run, row, number[id(run)]))
    return lines + ["", "Runs:", ""] + run_lines(runs, number) + [""]


def gpu_runs(results_dir, classes):
    runs = []
    for path in sorted((results_dir / "gpu").glob("*-run[0-9]*.json")):
        if "-driver-" in path.stem:
            continue  # another build's kernels timed in the same call: an experiment
        run = load_json(path)
        if not isinstance(run, dict) or "gpu" not in run:
            raise PageError(f"{path}: not a bench/gpu/run.sh results JSON (no 'gpu')")
        run["file"] = link_of(path, results_dir)
        run["class"] = path.stem.split("-", 1)[0]
        if run["class"] not in classes:
            raise PageError(f"{path}: GPU class '{run['class']}' is not in machines.json")
        runs.append(run)
    return runs


GPU_HEADING = ("| shape | attn ms | TFLOP/s | of fp32 peak | checked | torch fp32 ms "
               "| torch fp32 / attn | torch fp16 / attn | torch bf16 / attn | run |\n"
               "|---|--:|--:|--:|---|--:|--:|--:|--:|---|")


def cell(row, key, spec, scale=1.0, suffix=""):
    """A measured value, or an empty cell where the run did not measure it (e.g. no FLOP count)."""
    value = row.get(key)
    return "" if value is None else f"{scale * value:{spec}}{suffix}"


def gpu_table_line(run, row, run_number):
    cells = [row["shape"], cell(row, "median_ms", ".3f"), cell(row, "tflops", ".2f"),
             cell(row, "fraction_of_fp32_peak", ".1f", 100, "%"),
             "yes" if row.get("correct") else "**no**", cell(row, "torch_fp32_ms", ".3f"),
             cell(row, "speed_vs_torch_fp32", ".2f", suffix="x"),
             cell(row, "speed_vs_torch_fp16", ".2f", suffix="x"),
             cell(row, "speed_vs_torch_bf16", ".2f", suffix="x"), f"[{run_number}]"]
    return "| " + " | ".join(cells) + " |"


def gpu_section(description, runs):
    newest = {}
    for run in sorted(runs, key=lambda r: (r["date"], r["file"])):
        for row in run["rows"]:
            if "/" not in row["shape"] and row.get("ok"):  # "/": a schedule variant of the sweep
                newest[row["shape"]] = (run, row)
    used = sorted({id(r): r for r, _ in newest.values()}.values(), key=lambda r: r["date"])
    number = {id(run): i + 1 for i, run in enumerate(used)}
    gpu = used[-1]["gpu"]
    lines = [f"## GPU: {description}", "",
             f"{gpu['device']}, {gpu['sms']} SMs, fp32 peak {gpu['fp32_peak_tflops']:.1f} TFLOP/s, "
             f"PyTorch {gpu.get('torch', '?')} (newest run).", "", GPU_HEADING]
    for shape in sorted(newest, key=shape_key):
        run, row = newest[shape]
        lines.append(gpu_table_line(run, row, number[id(run)]))
    return lines + ["", "Runs (`bench/gpu/run.sh build` here, `bench/gpu/run.sh measure` on the "
                    "GPU):", ""] + run_lines(used, number) + [""]


INTRO = f"""# Benchmarks: current results

This page is generated by `scripts/benchmarks-page.py` from the JSON under `bench/results/`; do not
edit it by hand. The dated log of every measurement, with what was tried and why, is
[{HISTORY}]({HISTORY}).

How to read it. For each machine class and each shape and thread count, the newest `attn-bench`
run that measured the fused kernel (`attn-fused`, the heuristic's schedule) gives the row. Every
ratio comes from that same run: the fastest library peer's row, and the **pairs**, timed side by
side in one process with the two sides called alternately (`docs/BENCHMARKING.md`):
`peak/fused` is the kernel's fraction of the FMA probe's rate measured beside it, `peer/fused`
the speedup over the fastest library (above 1: attn is faster), `unmasked/causal` the speedup of
block skipping, `heuristic/tuned` the heuristic's schedule against the tuner's (above 1: the
tuner's is faster). "% of peak (row)" divides by the probe run once at the start. Runs of the
kernels before a change (`*-before*`) and GPU schedule variants are history only.

To add a run: `attn-bench ... --json=bench/results/cpu/cpu-DATE-WHAT-CLASS.json` (CLASS one of
`bench/results/machines.json`'s, or a new one added there), then `scripts/benchmarks-page.py`.
"""


def page(results_dir):
    machines = load_json(results_dir / "machines.json")
    lines = [INTRO]
    fused = newest_fused_rows(cpu_runs(results_dir, machines["cpu"]))
    by_class = {}
    for key, entry in fused.items():
        by_class.setdefault(key[0], {})[key] = entry
    newest_first = sorted(by_class, key=lambda c: max(r["date"] for r, _ in by_class[c].values()),
                          reverse=True)
    for cls in newest_first:
        lines += cpu_section(cls, machines["cpu"][cls], by_class[cls])
    gpus = gpu_runs(results_dir, machines["gpu"])
    for cls in sorted({r["class"] for r in gpus}):
        lines += gpu_section(machines["gpu"][cls], [r for r in gpus if r["class"] == cls])
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=pathlib.Path, default=ROOT / "bench/results")
    parser.add_argument("--output", type=pathlib.Path, default=ROOT / "BENCHMARKS.md")
    parser.add_argument("--check", action="store_true",
                        help="compare with --output instead of writing it; exit 1 if it differs")
    args = parser.parse_args()
    try:
        text = page(args.results)
    except PageError as err:
        sys.exit(f"benchmarks-page: {err}")
    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current != text:
            sys.exit(f"benchmarks-page: {args.output} is not the page the JSON gives; "
                     f"run scripts/benchmarks-page.py")
        return
    args.output.write_text(text)


if __name__ == "__main__":
    main()
