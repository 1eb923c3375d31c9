#!/usr/bin/env python3
"""check-links.py ROOT FILE.md...: every relative link of the Markdown files ([text](path) and
![alt](path)) names a file or directory that exists, relative to the file that holds it. Prints
each broken link (file:line: target) and exits 1 if there is one."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
broken = 0
for name in sys.argv[2:]:
    path = root / name
    in_code = False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a URL or an anchor in the same page
            if not (path.parent / target.split("#")[0]).exists():
                print(f"{name}:{number}: {target}")
                broken += 1
print(f"{broken} broken links")
sys.exit(1 if broken else 0)
