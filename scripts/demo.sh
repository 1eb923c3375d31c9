#!/usr/bin/env bash
# Sets attn up (scripts/setup.sh), then runs the main job on the seed lesson's demo
# (examples/seed_demo.mlir): verify the graph, emit its kernel, run it on the lesson's data with a
# check against the double-precision reference, call the emitted kernel from a C++ program, and draw
# the attention weights as heatmaps.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${ATTN_BUILD_DIR:-$ROOT/build}
"$ROOT/scripts/setup.sh"
BIN=$BUILD/bin
DEMO=$BUILD/demo
DATA=$ROOT/examples/data/seed_demo
rm -rf "$DEMO" && mkdir -p "$DEMO"

echo "== 1. The graph, parsed and verified by attn-opt (examples/seed_demo.mlir)"
"$BIN/attn-opt" "$ROOT/examples/seed_demo.mlir"

echo
echo "== 2. attn-compile: a linkable kernel per function, one shared Halide runtime"
"$BIN/attn-compile" "$ROOT/examples/seed_demo.mlir" -o "$DEMO/out" --emit=schedule,stmt
echo "-- the schedule chosen for each stage ($DEMO/out/seed_demo.schedule.txt):"
cat "$DEMO/out/seed_demo.schedule.txt"

echo
echo "== 3. attn-run on the lesson's data (np.random.seed(42), examples/data/make_seed_demo.py)"
echo "   results: additive weights, additive context, scaled-dot weights, scaled-dot context"
"$BIN/attn-run" "$ROOT/examples/seed_demo.mlir" \
  --input="$DATA/q.npy" --input="$DATA/h.npy" --input="$DATA/w_a.npy" --input="$DATA/v_a.npy" \
  --print --check

echo
echo "== 4. The emitted kernel called from C++ on the same data (examples/main.cpp): the same numbers"
c++ -I "$DEMO/out" "$ROOT/examples/main.cpp" "$DEMO/out/seed_demo.a" "$DEMO/out/attn_runtime.a" \
  -ldl -lpthread -o "$DEMO/seed_demo"
"$DEMO/seed_demo"

echo
echo "== 5. The attention weights as heatmaps (attn-run --heatmap; open them in a browser)"
for result in 0:additive 2:dot; do
  "$BIN/attn-run" "$ROOT/examples/seed_demo.mlir" \
    --input="$DATA/q.npy" --input="$DATA/h.npy" --input="$DATA/w_a.npy" --input="$DATA/v_a.npy" \
    --heatmap="$DEMO/weights_${result#*:}.svg" --heatmap-result="${result%:*}" \
    --labels=je,suis,content --query-labels=decoder
done
