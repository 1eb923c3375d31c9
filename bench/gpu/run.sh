#!/usr/bin/env bash
# bench/gpu/run.sh: attn's CUDA kernels on an NVIDIA GPU, against PyTorch's SDPA, in one script.
#
#   bench/gpu/run.sh build   [--out=DIR] [--quick]   here: emit the CUDA kernels (attn-compile,
#                                                    cuda_capability_80) and link the driver
#   bench/gpu/run.sh measure [--out=DIR]             on the GPU machine (CUDA driver, Python with
#                                                    PyTorch and numpy; no Halide, no LLVM): run the
#                                                    driver, check and compare, write DIR/results.json
#   bench/gpu/run.sh --dry-run [--out=DIR] [--quick] here: the same build with host (CPU) kernels, the
#                                                    same driver run, checked with numpy
#
# DIR defaults to bench/gpu/out. `build` needs attn built (scripts/setup.sh); carry DIR to the GPU
# machine and run `measure` there. The shapes are attn-bench's (attn-bench --write-graphs).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${ATTN_BUILD_DIR:-$ROOT/build}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

mode=${1:-}
[ $# -gt 0 ] && shift
OUT=$HERE/out
QUICK=()
REPS=20
for arg in "$@"; do
  case $arg in
    --out=*) OUT=${arg#--out=} ;;
    --quick) QUICK=(--quick) ;;
    --reps=*) REPS=${arg#--reps=} ;;
    *) echo "run.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

build() { # build TARGET
  local target=$1
  rm -rf "$OUT" && mkdir -p "$OUT/data" "$OUT/kernels"
  "$BUILD/bin/attn-bench" --write-graphs="$OUT" "${QUICK[@]}"
  for f in "$OUT"/attn_*.mlir; do
    "$BUILD/bin/attn-compile" "$f" -o "$OUT/kernels" --target="$target" --emit=schedule >/dev/null
    echo "run.sh: compiled $(basename "$f" .mlir) for $target"
  done
  "$PY" "$HERE/gen_table.py" "$OUT/shapes.json" > "$OUT/kernels/kernels.inc"
  # The driver: the kernels, one Halide runtime and attn's .npy writer, all static (the GPU machine
  # has no Halide or LLVM); libstdc++ too, so it does not depend on that machine's compiler.
  g++ -std=c++17 -O2 -I"$OUT/kernels" -I"$ROOT/include" -I"$BUILD/include" "$HERE/driver.cpp" \
      "$OUT"/kernels/attn_*.a "$OUT/kernels/attn_runtime.a" \
      "$BUILD/lib/Runtime/libAttnRuntime.a" "$BUILD/lib/Kernel/libAttnKernel.a" \
      -static-libstdc++ -static-libgcc -ldl -lpthread -o "$OUT/driver"
  cp "$HERE/compare.py" "$HERE/run.sh" "$OUT/"
  echo "run.sh: built $OUT/driver ($target)"
}

measure() {
  local driver=$OUT/driver
  [ -x "$driver" ] || { echo "run.sh: no $driver: run 'run.sh build' first" >&2; exit 1; }
  "$driver" "$OUT" --reps="$REPS"
  "$PY" "${OUT}/compare.py" "$OUT"
}

case $mode in
  build) build host-cuda-cuda_capability_80 ;;
  measure) measure ;;
  --dry-run) build host; measure ;;
  *) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
