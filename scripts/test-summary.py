#!/usr/bin/env python3
"""Prints `N passed, N failed` (plus skipped ones, if any) from lit's xunit XML; exits 1 on failures."""
import sys
import xml.etree.ElementTree as ET

try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError) as e:
    print(f"no test results ({e})")
    print("0 passed, 1 failed")
    sys.exit(1)
passed = failed = skipped = 0
for case in root.iter("testcase"):
    if case.find("failure") is not None or case.find("error") is not None:
        failed += 1
    elif case.find("skipped") is not None:
        skipped += 1
    else:
        passed += 1
if skipped:
    print(f"({skipped} skipped: unsupported on this machine)")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or passed == 0 else 0)
