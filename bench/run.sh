#!/usr/bin/env bash
# norm-mlir vs oneDNN vs PyTorch on the CPU, in one run:
#
#   bench/run.sh [--quick] [--out DIR] [--threads "1 2"] [--build] [--baseline REV]
#                [bench.py options]
#
# Installs what is missing (apt: libdnnl-dev; pip, in a virtual environment:
# torch, matplotlib, numpy), builds the oneDNN driver, then runs
# bench/bench.py, which writes DIR/results.md, results.json and gbps_vs_n.png
# (default DIR: bench/out). Quick when everything is already there.
#
#   --build   run scripts/build.sh norm-runner first (default: only when
#             build/bin/norm-runner is missing)
#   --baseline REV
#             also run REV's norm-runner (any git revision) beside the
#             current one, on the same specs and shapes in the same rounds:
#             a "vs baseline" column (current GB/s / baseline GB/s, > 1: the
#             current revision is faster). REV is checked out with `git
#             worktree add --detach` in BENCH_TOOLS/baseline/SHA/src and built
#             in BENCH_TOOLS/baseline/SHA/build once (a full build: tens of
#             minutes on 2 cores), then reused.
# Environment: BENCH_TOOLS (venv, driver, baselines; default bench/out/tools),
# BENCH_TORCH_SPEC (default torch==2.15.0), BENCH_TORCH_FULL=1 (install torch
# with all its CUDA dependencies instead of trying the slim set first),
# PYTHON (the interpreter the venv is made from, default python3).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

out="$root/bench/out"
threads="1 2"
quick=()
build=0
baseline=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick); shift ;;
    --out) out="$2"; shift 2 ;;
    --out=*) out="${1#--out=}"; shift ;;
    --threads) threads="$2"; shift 2 ;;
    --threads=*) threads="${1#--threads=}"; shift ;;
    --build) build=1; shift ;;
    --baseline|--baseline=*)
      if [ "$1" = --baseline ]; then baseline="${2:-}"; shift $(($# >= 2 ? 2 : 1))
      else baseline="${1#--baseline=}"; shift; fi
      [ -n "$baseline" ] || { echo "run.sh: error: --baseline needs a revision" >&2; exit 2; }
      ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) extra+=("$1"); shift ;;
  esac
done

# The baseline revision is resolved before anything is installed or built,
# so that a typo fails at once.
baseline_sha=""
if [ -n "$baseline" ]; then
  if ! baseline_sha="$(git -C "$root" rev-parse --verify --quiet --end-of-options \
      "$baseline^{commit}")"; then
    echo "run.sh: error: --baseline '$baseline' is not a git revision of $root" >&2
    exit 2
  fi
fi

tools="${BENCH_TOOLS:-$root/bench/out/tools}"
venv="$tools/venv"
torch_spec="${BENCH_TORCH_SPEC:-torch==2.15.0}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
mkdir -p "$tools" "$out"

say() { echo "[run.sh $(date +%H:%M:%S)] $*"; }
timed() { # timed LABEL CMD...: runs CMD and says how long it took
  local label="$1" t0=$SECONDS
  shift
  "$@"
  say "$label: $((SECONDS - t0)) s"
}

# --- norm-runner --------------------------------------------------------
runner="${BUILD_DIR:-$root/build}/bin/norm-runner"
if [ "$build" = 1 ] || [ ! -x "$runner" ]; then
  say "building norm-runner"
  [ -x "$runner" ] || "$root/scripts/setup.sh"
  timed "build norm-runner" "$root/scripts/build.sh" norm-runner
fi

# --- the baseline's norm-runner ------------------------------------------
# One worktree and build directory per commit: pinned to a sha, so a built
# runner there is never stale and is reused as it is.
baseline_args=()
if [ -n "$baseline_sha" ]; then
  bl_dir="$tools/baseline/$baseline_sha"
  bl_src="$bl_dir/src"
  bl_build="$bl_dir/build"
  bl_runner="$bl_build/bin/norm-runner"
  short="$(git -C "$root" rev-parse --short "$baseline_sha")"
  if [ -e "$bl_src" ]; then
    # Its own checkout, not a plain directory inside this one (where git
    # would find this repository's HEAD).
    have=""
    if [ "$(git -C "$bl_src" rev-parse --show-toplevel 2>/dev/null || true)" = \
        "$(cd "$bl_src" && pwd -P)" ]; then
      have="$(git -C "$bl_src" rev-parse --verify --quiet HEAD || true)"
    fi
    if [ "$have" != "$baseline_sha" ]; then
      say "error: $bl_src exists but is not a checkout of $baseline_sha (HEAD: ${have:-none});" \
        "remove it (git worktree remove --force $bl_src) and run again"
      exit 1
    fi
    say "baseline $baseline ($short): worktree $bl_src"
  else
    say "baseline $baseline ($short): git worktree add --detach $bl_src"
    mkdir -p "$bl_dir"
    # --force: the path may still be registered from a worktree whose files
    # were deleted (rm -rf bench/out); it does not exist, so nothing is lost.
    git -C "$root" worktree add --force --detach "$bl_src" "$baseline_sha"
  fi
  if [ -x "$bl_runner" ]; then
    say "baseline $short: reusing $bl_runner"
  else
    if [ ! -x "$bl_src/scripts/build.sh" ]; then
      say "error: $short has no scripts/build.sh: cannot build its norm-runner"
      exit 1
    fi
    build_baseline() {
      if ! BUILD_DIR="$bl_build" "$bl_src/scripts/build.sh" norm-runner; then
        say "error: building the baseline's norm-runner ($short) failed (build dir $bl_build)"
        return 1
      fi
      [ -x "$bl_runner" ] || { say "error: the build made no $bl_runner"; return 1; }
    }
    say "building the baseline's norm-runner ($short) in $bl_build"
    timed "build baseline norm-runner ($short)" build_baseline
  fi
  baseline_args=(--baseline-runner "$bl_runner" --baseline-rev "$baseline"
    --baseline-sha "$baseline_sha")
fi

# --- oneDNN (Debian 12: 2.6.3) ------------------------------------------
if [ ! -f /usr/include/oneapi/dnnl/dnnl.hpp ]; then
  say "installing libdnnl-dev (apt)"
  install_dnnl() {
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q libdnnl-dev
  }
  timed "apt-get install libdnnl-dev" install_dnnl
fi

driver="$tools/onednn_bench"
src="$root/bench/onednn_bench.cpp"
if [ ! -x "$driver" ] || [ "$src" -nt "$driver" ]; then
  cxx="${CXX:-g++}"
  command -v "$cxx" >/dev/null || cxx=clang++-22
  say "building $driver with $cxx"
  # g++'s -fopenmp is libgomp, the OpenMP runtime Debian's oneDNN uses.
  timed "build onednn_bench" "$cxx" -O2 -std=c++17 -fopenmp -Wall -Wextra \
    "$src" -o "$driver" -ldnnl
fi

# --- Python: a venv with torch, matplotlib, numpy ------------------------
if [ ! -x "$venv/bin/python" ]; then
  say "creating $venv"
  "${PYTHON:-python3}" -m venv --system-site-packages "$venv"
fi
py="$venv/bin/python"
pip=("$py" -m pip install -q --disable-pip-version-check)

torch_works() {
  "$py" - <<'EOF' >/dev/null 2>&1
import torch
x = torch.randn(4, 16)
torch.nn.functional.layer_norm(x, (16,))
EOF
}

# torch_reqs nodeps|deps: the few CUDA wheels of torch's requirements that
# the slim set adds (nodeps: nvidia-* wheels; deps: cuda-toolkit with only
# the wanted extras).
torch_reqs() {
  "$py" - "$1" <<'EOF'
import sys
from importlib.metadata import requires
from packaging.requirements import Requirement
want = ("cufile", "cusparselt", "nvshmem", "nccl")
for text in requires("torch") or []:
    r = Requirement(text)
    if r.marker is not None and not r.marker.evaluate({"extra": ""}):
        continue
    if sys.argv[1] == "nodeps" and r.name.startswith("nvidia-") \
            and any(w in r.name for w in want):
        print(f"{r.name}{r.specifier}")
    if sys.argv[1] == "deps" and r.name == "cuda-toolkit":
        extras = sorted(e for e in r.extras if e in want)
        if extras:
            print(f"{r.name}[{','.join(extras)}]{r.specifier}")
EOF
}

# The PyPI torch wheel for Linux is CUDA-enabled: with all its dependencies
# it is about 2.8 GB of downloads (nvidia-* and triton wheels). For the CPU,
# try the slim set first: torch itself with --no-deps, its pure-Python
# dependencies, and only the nvidia-* wheels that the machine's own CUDA
# toolkit (if any) does not provide; fall back to the full install.
install_torch() {
  if [ "${BENCH_TORCH_FULL:-0}" != 1 ]; then
    say "pip: $torch_spec --no-deps (slim set; pip's warnings about torch's missing CUDA wheels are expected)"
    "${pip[@]}" --no-deps "$torch_spec"
    local deps
    deps="$("$py" - <<'EOF'
from importlib.metadata import requires
from packaging.requirements import Requirement
out = []
for text in requires("torch") or []:
    r = Requirement(text)
    if r.marker is not None and not r.marker.evaluate({"extra": ""}):
        continue
    if r.name.startswith(("nvidia-", "cuda-", "triton")):
        continue
    out.append(str(r))
print("\n".join(out))
EOF
)"
    # shellcheck disable=SC2086
    [ -z "$deps" ] || "${pip[@]}" $deps
    torch_works && return 0
    # What the system's CUDA toolkit lacks, or has too old, for torch: on
    # the CUDA 13.0 of this project's machines, cuFile, cuSPARSELt, NVSHMEM
    # and NCCL (about 0.5 GB). cuFile comes as an extra of cuda-toolkit.
    local nv_nodeps nv_deps
    nv_nodeps="$(torch_reqs nodeps)"
    nv_deps="$(torch_reqs deps)"
    if ls /usr/local/cuda*/lib*/libcudart.so.* >/dev/null 2>&1 &&
        [ -n "$nv_nodeps$nv_deps" ]; then
      say "pip: on top of the system CUDA: $(echo $nv_nodeps $nv_deps)"
      # shellcheck disable=SC2086
      [ -z "$nv_nodeps" ] || "${pip[@]}" --no-deps $nv_nodeps
      # shellcheck disable=SC2086
      [ -z "$nv_deps" ] || "${pip[@]}" $nv_deps
      torch_works && return 0
    fi
    say "the slim torch set does not import here: installing all of its dependencies"
  fi
  "${pip[@]}" "$torch_spec"
  torch_works || { say "error: torch still does not import"; return 1; }
}

if ! "$py" -c "import numpy" 2>/dev/null; then
  timed "pip install numpy" "${pip[@]}" numpy
fi
if ! "$py" -c "import matplotlib" 2>/dev/null; then
  timed "pip install matplotlib" "${pip[@]}" matplotlib
fi
if ! torch_works; then
  "$py" -c "import packaging" 2>/dev/null || "${pip[@]}" packaging
  timed "pip install torch" install_torch
  du -sh "$venv" 2>/dev/null | sed 's/^/[run.sh] venv size: /'
fi

# --- the run --------------------------------------------------------------
say "bench.py: threads \"$threads\" ${quick[*]}${baseline:+ baseline $baseline} -> $out"
exec "$py" "$root/bench/bench.py" --out "$out" --runner "$runner" \
  --onednn "$driver" --python "$py" --threads "$threads" \
  ${quick[@]+"${quick[@]}"} ${baseline_args[@]+"${baseline_args[@]}"} \
  ${extra[@]+"${extra[@]}"}
