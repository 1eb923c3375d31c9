#!/usr/bin/env python3
"""Stands in for attn-run (and attn-tune --list-candidates) in conformance-sweep.test: answers as
FAKE_ATTN_RUN says (ok, a wrong result, a crash, a hang, a clean refusal, a Halide error at run
time, or Halide's compiler rejecting an autoscheduler's schedule), so that the test can show the
sweep telling them apart."""
import os
import sys
import time

mode = os.environ.get("FAKE_ATTN_RUN", "ok")
if "--list-candidates" in sys.argv:
    print("@sweep #attn.schedule<tile_q = 16, block_k = 64>")
    sys.exit(0)
if mode == "ok":
    print("check result #0 tensor<2x8xf32>: max abs error 1e-08, max rel error 1e-07, max|ref| 1, "
          "tolerance 1e-04 x max|ref|: ok")
    sys.exit(0)
if mode == "wrong":
    print("check result #0 tensor<2x8xf32>: max abs error 0.5, max rel error 1, max|ref| 1, "
          "tolerance 1e-04 x max|ref|: FAILED")
    sys.exit(1)
if mode == "crash":
    os.abort()
if mode == "hang":
    time.sleep(60)
if mode == "refuse":
    print("attn-run: error: 'attn.attention' op key dim 8 does not match", file=sys.stderr)
    sys.exit(1)
if mode == "halide":
    print("attn-run: error: running @sweep: Error: Bounds given for s in ii (from 0 to 23) do not "
          "cover required region (from 0 to 31)", file=sys.stderr)
    sys.exit(1)
if mode == "autoscheduler":
    print("attn-run: error: @sweep: Halide compile error: Error: Atomic predicated store is not "
          "supported. (the schedule is Halide's li2018 autoscheduler's, compiled as it wrote it; "
          "use scheduler = \"hand\" or another autoscheduler)", file=sys.stderr)
    sys.exit(1)
if mode == "autoscheduler-lines":  # Halide's message over two lines
    print("attn-run: error: @sweep: Halide compile error: Error: Can only unroll for loops over a "
          "constant extent.\nLoop over f.s0.x has extent (a.extent.1/8). (the schedule is Halide's "
          "adams2019 autoscheduler's, compiled as it wrote it; use scheduler = \"hand\" or another "
          "autoscheduler)", file=sys.stderr)
    sys.exit(1)
sys.exit(2)
