#!/usr/bin/env bash
# Runs every norm-mlir test: installs what is missing, builds, runs the lit
# suite (check-norm).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build="${BUILD_DIR:-$root/build}"
# -sv: a line per failure with its output, and the closing counts.
/usr/lib/llvm-22/bin/lit -sv "$build/test"
