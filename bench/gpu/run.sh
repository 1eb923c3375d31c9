#!/usr/bin/env bash
# bench/gpu/run.sh: attn's CUDA kernels on an NVIDIA GPU, against PyTorch's SDPA, in one script.
#
#   bench/gpu/run.sh build   [--out=DIR] [--quick] [--sweep] [--shapes=A,B]
#                                                    here: emit the CUDA kernels (attn-compile,
#                                                    cuda_capability_80) and link the driver;
#                                                    --sweep adds hand-written schedules of some
#                                                    shapes (gen_sweep.py) for tuning the heuristic;
#                                                    --shapes keeps the shapes of these names
#   bench/gpu/run.sh measure [--out=DIR]             on the GPU machine (CUDA driver, Python with
#                                                    PyTorch and numpy; no Halide, no LLVM): run the
#                                                    driver, check and compare, write DIR/results.json
#   bench/gpu/run.sh --dry-run [--out=DIR] [--quick] [--sweep] [--shapes=A,B]
#                                                    here: the same build with host (CPU) kernels, the
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
SWEEP=0
SHAPES=
REPS=20
for arg in "$@"; do
  case $arg in
    --out=*) OUT=${arg#--out=} ;;
    --quick) QUICK=(--quick) ;;
    --sweep) SWEEP=1 ;;
    --shapes=*) SHAPES=${arg#--shapes=} ;;
    --reps=*) REPS=${arg#--reps=} ;;
    *) echo "run.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

build() { # build TARGET
  local target=$1
  rm -rf "$OUT" && mkdir -p "$OUT/data" "$OUT/kernels"
  "$BUILD/bin/attn-bench" --write-graphs="$OUT" "${QUICK[@]}"
  if [ -n "$SHAPES" ]; then
    "$PY" - "$OUT" "$SHAPES" <<'PY'
import json, os, sys
out, names = sys.argv[1], sys.argv[2].split(",")
shapes = json.load(open(os.path.join(out, "shapes.json")))
unknown = sorted(set(names) - {s["name"] for s in shapes})
if unknown:
    sys.exit(f"run.sh: no shape named {', '.join(unknown)} (shapes: {', '.join(s['name'] for s in shapes)})")
for s in shapes:
    if s["name"] not in names:
        os.remove(os.path.join(out, s["kernel"] + ".mlir"))
json.dump([s for s in shapes if s["name"] in names], open(os.path.join(out, "shapes.json"), "w"), indent=1)
PY
  fi
  if [ $SWEEP = 1 ]; then "$PY" "$HERE/gen_sweep.py" "$OUT"; fi
  # One module, so that one attn-compile writes every kernel into its (whole) output directory.
  cat "$OUT"/attn_*.mlir > "$OUT/kernels.mlir"
  "$BUILD/bin/attn-compile" "$OUT/kernels.mlir" -o "$OUT/kernels" --target="$target" --emit=schedule >/dev/null
  for f in "$OUT"/attn_*.mlir; do echo "run.sh: compiled $(basename "$f" .mlir) for $target"; done
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

measure() { # measure SAVE_MB: inputs and results of up to SAVE_MB per shape are saved and checked
  local driver=$OUT/driver
  [ -x "$driver" ] || { echo "run.sh: no $driver: run 'run.sh build' first" >&2; exit 1; }
  # Halide's CUDA runtime opens "libcuda.so", which a driver-only install may ship only as
  # libcuda.so.1: give it the name it looks for.
  if command -v ldconfig >/dev/null && ! ldconfig -p | grep -q 'libcuda\.so '; then
    local lib
    lib=$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')
    if [ -n "$lib" ]; then
      mkdir -p "$OUT/libcuda" && ln -sf "$lib" "$OUT/libcuda/libcuda.so"
      export LD_LIBRARY_PATH="$OUT/libcuda${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    fi
  fi
  "$driver" "$OUT" --reps="$REPS" --save-max-mb="$1"
  # The GPU machine's PyTorch may be in another Python than the system one.
  if ! "$PY" -c 'import torch' 2>/dev/null && python3 -c 'import torch' 2>/dev/null; then PY=python3; fi
  "$PY" "${OUT}/compare.py" "$OUT"
}

case $mode in
  build) build host-cuda-cuda_capability_80 ;;
  measure) measure 160 ;;          # every shape: the float64 reference runs on the GPU
  --dry-run) build host; measure 64 ;; # numpy's float64 reference of S16384 would need 17 GB
  *) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
