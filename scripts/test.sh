#!/usr/bin/env bash
# Runs every norm-mlir test: installs what is missing, configures and builds,
# then runs the lit suite through the check-norm target (which builds every
# test dependency, the generated docs included, first).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" check-norm
