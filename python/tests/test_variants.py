"""Every builder, for every dtype, compiled and run on the CPU, against the
fp64 reference with numerics.md's acceptance rule."""

import numpy as np
import pytest

import norm_mlir as nm
from reference import (EPSILON, Statistics, affine, check_close, check_output,
                       k_n, random_input, unit_roundoff, as_f64)

DTYPES = ["f32", "f16", "bf16", "f64"]



def params(rng, n, dtype, center=1.0):
    return (rng.standard_normal(n) * 0.5 + center).astype(nm.numpy_dtype(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,run_shape,axes,offset", [
    ((None, 768), (5, 768), None, 0.0),
    ((3, 257), (3, 257), None, 100.0),  # odd length, mean >> std
    ((2, None, 6, 10), (2, 3, 6, 10), (2, 3), 10.0),  # two trailing dims
])
def test_layer_norm(rng, dtype, shape, run_shape, axes, offset):
    spec = nm.layer_norm(shape, dtype, axes=axes, eps=1e-5)
    f = nm.compile(spec)
    norm_axes = [len(shape) - 1] if axes is None else list(axes)
    x = random_input(rng, run_shape, dtype, offset)
    pshape = tuple(run_shape[a] for a in norm_axes)
    g = params(rng, pshape, dtype)
    b = params(rng, pshape, dtype, 0.0)
    y = f(x, g, b)
    assert y.dtype == nm.numpy_dtype(dtype) and y.shape == x.shape
    stats = Statistics(x, "standard", norm_axes, 1e-5)
    check_output(y, stats, dtype, dtype, affine(y, g, norm_axes, x.ndim),
                 affine(y, b, norm_axes, x.ndim))


@pytest.mark.parametrize("dtype", DTYPES)
def test_layer_norm_without_affine_narrowing_output(rng, dtype):
    out = "bf16" if dtype in ("f32", "f64") else dtype
    spec = nm.layer_norm((4, 96), dtype, scale=False, bias=False, out_dtype=out)
    assert [a.name for a in spec.arguments] == ["x"]
    x = random_input(rng, (4, 96), dtype, 3.0)
    y = nm.compile(spec)(x)
    assert y.dtype == nm.numpy_dtype(out)
    check_output(y, Statistics(x, "standard", [1], 1e-5), out, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,run_shape", [((None, 4096), (3, 4096)),
                                             ((7, 33), (7, 33))])
def test_rms_norm(rng, dtype, shape, run_shape):
    spec = nm.rms_norm(shape, dtype, eps=1e-6)
    x = random_input(rng, run_shape, dtype, 0.5)
    g = params(rng, run_shape[-1:], dtype)
    y = nm.compile(spec)(x, g)
    stats = Statistics(x, "rms", [1], 1e-6)
    check_output(y, stats, dtype, dtype, affine(y, g, [1], 2), centred=False)


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_norm_inference(rng, dtype):
    spec = nm.batch_norm((None, 16, 5, 7), dtype, eps=1e-5)
    assert [a.name for a in spec.arguments] == ["x", "scale", "bias", "mean", "var"]
    x = random_input(rng, (3, 16, 5, 7), dtype, 2.0)
    g, b = params(rng, 16, dtype), params(rng, 16, dtype, 0.0)
    mean = params(rng, 16, dtype, 2.0)
    var = (np.abs(rng.standard_normal(16)) + 0.5).astype(nm.numpy_dtype(dtype))
    y = nm.compile(spec)(x, g, b, mean, var)
    stats = Statistics(x, "standard", None, 1e-5, mean=mean, var=var,
                       stats_dims=[1])
    check_output(y, stats, dtype, dtype, affine(y, g, [1], 4),
                 affine(y, b, [1], 4))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("unbiased", [True, False])
def test_batch_norm_training(rng, dtype, unbiased):
    momentum = 0.1
    spec = nm.batch_norm((None, 8, 6, 6), dtype, training=True, eps=1e-5,
                         momentum=momentum, unbiased=unbiased)
    x = random_input(rng, (4, 8, 6, 6), dtype, 5.0)
    g, b = params(rng, 8, dtype), params(rng, 8, dtype, 0.0)
    rm = params(rng, 8, dtype, 0.0)
    rv = (np.abs(rng.standard_normal(8)) + 0.5).astype(nm.numpy_dtype(dtype))
    y, mean, var, new_rm, new_rv = nm.compile(spec)(x, g, b, rm, rv)
    axes = [0, 2, 3]
    stats = Statistics(x, "standard", axes, 1e-5)
    check_output(y, stats, dtype, dtype, affine(y, g, [1], 4),
                 affine(y, b, [1], 4))
    n, u, e = stats.n, unit_roundoff(dtype), EPSILON[dtype]
    stored = e if dtype in ("f16", "bf16") else 0.0
    ref_mean = stats.batch_mean.reshape(8)
    ref_var = stats.batch_var.reshape(8)
    mean_tol = k_n(n) * u * stats.mean_abs.reshape(8) + stored * np.abs(ref_mean)
    var_tol = 2 * k_n(n) * u * ref_var + stored * np.abs(ref_var)
    check_close(mean, ref_mean, mean_tol, "batch mean")
    check_close(var, ref_var, var_tol, "batch var")
    unbias = n / (n - 1) if unbiased else 1.0
    ref_rm = (1 - momentum) * as_f64(rm) + momentum * ref_mean
    ref_rv = (1 - momentum) * as_f64(rv) + momentum * ref_var * unbias
    check_close(new_rm, ref_rm, momentum * mean_tol + (k_n(n) * u + stored)
                * (np.abs(ref_rm) + np.abs(as_f64(rm))), "running mean")
    check_close(new_rv, ref_rv, momentum * unbias * var_tol + (k_n(n) * u + stored)
                * (np.abs(ref_rv) + np.abs(as_f64(rv))), "running var")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("affine_params", [False, True])
def test_instance_norm(rng, dtype, affine_params):
    spec = nm.instance_norm((2, 4, 9, 9), dtype, scale=affine_params,
                            bias=affine_params)
    x = random_input(rng, (2, 4, 9, 9), dtype, 1.0)
    args = [x]
    g = b = None
    if affine_params:
        g, b = params(rng, 4, dtype), params(rng, 4, dtype, 0.0)
        args += [g, b]
    y = nm.compile(spec)(*args)
    stats = Statistics(x, "standard", [2, 3], 1e-5)
    check_output(y, stats, dtype, dtype, affine(y, g, [1], 4),
                 affine(y, b, [1], 4))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,run_shape,groups,channel_dim", [
    ((2, 64, 8, 8), (2, 64, 8, 8), 32, 1),
    ((None, 12, None), (3, 12, 10), 3, 1),
    ((2, 5, 5, 20), (2, 5, 5, 20), 4, -1),  # channels last
])
def test_group_norm(rng, dtype, shape, run_shape, groups, channel_dim):
    spec = nm.group_norm(shape, dtype, groups=groups, channel_dim=channel_dim)
    x = random_input(rng, run_shape, dtype, 1.0)
    cdim = channel_dim % len(shape)
    c = run_shape[cdim]
    g, b = params(rng, c, dtype), params(rng, c, dtype, 0.0)
    y = nm.compile(spec)(x, g, b)
    axes = list(range(1, len(shape)))
    stats = Statistics(x, "standard", axes, 1e-5, groups=groups, group_dim=cdim)
    check_output(y, stats, dtype, dtype, affine(y, g, [cdim], x.ndim),
                 affine(y, b, [cdim], x.ndim))


@pytest.mark.parametrize("dtype", DTYPES)
def test_l2_normalize(rng, dtype):
    spec = nm.l2_normalize((None, 37), dtype, axis=1, eps=1e-12)
    x = random_input(rng, (6, 37), dtype)
    x[2] = 0  # a zero row normalizes to 0, not NaN
    y = nm.compile(spec)(x)
    assert np.all(as_f64(y[2]) == 0)
    check_output(y, Statistics(x, "l2", [1], 1e-12), dtype, dtype,
                 centred=False)


@pytest.mark.parametrize("dtype", DTYPES)
def test_weight_norm(rng, dtype):
    spec = nm.weight_norm((12, 3, 3, 3), dtype, dim=0)
    v = random_input(rng, (12, 3, 3, 3), dtype)
    g = params(rng, 12, dtype)
    w = nm.compile(spec)(v, g)
    stats = Statistics(v, "l2", [1, 2, 3], 0.0)
    check_output(w, stats, dtype, dtype, affine(w, g, [0], 4), centred=False)


@pytest.mark.parametrize("dtype", DTYPES)
def test_cosine_norm(rng, dtype):
    spec = nm.cosine_norm((None, 48), (10, 48), dtype, eps=1e-8)
    x = random_input(rng, (7, 48), dtype)
    w = random_input(rng, (10, 48), dtype)
    cos = nm.compile(spec)(x, w)
    acc = "f64" if dtype == "f64" else "f32"
    assert cos.dtype == nm.numpy_dtype(acc) and cos.shape == (7, 10)
    xn = as_f64(x) / np.maximum(np.linalg.norm(as_f64(x), axis=1, keepdims=True), 1e-8)
    wn = as_f64(w) / np.maximum(np.linalg.norm(as_f64(w), axis=1, keepdims=True), 1e-8)
    ref = xn @ wn.T
    # Unit rows: Σ|x̂_k·ŵ_k| <= 1, so a K_N·u budget per normalization and
    # one for the dot product.
    tol = 3 * k_n(48) * unit_roundoff(dtype)
    check_close(cos, ref, tol, "cosine")
    assert np.all(np.abs(as_f64(cos)) <= 1 + tol)


def test_openmp_kernel_matches_serial(rng):
    spec = nm.layer_norm((None, 1024), "f32")
    x = random_input(rng, (64, 1024), "f32", 1.0)
    g, b = params(rng, 1024, "f32"), params(rng, 1024, "f32", 0.0)
    serial = nm.compile(spec)(x, g, b)
    parallel = nm.compile(spec, openmp=True)(x, g, b)
    # Rows are independent: threads change nothing in a row's arithmetic.
    assert np.array_equal(serial, parallel)


def test_spec_given_as_text(rng):
    text = """
    func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32>
    func.func @rms(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
      %c0 = arith.constant 0 : index
      %n = tensor.dim %x, %c0 : tensor<?x64xf32>
      %i = tensor.empty(%n) : tensor<?x64xf32>
      %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
          ins(%x : tensor<?x64xf32>) outs(%i : tensor<?x64xf32>) -> tensor<?x64xf32>
      return %y : tensor<?x64xf32>
    }
    """
    f = nm.compile(text)
    assert f.name == "rms"
    x = random_input(rng, (5, 64), "f32")
    y = f(x)
    check_output(y, Statistics(x, "rms", [1], 1e-6), "f32", "f32",
                 centred=False)


def test_strided_inputs_are_made_contiguous(rng):
    spec = nm.layer_norm((None, 64), "f32", scale=False, bias=False)
    big = random_input(rng, (8, 128), "f32")
    view = big[1::2, ::2]  # neither rows nor columns contiguous
    y = nm.compile(spec)(view)
    check_output(y, Statistics(view, "standard", [1], 1e-5), "f32", "f32")


@pytest.mark.parametrize("out", ["bf16", "f16"])
def test_f64_to_16_bit_outputs_round_once(out):
    # y = (x - 0) / sqrt(1 + 0) · 1 + 0 = x exactly in f64, so the output is
    # the rounding of x. Just above a halfway point, rounding f64 to f32
    # first would land on the halfway point and then round to even (down):
    # the kernel must round once, correctly (up).
    bits = 8 if out == "bf16" else 11
    half_ulp, tiny = 2.0**-bits, 2.0**-30
    text = """
    func.func @f(%%x: tensor<6x1xf64>, %%m: tensor<1xf64>, %%v: tensor<1xf64>)
        -> tensor<6x1x%(t)s> {
      %%i = tensor.empty() : tensor<6x1x%(t)s>
      %%y = norm.normalize standard axes = [0] epsilon = 0.0
          ins(%%x : tensor<6x1xf64>) stats(%%m, %%v : tensor<1xf64>, tensor<1xf64>)
          outs(%%i : tensor<6x1x%(t)s>) -> tensor<6x1x%(t)s>
      return %%y : tensor<6x1x%(t)s>
    }""" % {"t": out}
    x = np.array([1 + half_ulp + tiny, 1 + half_ulp - tiny, -(1 + half_ulp + tiny),
                  1 + half_ulp, 1e300, 3e-300]).reshape(6, 1)
    y = nm.compile(text)(x, np.zeros(1), np.ones(1))
    # (ml_dtypes' own f64 -> bf16 cast rounds twice, so spelled out.)
    ulp = 2 * half_ulp
    expected = [1 + ulp, 1, -(1 + ulp), 1, np.inf, 0]
    assert as_f64(y).ravel().tolist() == expected, y.ravel()
