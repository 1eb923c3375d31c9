#!/usr/bin/env python3
"""same-draws.py CPU_DIR OPENCL_DIR: the case files of two schedule-sweep.py runs of one seed, one
with --opencl-share 1, must be the same graphs but for the element type (OpenCL's cases are f32).
Prints the count of cases compared, or the first that differs."""
import os
import re
import sys

cpu, ocl = sys.argv[1], sys.argv[2]
names = sorted(n for n in os.listdir(cpu) if n.endswith(".mlir"))
if not names or names != sorted(n for n in os.listdir(ocl) if n.endswith(".mlir")):
    sys.exit("same-draws.py: the two runs wrote different case files")
for name in names:
    with open(os.path.join(cpu, name)) as f:
        want = re.sub(r"x(bf16|f16)>", "xf32>", f.read())
    with open(os.path.join(ocl, name)) as f:
        got = f.read()
    if got != want:
        sys.exit(f"same-draws.py: {name} differs:\n{want}\n---\n{got}")
print(f"{len(names)} cases: the same graphs but for the element type")
