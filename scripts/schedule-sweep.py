#!/usr/bin/env python3
"""Random differential testing of the attention kernels: schedules x shapes x masks x kinds.

Each case is a random attention graph (score kind, batch and head layout with GQA, awkward sizes,
masks, element type, fused op or the unfused chain), or a random attn.multi_head layer (self or
cross attention, MHA / GQA / MQA, biases, masks; decomposed or lowered whole), under a random
hand-written #attn.schedule (any value the verifier accepts) or one of Halide's autoschedulers,
run by `attn-run --random-inputs --check` against the double-precision reference evaluator, on
one or two threads, on the host target or on AVX2, or (--opencl-share) through OpenCL: the GPU
schedules, run on whatever OpenCL device the machine has (PoCL's CPU device here, which has no
16-bit types, so those cases are f32; see test/Integration/GPU). A case passes when the
check says ok; it may also be refused with a diagnostic (reported, grouped by message). A wrong
result, a crash, a hang (--timeout) or an error without a diagnostic fails the sweep.

  scripts/schedule-sweep.py --attn-run build/bin/attn-run --cases 200 --seed 1 --keep /tmp/sweep

The cases depend only on --seed and their index, so a failing case is rerun with --seed S --first I
--cases 1 (its file is also kept in --keep). test/Integration/schedule-sweep.test runs a few cases
with a fixed seed; docs/HARDENING.md says what longer sweeps found.
"""
import argparse
import collections
import os
import random
import re
import subprocess
import sys
import tempfile
import time

AVX2 = "x86-64-linux-avx-avx2-f16c-fma-sse41"
OPENCL = "host-opencl"


def draw_elem(r, opencl):
    """A case's element type; f32 for OpenCL (PoCL has no 16-bit types), drawn all the same so that
    the draws after it are the CPU case's."""
    elem = r.choice(["f32"] * 6 + ["f16", "bf16"])
    return "f32" if opencl else elem


def draw_target(r, opencl):
    """The host, AVX2, or OpenCL (drawn all the same, like draw_elem)."""
    target = r.choice([None] * 3 + [AVX2])
    return OPENCL if opencl else target


def tensor(shape, elem):
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


class Case:
    """One random graph: its MLIR text and how attn-run runs it."""

    def __init__(self, rng, opencl=False):
        self.rng = rng
        r = rng
        self.kind = r.choice(["scaled_dot"] * 4 + ["dot", "bilinear", "additive"])
        self.elem = draw_elem(r, opencl)
        rank = r.choice([2, 3, 4, 4, 4])
        tq = r.choice([1, 1, 2, 3, 7, 16, 17, 31, 37, 64, 100])
        tk = r.choice([1, 5, 16, 17, 53, 64, 129, 300])
        dk = r.choice([4, 8, 16, 24, 33, 64])
        dv = r.choice([dk, dk, 4, 8, 20, 40, 64])
        if rank == 4:
            b, hkv = r.choice([1, 2]), r.choice([1, 2, 3])
            hq = hkv * r.choice([1, 1, 2, 4])
            self.lead_q, self.lead_k = [b, hq], [b, hkv]
        elif rank == 3:
            b = r.choice([1, 2, 3])
            self.lead_q = self.lead_k = [b]
        else:
            self.lead_q = self.lead_k = []
        self.fused = r.random() < 0.85
        if not self.fused and rank == 4:  # attn.score has no GQA: the chain's heads agree
            self.lead_q = self.lead_k
        self.tq, self.tk, self.dk, self.dv = tq, tk, dk, dv
        self.dq = dk if self.kind != "bilinear" else r.choice([8, 16, 24])
        if self.kind == "additive":
            self.dq = r.choice([dk, 8, 16])
            self.da = r.choice([4, 8, 16, 33])
        self.threads = r.choice([1, 2])
        self.target = draw_target(r, opencl)
        self.args = []  # (name, type)
        self.q = self.arg("q", self.lead_q + [tq, self.dq])
        self.k = self.arg("k", self.lead_k + [tk, dk])
        self.v = self.arg("v", self.lead_k + [tk, dv])
        self.score = self.score_clause()
        self.mask = self.mask_clause()
        self.schedule = self.schedule_attr()
        self.out_type = tensor(self.lead_q + [tq, dv], self.elem)
        # The unfused chain's mask, softmax and weighted_sum ops get schedules of their own (drawn
        # last, so the draws above are what they were before).
        self.chain_schedules = [] if self.fused else [self.schedule_attr() for _ in range(3)]

    def arg(self, name, shape, elem=None):
        t = tensor(shape, elem or self.elem)
        self.args.append((name, t))
        return f"%{name}", t

    def score_clause(self):
        r = self.rng
        if self.kind == "scaled_dot" and r.random() < 0.3:
            return f" scale({r.choice(['0.5', '0.125', '2.0'])})"
        if self.kind == "bilinear":
            w, t = self.arg("w", [self.dq, self.dk])
            return f" weight({w} : {t})"
        if self.kind == "additive":
            w, wt = self.arg("wa", [self.da, self.dq + self.dk])
            v, vt = self.arg("va", [self.da])
            return f" weight({w} : {wt}) vec({v} : {vt})"
        return ""

    def mask_clause(self):
        r = self.rng
        parts = []
        causal = r.random() < 0.35
        window = r.random() < 0.2
        if causal:
            parts.append("causal")
        if window:
            parts.append(f"window({r.choice([1, 3, 7, 16, 64])})")
        if causal or window:
            parts.append(f"align({r.choice(['top_left', 'bottom_right'])})")
        if r.random() < 0.2 and self.lead_q:
            shape = self.lead_q[:r.choice([1, len(self.lead_q)])]
            n, t = self.arg("len", shape, "i32")
            parts.append(f"key_lengths({n} : {t})")
        if r.random() < 0.2:
            elem = r.choice(["i1", "i1", self.elem])
            full = self.lead_q + [self.tq, self.tk]
            shape = r.choice([full, full[-2:], [1] * (len(full) - 1) + [self.tk]])
            if self.lead_q and elem == "i1" and r.random() < 0.5:  # a padding mask [B, 1, 1, Tk]
                shape = [self.lead_q[0]] + [1] * (len(full) - 2) + [self.tk]
            n, t = self.arg("m", shape, elem)
            parts.append(f"mask({n} : {t})")
        return "".join(" " + p for p in parts)

    def schedule_attr(self):
        r = self.rng
        choices = {
            "tile_q": [1, 2, 4, 8, 16, 24, 32, 48, 64, 128],
            "block_k": [1, 8, 16, 32, 64, 128, 256, 1024],
            "vector": [1, 4, 8, 16],
            "reg_q": [1, 2, 3, 4, 6, 8],
            "reg_k": [1, 2, 5, 8, 12, 16],
            "reg_v": [1, 2, 3, 4],
            "chunk_k": [1, 4, 8, 16, 64, 128],
            "split_k": [0, 1],
            "group_q": [0, 1, 2, 4],
        }
        fields = [f"{k} = {r.choice(v)}" for k, v in choices.items() if r.random() < 0.5]
        if r.random() < 0.3:
            fields.append(f'parallel = "{r.choice(["heads", "tiles"])}"')
        return "#attn.schedule<" + ", ".join(fields) + ">"

    def text(self):
        sig = ", ".join(f"%{n}: {t}" for n, t in self.args)
        (q, qt), (k, kt), (v, vt) = self.q, self.k, self.v
        sched = f"{{schedule = {self.schedule}}}"
        body = []
        if self.fused:
            body.append(f"  %o = attn.attention {self.kind} {q}, {k}, {v}{self.score}{self.mask} {sched}"
                        f" : {qt}, {kt}, {vt} -> {self.out_type}")
        else:
            st = tensor(self.lead_q + [self.tq, self.tk], self.elem)
            ms, ps, ws = (f"{{schedule = {c}}}" for c in self.chain_schedules)
            body.append(f"  %s = attn.score {self.kind} {q}, {k}{self.score} {sched} : {qt}, {kt} -> {st}")
            s = "%s"
            if self.mask:
                body.append(f"  %sm = attn.mask %s{self.mask} {ms} : {st}")
                s = "%sm"
            body.append(f"  %p = attn.softmax {s} {ps} : {st}")
            body.append(f"  %o = attn.weighted_sum %p, {v} {ws} : {st}, {vt} -> {self.out_type}")
        return (f"func.func @sweep({sig}) -> {self.out_type} {{\n" + "\n".join(body) +
                f"\n  return %o : {self.out_type}\n}}\n")

    def command(self, attn_run, path, seed):
        cmd = [attn_run, path, "--random-inputs", f"--seed={seed}", "--check",
               f"--threads={self.threads}"]
        if self.target:
            cmd.append(f"--target={self.target}")
        if not self.fused:
            cmd.append("--fuse=false")
        return cmd


class MultiHeadCase(Case):
    """One random attn.multi_head layer (self or cross attention, MHA / GQA / MQA, biases, masks)
    under a random hand-written schedule, which is its projections' (--attn-decompose-multi-head
    gives it to the four attn.linear ops; with --fuse=false the whole layer is lowered as one op)."""

    def __init__(self, rng, opencl=False):
        self.rng = r = rng
        self.kind = r.choice(["scaled_dot", "scaled_dot", "dot"])
        self.elem = draw_elem(r, opencl)
        b = r.choice([1, 2, 3])
        tq = r.choice([1, 2, 7, 13, 16, 33, 64])
        hkv = r.choice([1, 1, 2, 3])
        self.heads = hkv * r.choice([1, 2, 4])
        self.kv_heads = hkv
        dk, dv = r.choice([2, 4, 8, 16]), r.choice([2, 4, 8, 12])
        e = r.choice([4, 8, 16, 17, 24, 48])
        self.fused = r.random() < 0.7
        self.threads = r.choice([1, 2])
        self.target = draw_target(r, opencl)
        self.args = []
        self.lead_q = [b, self.heads]  # the scores' leading dims, for masks
        x, xt = self.arg("x", [b, tq, e])
        if r.random() < 0.6:  # self-attention
            tk, ekv, mem, memt = tq, e, x, xt
        else:
            tk, ekv = r.choice([1, 5, 17, 64, 100]), r.choice([e, 8, 20])
            mem, memt = self.arg("mem", [b, tk, ekv])
        self.tq, self.tk = tq, tk
        eout = r.choice([e, 4, 10])
        w = [self.arg(n, shape) for n, shape in (("wq", [e, self.heads * dk]), ("wk", [ekv, hkv * dk]),
                                                  ("wv", [ekv, hkv * dv]),
                                                  ("wo", [self.heads * dv, eout]))]
        biases = ""
        for name, width in (("q", self.heads * dk), ("k", hkv * dk), ("v", hkv * dv), ("o", eout)):
            if r.random() < 0.4:
                n, t = self.arg("b" + name, [width])
                biases += f" bias_{name}({n} : {t})"
        heads = f"heads({self.heads})" + (f" kv_heads({hkv})" if hkv != self.heads or r.random() < 0.3
                                         else "")
        self.out_type = tensor([b, tq, eout], self.elem)
        self.mask = self.mask_clause()
        self.schedule = self.schedule_attr()
        self.op_head = (f"attn.multi_head {self.kind} {x}, {mem} {heads} proj("
                        + ", ".join(n for n, _ in w) + " : " + ", ".join(t for _, t in w) + ")"
                        + biases + self.mask)
        self.op_types = f"{xt}, {memt} -> {self.out_type}"

    def mask_clause(self):
        r = self.rng
        parts = []
        if r.random() < 0.3:
            parts.append("causal")
        if r.random() < 0.15:
            parts.append(f"window({r.choice([1, 3, 16])})")
        if parts:
            parts.append(f"align({r.choice(['top_left', 'bottom_right'])})")
        if r.random() < 0.2:
            n, t = self.arg("len", r.choice([[self.lead_q[0]], []]), "i32")
            parts.append(f"key_lengths({n} : {t})")
        if r.random() < 0.2:
            elem = r.choice(["i1", "i1", self.elem])
            full = self.lead_q + [self.tq, self.tk]
            shape = r.choice([full, full[-2:], [full[0], 1, 1, self.tk], full[1:]])
            n, t = self.arg("m", shape, elem)
            parts.append(f"mask({n} : {t})")
        return "".join(" " + p for p in parts)

    def text(self):
        sig = ", ".join(f"%{n}: {t}" for n, t in self.args)
        return (f"func.func @sweep({sig}) -> {self.out_type} {{\n"
                f"  %o = {self.op_head} {{schedule = {self.schedule}}} : {self.op_types}\n"
                f"  return %o : {self.out_type}\n}}\n")


AUTOSCHEDULERS = ["adams2019", "mullapudi2016", "li2018"]


def make_case(seed, index, multi_head_share, autoscheduler_share, opencl_share=0.0):
    """Case `index` of `seed`. Whether it is a multi_head layer, whether it runs through OpenCL, and
    whether a Halide autoscheduler schedules it (the whole pipeline: the op's schedule names it; CPU
    cases only) are drawn apart, so the other cases of a seed are the ones they were before these
    were added. An OpenCL case draws what the CPU case of its index draws, but in f32."""
    opencl = random.Random(f"{seed}:{index}:opencl").random() < opencl_share
    if random.Random(f"{seed}:{index}:multi_head").random() < multi_head_share:
        case = MultiHeadCase(random.Random(f"{seed}:{index}"), opencl)
    else:
        case = Case(random.Random(f"{seed}:{index}"), opencl)
    auto = random.Random(f"{seed}:{index}:autoscheduler")
    if auto.random() < autoscheduler_share and not opencl:
        case.schedule = f'#attn.schedule<scheduler = "{auto.choice(AUTOSCHEDULERS)}">'
    return case


def diagnostic(stderr):
    """The first `error:` line of a clean refusal, or None. Halide's own errors (a schedule it could
    not compile, bounds a kernel found wrong when it ran) are not refusals: attn accepted the graph
    and its schedule, so it owes a kernel. Except where one of Halide's autoschedulers wrote the
    schedule and Halide rejected it when compiling or running it, which attn reports as such
    (backend noteAutoscheduler): attn passes that schedule on, it does not write it. (Its wrong
    results still fail the sweep.)"""
    m = re.search(r"error: .*?Error: (.*?) \(the schedule is Halide's (\w+) "
                  r"autoscheduler's, (compiled|run) as it wrote it", stderr, re.S)
    if m:  # (Halide's message may run over several lines)
        what = re.sub(r"\d+", "N", " ".join(m.group(1).split()))[:120]
        verb = "compiled" if m.group(3) == "compiled" else "ran"
        return f"{m.group(2)}'s schedule failed when Halide {verb} it: {what}"
    if "halide_error" in stderr or "Error:" in stderr or "Internal" in stderr:
        return None
    for line in stderr.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            return re.sub(r"\d+", "N", m.group(1))[:160]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--attn-run", required=True)
    ap.add_argument("--cases", type=int, default=50)
    ap.add_argument("--first", type=int, default=0, help="index of the first case")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=0, help="stop starting cases after this long")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per case")
    ap.add_argument("--multi-head-share", type=float, default=0.2,
                    help="the share of cases that are attn.multi_head layers")
    ap.add_argument("--autoscheduler-share", type=float, default=0.1,
                    help="the share of cases scheduled by one of Halide's autoschedulers")
    ap.add_argument("--opencl-share", type=float, default=0.0,
                    help="the share of cases run through OpenCL (--target=host-opencl; f32)")
    ap.add_argument("--keep", help="directory for the cases' files (default: a temporary one)")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()

    work = a.keep or tempfile.mkdtemp(prefix="attn-sweep-")
    os.makedirs(work, exist_ok=True)
    start = time.time()
    ok, refused, failed = 0, collections.Counter(), []
    for i in range(a.first, a.first + a.cases):
        if a.minutes and time.time() - start > a.minutes * 60:
            break
        case = make_case(a.seed, i, a.multi_head_share, a.autoscheduler_share, a.opencl_share)
        path = os.path.join(work, f"case-{a.seed}-{i}.mlir")
        with open(path, "w") as f:
            f.write(case.text())
        cmd = case.command(a.attn_run, path, i)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
            verdict, refusal = None, diagnostic(p.stderr)
            if p.returncode == 0 and re.search(r"check result #0 .*: ok", p.stdout):
                ok += 1
            elif p.returncode == 1 and "check result" not in p.stdout and refusal:
                refused[refusal] += 1
            else:
                verdict = f"exit {p.returncode}: " + (p.stdout + p.stderr).strip()[-600:]
        except subprocess.TimeoutExpired:
            verdict = f"no result after {a.timeout} s"
        if verdict:
            failed.append(i)
            print(f"FAIL case {i}: {' '.join(cmd)}\n  {verdict}", flush=True)
        elif a.verbose:
            print(f"case {i}: ok", flush=True)
    n = ok + sum(refused.values()) + len(failed)
    for msg, count in refused.most_common():
        print(f"refused x{count}: {msg}")
    print(f"{n} cases in {time.time() - start:.0f} s: {ok} ok, {sum(refused.values())} refused, "
          f"{len(failed)} failed{' (cases ' + ', '.join(map(str, failed)) + ')' if failed else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
