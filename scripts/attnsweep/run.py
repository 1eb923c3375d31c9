"""Running cases: attn-run --check on each, and what its answer means."""

import os
import re
import subprocess


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


def verdict(cmd, timeout):
    """("ok", None), ("refused", the diagnostic) or ("failed", what happened) for one attn-run."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "failed", f"no result after {timeout} s"
    refusal = diagnostic(p.stderr)
    checks = re.findall(r"^check result #\d+ .*$", p.stdout, re.M)
    if p.returncode == 0 and checks and all(c.endswith(": ok") for c in checks):
        return "ok", None
    if p.returncode == 1 and not checks and refusal:
        return "refused", refusal
    return "failed", f"exit {p.returncode}: " + (p.stdout + p.stderr).strip()[-600:]


def tuner_candidates(attn_tune, path, target):
    """The schedules attn-tune would try first for the graph's attn.attention op (its
    --list-candidates), or [] when it lists none."""
    cmd = [attn_tune, path, "--list-candidates"] + ([f"--target={target}"] if target else [])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {p.returncode}): {p.stderr.strip()}")
    return [line.split(" ", 1)[1] for line in p.stdout.splitlines() if line.startswith("@")]


def host_features(attn_opt):
    """The features of attn's default target on this machine (attn-opt --version)."""
    p = subprocess.run([attn_opt, "--version"], capture_output=True, text=True, timeout=60)
    m = re.search(r"default kernel target (\S+)", p.stdout)
    if not m:
        raise RuntimeError(f"{attn_opt} --version names no default kernel target:\n{p.stdout}")
    return set(m.group(1).split("-"))


def opencl_available():
    """PoCL installed (the lit configuration's test: test/lit.cfg.py)."""
    return os.path.exists("/etc/OpenCL/vendors/pocl.icd")
