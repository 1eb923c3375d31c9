#!/usr/bin/env python3
"""gen_sweep.py OUT_DIR: hand-written GPU schedules of some shapes, measured beside the heuristic's.

A GPU machine is lent rarely and briefly, so the measurement carries the data for tuning the GPU
heuristic (lib/CodeGen/Halide/Schedule/GPU/Heuristics.cpp) with it: for each shape named in
SWEEP, one graph per schedule below, the same graph as the shape's own with an explicit
`#attn.schedule` (attn-compile keeps a schedule an op already carries). Each becomes a row of
OUT_DIR/shapes.json with "variant_of" (the shape) and "schedule" (the attribute's fields), run,
timed and checked like every other row.
"""
import json
import os
import sys

# (tile_q, block_k, reg_q, reg_k, reg_v): thread blocks of (Dv / reg_v) x (tile_q / reg_q) threads,
# key blocks of block_k keys (lib/CodeGen/Halide/Schedule/GPU/FusedAttention.cpp). The heuristic's own schedule is
# the shape's plain row (lib/CodeGen/Halide/Schedule/GPU/Heuristics.cpp); the variants are its
# nearest alternatives: the other row count of the register blocks (the heuristic takes 2 rows at
# Dv <= 64 with fewer than 256 thread blocks, else 4), wider score blocks, 4 x 4 P.V blocks at
# D = 128 (the heuristic's are 4 x 8 there), other decode blocks. (The sweeps that chose the
# present heuristic, 2026-11-30 and 2026-12-04: docs/benchmarks-history.md.)
ROWS2 = [(32, 32, 4, 2, 4)]   # beside the heuristic's reg_q = 2 (below 256 thread blocks)
ROWS4 = [(32, 32, 2, 2, 4)]   # beside the heuristic's reg_q = 4 (from 256 thread blocks)
WIDE = [(32, 32, 4, 4, 4)]
D128 = [(16, 32, 4, 2, 4)]    # the heuristic: (16, 32, 4, 2, 8)
DECODE = [(1, 128, 1, 1, 1), (1, 512, 1, 1, 1)]  # the heuristic: block_k = 256
SWEEP = {"S512": ROWS2, "S1024": ROWS4, "S2048": WIDE, "S4096": WIDE, "B4H12-S256": ROWS4,
         "S1024-D128": D128, "S4096-D128": D128, "decode-Tk2048": DECODE,
         # the quick set (the dry-run test)
         "S64": [(16, 32, 2, 2, 4)], "decode-Tk128": DECODE[:1]}


def attribute(shape, sched):
    tile_q, block_k, reg_q, reg_k, reg_v = sched
    fields = f"tile_q = {tile_q}, block_k = {block_k}, reg_q = {reg_q}, reg_k = {reg_k}, reg_v = {reg_v}"
    if shape["group"] == "decode":
        fields += ", split_k = 1"
    return fields


def main():
    out_dir = sys.argv[1]
    path = os.path.join(out_dir, "shapes.json")
    shapes = json.load(open(path))
    rows = list(shapes)
    for s in shapes:
        for i, sched in enumerate(SWEEP.get(s["name"], [])):
            fields = attribute(s, sched)
            base = open(os.path.join(out_dir, s["kernel"] + ".mlir")).read()
            kernel = f"{s['kernel']}_v{i}"
            # The attribute goes before the op's type list: the last " : " before its " -> " (the
            # operands may hold " : " too, as additive's weight(%wa : tensor<...>)).
            lines = base.splitlines(keepends=True)
            ops = [i for i, line in enumerate(lines) if "attn.attention" in line and " -> " in line]
            if len(ops) != 1:
                sys.exit(f"gen_sweep.py: no single attn.attention in {s['kernel']}.mlir")
            head, arrow, tail = lines[ops[0]].partition(" -> ")
            cut = head.rfind(" : ")
            lines[ops[0]] = (head[:cut] + " {schedule = #attn.schedule<" + fields + ">}" + head[cut:] +
                             arrow + tail)
            graph = "".join(lines)
            graph = graph.replace("@" + s["kernel"] + "(", "@" + kernel + "(")
            with open(os.path.join(out_dir, kernel + ".mlir"), "w") as f:
                f.write(graph)
            rows.append(dict(s, kernel=kernel, name=f"{s['name']}/v{i}", variant_of=s["name"],
                             schedule=fields))
    with open(path + ".tmp", "w") as f:
        json.dump(rows, f, indent=1)
    os.replace(path + ".tmp", path)
    print(f"gen_sweep.py: {len(rows) - len(shapes)} schedule variants")


main()
