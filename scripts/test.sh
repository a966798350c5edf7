#!/usr/bin/env bash
# Runs the whole mlc test suite (lit: FileCheck tests of every pass, Catch2
# unit tests, end-to-end model tests), installing and building what is
# needed first. MLC_SANITIZE=ON runs it on an ASan+UBSan build in
# build-asan/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh --test
if [[ "${MLC_SANITIZE:-OFF}" == "ON" ]]; then
  export BUILD_DIR=${BUILD_DIR:-$root/build-asan}
fi
build=${BUILD_DIR:-$root/build}
start=$(date +%s)
scripts/build.sh mlc-test-depends
echo "mlc: build took $(( $(date +%s) - start ))s"
# Rerun cmake's lit config step in case tests were added since configure.
cmake "$build" >/dev/null
status=0
/usr/lib/llvm-22/bin/lit -j "${JOBS:-2}" -v --time-tests "$build/test" \
  > "$build/lit.log" 2>&1 || status=$?
grep -vE '^(PASS|UNSUPPORTED|XFAIL):' "$build/lit.log" || true
passed=$(grep -cE '^(PASS|XFAIL):' "$build/lit.log" || true)
failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):' "$build/lit.log" || true)
skipped=$(grep -cE '^UNSUPPORTED:' "$build/lit.log" || true)
echo "mlc: ${passed} passed, ${failed} failed, ${skipped} skipped"
exit "$status"
