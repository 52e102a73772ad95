"""Drives norm-runner --input/--output on .npy files for npy-io.test.

Round-trips f32, f16, f64 and bf16 (as uint16 bits) through the kernels of
npy-io.mlir, compares with a numpy LayerNorm, and feeds malformed files,
printing one line per case for FileCheck.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

runner, spec = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp()


def path(name):
    return os.path.join(tmp, name)


def run(entry, inputs, outputs):
    cmd = [runner, spec, "--entry", entry]
    for i in inputs:
        cmd += ["--input", i]
    for o in outputs:
        cmd += ["--output", o]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stderr.strip()


def bf16_bits(a):
    # Round to nearest even into the top 16 bits of the f32 pattern.
    u = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return u.astype(np.uint16)


def bf16_value(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def layer_norm(x, g, b, eps=1e-5):
    x = x.astype(np.float64)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g.astype(np.float64) + b.astype(np.float64)


rng = np.random.default_rng(7)
for dtype, tol in [("f32", 1e-5), ("f16", 2e-2), ("f64", 1e-12), ("bf16", 8e-2)]:
    x = rng.standard_normal((5, 96)) + 3
    g = rng.standard_normal(96)
    b = rng.standard_normal(96)
    if dtype == "bf16":
        arrays = [bf16_bits(a) for a in (x, g, b)]
        values = [bf16_value(a) for a in arrays]
    else:
        np_type = {"f32": np.float32, "f16": np.float16, "f64": np.float64}[dtype]
        arrays = [a.astype(np_type) for a in (x, g, b)]
        values = arrays
    names = []
    for n, a in zip("xgb", arrays):
        names.append(path(f"{n}_{dtype}.npy"))
        np.save(names[-1], a)
    out = path(f"y_{dtype}.npy")
    code, err = run(f"ln_{dtype}", names, [out])
    y = np.load(out)
    if dtype == "bf16":
        assert y.dtype == np.uint16, y.dtype
        y = bf16_value(y)
    ref = layer_norm(*values)
    err = np.abs(y.astype(np.float64) - ref).max()
    print(f"{dtype}: exit {code}, dtype {np.load(out).dtype}, shape {y.shape}, "
          f"max error {'ok' if err <= tol else 'TOO LARGE %g' % err}")

x32 = path("x_f32.npy")
g32 = path("g_f32.npy")
b32 = path("b_f32.npy")
y32 = path("y.npy")


def bad(label, inputs, outputs=(y32,)):
    code, err = run("ln_f32", inputs, list(outputs))
    print(f"{label}: exit {code}: {err.replace(tmp + os.sep, '')}")


np.save(path("x_f16_as_f32.npy"), np.zeros((5, 96), np.float16))
bad("wrong dtype", [path("x_f16_as_f32.npy"), g32, b32])
np.save(path("x_badshape.npy"), np.zeros((5, 97), np.float32))
bad("wrong extent", [path("x_badshape.npy"), g32, b32])
np.save(path("x_rank3.npy"), np.zeros((5, 96, 1), np.float32))
bad("wrong rank", [path("x_rank3.npy"), g32, b32])
np.save(path("g_short.npy"), np.zeros(95, np.float32))
bad("wrong scale", [x32, path("g_short.npy"), b32])
bad("too few inputs", [x32, g32])
bad("too many outputs", [x32, g32, b32], [y32, y32])
np.save(path("x_fortran.npy"), np.asfortranarray(np.zeros((5, 96), np.float32)))
bad("fortran order", [path("x_fortran.npy"), g32, b32])
np.save(path("x_int.npy"), np.zeros((5, 96), np.int32))
bad("integer data", [path("x_int.npy"), g32, b32])
with open(x32, "rb") as f:
    data = f.read()
with open(path("x_truncated.npy"), "wb") as f:
    f.write(data[:-10])
bad("truncated", [path("x_truncated.npy"), g32, b32])
with open(path("x_garbage.npy"), "wb") as f:
    f.write(b"not an npy file at all")
bad("not npy", [path("x_garbage.npy"), g32, b32])
bad("missing file", [path("nope.npy"), g32, b32])
