#!/usr/bin/env bash
# Compares -O0 (graph as imported, one loop nest per op) with -O2 (graph
# optimizations + fusion + static memory plan) on every bundled model, both
# measured in this run on this machine, and prints the speed-up ratio.
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

printf "%-12s %8s %12s %12s %8s\n" model kernels "O0 ms" "O2 ms" "O0/O2"
for m in "${models[@]}"; do
  dir=$root/models/$m
  inputs=()
  for f in "$dir"/inputs/*.npy; do
    inputs+=(-i "$(basename "$f" .npy)=$f")
  done
  "$bin/mlc-compile" -O0 "$dir/model.json" -o "$work/$m.O0.so"
  "$bin/mlc-compile" -O2 "$dir/model.json" -o "$work/$m.O2.so" \
    --report "$work/$m.json"
  kernels=$(sed -n 's/.*"kernels": *\([0-9]*\).*/\1/p' "$work/$m.json" | head -1)
  # Interleave the two builds so drift on the machine affects both alike.
  o0=$(median "$work/$m.O0.so" "${inputs[@]}" --bench "$runs")
  o2=$(median "$work/$m.O2.so" "${inputs[@]}" --bench "$runs")
  o0b=$(median "$work/$m.O0.so" "${inputs[@]}" --bench "$runs")
  o2b=$(median "$work/$m.O2.so" "${inputs[@]}" --bench "$runs")
  awk -v m="$m" -v k="${kernels:-?}" -v a="$o0" -v b="$o2" -v c="$o0b" \
      -v d="$o2b" 'BEGIN {
    o0 = (a < c) ? a : c; o2 = (b < d) ? b : d;
    printf "%-12s %8s %12.4f %12.4f %8.2f\n", m, k, o0, o2, o0 / o2 }'
done
