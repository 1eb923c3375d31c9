#!/usr/bin/env python3
"""rerun-on-target.py ATTN_RUN FILE.mlir ARGS...: reruns every `attn-run %s ...` RUN line of FILE with
ARGS added (and the line's own --target dropped), e.g. `--target=host-opencl`.

So the GPU tests check the very kernels, shapes and seeds of the CPU integration tests, without a
second copy of them. Each run must exit 0 with every `check result` line ending in `: ok`; prints one
line per run (`@entry: ok`) and fails on the first run that does not pass, showing its output.
"""
import re
import shlex
import subprocess
import sys

attn_run, path, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
runs = 0
for line in open(path):
    m = re.match(r"\s*//\s*RUN:\s*attn-run %s (.*?)\|", line)
    if not m:
        continue
    args = [a for a in shlex.split(m.group(1)) if not a.startswith("--target=")]
    entry = next((a.split("=", 1)[1] for a in args if a.startswith("--entry=")), "(first)")
    proc = subprocess.run([attn_run, path] + args + extra, capture_output=True, text=True)
    checks = [l for l in proc.stdout.splitlines() if l.startswith("check result")]
    if proc.returncode != 0 or not checks or not all(l.endswith(": ok") for l in checks):
        sys.stdout.write(proc.stdout + proc.stderr)
        sys.exit(f"rerun-on-target: @{entry} of {path} failed with {' '.join(extra)} "
                 f"(exit {proc.returncode})")
    print(f"@{entry}: ok")
    runs += 1
if runs == 0:
    sys.exit(f"rerun-on-target: no `attn-run %s` RUN line in {path}")
print(f"{runs} runs ok")
