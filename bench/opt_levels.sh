#!/usr/bin/env bash
# Compares, on every bundled model, all measured in this run on this machine:
#   O0  -O0: graph as imported (one loop nest per op), LLVM unoptimized
#   G0  -O2 --graph-opt=0: graph as imported, LLVM optimized
#   O2  -O2: graph optimizations, fusion and static memory plan, LLVM -O2
# and prints O0/O2 (everything) and G0/O2 (what the graph level buys).
#
# usage: bench/opt_levels.sh [RUNS] [MODEL...]   (default 200 runs, all models)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN_DIR:-$root/build/bin}
runs=${1:-200}
shift || true
models=("$@")
[[ ${#models[@]} -eq 0 ]] && models=(mlp lenet transformer tiny_ops)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { # prints median_ms of `mlc-run --bench`
  "$bin/mlc-run" "$@" | sed -n 's/^median_ms=\([0-9.e+-]*\) .*/\1/p'
}

printf "%-12s %8s %10s %10s %10s %8s %8s\n" model kernels "O0 ms" "G0 ms" \
  "O2 ms" "O0/O2" "G0/O2"
for m in "${models[@]}"; do
  dir=$root/models/$m
  inputs=()
  for f in "$dir"/inputs/*.npy; do
    inputs+=(-i "$(basename "$f" .npy)=$f")
  done
  "$bin/mlc-compile" -O0 "$dir/model.json" -o "$work/$m.O0.so"
  "$bin/mlc-compile" -O2 --graph-opt=0 "$dir/model.json" -o "$work/$m.G0.so"
  "$bin/mlc-compile" -O2 "$dir/model.json" -o "$work/$m.O2.so" \
    --report "$work/$m.json"
  kernels=$(sed -n 's/.*"kernels": *\([0-9]*\).*/\1/p' "$work/$m.json" | head -1)
  # Interleave the builds, twice, so drift on the machine affects all alike;
  # keep the better median of each.
  t=()
  for round in 1 2; do
    for b in O0 G0 O2; do
      t+=("$(median "$work/$m.$b.so" "${inputs[@]}" --bench "$runs")")
    done
  done
  awk -v m="$m" -v k="${kernels:-?}" -v a="${t[0]}" -v g="${t[1]}" \
      -v b="${t[2]}" -v c="${t[3]}" -v h="${t[4]}" -v d="${t[5]}" 'BEGIN {
    o0 = (a < c) ? a : c; g0 = (g < h) ? g : h; o2 = (b < d) ? b : d;
    printf "%-12s %8s %10.4f %10.4f %10.4f %8.2f %8.2f\n", m, k, o0, g0, o2,
           o0 / o2, g0 / o2 }'
done
