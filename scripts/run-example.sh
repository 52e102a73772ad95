#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs norm-opt on the
# example spec that uses every variant, printing it back parsed and verified.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" norm-opt
build="${BUILD_DIR:-$root/build}"
"$build/bin/norm-opt" "$root/test/Examples/all-variants.mlir"
