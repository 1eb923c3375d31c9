#!/usr/bin/env python3
"""expect-exit.py CODE CMD...: runs CMD, passes its output through, and fails unless it exits with CODE.

A crash (death by a signal) never matches, so tests built on this tell "rejected the input with a
diagnostic" from "crashed on it".
"""
import subprocess
import sys

want = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:])
if proc.returncode != want:
    how = (f"was killed by signal {-proc.returncode}" if proc.returncode < 0
           else f"exited with {proc.returncode}")
    sys.stderr.write(f"expect-exit: {sys.argv[2]} {how}, expected exit code {want}\n")
    sys.exit(1)
