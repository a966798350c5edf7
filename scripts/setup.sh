#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a running model: installs
# what is missing, builds mlc, compiles the bundled default model (the MLP)
# to a shared library and runs it, printing its outputs and timing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
scripts/build.sh mlc-opt mlc-compile mlc-run mlc_runtime
model=${1:-mlp}
out=build/models/$model.so
mkdir -p build/models
echo "mlc: compiling models/$model/model.json -> $out"
build/bin/mlc-compile "models/$model/model.json" -o "$out"
inputs=()
for f in "models/$model"/inputs/*.npy; do
  inputs+=(-i "$(basename "$f" .npy)=$f")
done
expect=()
for f in "models/$model"/expected/*.npy; do
  expect+=(--expect "$(basename "$f" .npy)=$f")
done
build/bin/mlc-run "$out" "${inputs[@]}" --print
build/bin/mlc-run "$out" "${inputs[@]}" "${expect[@]}"
build/bin/mlc-run "$out" "${inputs[@]}" --bench 100
