#!/usr/bin/env bash
# Configures (once) and builds norm-mlir in ${BUILD_DIR:-build};
# NORM_CMAKE_ARGS adds configure options (the sanitizer build's).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
LLVM=/usr/lib/llvm-22

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$LLVM/bin/clang" \
    -DCMAKE_CXX_COMPILER="$LLVM/bin/clang++" \
    -DMLIR_DIR="$LLVM/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM/bin/lit" \
    -DPython3_EXECUTABLE="$(command -v "${PYTHON:-python3}")" \
    ${NORM_CMAKE_ARGS:-}
fi
ninja -C "$build" "$@"
