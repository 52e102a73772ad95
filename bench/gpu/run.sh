#!/usr/bin/env bash
# On the GPU machine, from a bundle made by scripts/gpu-bundle.sh:
#
#   bash run.sh
#
# 1. ./norm-gpu-bundle --check  (results/check.json, check.txt)
# 2. ./norm-gpu-bundle --bench  (results/bench.json, bench.txt)
# 3. torch_peers.py: torch.nn.functional on the same shapes, dtypes and GPU
#    (results/summary.json, summary.md, torch.txt)
# then prints summary.md and the wall time. Every step runs even when an
# earlier one failed; the exit status is nonzero if any failed or timed out
# (the check fails when any kernel's correctness check did). The whole run
# stays under 5 minutes. Environment: PYTHON (default python3).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")" || exit 1
# A stale bench.json would let the torch step measure a previous run's rows.
rm -rf results
mkdir -p results

TOTAL_S=285  # each step's limit is also cut to what is left of this
python=${PYTHON:-python3}
# Line-buffered stdout, so a step killed by its timeout still leaves its log.
unbuffer="env"
command -v stdbuf >/dev/null && unbuffer="stdbuf -oL -eL"
failed=0
: >results/status.txt

note() { echo "$1" | tee -a results/status.txt; }

left() { echo $((TOTAL_S - SECONDS)); }

# step NAME LIMIT_S LOG CMD...: CMD under timeout, its output teed to results/LOG.
step() {
  local name=$1 limit=$2 log=$3 rc
  shift 3
  ((limit > $(left))) && limit=$(left)
  if ((limit <= 0)); then
    note "=== $name: SKIPPED, no time left of the ${TOTAL_S}s"
    failed=1
    return
  fi
  echo "=== $name (timeout ${limit}s): $*"
  # shellcheck disable=SC2086  # $unbuffer is a command and its options
  timeout -k 5 "$limit" $unbuffer "$@" 2>&1 | tee "results/$log"
  rc=${PIPESTATUS[0]}
  case $rc in
    0) note "=== $name: ok" ;;
    124 | 137) note "=== $name: TIMED OUT after ${limit}s (results/$log has its output so far)"; failed=1 ;;
    *) note "=== $name: FAILED, exit $rc (results/$log)"; failed=1 ;;
  esac
}

# Which GPU, driver and clocks: context for the numbers, never a failure.
timeout 15 nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
  --format=csv 2>&1 | tee results/nvidia-smi.txt

step check 150 check.txt ./norm-gpu-bundle --check --json results/check.json
step bench 90 bench.txt ./norm-gpu-bundle --bench --json results/bench.json
# torch_peers.py stops starting rows 15 s before its timeout, so that it
# still writes the summary (the rest marked skipped).
torch_limit=$((90 < $(left) ? 90 : $(left)))
step torch "$torch_limit" torch.txt "$python" -u torch_peers.py --bench results/bench.json \
  --out results --device cuda --budget-s $((torch_limit > 15 ? torch_limit - 15 : 0))

echo
if [ -f results/summary.md ]; then cat results/summary.md; else echo "(no results/summary.md)"; fi
echo
cat results/status.txt
echo "total wall time: ${SECONDS}s"
echo "total wall time: ${SECONDS}s" >>results/status.txt
exit $failed
