#!/usr/bin/env python3
"""Differential conformance sweep: every kernel attn builds against the double-precision reference.

Each case is an attention graph (attn.attention fused, the unfused chain score -> mask -> softmax
-> weighted_sum, or attn.multi_head decomposed or lowered whole) with a score kind, a combination
of mask options, a batch and head layout (GQA and MQA), sizes that straddle the vector widths and
blocks, an element type, a target (every CPU target this machine runs, and the GPU schedules
through OpenCL on PoCL) and a schedule (the heuristic's, a hand-written one, or one of the tuner's
candidates), run by `attn-run --random-inputs --check`. A case passes when every check says ok; a
clean diagnostic is a refusal (reported, grouped by message); a wrong result, a crash, a hang or
one of Halide's own errors fails the sweep.

Plans:
  cover   (default) a covering set of pairs: every pair of values of two axes that can meet
          appears in some case (scripts/attnsweep/axes.py); deterministic, its size depends only on
          the targets this machine runs. --shard I/N runs every N-th case from the I-th.
  random  --seed S: each case's axes drawn at random, with Halide's autoschedulers among the
          schedule sources; run --cases N or for --minutes M.

  scripts/conformance-sweep.py --attn-run build/bin/attn-run
  scripts/conformance-sweep.py --attn-run build/bin/attn-run --plan=random --seed=7 --minutes=10

A failing case prints the command that replays it alone (--first I --cases 1 with the same plan,
seed and targets); its MLIR file is kept in --keep.
"""
import argparse
import collections
import concurrent.futures
import itertools
import os
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attnsweep import axes as ax  # noqa: E402
from attnsweep import cover, graphs, run  # noqa: E402

RANDOM_SCHEDULES = ax.SCHEDULES + ["autoscheduler"]


def runnable_targets(attn_opt, opencl):
    """The targets this machine runs: attn's default, AVX2 and the AVX-512 levels its CPU has, and
    OpenCL when asked for (auto: where PoCL is installed)."""
    features = run.host_features(attn_opt)
    names = ["host"]
    if "avx2" in features:
        names.append("avx2")
    names += [n for n, f in ax.TARGET_FEATURE.items() if f in features]
    if opencl == "yes" or (opencl == "auto" and run.opencl_available()):
        names.append("opencl")
    return names


def cover_rows(targets):
    return cover.covering_rows(ax.axes(targets), ax.valid, random.Random("attn-conformance-cover"))


def random_row(seed, index, targets):
    r = random.Random(f"{seed}:{index}:row")
    choices = dict(ax.axes(targets), schedule=RANDOM_SCHEDULES)
    while True:
        row = {name: r.choice(values) for name, values in choices.items()}
        if ax.valid(row):
            return row


def make_case(plan, seed, index, rows, targets):
    if plan == "cover":
        return graphs.Case(rows[index], random.Random(f"attn-conformance:{index}"))
    return graphs.Case(random_row(seed, index, targets), random.Random(f"{seed}:{index}"))


def run_case(a, case, index, work, targets):
    path = os.path.join(work, f"case-{a.plan}-{a.seed}-{index}.mlir")
    with open(path, "w") as f:
        f.write(case.text())
    if case.row["schedule"] == "tuner":
        case.set_tuner_schedule(run.tuner_candidates(a.attn_tune, path, case.target))
        with open(path, "w") as f:
            f.write(case.text())
    cmd = case.command(a.attn_run, path, index)
    start = time.time()
    status, detail = run.verdict(cmd, a.timeout)
    return index, case, cmd, status, detail, time.time() - start


def replay(a, index, targets):
    seed = f" --seed={a.seed}" if a.plan == "random" else ""
    return (f"{sys.argv[0]} --attn-run {a.attn_run} --plan={a.plan}{seed} --targets="
            f"{','.join(targets)} --first={index} --cases=1")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 1)[1])
    ap.add_argument("--attn-run", required=True)
    ap.add_argument("--attn-tune", help="default: attn-tune beside --attn-run")
    ap.add_argument("--attn-opt", help="default: attn-opt beside --attn-run")
    ap.add_argument("--plan", choices=["cover", "random"], default="cover")
    ap.add_argument("--seed", type=int, default=1, help="the random plan's seed")
    ap.add_argument("--cases", type=int, help="cases to run (cover: default all; random: as many "
                    "as --minutes allow, else 50)")
    ap.add_argument("--first", type=int, default=0, help="index of the first case")
    ap.add_argument("--shard", default="0/1", help="I/N: every N-th case from the I-th")
    ap.add_argument("--minutes", type=float, default=0, help="stop starting cases after this long")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per case")
    ap.add_argument("--jobs", type=int, default=1, help="cases run side by side")
    ap.add_argument("--targets", help="comma-separated target names (default: what this machine "
                    "runs); names: " + ", ".join(ax.TARGETS))
    ap.add_argument("--opencl", choices=["auto", "yes", "no"], default="auto",
                    help="include the OpenCL target (auto: where PoCL is installed)")
    ap.add_argument("--keep", help="directory for the cases' files (default: a temporary one)")
    ap.add_argument("--list", action="store_true", help="print the cases' axes, run nothing")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    bindir = os.path.dirname(a.attn_run)
    a.attn_tune = a.attn_tune or os.path.join(bindir, "attn-tune")
    a.attn_opt = a.attn_opt or os.path.join(bindir, "attn-opt")
    shard, shards = (int(x) for x in a.shard.split("/"))
    if a.targets:
        targets = a.targets.split(",")
        unknown = [t for t in targets if t not in ax.TARGETS]
        if unknown:
            ap.error(f"unknown targets: {', '.join(unknown)}")
    else:
        targets = runnable_targets(a.attn_opt, a.opencl)

    rows = cover_rows(targets) if a.plan == "cover" else None
    total = len(rows) if rows is not None else None
    # The random plan runs --cases, or as many as --minutes allow, or 50.
    until_time = a.plan == "random" and a.cases is None and a.minutes and not a.list
    count = a.cases if a.cases is not None else total - a.first if total is not None else 50
    if total is not None:
        count = min(count, total - a.first)
    first_to_last = itertools.count(a.first) if until_time else range(a.first, a.first + count)
    indices = (i for i in first_to_last if i % shards == shard)
    how_many = (f"cases for {a.minutes:g} minutes" if until_time else
                f"{sum(1 for i in range(a.first, a.first + count) if i % shards == shard)} cases"
                + (f" of {total}" if total is not None else ""))
    print(f"conformance sweep: plan {a.plan}" + (f", seed {a.seed}" if a.plan == "random" else "")
          + f", targets {','.join(targets)}, {how_many}", flush=True)
    if a.list:
        for i in indices:
            print(f"case {i}: {make_case(a.plan, a.seed, i, rows, targets).describe()}")
        return 0

    work = a.keep or tempfile.mkdtemp(prefix="attn-sweep-")
    os.makedirs(work, exist_ok=True)
    start = time.time()
    ok, refused, failed, seconds = 0, collections.Counter(), [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        pending = set()
        queue = iter(indices)
        while True:
            while len(pending) < max(1, a.jobs):
                if a.minutes and time.time() - start > a.minutes * 60:
                    break
                i = next(queue, None)
                if i is None:
                    break
                case = make_case(a.plan, a.seed, i, rows, targets)
                pending.add(pool.submit(run_case, a, case, i, work, targets))
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending,
                                                    return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                i, case, cmd, status, detail, took = fut.result()
                seconds.append((took, i))
                if status == "ok":
                    ok += 1
                elif status == "refused":
                    refused[detail] += 1
                else:
                    failed.append(i)
                    print(f"FAIL case {i} ({case.describe()})\n  replay: {replay(a, i, targets)}\n"
                          f"  {' '.join(cmd)}\n  {detail}", flush=True)
                if a.verbose and status != "failed":
                    print(f"case {i}: {status} ({took:.1f} s)", flush=True)
    n = ok + sum(refused.values()) + len(failed)
    for msg, c in refused.most_common():
        print(f"refused x{c}: {msg}")
    failed.sort()
    if a.verbose and seconds:
        print("slowest: " + ", ".join(f"case {i} {t:.1f} s" for t, i in sorted(seconds)[-5:]))
    print(f"{n} cases in {time.time() - start:.0f} s: {ok} ok, {sum(refused.values())} refused, "
          f"{len(failed)} failed{' (cases ' + ', '.join(map(str, failed)) + ')' if failed else ''}")
    if failed and a.plan == "random":
        print(f"failing seed: {a.seed} (replay each case with the command above)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
