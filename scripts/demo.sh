#!/usr/bin/env bash
# Sets attn up (scripts/setup.sh), then runs the main job on examples/seed_demo.mlir.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${ATTN_BUILD_DIR:-$ROOT/build}
"$ROOT/scripts/setup.sh"
echo "== examples/seed_demo.mlir, parsed, verified and canonicalized by attn-opt"
"$BUILD/bin/attn-opt" --canonicalize "$ROOT/examples/seed_demo.mlir"
