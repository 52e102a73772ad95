#!/usr/bin/env python3
"""Benchmarks norm-mlir kernels against oneDNN and PyTorch (CPU).

Usually started by bench/run.sh, which installs the peers and builds the
oneDNN driver first. For every kernel, shape, dtype and thread count:

  norm-mlir  build/bin/norm-runner SPEC --entry E --bench --shape S --json F
             (1 thread: serial code; more: --openmp with OMP_NUM_THREADS)
  oneDNN     bench/onednn_bench KERNEL SHAPE DTYPE --seconds S
             (OMP_NUM_THREADS)
  PyTorch    torch.nn.functional.* under torch.inference_mode(), in a worker
             subprocess per thread count (torch.set_num_threads)
  baseline   with --baseline-runner: another revision's norm-runner, run
             exactly as norm-mlir's (bench/run.sh --baseline REV builds it)

--runner-args / --baseline-args add norm-runner options to one side: e.g.
--baseline-runner build/bin/norm-runner --runner-args=--vector-kernels=0
compares the linalg strategy (norm-mlir) with the vector kernels (baseline)
of one build.

Every GB/s uses norm-runner's byte count for that kernel, shape and dtype,
so the ratios are time ratios. Writes OUT/results.md, OUT/results.json and
OUT/gbps_vs_n.png.
"""

import argparse
import datetime
import gc
import json
import math
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

MiB = 1 << 20
ELEM_BYTES = {"f32": 4, "bf16": 2}

# family -> spec file, entry prefix, title
FAMILIES = {
    "layer_norm": ("layer_norm.mlir", "LayerNorm"),
    "rms_norm": ("rms_norm.mlir", "RMSNorm"),
    "batch_norm_inference": ("batch_norm_inference.mlir", "BatchNorm inference"),
    "batch_norm_training": ("batch_norm_training.mlir", "BatchNorm training"),
    "batch_norm_nc_inference": ("batch_norm_nc_inference.mlir", "BatchNorm inference [N, C]"),
    "batch_norm_nc_training": ("batch_norm_nc_training.mlir", "BatchNorm training [N, C]"),
    "batch_norm_nhwc_inference": ("batch_norm_nhwc_inference.mlir", "BatchNorm inference NHWC"),
    "batch_norm_nhwc_training": ("batch_norm_nhwc_training.mlir", "BatchNorm training NHWC"),
    "group_norm": ("group_norm.mlir", "GroupNorm (G=32)"),
    "instance_norm": ("instance_norm.mlir", "InstanceNorm"),
}
ROWWISE = ("layer_norm", "rms_norm")
# BatchNorm over a 2-D [N, C] tensor and over NHWC: the channels are the
# last dim (shape[-1]), not shape[1] as in the NCHW kernels.
BN_NC = ("batch_norm_nc_inference", "batch_norm_nc_training")
BN_NHWC = ("batch_norm_nhwc_inference", "batch_norm_nhwc_training")
CHANNELS_LAST = BN_NC + BN_NHWC
NC_AS_NHWC = "NxCx1x1-nhwc"
# The BatchNorm kernel (oneDNN driver name, PyTorch mode) of each family.
BN_KIND = {
    "batch_norm_inference": "batch_norm_inference",
    "batch_norm_training": "batch_norm_training",
    "batch_norm_nc_inference": "batch_norm_inference",
    "batch_norm_nc_training": "batch_norm_training",
    "batch_norm_nhwc_inference": "batch_norm_inference",
    "batch_norm_nhwc_training": "batch_norm_training",
}
GROUPS = 32  # the GroupNorm spec's groups

# The issue's sweep. NCHW_SHAPES: every kernel that is not LayerNorm/RMSNorm,
# in the spec's dim order (N x C for the [N, C] BatchNorm, N x H x W x C for
# NHWC).
ROW_NS = [128, 768, 1024, 4096, 8192, 16384]
CACHE_ELEMENTS = 256 * 1024  # M*N of a cache-resident LayerNorm/RMSNorm
DRAM_TENSOR_BYTES = 256 * MiB  # M*N*elem of a DRAM-resident one
NCHW_SHAPES = {
    "batch_norm_inference": [(32, 64, 56, 56), (50, 256, 56, 56)],
    "batch_norm_training": [(32, 64, 56, 56), (50, 256, 56, 56)],
    "batch_norm_nc_inference": [(65536, 1024)],
    "batch_norm_nc_training": [(65536, 1024)],
    "batch_norm_nhwc_inference": [(32, 56, 56, 64)],
    "batch_norm_nhwc_training": [(32, 56, 56, 64)],
    "group_norm": [(2, 320, 64, 64), (1, 512, 96, 96)],
    "instance_norm": [(16, 64, 128, 128)],
}

# --quick: a few small shapes; its "dram" rows are scaled down to this.
QUICK_ROW_NS = [768, 4096]
QUICK_DRAM_TENSOR_BYTES = 8 * MiB
QUICK_NCHW_SHAPES = {
    "batch_norm_inference": [(8, 64, 28, 28)],
    "batch_norm_training": [(8, 64, 28, 28)],
    "batch_norm_nc_inference": [(4096, 256)],
    "batch_norm_nc_training": [(4096, 256)],
    "batch_norm_nhwc_inference": [(8, 28, 28, 64)],
    "batch_norm_nhwc_training": [(8, 28, 28, 64)],
    "group_norm": [(1, 320, 32, 32)],
    "instance_norm": [(4, 64, 32, 32)],
}

# Regimes by the size of one data tensor (x): the LLC here is 32 MiB.
CACHE_MAX_BYTES = 4 * MiB
DRAM_MIN_BYTES = 64 * MiB


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def shape_str(shape):
    return "x".join(str(d) for d in shape)


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def regime_of(shape, dtype, quick):
    x_bytes = numel(shape) * ELEM_BYTES[dtype]
    if quick and x_bytes >= QUICK_DRAM_TENSOR_BYTES:
        return "dram"
    if x_bytes <= CACHE_MAX_BYTES:
        return "cache"
    if x_bytes >= DRAM_MIN_BYTES:
        return "dram"
    return "mid"


def estimate_bytes(family, shape, dtype):
    """Fallback byte model (all inputs and outputs, as norm-runner counts
    them), used only when norm-runner gave no byte count for a row."""
    e = ELEM_BYTES[dtype]
    x = numel(shape) * e
    if family == "layer_norm":
        return 2 * x + 2 * shape[1] * e
    if family == "rms_norm":
        return 2 * x + shape[1] * e
    c = shape[-1] if family in CHANNELS_LAST else shape[1]
    kind = BN_KIND.get(family)
    if kind == "batch_norm_inference":
        return 2 * x + 2 * c * e + 2 * c * 4
    if kind == "batch_norm_training":
        return 2 * x + 2 * c * e + 6 * c * 4
    if family == "group_norm":
        return 2 * x + 2 * c * e
    if family == "instance_norm":
        return 2 * x + 2 * c * e + 2 * shape[0] * c * 4
    raise ValueError(family)


def make_cases(args):
    cases = []

    def add(family, dtype, shape):
        cases.append({
            "id": len(cases),
            "family": family,
            "dtype": dtype,
            "shape": list(shape),
            "shape_str": shape_str(shape),
            "regime": regime_of(shape, dtype, args.quick),
            "n": shape[-1] if family in ROWWISE else None,
        })

    for family in FAMILIES:
        if args.kernels and family not in args.kernels:
            continue
        if family in ROWWISE:
            for dtype in ("f32", "bf16"):
                if args.dtypes and dtype not in args.dtypes:
                    continue
                ns = QUICK_ROW_NS if args.quick else ROW_NS
                dram = QUICK_DRAM_TENSOR_BYTES if args.quick else DRAM_TENSOR_BYTES
                for n in ns:
                    add(family, dtype, (max(1, CACHE_ELEMENTS // n), n))
                    if args.quick and n != ns[-1]:
                        continue  # quick: one scaled-down "dram" row
                    if not args.no_dram:
                        m = -(-dram // (n * ELEM_BYTES[dtype]))
                        add(family, dtype, (m, n))
        else:
            if args.dtypes and "f32" not in args.dtypes:
                continue
            shapes = (QUICK_NCHW_SHAPES if args.quick else NCHW_SHAPES)[family]
            for shape in shapes:
                if family == "group_norm" and shape[1] % GROUPS:
                    raise SystemExit(f"group_norm: C={shape[1]} not divisible by {GROUPS}")
                add(family, "f32", shape)
    return cases


def seconds_for(case, args):
    if case["regime"] == "dram":
        return args.dram_seconds
    return args.seconds


# ---------------------------------------------------------------- norm-mlir


def snapshot_runner(path, dest):
    """Copies norm-runner (it links its libraries by absolute paths) so that
    a rebuild during the run changes nothing: every row uses one binary.
    Waits for a binary that is not being written."""
    deadline = time.time() + 300
    while True:
        try:
            before = os.stat(path)
            if os.access(path, os.X_OK) and time.time() - before.st_mtime > 2:
                shutil.copy2(path, dest)
                after = os.stat(path)
                if (before.st_mtime, before.st_size) == (after.st_mtime, after.st_size) \
                        and os.path.getsize(dest) == before.st_size:
                    return before
        except OSError:
            pass
        if time.time() > deadline:
            raise SystemExit(f"no stable norm-runner at {path}")
        log(f"waiting for {path} (being rebuilt?)")
        time.sleep(3)


def run_norm_runner(args, cases, threads, runner=None, who="norm-mlir", extra=()):
    """One norm-runner process per (family, dtype, bench seconds): one
    compile, all its shapes. `runner`: args.runner unless given (the
    baseline's); `extra`: further norm-runner options. Returns {case id:
    result}; a case the runner gave no row
    for (it failed, or cannot compile the spec) gets {"error"}."""
    runner = runner or args.runner
    results = {}
    groups = {}
    for c in cases:
        key = (c["family"], c["dtype"], seconds_for(c, args))
        groups.setdefault(key, []).append(c)
    for (family, dtype, seconds), group in groups.items():
        spec = os.path.join(HERE, "specs", FAMILIES[family][0])
        entry = f"{family}_{dtype}"
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            json_path = tmp.name
        cmd = [runner, spec, "--entry", entry, "--bench",
               "--bench-seconds", str(seconds), "--json", json_path, *extra]
        for c in group:
            cmd += ["--shape", c["shape_str"]]
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        if threads > 1:
            cmd.append("--openmp")
        log(f"{who} {entry} threads={threads}: {len(group)} shape(s)")
        t0 = time.time()
        try:
            proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
            tail = []
            for line in proc.stdout:
                line = line.rstrip()
                tail = (tail + [line])[-20:]
                print(f"    | {line}", flush=True)
            rc = proc.wait(timeout=args.timeout)
            data = None
            if os.path.exists(json_path) and os.path.getsize(json_path) > 0:
                with open(json_path) as f:
                    data = json.load(f)
        except Exception as e:  # noqa: BLE001 - keep the sweep going
            rc, data, tail = -1, None, [f"{type(e).__name__}: {e}"]
        finally:
            if os.path.exists(json_path):
                os.unlink(json_path)
        rows = {r["shape"]: r for r in (data or {}).get("bench", [])}
        compile_ms = (data or {}).get("compile_ms")
        for c in group:
            r = rows.get(c["shape_str"])
            if r is None:
                results[c["id"]] = {"error": f"norm-runner exit {rc}: " + " / ".join(tail[-3:])}
                continue
            results[c["id"]] = {
                "us_per_call": r["us_per_call"],
                "bytes": r["bytes"],
                "gb_per_s": r["gb_per_s"],
                "copy_gb_per_s": r["copy_gb_per_s"],
                "fraction_of_copy": r["fraction_of_copy"],
                "threads": r.get("threads", threads),
                "compile_ms": compile_ms,
            }
        log(f"{who} {entry} threads={threads}: done in {time.time() - t0:.1f} s")
    return results


# ------------------------------------------------------------------- oneDNN


def onednn_layouts(args, family):
    """The layouts oneDNN runs a family in; the first is the primary number,
    the spec's own layout. None: the driver's only layout for the shape
    (row-major M x N; nc for [N, C])."""
    if family in ROWWISE:
        return [None]
    if family in BN_NC:
        # oneDNN 2.6 runs a 2-D nc tensor with its plain C++ kernel
        # (ncsp_bnorm); the same bytes viewed as N x C x 1 x 1 nhwc get the
        # JIT one: that view is the "best layout" candidate.
        return [None, NC_AS_NHWC]
    if family in BN_NHWC:
        return ["nhwc"] + [l for l in args.onednn_layouts if l != "nhwc"]
    return args.onednn_layouts


def onednn_once(args, case, threads, layout):
    kernel, shape = BN_KIND.get(case["family"], case["family"]), case["shape"]
    label = layout
    if case["family"] in BN_NHWC:
        # The driver takes the logical N x C x H x W and a layout: the spec's
        # N x H x W x C is that tensor in the nhwc layout.
        n, h, w, c = shape
        shape = [n, c, h, w]
    if layout == NC_AS_NHWC:
        shape, layout = list(shape) + [1, 1], "nhwc"
    cmd = [args.onednn, kernel, shape_str(shape), case["dtype"],
           "--seconds", str(seconds_for(case, args))]
    if layout:
        cmd += ["--layout", layout]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True,
                              timeout=args.timeout)
        lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
        if proc.returncode != 0 or not lines:
            return {"error": f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}"}
        r = json.loads(lines[-1])
        if label == NC_AS_NHWC:
            r["layout"] = label
        return r
    except Exception as e:  # noqa: BLE001
        return {"error": f"{type(e).__name__}: {e}"}


def run_onednn(args, cases, threads):
    """The NCHW kernels run in every layout of --onednn-layouts (nchw first:
    the primary number, the same layout as the norm-mlir spec; the others are
    the same logical tensor in oneDNN's preferred layouts; NHWC: nhwc first).
    Returns {case id: primary result + "best" (the fastest layout) +
    "layouts"}."""
    results = {}
    for c in cases:
        layouts = onednn_layouts(args, c["family"])
        per_layout = {}
        for layout in layouts:
            r = onednn_once(args, c, threads, layout)
            per_layout[r.get("layout", layout or "?")] = r
            what = (f"{r['us_per_call']:.1f} us ({r.get('impl')})" if "us_per_call" in r
                    else f"unsupported: {r['unsupported']}" if "unsupported" in r
                    else f"error: {r['error']}")
            log(f"oneDNN {c['family']} {c['dtype']} {c['shape_str']}"
                + (f" {layout}" if layout else "") + f" threads={threads}: {what}")
        primary = dict(next(iter(per_layout.values())))
        timed = [r for r in per_layout.values() if "us_per_call" in r]
        if timed:
            best = min(timed, key=lambda r: r["us_per_call"])
            primary["best"] = {k: best.get(k) for k in ("layout", "us_per_call", "impl")}
        if len(per_layout) > 1:
            primary["layouts"] = {k: {f: v.get(f) for f in ("us_per_call", "impl", "unsupported", "error")
                                      if v.get(f) is not None}
                                  for k, v in per_layout.items()}
        results[c["id"]] = primary
    return results


# ------------------------------------------------------------------ PyTorch


def torch_worker():
    """Reads {"threads", "cases": [...]} on stdin; prints one JSON line per
    case (and one "info" line first)."""
    request = json.load(sys.stdin)
    import torch
    import torch.nn.functional as F

    threads = request["threads"]
    torch.set_num_threads(threads)
    has_rms = hasattr(F, "rms_norm")
    print(json.dumps({"info": {
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "rms_norm": "torch.nn.functional.rms_norm" if has_rms else "formula",
        "parallel_info": torch.__config__.parallel_info(),
    }}), flush=True)

    def build(case):
        dt = {"f32": torch.float32, "bf16": torch.bfloat16}[case["dtype"]]
        shape = case["shape"]
        gen = torch.Generator().manual_seed(20261129)
        x = torch.randn(shape, generator=gen, dtype=torch.float32).to(dt)
        family = case["family"]
        if family in ROWWISE:
            n = shape[-1]
            w = (torch.rand(n, generator=gen) + 0.5).to(dt)
            b = (torch.randn(n, generator=gen) * 0.1).to(dt)
            if family == "layer_norm":
                return lambda: F.layer_norm(x, (n,), w, b, 1e-5)
            if has_rms:
                return lambda: F.rms_norm(x, (n,), w, 1e-6)
            return lambda: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
        c = shape[-1] if family in CHANNELS_LAST else shape[1]
        if family in BN_NHWC:
            # N x H x W x C storage as PyTorch's channels_last N x C x H x W
            # (a view: the same bytes as the spec's tensor).
            x = x.permute(0, 3, 1, 2)
            assert x.is_contiguous(memory_format=torch.channels_last)
        w = (torch.rand(c, generator=gen) + 0.5).to(dt)
        b = (torch.randn(c, generator=gen) * 0.1).to(dt)
        rm = torch.randn(c, generator=gen) * 0.1
        rv = torch.rand(c, generator=gen) + 0.5
        kind = BN_KIND.get(family)
        if kind == "batch_norm_inference":
            return lambda: F.batch_norm(x, rm, rv, w, b, False, 0.1, 1e-5)
        if kind == "batch_norm_training":
            return lambda: F.batch_norm(x, rm, rv, w, b, True, 0.1, 1e-5)
        if family == "group_norm":
            return lambda: F.group_norm(x, GROUPS, w, b, 1e-5)
        if family == "instance_norm":
            return lambda: F.instance_norm(x, None, None, w, b, True, 0.1, 1e-5)
        raise ValueError(family)

    for case in request["cases"]:
        out = {"id": case["id"]}
        fn = None
        try:
            with torch.inference_mode():
                fn = build(case)
                # As onednn_bench: 3 warm-up calls and at least 5 measured,
                # 1 and 3 for a call slower than 0.25 s.
                t0 = time.perf_counter()
                fn()
                slow = time.perf_counter() - t0 > 0.25
                for _ in range(0 if slow else 2):
                    fn()
                min_calls = 3 if slow else 5
                times = []
                deadline = time.perf_counter() + case["seconds"]
                while len(times) < min_calls or (time.perf_counter() < deadline and len(times) < 100000):
                    t0 = time.perf_counter_ns()
                    fn()
                    times.append(time.perf_counter_ns() - t0)
            times.sort()
            out.update(us_per_call=times[len(times) // 2] / 1e3, calls=len(times))
        except Exception as e:  # noqa: BLE001
            out["error"] = f"{type(e).__name__}: {e}"
        fn = None
        gc.collect()
        print(json.dumps(out), flush=True)


def run_torch(args, cases, threads):
    results = {}
    info = None
    request = {"threads": threads,
               "cases": [dict(c, seconds=seconds_for(c, args)) for c in cases]}
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    log(f"PyTorch threads={threads}: {len(cases)} case(s)")
    by_id = {c["id"]: c for c in cases}
    try:
        proc = subprocess.Popen([args.python, os.path.abspath(__file__), "--torch-worker"],
                                env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        proc.stdin.write(json.dumps(request))
        proc.stdin.close()
        for line in proc.stdout:
            if not line.startswith("{"):
                continue
            r = json.loads(line)
            if "info" in r:
                info = r["info"]
                continue
            results[r["id"]] = r
            c = by_id[r["id"]]
            what = f"{r['us_per_call']:.1f} us" if "us_per_call" in r else f"error: {r['error']}"
            log(f"PyTorch {c['family']} {c['dtype']} {c['shape_str']} threads={threads}: {what}")
        rc = proc.wait(timeout=args.timeout)
        err = proc.stderr.read()
        if rc != 0:
            log(f"PyTorch worker exit {rc}: {err.strip()[-500:]}")
    except Exception as e:  # noqa: BLE001
        err = f"{type(e).__name__}: {e}"
        log(f"PyTorch worker failed: {err}")
    for c in cases:
        results.setdefault(c["id"], {"error": "no result from the PyTorch worker: "
                                     + (err.strip().splitlines() or ["?"])[-1][:300]})
    return results, info


# ------------------------------------------------------------------ rounds


def keep_fastest(best, results):
    """Merges one round's {case id: result} into `best`: per case, the
    result with the lower us_per_call (oneDNN: and the fastest layout over
    the rounds); norm-mlir's compile_ms is the mean over the rounds, not the
    best of them."""
    for cid, r in results.items():
        old = best.get(cid, {})
        faster = r.get("us_per_call", math.inf) < old.get("us_per_call", math.inf)
        new = dict(r if faster or not old else old)
        if "best" in old and "best" in r:
            new["best"] = min(old["best"], r["best"], key=lambda b: b.get("us_per_call") or math.inf)
        compiles = old.get("compile_ms_rounds", []) + (
            [r["compile_ms"]] if r.get("compile_ms") is not None else [])
        if compiles:
            new["compile_ms_rounds"] = compiles
            new["compile_ms"] = sum(compiles) / len(compiles)
        best[cid] = new


# ------------------------------------------------------------------ report


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def combine(cases, threads_list, nm, dnnl, pt, bl=None):
    """bl: the baseline norm-runner's results, as nm (None: no baseline)."""
    rows = []
    for t in threads_list:
        for c in cases:
            n = nm[t].get(c["id"], {"error": "not run"})
            b = bl[t].get(c["id"], {"error": "not run"}) if bl is not None else None
            o = dnnl[t].get(c["id"], {"error": "not run"})
            p = pt[t].get(c["id"], {"error": "not run"})
            nbytes = n.get("bytes")
            bytes_source = "norm-runner"
            if nbytes is None:
                nbytes = estimate_bytes(c["family"], c["shape"], c["dtype"])
                bytes_source = "estimate"

            def gbps(r):
                us = r.get("us_per_call")
                return nbytes / (us * 1e-6) / 1e9 if us else None

            row = {
                "family": c["family"], "dtype": c["dtype"], "shape": c["shape_str"],
                "regime": c["regime"], "n": c["n"], "threads": t,
                "elements": numel(c["shape"]), "bytes": nbytes, "bytes_source": bytes_source,
                "norm_mlir": n, "onednn": o, "torch": p,
                "norm_mlir_gbps": n.get("gb_per_s"),
                "copy_gbps": n.get("copy_gb_per_s"),
                "fraction_of_copy": n.get("fraction_of_copy"),
                "onednn_gbps": gbps(o), "torch_gbps": gbps(p),
                # The row's byte count, not the baseline's own (which a change
                # of the byte model would move): vs baseline stays a time ratio.
                "baseline": b, "baseline_gbps": gbps(b) if b is not None else None,
                "onednn_best_gbps": gbps(o.get("best") or {}),
                "onednn_best_layout": (o.get("best") or {}).get("layout"),
                "compile_ms": n.get("compile_ms"),
            }
            ng = row["norm_mlir_gbps"]
            row["ratio_onednn"] = ng / row["onednn_gbps"] if ng and row["onednn_gbps"] else None
            row["ratio_torch"] = ng / row["torch_gbps"] if ng and row["torch_gbps"] else None
            row["ratio_onednn_best"] = (ng / row["onednn_best_gbps"]
                                        if ng and row["onednn_best_gbps"] else None)
            row["ratio_baseline"] = ng / row["baseline_gbps"] if ng and row["baseline_gbps"] else None
            rows.append(row)
    return rows


def summarize(rows, threads_list):
    summary = []
    for family in FAMILIES:
        for t in threads_list:
            fr = [r for r in rows if r["family"] == family and r["threads"] == t]
            if not fr:
                continue
            vs_dnnl = [r["ratio_onednn"] for r in fr if r["ratio_onednn"]]
            vs_torch = [r["ratio_torch"] for r in fr if r["ratio_torch"]]
            vs_best = [r["ratio_onednn_best"] for r in fr if r["ratio_onednn_best"]]
            vs_base = [r for r in fr if r["ratio_baseline"]]
            min_base = min(vs_base, key=lambda r: r["ratio_baseline"]) if vs_base else None
            dram_frac = [r["fraction_of_copy"] for r in fr
                         if r["regime"] == "dram" and r["fraction_of_copy"]]
            bf16_ratio = None
            if family in ROWWISE:
                ratios = []
                for r in fr:
                    if r["dtype"] != "bf16" or r["regime"] != "dram":
                        continue
                    f = [q for q in fr if q["dtype"] == "f32" and q["regime"] == "dram"
                         and q["n"] == r["n"]]
                    if not f:
                        continue
                    b_us = r["norm_mlir"].get("us_per_call")
                    f_us = f[0]["norm_mlir"].get("us_per_call")
                    if b_us and f_us:
                        ratios.append((r["elements"] / b_us) / (f[0]["elements"] / f_us))
                bf16_ratio = geomean(ratios)
            summary.append({
                "family": family, "threads": t, "rows": len(fr),
                "geomean_vs_onednn": geomean(vs_dnnl), "n_vs_onednn": len(vs_dnnl),
                "min_vs_onednn": min(vs_dnnl) if vs_dnnl else None,
                "geomean_vs_onednn_best_layout": geomean(vs_best),
                "min_vs_onednn_best_layout": min(vs_best) if vs_best else None,
                "geomean_vs_torch": geomean(vs_torch), "n_vs_torch": len(vs_torch),
                "geomean_vs_baseline": geomean([r["ratio_baseline"] for r in vs_base]),
                "n_vs_baseline": len(vs_base),
                "min_vs_baseline": min_base["ratio_baseline"] if min_base else None,
                "min_vs_baseline_row": (f"{min_base['shape']} {min_base['dtype']}"
                                        if min_base else None),
                "dram_fraction_of_copy": statistics.mean(dram_frac) if dram_frac else None,
                "bf16_over_f32_elems_per_s_dram": bf16_ratio,
            })
    return summary


def fmt(v, spec=".2f", none="—"):
    return none if v is None else format(v, spec)


def peer_cell(r, key):
    res = r[key]
    g = r[key + "_gbps"]
    if g is not None:
        return fmt(g)
    if "unsupported" in res:
        return "n/a¹"
    return "err"


def best_cell(r):
    if r["family"] in ROWWISE:
        return "="  # one layout only
    if r["onednn_best_gbps"] is None:
        return peer_cell(r, "onednn")
    return f"{r['onednn_best_gbps']:.2f} ({r['onednn_best_layout']})"


def write_markdown(path, meta, rows, summary, quick):
    base = meta.get("baseline_runner") is not None
    L = []
    L.append("# norm-mlir vs oneDNN vs PyTorch (CPU)")
    L.append("")
    L.append(f"- date: {meta['date']}; git: `{meta['git']}`; cpu: {meta['cpu']}; "
             f"threads: {' '.join(map(str, meta['threads']))}")
    L.append(f"- oneDNN {meta.get('onednn_version') or '?'}; PyTorch {meta.get('torch_version') or '?'} "
             f"(RMSNorm via {meta.get('torch_rms_norm') or '?'}); norm-runner `{meta['runner']}` "
             f"built {meta['runner_mtime']}"
             + (f", run with `{meta['runner_args']}`" if meta.get("runner_args") else ""))
    if base:
        L.append(f"- baseline: `{meta['baseline_rev']}` = `{meta.get('baseline_sha') or '?'}`, "
                 f"norm-runner `{meta['baseline_runner']}` built {meta['baseline_runner_mtime']}"
                 + (f" run with `{meta['baseline_args']}`" if meta.get("baseline_args") else "")
                 + ", "
                 "run exactly as norm-mlir's (the current tree's specs, shapes, threads and "
                 "seconds, in the same rounds); vs baseline = norm-mlir GB/s / baseline GB/s "
                 "(> 1: the current revision is faster).")
    L.append(f"- bench seconds: {meta['seconds']} (dram rows {meta['dram_seconds']}), median per call "
             f"after 3 warm-up calls, at least 5 calls (oneDNN, PyTorch: 1 warm-up and at least 3 calls "
             f"when a call takes > 0.25 s); {meta.get('rounds', 1)} round(s), each (family, dtype) "
             f"running all implementations back to back, the fastest round kept per implementation "
             f"(compile ms: the mean); load average at start {meta['loadavg_start']}, "
             f"at end {meta['loadavg_end']}; wall {meta['wall_s']:.0f} s")
    if meta["loadavg_start"] > 0.5 or meta["loadavg_end"] > 0.5:
        L.append("- **warning: the machine was busy (load average above); other work skews "
                 "the timings, most of all the multi-threaded ones.**")
    if quick:
        L.append(f"- **--quick**: smoke-test sweep; its `dram` rows are scaled down to "
                 f"{QUICK_DRAM_TENSOR_BYTES // MiB} MiB per tensor and are not DRAM-resident.")
    L.append("- GB/s = norm-runner's byte count for the row (every argument and result buffer "
             "once) / time per call, for every implementation, so the ratios are time ratios. "
             "Ratio = norm-mlir GB/s / peer GB/s (> 1: norm-mlir is faster). "
             "Copy GB/s and % of copy: norm-runner's same-process copy of the same bytes "
             "with the same threads.")
    L.append("")
    L.append("## Summary")
    L.append("")
    L.append("| kernel | threads | rows "
             + ("| geomean vs baseline | min vs baseline (row) " if base else "")
             + "| geomean vs oneDNN | min vs oneDNN "
             "| geomean (min) vs oneDNN best layout | geomean vs PyTorch "
             "| dram % of copy | bf16/f32 elem/s (dram) |")
    L.append("|---|---:|---:|" + ("---:|---:|" if base else "") + "---:|---:|---:|---:|---:|---:|")
    for s in summary:
        base_cells = ""
        if base:
            base_cells = (f"| {fmt(s['geomean_vs_baseline'], '.3f')}"
                          + (f" ({s['n_vs_baseline']})" if s['n_vs_baseline'] else "")
                          + f" | {fmt(s['min_vs_baseline'], '.3f')}"
                          + (f" ({s['min_vs_baseline_row']})" if s['min_vs_baseline_row'] else "")
                          + " ")
        L.append(
            f"| {s['family']} | {s['threads']} | {s['rows']} " + base_cells +
            f"| {fmt(s['geomean_vs_onednn'], '.3f')}" + (f" ({s['n_vs_onednn']})" if s['n_vs_onednn'] else "")
            + f" | {fmt(s['min_vs_onednn'], '.3f')} "
            f"| {fmt(s['geomean_vs_onednn_best_layout'], '.3f')} ({fmt(s['min_vs_onednn_best_layout'], '.3f')}) "
            f"| {fmt(s['geomean_vs_torch'], '.3f')}" + (f" ({s['n_vs_torch']})" if s['n_vs_torch'] else "")
            + f" | {fmt(None if s['dram_fraction_of_copy'] is None else 100 * s['dram_fraction_of_copy'], '.1f')}"
            f" | {fmt(s['bf16_over_f32_elems_per_s_dram'], '.2f')} |")
    L.append("")
    L.append("(n) = rows with a number for both sides. "
             + ("min vs baseline: the slowest row against the baseline, and its shape. " if base else "")
             + "vs oneDNN: oneDNN on the same layout "
             "as the norm-mlir spec (row-major M×N, [N, C], NCHW, NHWC). vs oneDNN best layout: the "
             f"fastest of {', '.join(meta['onednn_layouts'])} for the NCHW and NHWC kernels (the same "
             "logical tensor; oneDNN 2.6's AVX2 JIT batch normalization takes nhwc and nChw8c only, "
             "plain NCHW gets a simple C++ kernel), reorders not counted; for [N, C]: the faster of "
             f"nc and the same bytes viewed as N×C×1×1 nhwc (`{NC_AS_NHWC}`; oneDNN 2.6 runs a 2-D nc "
             "tensor with its C++ kernel `ncsp_bnorm`). dram % of copy: mean over "
             "the rows with a data tensor ≥ 64 MiB. bf16/f32: norm-mlir elements per second, bf16 "
             "over f32, geometric mean over the dram rows of equal N.")
    L.append("")
    L.append("Kernels and the shape's dim order: `layer_norm`, `rms_norm`: M×N, over N; "
             "`batch_norm_*`, `group_norm`, `instance_norm`: N×C×H×W (NCHW); "
             "`batch_norm_nc_*`: N×C, a 2-D tensor, over N; `batch_norm_nhwc_*`: N×H×W×C "
             "(channels last; PyTorch: the same bytes as a channels_last N×C×H×W tensor), "
             "over N, H, W.")
    L.append("")
    fam_order = list(FAMILIES)
    regime_order = {"cache": 0, "mid": 1, "dram": 2}
    rows = sorted(rows, key=lambda r: (r["threads"], fam_order.index(r["family"]), r["dtype"] != "f32",
                                       regime_order.get(r["regime"], 3), r["elements"], r["shape"]))
    L.append("## All rows")
    L.append("")
    L.append("| kernel | shape | dtype | regime | thr | MB | norm-mlir µs | norm-mlir GB/s "
             + ("| baseline GB/s | vs baseline " if base else "")
             + "| copy GB/s "
             "| % of copy | oneDNN GB/s | oneDNN best layout GB/s | PyTorch GB/s | vs oneDNN "
             "| vs oneDNN best | vs PyTorch | compile ms |")
    L.append("|---|---|---|---|---:|---:|---:|---:|" + ("---:|---:|" if base else "")
             + "---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        nm = r["norm_mlir"]
        base_cells = ""
        if base:
            # A baseline that failed on the row (a spec it cannot compile, ...)
            # is just missing here; its error is in the notes and results.json.
            base_cells = (f"| {fmt(r['baseline_gbps'])} | {fmt(r['ratio_baseline'], '.3f')} ")
        L.append(
            f"| {r['family']} | {r['shape']} | {r['dtype']} | {r['regime']} | {r['threads']} "
            f"| {r['bytes'] / 1e6:.1f}{'*' if r['bytes_source'] != 'norm-runner' else ''} "
            f"| {fmt(nm.get('us_per_call'), '.1f', 'err')} | {fmt(r['norm_mlir_gbps'], '.2f', 'err')} "
            + base_cells +
            f"| {fmt(r['copy_gbps'])} | {fmt(None if r['fraction_of_copy'] is None else 100 * r['fraction_of_copy'], '.1f')} "
            f"| {peer_cell(r, 'onednn')} "
            f"| {best_cell(r)} | {peer_cell(r, 'torch')} "
            f"| {fmt(r['ratio_onednn'], '.3f')} | {fmt(r['ratio_onednn_best'], '.3f')} "
            f"| {fmt(r['ratio_torch'], '.3f')} "
            f"| {fmt(r['compile_ms'], '.0f')} |")
    L.append("")
    notes = {}
    for r in rows:
        if "unsupported" in r["onednn"]:
            notes.setdefault(("oneDNN", r["family"], r["dtype"]), r["onednn"]["unsupported"])
        for who, key in (("norm-mlir", "norm_mlir"), ("baseline", "baseline"),
                         ("oneDNN", "onednn"), ("PyTorch", "torch")):
            if r[key] is not None and "error" in r[key]:
                notes.setdefault((who + " error", r["family"], r["dtype"]), r[key]["error"])
    if notes:
        L.append("¹ not available:")
        L.append("")
        for (who, family, dtype), why in notes.items():
            L.append(f"- {who}, {family} {dtype}: {why}")
        L.append("")
    if any(r["bytes_source"] != "norm-runner" for r in rows):
        L.append("\\* bytes estimated (norm-runner gave none for that row).")
        L.append("")
    impls = set()
    for r in rows:
        o = r["onednn"]
        for layout, v in (o.get("layouts") or {o.get("layout"): o}).items():
            if v.get("impl"):
                impls.add((r["family"], r["dtype"], layout, v["impl"]))
    if impls:
        L.append("oneDNN implementations: " + "; ".join(
            f"{f} {d} {l}: `{i}`" for f, d, l, i in sorted(impls, key=str)))
        L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L))


def write_plot(path, rows, threads_list):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [(fam, dt) for fam in ROWWISE for dt in ("f32", "bf16")
              if any(r["family"] == fam and r["dtype"] == dt for r in rows)]
    regimes = [g for g in ("cache", "dram") if any(r["regime"] == g and r["n"] for r in rows)]
    nchw = [r for r in rows if r["family"] not in ROWWISE]
    nrows = len(regimes) + (1 if nchw else 0)
    ncols = max(1, len(panels))
    if nrows == 0:
        return
    fig = plt.figure(figsize=(4.2 * ncols, 3.6 * nrows), constrained_layout=True)
    gs = fig.add_gridspec(nrows, ncols)
    colors = {"norm-mlir": "tab:blue", "baseline": "tab:purple", "oneDNN": "tab:orange",
              "oneDNN best layout": "tab:red", "PyTorch": "tab:green", "copy": "tab:gray"}
    # The baseline's series only when there is one.
    base = [("baseline", "baseline_gbps")] if any(r["baseline_gbps"] for r in rows) else []
    styles = {t: s for t, s in zip(threads_list, ["-", "--", ":", "-."])}
    for i, regime in enumerate(regimes):
        for j, (fam, dt) in enumerate(panels):
            ax = fig.add_subplot(gs[i, j])
            for t in threads_list:
                pts = sorted((r for r in rows if r["family"] == fam and r["dtype"] == dt
                              and r["regime"] == regime and r["threads"] == t),
                             key=lambda r: r["n"])
                for label, key in [("norm-mlir", "norm_mlir_gbps")] + base + [
                        ("oneDNN", "onednn_gbps"), ("PyTorch", "torch_gbps"), ("copy", "copy_gbps")]:
                    xy = [(r["n"], r[key]) for r in pts if r[key]]
                    if not xy:
                        continue
                    ax.plot([p[0] for p in xy], [p[1] for p in xy], styles.get(t, "-"),
                            color=colors[label], marker="o", markersize=3,
                            linewidth=1 if label == "copy" else 1.6,
                            label=f"{label} {t}T")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(f"{FAMILIES[fam][1]} {dt}, {regime}", fontsize=10)
            ax.set_xlabel("N (normalized dim)")
            ax.set_ylabel("GB/s")
            ax.grid(True, which="both", alpha=0.3)
            if i == 0 and j == 0:
                ax.legend(fontsize=7, ncol=2)
    if nchw:
        ax = fig.add_subplot(gs[nrows - 1, :])
        labels = []
        whos = [("norm-mlir", "norm_mlir_gbps")] + base + [
            ("oneDNN", "onednn_gbps"), ("oneDNN best layout", "onednn_best_gbps"),
            ("PyTorch", "torch_gbps")]
        series = {(who, t): [] for who, _ in whos for t in threads_list}
        keys = []
        for r in nchw:
            k = (r["family"], r["shape"])
            if k not in keys:
                keys.append(k)
        for fam, shape in keys:
            labels.append(f"{FAMILIES[fam][1]}\n{shape}")
            for t in threads_list:
                r = next((q for q in nchw if q["family"] == fam and q["shape"] == shape
                          and q["threads"] == t), None)
                for who, key in whos:
                    series[(who, t)].append((r or {}).get(key) or 0)
        width = 0.8 / max(1, len(series))
        for s, ((who, t), vals) in enumerate(series.items()):
            xs = [i + (s - (len(series) - 1) / 2) * width for i in range(len(keys))]
            ax.bar(xs, vals, width, color=colors[who], alpha=1.0 if t == threads_list[0] else 0.55,
                   hatch="" if t == threads_list[0] else "//", label=f"{who} {t}T")
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("GB/s (0: n/a)")
        ax.set_title("BatchNorm, GroupNorm, InstanceNorm (f32)", fontsize=10)
        ax.legend(fontsize=7, ncol=len(threads_list) * 2)
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle("GB/s (norm-runner byte model) against N", fontsize=11)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def git_describe():
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except OSError:
        return "?"


def git_commit(rev):
    """rev's full commit in this repository, or None."""
    try:
        proc = subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify", "--quiet",
                               f"{rev}^{{commit}}"], capture_output=True, text=True)
        return proc.stdout.strip() if proc.returncode == 0 else None
    except OSError:
        return None


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip() + f" ({os.cpu_count()} CPUs)"
    except OSError:
        pass
    return platform.processor() or "?"


def main():
    if "--torch-worker" in sys.argv:
        torch_worker()
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--runner", default=os.path.join(ROOT, "build", "bin", "norm-runner"))
    ap.add_argument("--onednn", default=os.path.join(HERE, "out", "tools", "onednn_bench"))
    ap.add_argument("--python", default=sys.executable, help="the Python with torch")
    ap.add_argument("--threads", default="1 2", help='thread counts, e.g. "1 2"')
    ap.add_argument("--quick", action="store_true", help="a tiny sweep for smoke testing")
    ap.add_argument("--seconds", type=float, default=None, help="measured seconds per row (default 0.3, quick 0.05)")
    ap.add_argument("--dram-seconds", type=float, default=None, help="for dram rows (default 0.2, quick 0.05)")
    ap.add_argument("--kernels", default="", help="comma-separated families (default: all)")
    ap.add_argument("--dtypes", default="", help="comma-separated dtypes (default: f32,bf16)")
    ap.add_argument("--no-dram", action="store_true", help="skip the DRAM-resident LayerNorm/RMSNorm rows")
    ap.add_argument("--skip", default="", help="comma-separated peers to skip: onednn,torch")
    ap.add_argument("--onednn-layouts", default="nchw,nhwc,nChw8c",
                    help="oneDNN layouts for the NCHW kernels (the first is the primary number) "
                         "and for the NHWC ones (nhwc first)")
    ap.add_argument("--no-snapshot", action="store_true",
                    help="run --runner (and --baseline-runner) in place instead of a copy "
                         "taken at the start")
    ap.add_argument("--baseline-runner", default=None,
                    help="another revision's norm-runner, run beside --runner on every "
                         "norm-mlir case (a 'vs baseline' column); bench/run.sh --baseline REV "
                         "builds it")
    ap.add_argument("--runner-args", default="",
                    help="further norm-runner options for norm-mlir's runs (e.g. --vector-kernels=0)")
    ap.add_argument("--baseline-args", default="",
                    help="further norm-runner options for the baseline's runs")
    ap.add_argument("--baseline-rev", default=None,
                    help="the baseline's revision, for the report (default: the runner's path)")
    ap.add_argument("--baseline-sha", default=None,
                    help="its full commit (default: --baseline-rev resolved by git here)")
    ap.add_argument("--timeout", type=float, default=1800, help="per subprocess, seconds")
    ap.add_argument("--rounds", type=int, default=None,
                    help="measure every implementation this many times, alternating, and keep "
                         "each one's fastest (default 2, quick 1)")
    args = ap.parse_args()
    args.threads = [int(t) for t in args.threads.replace(",", " ").split()]
    args.kernels = [k for k in args.kernels.split(",") if k]
    args.dtypes = [d for d in args.dtypes.split(",") if d]
    args.onednn_layouts = [l for l in args.onednn_layouts.split(",") if l]
    skip = {s for s in args.skip.split(",") if s}
    for k in args.kernels:
        if k not in FAMILIES:
            ap.error(f"unknown kernel {k}; one of {', '.join(FAMILIES)}")
    if args.seconds is None:
        args.seconds = 0.05 if args.quick else 0.3
    if args.dram_seconds is None:
        args.dram_seconds = 0.05 if args.quick else 0.2
    if args.rounds is None:
        args.rounds = 1 if args.quick else 2
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    if not os.access(args.runner, os.X_OK):
        ap.error(f"no norm-runner at {args.runner} (scripts/build.sh norm-runner)")
    if args.baseline_runner is not None and not os.access(args.baseline_runner, os.X_OK):
        ap.error(f"no baseline norm-runner at {args.baseline_runner}")
    if args.baseline_runner is None and (args.baseline_rev or args.baseline_sha):
        ap.error("--baseline-rev/--baseline-sha need --baseline-runner")
    if args.baseline_runner is None and args.baseline_args:
        ap.error("--baseline-args needs --baseline-runner")
    runner_args, baseline_args = shlex.split(args.runner_args), shlex.split(args.baseline_args)
    if "onednn" not in skip and not os.access(args.onednn, os.X_OK):
        ap.error(f"no oneDNN driver at {args.onednn} (bench/run.sh builds it)")
    os.makedirs(args.out, exist_ok=True)

    cases = make_cases(args)
    start = time.time()
    runner_path, baseline_path = args.runner, args.baseline_runner
    snapshots = []

    def take(path, name):
        """(the path to run, its mtime): a snapshot unless --no-snapshot."""
        if args.no_snapshot:
            return path, datetime.datetime.fromtimestamp(
                os.stat(path).st_mtime).isoformat(timespec="seconds")
        dest = os.path.join(args.out, name)
        st = snapshot_runner(path, dest)
        snapshots.append(dest)
        return dest, datetime.datetime.fromtimestamp(st.st_mtime).isoformat(timespec="seconds")

    args.runner, runner_mtime = take(args.runner, ".norm-runner.snapshot")
    baseline_mtime = None
    if baseline_path:
        args.baseline_runner, baseline_mtime = take(baseline_path, ".norm-runner-baseline.snapshot")
        if args.baseline_rev is None:
            args.baseline_rev = baseline_path
        if args.baseline_sha is None:
            args.baseline_sha = git_commit(args.baseline_rev)
    load_start = os.getloadavg()[0]
    log(f"{len(cases)} case(s) x threads {args.threads}; out {args.out}")
    if load_start > 0.5:
        log(f"warning: load average {load_start:.2f}: other work on the machine skews the timings")

    # Each (family, dtype) group runs norm-mlir, oneDNN and PyTorch back to
    # back, and the groups go round --rounds times: the machine's speed drifts
    # over minutes, so implementations are compared seconds apart, and each
    # keeps its fastest round.
    groups = {}
    for c in cases:
        groups.setdefault((c["family"], c["dtype"]), []).append(c)
    nm, dnnl, pt = {}, {}, {}
    bl = {} if args.baseline_runner else None
    torch_info = None
    for t in args.threads:
        nm[t], dnnl[t], pt[t] = {}, {}, {}
        if bl is not None:
            bl[t] = {}
        for rnd in range(args.rounds):
            log(f"round {rnd + 1} of {args.rounds}, threads={t}")
            for group in groups.values():
                if bl is None:
                    keep_fastest(nm[t], run_norm_runner(args, group, t,
                                                        extra=runner_args))
                else:
                    # The current and the baseline runner back to back, the
                    # order swapped every round so neither always runs first
                    # after the previous group's peers.
                    pair = [(nm[t], args.runner, "norm-mlir", runner_args),
                            (bl[t], args.baseline_runner, "baseline", baseline_args)]
                    for best, runner, who, extra in (pair if rnd % 2 == 0 else pair[::-1]):
                        keep_fastest(best, run_norm_runner(args, group, t, runner, who, extra))
                if "onednn" not in skip:
                    keep_fastest(dnnl[t], run_onednn(args, group, t))
                if "torch" not in skip:
                    results, info = run_torch(args, group, t)
                    keep_fastest(pt[t], results)
                    torch_info = torch_info or info

    for snapshot in snapshots:
        if os.path.exists(snapshot):
            os.unlink(snapshot)
    rows = combine(cases, args.threads, nm, dnnl, pt, bl)
    summary = summarize(rows, args.threads)
    onednn_version = next((r["onednn"].get("onednn") for r in rows if r["onednn"].get("onednn")), None)
    meta = {
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "git": git_describe(),
        "cpu": cpu_model(),
        "threads": args.threads,
        "quick": args.quick,
        "rounds": args.rounds,
        "seconds": args.seconds,
        "dram_seconds": args.dram_seconds,
        "runner": os.path.relpath(runner_path, ROOT) if runner_path.startswith(ROOT) else runner_path,
        "runner_mtime": runner_mtime,
        "baseline_rev": args.baseline_rev,
        "baseline_sha": args.baseline_sha,
        "baseline_runner": (None if baseline_path is None else
                            os.path.relpath(baseline_path, ROOT) if baseline_path.startswith(ROOT)
                            else baseline_path),
        "baseline_runner_mtime": baseline_mtime,
        "runner_args": args.runner_args,
        "baseline_args": args.baseline_args,
        "onednn_version": onednn_version,
        "onednn_layouts": args.onednn_layouts,
        "torch_version": (torch_info or {}).get("torch"),
        "torch_rms_norm": (torch_info or {}).get("rms_norm"),
        "torch_parallel_info": (torch_info or {}).get("parallel_info"),
        "loadavg_start": round(load_start, 2),
        "loadavg_end": round(os.getloadavg()[0], 2),
        "wall_s": time.time() - start,
    }
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({"meta": meta, "summary": summary, "rows": rows}, f, indent=1)
    write_markdown(os.path.join(args.out, "results.md"), meta, rows, summary, args.quick)
    try:
        write_plot(os.path.join(args.out, "gbps_vs_n.png"), rows, args.threads)
    except ImportError as e:
        log(f"no plot: {e}")
    log(f"wrote {args.out}/results.md, results.json, gbps_vs_n.png in {meta['wall_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
