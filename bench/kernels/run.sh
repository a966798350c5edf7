#!/usr/bin/env bash
# Times mlc's non-contraction kernels: each model of make_models.py compiled
# with scalar kernels (--vector-bits=0), the default vector kernels, and the
# two opt-in speed options, interleaved ROUNDS times (default 3); prints the
# best median of `mlc-run --bench RUNS --warmup 5` per variant.
# Usage: bench/kernels/run.sh [--bin DIR] [--out DIR] [--runs N] [--rounds N] [MODEL...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BIN_DIR:-$root/build/bin}
out=$root/build/bench-kernels
runs=30
rounds=3
models=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) models+=("$1"); shift ;;
  esac
done
[[ ${#models[@]} -gt 0 ]] || models=(transformer transformer_nomm rowwise pooling)
[[ -f $out/transformer_nomm/model.json ]] || /usr/bin/python3 "$root/bench/kernels/make_models.py" "$out"

names=(scalar inorder vector)
flags=("--vector-bits=0" "--reassociate-fp-reductions=false" "")
for m in "${models[@]}"; do
  for i in "${!names[@]}"; do
    # shellcheck disable=SC2086
    "$bin/mlc-compile" "$out/$m/model.json" ${flags[$i]} -o "$out/$m.${names[$i]}.so"
  done
done

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-12s' model; printf '%12s' "${names[@]}"; echo "   (median ms, best of $rounds rounds)"
for m in "${models[@]}"; do
  declare -A best=()
  for ((r = 0; r < rounds; r++)); do
    for n in "${names[@]}"; do
      t=$("$bin/mlc-run" "$out/$m.$n.so" --bench "$runs" --warmup 5 |
          sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')
      if [[ -z ${best[$n]:-} ]] || awk "BEGIN{exit !($t < ${best[$n]})}"; then
        best[$n]=$t
      fi
    done
  done
  printf '%-12s' "$m"
  for n in "${names[@]}"; do printf '%12.3f' "${best[$n]}"; done
  echo
  unset best
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
