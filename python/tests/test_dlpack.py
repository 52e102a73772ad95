"""Kernels take any CPU object with __dlpack__, without copying it first."""

import numpy as np
import pytest

import norm_mlir as nm
from reference import Statistics, check_output


class Foreign:
    """An array type norm_mlir does not know: DLPack only."""

    def __init__(self, array, device=(1, 0)):
        self._array = array
        self._device = device

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._device


def test_dlpack_inputs():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 40)).astype(np.float32)
    f = nm.compile(nm.rms_norm((None, 40), "f32", scale=False))
    y = f(Foreign(x))
    # The producer's module has no from_dlpack: numpy arrays come back.
    assert isinstance(y, np.ndarray)
    check_output(y, Statistics(x, "rms", [1], 1e-6), "f32", "f32",
                 centred=False)
    assert np.array_equal(y, f(x))


def test_dlpack_device_memory_is_refused():
    f = nm.compile(nm.rms_norm((None, 40), "f32", scale=False))
    with pytest.raises(ValueError, match="lives on DLPack device"):
        f(Foreign(np.zeros((2, 40), np.float32), device=(2, 0)))

