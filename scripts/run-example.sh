#!/usr/bin/env bash
# The main job: installs what is missing, builds, checks that the spec with
# every variant parses and verifies, then compiles the example LayerNorm
# spec and runs it through norm-runner on generated data: the table of
# checks against the fp64 reference, the max error and the time per call.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" norm-opt norm-runner
build="${BUILD_DIR:-$root/build}"
"$build/bin/norm-opt" "$root/test/Examples/all-variants.mlir" >/dev/null
echo "all-variants.mlir: parsed and verified"
"$build/bin/norm-runner" "$root/test/Examples/layer-norm.mlir" --check \
  --shape 64x768 "$@"
