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


def run(spec, entry, inputs, tag):
    cmd = [runner, spec, "--entry", entry]
    for i, a in enumerate(inputs):
        path = os.path.join(tmp, f"{entry}_in{i}.npy")
        np.save(path, a)
        cmd += ["--input", path]
    out = os.path.join(tmp, f"{entry}_{tag}.npy")
    cmd += ["--output", out]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print(f"{entry}: {tag} norm-runner failed: {p.stderr.strip()}")
        sys.exit(1)
    return np.load(out)


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


cases = [
    ("layer_norm", case_layer_norm),
    ("rms_norm_f16", case_rms_norm_f16),
    ("batch_norm_inference", case_batch_norm_inference),
    ("group_norm", case_group_norm),
]

ok = True
agree = True
for entry, make in cases:
    inputs, r64, xhat, gamma, beta, kappa, n, dtype, rms = make()
    # The reference rounded to the output type (benchdnn's convention).
    r = r64.astype(dtype).astype(np.float64)
    tol = tolerance(r, xhat, gamma, beta, kappa, n, dtype, rms)
    verdicts = []
    outputs = {}
    for tag, spec in (("unraised", unraised), ("raised", raised)):
        got = run(spec, entry, inputs, tag)
        if got.dtype != dtype or got.shape != r.shape:
            verdicts.append(f"{tag} FAIL (got {got.dtype} {got.shape})")
            ok = False
            continue
        got = got.astype(np.float64)
        outputs[tag] = got
        same_nan = np.array_equal(np.isfinite(got), np.isfinite(r))
        ratio = float(np.max(np.abs(got - r) / tol))
        passed = same_nan and ratio <= 1.0
        ok &= passed
        verdicts.append(f"{tag} {'pass' if passed else 'FAIL'}")
        print(f"  {entry} {tag}: max err/tol = {ratio:.3g}", file=sys.stderr)
    if len(outputs) == 2:
        diff = float(np.max(np.abs(outputs["raised"] - outputs["unraised"]) / tol))
        print(f"  {entry}: max |raised - unraised|/tol = {diff:.3g}", file=sys.stderr)
        if not diff <= 1.0:
            agree = False
            verdicts.append(f"DISAGREE ({diff:.3g} tolerances apart)")
    print(f"{entry}: " + ", ".join(verdicts))

print("all agree" if ok and agree else "FAILED")
sys.exit(0 if ok and agree else 1)
