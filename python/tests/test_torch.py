"""Against torch.nn.functional, where torch is installed (skipped, not
failed, where it is not). Torch tensors go in through DLPack and come back
as torch tensors."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

import norm_mlir as nm  # noqa: E402

TORCH_DTYPES = {"f32": torch.float32, "f16": torch.float16,
                "bf16": torch.bfloat16, "f64": torch.float64}
# numerics.md §2.2's relative budget of one output rounding (2·eps_T) and
# PyTorch's own f32 atol.
TOLERANCE = {"f32": (1e-5, 1e-5), "f64": (1e-12, 1e-12),
             "f16": (2e-3, 1e-3), "bf16": (1.6e-2, 1e-2)}


def randn(*shape, dtype="f32", offset=0.0):
    generator = torch.Generator().manual_seed(sum(shape) + len(dtype))
    data = torch.randn(*shape, generator=generator, dtype=torch.float64) + offset
    return data.to(TORCH_DTYPES[dtype])


def close(got, expected, dtype):
    assert isinstance(got, torch.Tensor) and got.dtype == expected.dtype
    rtol, atol = TOLERANCE[dtype]
    torch.testing.assert_close(got, expected, rtol=rtol, atol=atol)


def reference(fn, dtype, *tensors):
    """torch computes half types in f32 here, as the kernels do."""
    if dtype in ("f16", "bf16"):
        out = fn(*[t.float() for t in tensors])
        return out.to(TORCH_DTYPES[dtype])
    return fn(*tensors)


@pytest.mark.parametrize("dtype", list(TORCH_DTYPES))
def test_layer_norm(dtype):
    x, g, b = randn(4, 96, dtype=dtype, offset=3), randn(96, dtype=dtype), randn(96, dtype=dtype)
    y = nm.compile(nm.layer_norm((None, 96), dtype))(x, g, b)
    close(y, reference(lambda x, g, b: F.layer_norm(x, (96,), g, b, 1e-5), dtype, x, g, b), dtype)


@pytest.mark.parametrize("dtype", list(TORCH_DTYPES))
def test_rms_norm(dtype):
    if not hasattr(F, "rms_norm"):
        pytest.skip("torch.nn.functional.rms_norm needs torch >= 2.4")
    x, g = randn(4, 128, dtype=dtype), randn(128, dtype=dtype)
    y = nm.compile(nm.rms_norm((None, 128), dtype, eps=1e-6))(x, g)
    close(y, reference(lambda x, g: F.rms_norm(x, (128,), g, 1e-6), dtype, x, g), dtype)


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_batch_norm(dtype):
    x = randn(4, 8, 5, 5, dtype=dtype, offset=1)
    g, b = randn(8, dtype=dtype), randn(8, dtype=dtype)
    rm, rv = randn(8, dtype=dtype), randn(8, dtype=dtype).abs() + 0.5
    y = nm.compile(nm.batch_norm((None, 8, 5, 5), dtype))(x, g, b, rm, rv)
    close(y, F.batch_norm(x, rm, rv, g, b, training=False, eps=1e-5), dtype)
    y, mean, var, new_rm, new_rv = nm.compile(
        nm.batch_norm((None, 8, 5, 5), dtype, training=True, momentum=0.1))(x, g, b, rm, rv)
    torch_rm, torch_rv = rm.clone(), rv.clone()
    expected = F.batch_norm(x, torch_rm, torch_rv, g, b, training=True,
                            momentum=0.1, eps=1e-5)
    close(y, expected, dtype)
    close(new_rm, torch_rm, dtype)
    close(new_rv, torch_rv, dtype)
    close(mean, x.mean(dim=(0, 2, 3)), dtype)
    close(var, x.var(dim=(0, 2, 3), unbiased=False), dtype)


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_instance_and_group_norm(dtype):
    x = randn(2, 12, 7, 7, dtype=dtype, offset=2)
    g, b = randn(12, dtype=dtype), randn(12, dtype=dtype)
    y = nm.compile(nm.instance_norm((2, 12, 7, 7), dtype, scale=True, bias=True))(x, g, b)
    close(y, F.instance_norm(x, weight=g, bias=b, eps=1e-5), dtype)
    y = nm.compile(nm.group_norm((None, 12, 7, 7), dtype, groups=3))(x, g, b)
    close(y, F.group_norm(x, 3, g, b, 1e-5), dtype)


@pytest.mark.parametrize("dtype", list(TORCH_DTYPES))
def test_normalize_and_cosine(dtype):
    x, w = randn(6, 32, dtype=dtype), randn(5, 32, dtype=dtype)
    y = nm.compile(nm.l2_normalize((None, 32), dtype))(x)
    close(y, reference(lambda x: F.normalize(x, dim=1, eps=1e-12), dtype, x), dtype)
    cos = nm.compile(nm.cosine_norm((6, 32), (5, 32), dtype))(x, w)
    wide = torch.float64 if dtype == "f64" else torch.float32
    expected = F.normalize(x.to(wide), dim=1, eps=1e-8) @ F.normalize(w.to(wide), dim=1, eps=1e-8).T
    close(cos, expected, "f64" if dtype == "f64" else "f32")


@pytest.mark.parametrize("dtype", ["f32", "f64"])
def test_weight_norm(dtype):
    v, g = randn(8, 4, 3, 3, dtype=dtype), randn(8, dtype=dtype)
    w = nm.compile(nm.weight_norm((8, 4, 3, 3), dtype))(v, g)
    expected = torch._weight_norm(v, g.reshape(8, 1, 1, 1), 0)
    close(w, expected, dtype)
