"""Prints the argument and result shapes of an MLIR function for bench/ab/run.sh.

    signature.py FILE.mlir [ENTRY]

Output, one line: the function's name, then each argument's shape (AxBxC), then `--`, then each
result's shape. Only static f32 tensors are supported (what attn-bench --write-graphs writes); anything
else is an error that names the argument.
"""
import re
import sys


def tensor_shapes(text, what, path):
    shapes = []
    for i, t in enumerate(re.findall(r"tensor<([^>]*)>", text)):
        parts = t.split("x")
        if parts[-1] != "f32" or any(not p.isdigit() for p in parts[:-1]):
            sys.exit(f"{path}: {what} #{i} is tensor<{t}>: the A/B driver takes static f32 tensors only")
        shapes.append("x".join(parts[:-1]) or "scalar")
    return shapes


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: signature.py FILE.mlir [ENTRY]")
    path = sys.argv[1]
    text = open(path).read()
    funcs = re.findall(r"func\.func\s+@([\w.$-]+)\s*\((.*?)\)\s*(?:->\s*(.*?))?\s*(?:attributes\b.*?)?\{",
                       text, re.S)
    if len(sys.argv) == 3:
        funcs = [f for f in funcs if f[0] == sys.argv[2]]
    if len(funcs) != 1:
        names = ", ".join(re.findall(r"func\.func\s+@([\w.$-]+)", text)) or "none"
        if len(sys.argv) == 3:
            sys.exit(f"{path}: no function @{sys.argv[2]} with a signature the driver reads; functions: {names}")
        sys.exit(f"{path}: several functions ({names}): name one with --entry")
    name, args, results = funcs[0]
    a = tensor_shapes(args, "argument", path)
    r = tensor_shapes(results or "", "result", path)
    if len(r) != 1:
        sys.exit(f"{path}: @{name} returns {len(r)} results; the A/B driver times functions with one")
    print(" ".join([name] + a + ["--"] + r))


if __name__ == "__main__":
    main()
