#!/usr/bin/env bash
# Sets attn up on a Debian 12 machine: installs the Debian packages it needs (only those missing;
# apt-get as root, or through sudo), then configures and builds into ./build (or $ATTN_BUILD_DIR).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${ATTN_BUILD_DIR:-$ROOT/build}

# Build and test dependencies. MLIR 19 needs all four llvm/mlir packages named (libmlir-19-dev
# depends on neither llvm-19-dev nor mlir-19-tools, but find_package(MLIR) needs both).
PACKAGES=(
  cmake ninja-build g++ python3 python3-numpy
  python3-matplotlib chromium         # the report's charts and heatmaps; rendering them in tests
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  libhalide14-0-dev
  llvm-14                             # llvm-as-14: the AVX-512 math helpers, assembled to LLVM 14 bitcode
  libopenblas-dev libdnnl-dev         # attn-bench's library baselines
  ocl-icd-opencl-dev pocl-opencl-icd  # the GPU schedules' tests: OpenCL on the CPU (PoCL)
  clang-14 libclang-rt-14-dev         # the sanitizer build and the fuzz targets (scripts/sanitize.sh)
  clang-format-14                     # the code's format (.clang-format; test/Tools/format.test)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

LAUNCHER=()
command -v ccache >/dev/null && LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release "${LAUNCHER[@]}" >/dev/null
cmake --build "$BUILD"
