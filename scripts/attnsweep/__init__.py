"""The conformance sweep of scripts/conformance-sweep.py: attention graphs drawn over the axes users
vary (axes.py), as a covering set of pairs (cover.py) or at random, written as MLIR (graphs.py) and
run by attn-run against the double-precision reference (run.py). docs/HARDENING.md says what it
covers and what it found."""
