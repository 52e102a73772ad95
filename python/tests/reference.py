"""The fp64 reference and the acceptance rule of shared/notes/numerics.md
(§2.1-2.3), in numpy, for the pytest suite.

The reference is computed in f64 from the inputs as stored (already rounded
to their dtype), two-pass (mean, then centered squares), and rounded to the
output dtype. An output element passes when
    |got - r| <= 2·eps_T·M + K_N·u·S + tau_T
with M = max(|r|, |γ·x̂| + |β|), S = |γ|·(|x̂| + 2κ) + |β| (|γ·x̂| for RMS and
L2), K_N = 2·ceil(log2 N) + 16, u the unit roundoff of the accumulation
type and eps_T the machine epsilon of the output type.
"""

import math

import numpy as np

import norm_mlir as nm

EPSILON = {"f16": 2.0**-10, "bf16": 2.0**-7, "f32": 2.0**-23, "f64": 2.0**-52}
SMALLEST_SUBNORMAL = {"f16": 2.0**-24, "bf16": 2.0**-133, "f32": 2.0**-149,
                      "f64": 5e-324}


def unit_roundoff(dtype):
    """Of the accumulation type: f32 for f16/bf16/f32, f64 for f64."""
    return 2.0**-53 if dtype == "f64" else 2.0**-24


def k_n(n):
    return 2 * math.ceil(math.log2(max(n, 2))) + 16


def as_f64(array):
    return np.asarray(array).astype(np.float64)


def round_to(values, dtype):
    return values.astype(nm.numpy_dtype(dtype)).astype(np.float64)


def random_input(rng, shape, dtype, offset=0.0, spread=1.0):
    """Gaussian data around `offset`, rounded to `dtype`."""
    data = rng.standard_normal(shape) * spread + offset
    return data.astype(nm.numpy_dtype(dtype))


class Statistics:
    """Per-element broadcastable statistics of a normalization."""

    def __init__(self, x, mode, axes, eps, groups=None, group_dim=None,
                 mean=None, var=None, stats_dims=None):
        x = as_f64(x)
        self.shape = x.shape
        if mean is not None:
            # Given statistics, broadcast along `stats_dims`.
            bshape = [1] * x.ndim
            for d in stats_dims:
                bshape[d] = x.shape[d]
            self.mean = as_f64(mean).reshape(bshape)
            self.var = as_f64(var).reshape(bshape)
            self.sigma = np.sqrt(self.var + eps)
            self.xhat = (x - self.mean) / self.sigma
            # The subtraction's rounding, relative to sigma.
            self.kappa = (np.abs(x) + np.abs(self.mean)) / self.sigma / 2
            self.n = 1
            return
        view, view_axes = x, tuple(axes)
        if groups:
            # Split the group dim into (groups, channels per group); the
            # reduction covers the channels of a group.
            c = x.shape[group_dim]
            view = x.reshape(x.shape[:group_dim] + (groups, c // groups)
                             + x.shape[group_dim + 1:])
            view_axes = tuple(a + 1 if a > group_dim else a for a in axes)
            view_axes = tuple(a + 1 if a == group_dim else a for a in view_axes)
        self.n = int(np.prod([view.shape[a] for a in view_axes]))
        if mode == "standard":
            mean = view.mean(axis=view_axes, keepdims=True)
            var = ((view - mean) ** 2).mean(axis=view_axes, keepdims=True)
            sigma = np.sqrt(var + eps)
            xhat = (view - mean) / sigma
            kappa = np.abs(view).mean(axis=view_axes, keepdims=True) / sigma
        elif mode == "rms":
            mean, var = None, None
            sigma = np.sqrt((view**2).mean(axis=view_axes, keepdims=True) + eps)
            xhat = view / sigma
            kappa = np.zeros_like(sigma)
        elif mode == "l2":
            mean, var = None, None
            norm = np.sqrt((view**2).sum(axis=view_axes, keepdims=True))
            sigma = np.maximum(norm, eps)
            with np.errstate(invalid="ignore", divide="ignore"):
                xhat = np.where(sigma > 0, view / np.where(sigma > 0, sigma, 1), 0.0)
            kappa = np.zeros_like(sigma)
        else:
            raise ValueError(mode)
        self.mode = mode
        self.view_shape = view.shape
        self.batch_mean = mean
        self.batch_var = var
        self.sigma = sigma
        self.xhat = xhat.reshape(x.shape)
        self.kappa = np.broadcast_to(kappa, view.shape).reshape(x.shape)
        self.mean_abs = np.abs(view).mean(axis=view_axes, keepdims=True)


def affine(values, params, dims, ndim):
    """Broadcasts a parameter indexed by `dims` of an ndim tensor."""
    if params is None:
        return None
    shape = [1] * ndim
    for i, d in enumerate(dims):
        shape[d] = params.shape[i]
    return as_f64(params).reshape(shape)


def check_output(got, stats, out_dtype, acc_dtype, scale=None, bias=None,
                 centred=True, what="y"):
    """Asserts the per-element rule of §2.2; returns max(err / tol)."""
    xhat = stats.xhat
    gamma = np.ones_like(xhat) if scale is None else np.broadcast_to(scale, xhat.shape)
    beta = np.zeros_like(xhat) if bias is None else np.broadcast_to(bias, xhat.shape)
    r64 = gamma * xhat + beta
    r = round_to(r64, out_dtype)
    m = np.maximum(np.abs(r), np.abs(gamma * xhat) + np.abs(beta))
    if centred:
        s = np.abs(gamma) * (np.abs(xhat) + 2 * stats.kappa) + np.abs(beta)
    else:
        s = np.abs(gamma * xhat) + np.abs(beta)
    tol = (2 * EPSILON[out_dtype] * m
           + k_n(stats.n) * unit_roundoff(acc_dtype) * s
           + 2 * SMALLEST_SUBNORMAL[out_dtype])
    g = as_f64(got)
    assert g.shape == r.shape, (what, g.shape, r.shape)
    assert np.array_equal(np.isfinite(g), np.isfinite(r)), (
        "%s: NaN/Inf pattern differs from the reference" % what)
    finite = np.isfinite(r)
    err = np.abs(g - r)[finite]
    ratio = (err / tol[finite]).max(initial=0.0)
    worst = np.argmax(err / tol[finite]) if err.size else 0
    assert ratio <= 1.0, (
        "%s: max err/tol = %.3g (err %.3g, tol %.3g)"
        % (what, ratio, err.flat[worst], tol[finite].flat[worst]))
    return ratio


def check_close(got, expected, tol, what):
    """|got - expected| <= tol elementwise (tol broadcastable)."""
    g, e = as_f64(got), as_f64(expected)
    assert g.shape == e.shape, (what, g.shape, e.shape)
    err = np.abs(g - e)
    bound = np.broadcast_to(tol, err.shape)
    ratio = (err / np.maximum(bound, 1e-300)).max(initial=0.0)
    assert np.all(err <= bound), "%s: max err/tol = %.3g" % (what, ratio)
    return ratio
