#!/usr/bin/env bash
# Runs each libFuzzer target (tools/fuzz) for SECONDS (default 60) on its seed corpus and fails on
# the first crash, sanitizer report, timeout or out-of-memory. Needs the sanitizer build
# (scripts/sanitize.sh builds it into build-sanitize/). Seeds: every .mlir file of test/ and
# examples/ for the MLIR targets, the .npy files of examples/ and test/Fuzz/npy for the reader.
# A crashing input is kept in build-sanitize/fuzz/artifacts/; add it to the suite as a regression
# test (docs/HARDENING.md).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${ATTN_SANITIZE_BUILD_DIR:-$ROOT/build-sanitize}
SECONDS_EACH=${1:-60}
WORK=$BUILD/fuzz
rm -rf "$WORK/seeds" && mkdir -p "$WORK/seeds/mlir" "$WORK/seeds/npy" "$WORK/artifacts"
i=0
while IFS= read -r f; do i=$((i + 1)); cp "$f" "$WORK/seeds/mlir/$i-$(basename "$f")"; done \
  < <(find "$ROOT/test" "$ROOT/examples" -name '*.mlir' | sort)
while IFS= read -r f; do i=$((i + 1)); cp "$f" "$WORK/seeds/npy/$i-$(basename "$f")"; done \
  < <(find "$ROOT/examples" "$ROOT/test/Fuzz" -name '*.npy' | sort)

# verify_asan_link_order: the ASan runtime is a shared library (cmake/AttnSanitizers.cmake) loaded
# after libstdc++; allow_user_poisoning: LLVM's headers poison allocator memory in our instrumented
# code that the uninstrumented MLIR libraries then use (false reports).
export ASAN_OPTIONS=${ASAN_OPTIONS:-verify_asan_link_order=0:allow_user_poisoning=0}
status=0
for entry in attn-opt-fuzzer:mlir lowering-fuzzer:mlir npy-fuzzer:npy; do
  target=${entry%%:*} seeds=${entry##*:}
  mkdir -p "$WORK/corpus/$target"
  echo "== $target: $SECONDS_EACH s"
  if ! "$BUILD/bin/$target" -max_total_time="$SECONDS_EACH" -detect_leaks=0 -rss_limit_mb=4096 \
      -timeout=60 -max_len=16384 -print_final_stats=1 -artifact_prefix="$WORK/artifacts/$target-" \
      "$WORK/corpus/$target" "$WORK/seeds/$seeds" > "$WORK/$target.log" 2>&1; then
    echo "FAILED: $target (log: $WORK/$target.log)"
    grep -E "ERROR|SUMMARY|Test unit written" "$WORK/$target.log" || tail -n 30 "$WORK/$target.log"
    status=1
  else
    grep -E "^stat::number_of_executed_units|^Done" "$WORK/$target.log" || true
  fi
done
exit $status
