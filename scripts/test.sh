#!/usr/bin/env bash
# Runs every norm-mlir test: installs what is missing, configures and builds,
# runs the lit suite through the check-norm target (which builds every test
# dependency, the generated docs included, first), then the sanitizer suite
# and the fuzzers (scripts/sanitize.sh, a second build with ASan and UBSan).
#   scripts/test.sh              everything (what CI runs)
#   scripts/test.sh --quick      check-norm only
#   scripts/test.sh --sanitize   the sanitizer suite and the fuzzers only
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:-all}"
case "$mode" in
all | --quick | --sanitize) ;;
*)
  echo "usage: scripts/test.sh [--quick | --sanitize]" >&2
  exit 2
  ;;
esac
if [ "$mode" != --sanitize ]; then
  "$root/scripts/setup.sh"
  "$root/scripts/build.sh" check-norm
fi
if [ "$mode" != --quick ]; then
  "$root/scripts/sanitize.sh"
fi
