"""Runs each entry of raise-from-linalg.mlir unraised and raised on the same
inputs with norm-runner --input/--output, and judges both against an fp64
reference with the per-element tolerance of numerics.md 2.2:

    |got - r| <= 2 eps_T M + K_N u32 S + tau_T

Prints one line per entry for FileCheck, then whether the two outputs agree
within one such tolerance; exits non-zero on any failure.

usage: compare_raised.py NORM_RUNNER UNRAISED.mlir RAISED.mlir
"""
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

runner, unraised, raised = sys.argv[1:4]
tmp = tempfile.mkdtemp()
rng = np.random.default_rng(2024)

U32 = 2.0**-24
EPS_T = {np.float32: 2.0**-23, np.float16: 2.0**-10}
TAU_T = {np.float32: 0.0, np.float16: 1.2e-7}


def run(spec, entry, inputs, tag, num_results=1):
    cmd = [runner, spec, "--entry", entry]
    for i, a in enumerate(inputs):
        path = os.path.join(tmp, f"{entry}_in{i}.npy")
        np.save(path, a)
        cmd += ["--input", path]
    outs = [os.path.join(tmp, f"{entry}_{tag}_out{i}.npy") for i in range(num_results)]
    for out in outs:
        cmd += ["--output", out]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print(f"{entry}: {tag} norm-runner failed: {p.stderr.strip()}")
        sys.exit(1)
    return [np.load(out) for out in outs]


def tolerance(r, xhat, gamma, beta, kappa, n, dtype, rms):
    """numerics.md 2.2, all arrays broadcast to the output shape."""
    k_n = 2 * math.ceil(math.log2(max(n, 1))) + 16 if n > 1 else 16
    m = np.maximum(np.abs(r), np.abs(gamma * xhat) + np.abs(beta))
    if rms:
        s = np.abs(gamma * xhat)
    else:
        s = np.abs(gamma) * (np.abs(xhat) + 2 * kappa) + np.abs(beta)
    return 2 * EPS_T[dtype] * m + k_n * U32 * s + TAU_T[dtype]


def standard_stats(x, axes):
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return mean, var


def case_layer_norm():
    x = (rng.standard_normal((16, 384)) * 1.5 + 3.0).astype(np.float32)
    g = rng.standard_normal(384).astype(np.float32)
    b = rng.standard_normal(384).astype(np.float32)
    eps = float(np.float32(1e-5))
    x64 = x.astype(np.float64)
    mean, var = standard_stats(x64, (1,))
    sigma = np.sqrt(var + eps)
    xhat = (x64 - mean) / sigma
    kappa = np.abs(x64).mean(axis=1, keepdims=True) / sigma
    r = xhat * g + b
    return [x, g, b], r, xhat, g, b, kappa, 384, np.float32, False


def case_rms_norm_f16():
    x = rng.standard_normal((8, 512)).astype(np.float16)
    w = (rng.standard_normal(512) * 0.5 + 1.0).astype(np.float16)
    eps = float(np.float32(1e-6))
    x64 = x.astype(np.float64)
    w64 = w.astype(np.float64)
    rms = np.sqrt((x64**2).mean(axis=1, keepdims=True) + eps)
    xhat = x64 / rms
    r = xhat * w64
    return [x, w], r, xhat, w64, 0.0, 0.0, 512, np.float16, True


def case_batch_norm_inference():
    x = (rng.standard_normal((4, 8, 6, 6)) * 2.0 + 1.0).astype(np.float32)
    m = rng.standard_normal(8).astype(np.float32)
    v = rng.uniform(0.2, 3.0, 8).astype(np.float32)
    g = rng.standard_normal(8).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    eps = float(np.float32(1e-5))
    c = (1, 8, 1, 1)
    x64 = x.astype(np.float64)
    sigma = np.sqrt(v.astype(np.float64).reshape(c) + eps)
    xhat = (x64 - m.reshape(c)) / sigma
    kappa = np.abs(x64).mean(axis=(0, 2, 3), keepdims=True) / sigma
    r = xhat * g.reshape(c) + b.reshape(c)
    return ([x, m, v, g, b], r, xhat, g.reshape(c), b.reshape(c), kappa, 1,
            np.float32, False)


def case_group_norm():
    x = (rng.standard_normal((2, 16, 8, 8)) + 2.0).astype(np.float32)
    g = rng.standard_normal(16).astype(np.float32)
    b = rng.standard_normal(16).astype(np.float32)
    eps = float(np.float32(1e-5))
    x5 = x.astype(np.float64).reshape(2, 4, 4, 8, 8)
    mean, var = standard_stats(x5, (2, 3, 4))
    sigma = np.sqrt(var + eps)
    xhat = ((x5 - mean) / sigma).reshape(x.shape)
    kappa = np.broadcast_to(np.abs(x5).mean(axis=(2, 3, 4), keepdims=True) / sigma,
                            x5.shape).reshape(x.shape)
    c = (1, 16, 1, 1)
    r = xhat * g.reshape(c) + b.reshape(c)
    return [x, g, b], r, xhat, g.reshape(c), b.reshape(c), kappa, 256, np.float32, False


def case_instance_norm():
    x = (rng.standard_normal((2, 8, 6, 6)) * 1.5 - 2.0).astype(np.float32)
    g = rng.standard_normal(8).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    eps = float(np.float32(1e-5))
    x64 = x.astype(np.float64)
    mean, var = standard_stats(x64, (2, 3))
    sigma = np.sqrt(var + eps)
    xhat = (x64 - mean) / sigma
    kappa = np.broadcast_to(np.abs(x64).mean(axis=(2, 3), keepdims=True) / sigma, x.shape)
    c = (1, 8, 1, 1)
    r = xhat * g.reshape(c) + b.reshape(c)
    return [x, g, b], r, xhat, g.reshape(c), b.reshape(c), kappa, 36, np.float32, False


def case_native_layer_norm():
    """LayerNorm that also returns its keepdim mean and rstd (f32)."""
    inputs, r, xhat, g, b, kappa, n, dtype, rms = case_layer_norm()
    x64 = inputs[0].astype(np.float64)
    eps = float(np.float32(1e-5))
    mean, var = standard_stats(x64, (1,))
    rstd = 1.0 / np.sqrt(var + eps)
    # The saved statistics' bounds of the harness (Reference.cpp): K_N u
    # times the mean of |x| for the mean, (K_N + 8) u relative for rstd.
    k_n = 2 * math.ceil(math.log2(n)) + 16
    mean_tol = k_n * U32 * np.abs(x64).mean(axis=1, keepdims=True)
    rstd_tol = (k_n + 8) * U32 * np.abs(rstd)
    stats = [("mean", mean, mean_tol), ("rstd", rstd, rstd_tol)]
    return inputs, r, xhat, g, b, kappa, n, dtype, rms, stats


cases = [
    ("layer_norm", case_layer_norm),
    ("rms_norm_f16", case_rms_norm_f16),
    ("batch_norm_inference", case_batch_norm_inference),
    ("group_norm", case_group_norm),
    ("instance_norm", case_instance_norm),
    ("native_layer_norm", case_native_layer_norm),
]

ok = True
agree = True
for entry, make in cases:
    inputs, r64, xhat, gamma, beta, kappa, n, dtype, rms, *extra = make()
    # Further results (saved statistics): (name, fp64 reference, tolerance),
    # stored in f32.
    stats = extra[0] if extra else []
    # The reference rounded to the output type (benchdnn's convention).
    r = r64.astype(dtype).astype(np.float64)
    tol = tolerance(r, xhat, gamma, beta, kappa, n, dtype, rms)
    results = [(entry, r, tol, dtype)]
    for name, ref, stat_tol in stats:
        results.append((f"{entry} {name}", ref.astype(np.float32).astype(np.float64),
                        stat_tol, np.float32))
    got_all = {tag: run(spec, entry, inputs, tag, len(results))
               for tag, spec in (("unraised", unraised), ("raised", raised))}
    for i, (label, ref, ref_tol, ref_dtype) in enumerate(results):
        verdicts = []
        outputs = {}
        for tag in ("unraised", "raised"):
            got = got_all[tag][i]
            if got.dtype != ref_dtype or got.shape != ref.shape:
                verdicts.append(f"{tag} FAIL (got {got.dtype} {got.shape})")
                ok = False
                continue
            got = got.astype(np.float64)
            outputs[tag] = got
            same_nan = np.array_equal(np.isfinite(got), np.isfinite(ref))
            ratio = float(np.max(np.abs(got - ref) / ref_tol))
            passed = same_nan and ratio <= 1.0
            ok &= passed
            verdicts.append(f"{tag} {'pass' if passed else 'FAIL'}")
            print(f"  {label} {tag}: max err/tol = {ratio:.3g}", file=sys.stderr)
        if len(outputs) == 2:
            diff = float(np.max(np.abs(outputs["raised"] - outputs["unraised"]) / ref_tol))
            print(f"  {label}: max |raised - unraised|/tol = {diff:.3g}", file=sys.stderr)
            if not diff <= 1.0:
                agree = False
                verdicts.append(f"DISAGREE ({diff:.3g} tolerances apart)")
        print(f"{label}: " + ", ".join(verdicts))

print("all agree" if ok and agree else "FAILED")
sys.exit(0 if ok and agree else 1)
