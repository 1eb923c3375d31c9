#!/usr/bin/env bash
# Formats attn's C and C++ sources with clang-format-14 and the repository's .clang-format;
# --check only reports the files that differ (exit 1), as test/Tools/format.test runs it.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
mapfile -t files < <(find include lib tools test examples bench \
  \( -name '*.cpp' -o -name '*.h' -o -name '*.c' \) -not -path '*/Output/*' | sort)
if [ "${1:-}" = "--check" ]; then
  clang-format-14 --dry-run --Werror "${files[@]}"
else
  clang-format-14 -i "${files[@]}"
fi
