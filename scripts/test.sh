#!/usr/bin/env bash
# Sets attn up (scripts/setup.sh), then runs the whole lit suite. Ends with `N passed, N failed`
# and exits non-zero on any failure.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${ATTN_BUILD_DIR:-$ROOT/build}
"$ROOT/scripts/setup.sh"

LIT=/usr/lib/llvm-19/build/utils/lit/lit.py
RESULTS="$BUILD/test-results.xml"
rm -f "$RESULTS"
set +e
/usr/bin/python3 "$LIT" "$BUILD/test" -sv --xunit-xml-output="$RESULTS" "$@"
status=$?
set -e
/usr/bin/python3 "$ROOT/scripts/test-summary.py" "$RESULTS" || status=1
exit $status
