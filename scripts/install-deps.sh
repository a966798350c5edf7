#!/usr/bin/env bash
# Installs (with apt) whatever mlc needs to build and test that is missing.
# Debian 12. Run as root or with sudo available.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache file
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  nlohmann-json3-dev catch2
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  python3 python3-numpy
)
# PyTorch is only needed to regenerate the bundled models' references
# (models/gen_models.py), and with torchvision and onnx for the ONNX tests
# (test/onnx: exported models, malformed corpus): `scripts/install-deps.sh --dev`.
if [[ "${1:-}" == "--dev" ]]; then
  packages+=(python3-torch python3-sklearn python3-onnx python3-torchvision)
fi

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
