#!/usr/bin/env bash
# Configures (once) and builds mlc. BUILD_DIR (default build/) and
# MLC_SANITIZE=ON (ASan+UBSan build) can be set in the environment.
# Extra arguments are ninja targets (default: everything).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
sanitize=${MLC_SANITIZE:-OFF}
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DMLC_SANITIZE="$sanitize" >/dev/null
fi
# Two parallel jobs: the machines have two cores, and MLIR TUs are large.
ninja -C "$build" -j "${JOBS:-2}" "$@"
