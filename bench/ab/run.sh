#!/usr/bin/env bash
# bench/ab/run.sh: two AOT builds of one kernel, linked into one program and called alternately.
#
#   bench/ab/run.sh [options] A.mlir [B.mlir]
#
#     --compiler-a=PATH   attn-compile that builds A (default: the build's)
#     --compiler-b=PATH   attn-compile that builds B (default: the build's); with one graph, two
#                         compilers compare a change of attn itself, before and after
#     --entry=NAME        the function to time, when a graph has several
#     --threads=N         HL_NUM_THREADS for the run (default: Halide's, all cores)
#     --cpus=LIST         pin the run with taskset (e.g. 0 or 0,1)
#     --rounds=N          alternated rounds (default 30)
#     --out=DIR           where the kernels and the program go (default: a temporary directory)
#     --target=T          Halide target both kernels are built for (default: attn-compile's, host);
#                         e.g. x86-64-linux-avx-avx2-f16c-fma-sse41 for AVX2 kernels on an AVX-512 host
#     --link=FILE.c       a C file compiled and linked into the program ahead of the kernels and the
#                         runtime: its definitions take precedence (e.g. halide_malloc/halide_free),
#                         and an ab_before_call(char side) it defines is called before each call of
#                         A ('A') and of B ('B'); bench/ab/two_pools.c, for one, gives A and B
#                         scratch pools of their own under two rules of reuse
#
# For a change of attn's code or of a graph's #attn.schedule, measured side by side on a noisy
# machine: both kernels read the same inputs and run in one process, A then B, then B then A, and
# the result is the median of the per-round ratios B/A (above 1: B slower). The two results must
# agree to 1e-4 of their largest magnitude. Both kernels run with A's build of the Halide runtime.
# attn-bench's pairs do the same for schedules of one compiler's JIT kernels; this script is for
# anything that needs two builds of attn-compile.
# Functions of static f32 tensors with one result (what attn-bench --write-graphs writes).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${ATTN_BUILD_DIR:-$ROOT/build}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'; exit 2; }
CA=$BUILD/bin/attn-compile
CB=$BUILD/bin/attn-compile
ENTRY=
THREADS=
CPUS=
ROUNDS=30
OUT=
TARGET=
LINK=
GRAPHS=()
for arg in "$@"; do
  case $arg in
    --compiler-a=*) CA=${arg#--compiler-a=} ;;
    --compiler-b=*) CB=${arg#--compiler-b=} ;;
    --entry=*) ENTRY=${arg#--entry=} ;;
    --threads=*) THREADS=${arg#--threads=} ;;
    --cpus=*) CPUS=${arg#--cpus=} ;;
    --rounds=*) ROUNDS=${arg#--rounds=} ;;
    --out=*) OUT=${arg#--out=} ;;
    --target=*) TARGET=${arg#--target=} ;;
    --link=*) LINK=${arg#--link=} ;;
    -h | --help) usage ;;
    -*) echo "run.sh: unknown option '$arg'" >&2; exit 2 ;;
    *) GRAPHS+=("$arg") ;;
  esac
done
case ${#GRAPHS[@]} in
  1) GRAPHS+=("${GRAPHS[0]}") ;;
  2) ;;
  *) echo "run.sh: expected one or two graphs (A.mlir [B.mlir]); see --help" >&2; exit 2 ;;
esac
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --rounds must be a positive integer, not '$ROUNDS'" >&2; exit 2; }
[ -z "$THREADS" ] || [[ $THREADS =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --threads must be a positive integer, not '$THREADS'" >&2; exit 2; }
for c in "$CA" "$CB"; do
  [ -x "$c" ] || { echo "run.sh: no attn-compile at '$c'" >&2; exit 1; }
done
for g in "${GRAPHS[@]}"; do
  [ -f "$g" ] || { echo "run.sh: no graph at '$g'" >&2; exit 1; }
done
[ -z "$LINK" ] || [[ -f $LINK && $LINK == *.c ]] || { echo "run.sh: --link takes a C file (FILE.c), not '$LINK'" >&2; exit 2; }

if [ -z "$OUT" ]; then
  OUT=$(mktemp -d "${TMPDIR:-/tmp}/attn-ab.XXXXXX")
  trap 'rm -rf "$OUT"' EXIT
  trap 'exit 130' INT TERM # (through the EXIT trap: no temporary left behind)
fi
mkdir -p "$OUT/src" # the renamed graphs; each kernel directory is attn-compile's own
rm -rf "$OUT/a" "$OUT/b"

# Both signatures first: kernels that do not take the same tensors are not compared.
sigA=$("$PY" "$HERE/signature.py" "${GRAPHS[0]}" ${ENTRY:+"$ENTRY"})
sigB=$("$PY" "$HERE/signature.py" "${GRAPHS[1]}" ${ENTRY:+"$ENTRY"})
if [ "${sigA#* }" != "${sigB#* }" ]; then
  echo "run.sh: the graphs' signatures differ: A (${sigA#* }), B (${sigB#* })" >&2
  exit 1
fi

# Each graph's function is renamed (ab_a, ab_b) so that the two kernels link into one program.
compile() { # compile SIDE GRAPH SIGNATURE COMPILER
  local side=$1 graph=$2 name=${3%% *} compiler=$4
  sed "s/@$name\b/@ab_$side/" "$graph" > "$OUT/src/ab_$side.mlir"
  "$compiler" "$OUT/src/ab_$side.mlir" --entry="ab_$side" -o "$OUT/$side" ${TARGET:+--target="$TARGET"} >/dev/null ||
    { echo "run.sh: $compiler could not compile $graph (${side^^})" >&2; exit 1; }
}
compile a "${GRAPHS[0]}" "$sigA" "$CA"
compile b "${GRAPHS[1]}" "$sigB" "$CB"

# One Halide runtime, A's, serves both kernels.
extra=()
if [ -n "$LINK" ]; then
  cc -std=c11 -O2 -Wall -Werror -I"$OUT/a" -I"$ROOT/lib/CodeGen/Halide/Backend/KernelRuntime" -c "$LINK" -o "$OUT/link.o" ||
    { echo "run.sh: could not compile $LINK" >&2; exit 1; }
  extra=("$OUT/link.o")
fi
g++ -std=c++17 -O2 -I"$OUT/a" "$HERE/driver.cpp" "${extra[@]}" "$OUT/a/ab_a.a" "$OUT/b/ab_b.a" "$OUT/a/attn_runtime.a" \
    -ldl -lpthread -o "$OUT/ab"
read -r -a shapes <<< "${sigA#* }"
run=("$OUT/ab" "$ROUNDS" "${shapes[@]}")
[ -z "$CPUS" ] || run=(taskset -c "$CPUS" "${run[@]}")
echo "run.sh: A = ${GRAPHS[0]} ($CA), B = ${GRAPHS[1]} ($CB), ${THREADS:-all} threads${CPUS:+ on CPUs $CPUS}${TARGET:+, target $TARGET}${LINK:+, with $LINK}"
if [ -n "$THREADS" ]; then HL_NUM_THREADS=$THREADS "${run[@]}"; else "${run[@]}"; fi
