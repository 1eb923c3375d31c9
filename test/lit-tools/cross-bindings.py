#!/usr/bin/env python3
"""Reads LD_DEBUG=bindings output on stdin and counts symbol bindings between the two LLVMs.

The LLVM 14 side is libLLVM-14 and libHalide14; the LLVM 19 side is libLLVM.so.19 and the tool's
own executable (which holds the static MLIR libraries). Prints one summary line; the test checks that
both sides were seen (the check ran on a process that loaded both) and that nothing crosses.
"""
import re
import sys

tool = sys.argv[1]
side_patterns = {
    "llvm14": re.compile(r"libLLVM-14|libHalide14"),
    "llvm19": re.compile(r"libLLVM\.so\.19|libLLVM-19|/" + re.escape(tool) + r"$"),
}
line_re = re.compile(r"binding file (\S+) \[\d+\] to (\S+) \[\d+\]: \S+ symbol `([^']*)'")


def side(path):
    for name, pattern in side_patterns.items():
        if pattern.search(path):
            return name
    return None


seen = {"llvm14": 0, "llvm19": 0}
crossing = []
for line in sys.stdin:
    m = line_re.search(line)
    if not m:
        continue
    src, dst, symbol = m.groups()
    s, d = side(src), side(dst)
    if s:
        seen[s] += 1
    if s and d and s != d:
        crossing.append(f"{src} -> {dst}: {symbol}")

for c in crossing[:20]:
    print("crossing binding:", c)
print(f"llvm14-side lookups: {'some' if seen['llvm14'] else 'none'}; "
      f"llvm19-side lookups: {'some' if seen['llvm19'] else 'none'}; "
      f"crossing bindings: {len(crossing)}")
