#!/usr/bin/env bash
# Installs what norm-mlir needs on Debian 12, only what is missing: quick when
# everything is already there. Safe to run again.
set -euo pipefail

# libclang-rt-22-dev: the sanitizer and libFuzzer runtimes of the
# sanitizer build (scripts/test.sh --sanitize).
APT_PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
  libomp-22-dev libclang-rt-22-dev cmake ninja-build
)
# ml_dtypes: numpy's bf16 for the Python package; setuptools and wheel: its
# `pip install ./python` (tested without build isolation, so offline).
PIP_PACKAGES=(numpy pytest ml_dtypes setuptools wheel)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi

PYTHON="${PYTHON:-python3}"
pip_missing=()
for mod in "${PIP_PACKAGES[@]}"; do
  "$PYTHON" -c "import $mod" 2>/dev/null || pip_missing+=("$mod")
done
if [ ${#pip_missing[@]} -gt 0 ]; then
  echo "setup: pip installing ${pip_missing[*]}"
  "$PYTHON" -m pip install -q "${pip_missing[@]}"
fi
