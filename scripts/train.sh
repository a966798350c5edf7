#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a trained model: installs
# what is missing (python3-sklearn ships the 8x8 digits), builds mlc,
# prepares the digits split, compiles the training step of
# models/digits_<model> (mlp, the default, or cnn) into a trainable model.so
# and trains it with mlc-run, printing the loss per epoch and the test
# accuracy, and saving the trained weights as safetensors.
#   scripts/train.sh [mlp|cnn] [extra mlc-run options, e.g. --epochs 10]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
model=${1:-mlp}
shift || true
case "$model" in
  mlp) x=X_train.npy xt=X_test.npy ;;
  cnn) x=X_train_img.npy xt=X_test_img.npy ;;
  *) echo "usage: scripts/train.sh [mlp|cnn] [mlc-run options]" >&2; exit 2 ;;
esac
scripts/install-deps.sh --train
scripts/build.sh mlc-compile mlc-run mlc_runtime
data=build/digits
/usr/bin/python3 models/digits/prepare_data.py --out "$data"
out=build/models/digits_$model.so
mkdir -p build/models
echo "mlc: compiling the training step of models/digits_$model -> $out"
build/bin/mlc-compile --train "models/digits_$model/model.json" -o "$out"
build/bin/mlc-run "$out" --train "$data/$x" "$data/y_train.npy" \
  --epochs 30 --batch 32 --eval "$data/$xt" "$data/y_test.npy" \
  --save-weights "build/models/digits_$model.safetensors" "$@"
