"""aot() writes what norm-compile writes; its shared library runs the same
kernel as compile()."""

import os

import numpy as np
import pytest

import norm_mlir as nm
from reference import Statistics, affine, check_output


def test_aot_files_and_library(tmp_path):
    spec = nm.group_norm((None, 32, 6, 6), "f32", groups=8)
    out = nm.aot(spec, str(tmp_path))
    for path in out:
        assert os.path.getsize(path) > 0, path
    header = open(out.header).read()
    assert "int norm_group_norm(void *const *args, const int64_t *dims, " \
        "int threads);" in header
    assert "groups = 8 on 1" in header
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 32, 6, 6)).astype(np.float32) + 2
    g = rng.standard_normal(32).astype(np.float32)
    b = rng.standard_normal(32).astype(np.float32)
    y = nm.load_library(out.shared_library, spec)(x, g, b)
    stats = Statistics(x, "standard", [1, 2, 3], 1e-5, groups=8, group_dim=1)
    check_output(y, stats, "f32", "f32", affine(y, g, [1], 4), affine(y, b, [1], 4))
    # The library checks its arguments like a JIT kernel.
    with pytest.raises(ValueError, match=r"norm_group_norm: argument 0 \(x\) has "
                       r"extent 16 in dim 1, expected 32"):
        nm.load_library(out.shared_library, spec)(x[:, :16], g, b)


def test_aot_launcher_checks_dynamic_dims(tmp_path):
    # The dims the launcher takes must fit the call contract: the scale's
    # extent is the input's dim 1, whatever dims[] says.
    spec = nm.batch_norm((None, None, 4), "f32")
    out = nm.aot(spec, str(tmp_path))
    f = nm.load_library(out.shared_library, spec)
    ones = lambda *s: np.ones(s, np.float32)
    assert f(ones(2, 8, 4), ones(8), ones(8), ones(8), ones(8)).shape == (2, 8, 4)
    with pytest.raises(ValueError, match=r"norm_batch_norm: argument 1 \(scale\) "
                       r"has extent 7 in dim 0, expected 8 \(dim 1 of argument 0 "
                       r"\(x\)\)"):
        f(ones(2, 8, 4), ones(7), ones(8), ones(8), ones(8))



def test_aot_without_libraries_and_for_cuda(tmp_path):
    spec = nm.rms_norm((None, 1024), "bf16")
    cpu = nm.aot(spec, str(tmp_path / "cpu"), libraries=False, name="rms")
    assert cpu.static_library is None and os.path.exists(cpu.object)
    cuda = nm.aot(spec, str(tmp_path / "cuda"), target="cuda", libraries=False)
    assert "void *stream" in open(cuda.header).read()


def test_aot_errors(tmp_path):
    with pytest.raises(ValueError, match="not a C identifier"):
        nm.aot(nm.rms_norm((4, 8)), str(tmp_path), name="a-b")
    with pytest.raises(ValueError, match="target must be 'cpu' or 'cuda'"):
        nm.aot(nm.rms_norm((4, 8)), str(tmp_path), target="rocm")
    with pytest.raises(TypeError, match="needs the Spec"):
        nm.load_library("nowhere.so", "func.func @f()")


def test_aot_cpu_dispatch(tmp_path):
    spec = nm.layer_norm((None, 256), "f32")
    out = nm.aot(spec, str(tmp_path), cpu_dispatch=True)
    assert "const char *norm_layer_norm_cpu_level(void);" in open(out.header).read()
    library = nm.load_library(out.shared_library, spec)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 256)).astype(np.float32)
    g = rng.standard_normal(256).astype(np.float32)
    b = rng.standard_normal(256).astype(np.float32)
    y = library(x, g, b)
    check_output(y, Statistics(x, "standard", [1], 1e-5), "f32", "f32",
                 affine(y, g, [1], 2), affine(y, b, [1], 2))
    level = library._library.norm_layer_norm_cpu_level
    level.restype = __import__("ctypes").c_char_p
    assert level().decode() in ("x86-64", "x86-64-v3", "x86-64-v4")
