#!/usr/bin/env bash
# Installs (with apt) whatever mlc needs to build and test that is missing.
# Debian 12. Run as root or with sudo available.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache file
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  nlohmann-json3-dev catch2
  libonnx-dev libprotobuf-dev
  python3 python3-numpy
)
# The test suite also needs ONNX's node tests, the onnx Python package (to
# build the malformed-model corpus) and PyTorch with torchvision (ONNX
# models exported by PyTorch, ResNet-18 among them): `--test`, which
# scripts/test.sh passes; it also trains on the digits dataset that
# python3-sklearn ships. `--train` (scripts/train.sh) adds only that
# dataset. `--dev` adds what regenerating the bundled models' references
# (models/gen_models.py) and the training data needs. `--bench`
# (bench/perf/run.py) adds the peers and tools of the performance benchmark:
# PyTorch, OpenBLAS (numpy's BLAS once installed), matplotlib for the chart,
# GNU time for the compiler's memory, and Node.js with npm unless a `node` is
# already on PATH (ONNX Runtime itself comes from npm: see bench/README.md).
case "${1:-}" in
  --test) packages+=(libonnx-testdata python3-onnx python3-torch pkg-config
                     python3-torchvision python3-sklearn) ;;
  --train) packages+=(python3-sklearn) ;;
  --dev) packages+=(libonnx-testdata python3-onnx python3-torch
                    python3-torchvision python3-sklearn) ;;
  --bench) packages+=(python3-onnx python3-torch python3-torchvision
                      libopenblas0-pthread python3-matplotlib time)
           command -v node >/dev/null && command -v npm >/dev/null \
             || packages+=(nodejs npm) ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "mlc: all build dependencies are installed"
  exit 0
fi
echo "mlc: installing ${missing[*]}"
SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
