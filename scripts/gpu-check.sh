#!/bin/bash
# The GPU checks, in two steps, because the machine with a GPU has neither
# LLVM/MLIR 22 nor the ONNX test data, and the build machine has no GPU.
#
#   scripts/gpu-check.sh prepare [DIR]   on the build machine (after
#       scripts/build.sh): compiles test/e2e/cuda-gpu.test's models and every
#       expected-pass ONNX node test with --target=cuda, copies mlc-run and the
#       two libraries it needs, and compiles bench/cuda's resnet18_b32,
#       transformer_b8, sgemm_4096 and conv3x3_b32 (MLC_GPU_RESNET=0 leaves
#       ResNet-18 out: its model.so is 160 MB, about 28 MB compressed, as
#       its filters repeat; bench/perf/make_models.py says why).
#   scripts/gpu-check.sh run [DIR]       on the GPU machine: the checks of
#       cuda-gpu.test (models against PyTorch's outputs, concurrent runs, the
#       Python binding, device pointers), the node tests on the GPU,
#       bench/cuda/run.py measure, then compute-sanitizer (memcheck,
#       racecheck, synccheck, initcheck) on the models (MLC_GPU_QUICK=1: the
#       models and the benchmark only). Logs go to $OUT (or DIR/out);
#       the last lines are a summary. Exit status 1 if any check failed.
#
# DIR defaults to build/gpu-check. prepare leaves DIR/gpu-check.tar.xz, the
# one file to carry: about 34 MB (each model.so carries the same runtime,
# which a solid archive stores once; ResNet-18 is 28 MB of it). run unpacks it
# into DIR when DIR/node is missing.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
STEP=${1:-}
DIR=$(realpath -m "${2:-$ROOT/build/gpu-check}")
PY=/usr/bin/python3
E2E_MODELS="mlp lenet transformer tiny_ops"

prepare() {
  set -e
  local bin=$ROOT/build/bin
  mkdir -p "$DIR/bin" "$DIR/lib" "$DIR/e2e" "$DIR/bench"
  cp "$bin/mlc-run" "$DIR/bin/"
  for lib in libonnx_proto.so.1 libprotobuf.so.32; do
    cp -L "$(ldd "$bin/mlc-run" | awk -v l=$lib '$1 == l {print $3}')" \
      "$DIR/lib/"
  done
  for m in $E2E_MODELS; do
    "$bin/mlc-compile" "$ROOT/models/$m/model.json" --target=cuda \
      -o "$DIR/e2e/$m.so"
  done
  # Always from scratch: models left by an older compiler would be checked.
  rm -rf "$DIR/node" "$DIR/bench"
  mkdir -p "$DIR/bench"
  $PY "$ROOT/test/onnx/run_node_tests.py" --mlc-bin "$bin" --target cuda \
    --tests "$ROOT/test/onnx/expected_pass.txt" \
    --expected-pass "$ROOT/test/onnx/expected_pass.txt" \
    --compile-only "$DIR/node" -j "$(nproc)"
  local models=transformer_b8,sgemm_4096,conv3x3_b32
  [ "${MLC_GPU_RESNET:-1}" = 1 ] && models=resnet18_b32,$models
  $PY "$ROOT/bench/cuda/run.py" prepare --models $models --out "$DIR/bench.tmp"
  for m in ${models//,/ }; do
    cp "$DIR/bench.tmp/$m.so" "$DIR/bench.tmp/$m.json" "$DIR/bench/"
  done
  rm -rf "$DIR/bench.tmp"
  tar -C "$DIR" -cf - bin lib e2e node bench | xz -T0 -6 \
    >"$DIR/gpu-check.tar.xz"
  ls -l "$DIR/gpu-check.tar.xz"
}

FAILED=()
SUMMARY=()
# check NAME CMD...: runs CMD, logs it, records pass/fail.
check() {
  local name=$1
  shift
  echo "=== $name: $*" >>"$LOG"
  if "$@" >>"$LOG" 2>&1; then
    SUMMARY+=("PASS $name")
  else
    SUMMARY+=("FAIL $name (exit $?)")
    FAILED+=("$name")
  fi
}

# expect_matches N CMD...: CMD must print N lines "NAME: matches 'FILE' ...".
expect_matches() {
  local n=$1 out
  shift
  out=$("$@" 2>&1)
  local rc=$?
  echo "$out"
  [ $rc -eq 0 ] && [ "$(grep -c ': matches ' <<<"$out")" -eq "$n" ]
}

run() {
  out=${OUT:-$DIR/out}
  mkdir -p "$out"
  [ -d "$DIR/node" ] || tar -C "$DIR" -xJf "$DIR/gpu-check.tar.xz" || exit 1
  export LD_LIBRARY_PATH=$DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export PYTHONPATH=$ROOT/runtime/python PYTHONUNBUFFERED=1
  export PATH=$PATH:/usr/local/cuda/bin
  run=$DIR/bin/mlc-run e=$DIR/e2e M=$ROOT/models
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem \
    --format=csv | tee "$out/summary.txt"

  LOG=$out/e2e.log
  check e2e-mlp expect_matches 1 $run $e/mlp.so -i x=$M/mlp/inputs/x.npy \
    --expect logits=$M/mlp/expected/logits.npy --rtol 1e-3
  check e2e-info sh -c "$run $e/mlp.so --info | grep 'device: cuda'"
  check e2e-lenet expect_matches 1 $run $e/lenet.so \
    -i x=$M/lenet/inputs/x.npy --expect probs=$M/lenet/expected/probs.npy \
    --rtol 1e-3
  check e2e-transformer expect_matches 1 $run $e/transformer.so \
    -i x=$M/transformer/inputs/x.npy \
    --expect y=$M/transformer/expected/y.npy --rtol 1e-3
  check e2e-transformer-concurrent expect_matches 1 $run $e/transformer.so \
    -i x=$M/transformer/inputs/x.npy --concurrent 4 \
    --expect y=$M/transformer/expected/y.npy --rtol 1e-3
  tiny=(-i x=$M/tiny_ops/inputs/x.npy -i idx=$M/tiny_ops/inputs/idx.npy)
  for o in conv_bn elem red rmean rmax sel ci cf; do
    tiny+=(--expect $o=$M/tiny_ops/expected/$o.npy)
  done
  check e2e-tiny_ops expect_matches 8 $run $e/tiny_ops.so "${tiny[@]}" \
    --rtol 1e-3
  check e2e-python python3 $ROOT/test/e2e/check_model.py $e/lenet.so \
    $M/lenet 1e-3 1e-5
  check e2e-device-pointers python3 $ROOT/test/e2e/check_cuda_device_run.py \
    $e/mlp.so $M/mlp

  if [ "${MLC_GPU_QUICK:-0}" != 1 ]; then
  LOG=$out/node.log
  check node-tests timeout 240 python3 $ROOT/test/onnx/run_node_tests.py \
    --run-compiled $DIR/node --mlc-bin $DIR/bin -j "$(nproc)" --timeout 60 \
    --tests $ROOT/test/onnx/expected_pass.txt \
    --expected-pass $ROOT/test/onnx/expected_pass.txt \
    --report $out/node.json
  fi

  LOG=$out/bench.log
  local models
  models=$(cd $DIR/bench && ls *.so | sed 's/\.so$//' | sort | paste -sd,)
  check bench timeout 300 python3 $ROOT/bench/cuda/run.py measure \
    --kernels 12 --dir $DIR/bench --models "$models" --json $out/bench.json

  [ "${MLC_GPU_QUICK:-0}" = 1 ] || sanitize
  grep '^|' "$out/bench.log" | tee -a "$out/summary.txt"
  grep -s 'onnx-node-tests:' "$out/node.log" | tee -a "$out/summary.txt"
  printf '%s\n' "${SUMMARY[@]}" | tee -a "$out/summary.txt"
  [ ${#FAILED[@]} -eq 0 ]
}

# compute-sanitizer's four tools on the small models, two on the transformer.
sanitize() {
  LOG=$out/sanitizer.log
  local cs="timeout 60 compute-sanitizer --error-exitcode 9"
  for tool in memcheck racecheck synccheck initcheck; do
    check sanitizer-$tool-mlp $cs --tool $tool $run $e/mlp.so \
      -i x=$M/mlp/inputs/x.npy
    check sanitizer-$tool-lenet $cs --tool $tool $run $e/lenet.so \
      -i x=$M/lenet/inputs/x.npy
    check sanitizer-$tool-tiny_ops $cs --tool $tool $run $e/tiny_ops.so \
      "${tiny[@]}" --rtol 1e-3
  done
  check sanitizer-memcheck-transformer $cs --tool memcheck $run \
    $e/transformer.so -i x=$M/transformer/inputs/x.npy
  check sanitizer-racecheck-transformer $cs --tool racecheck $run \
    $e/transformer.so -i x=$M/transformer/inputs/x.npy
}

case "$STEP" in
prepare) prepare ;;
run) run ;;
*)
  echo "usage: $0 prepare|run [DIR]" >&2
  exit 2
  ;;
esac
