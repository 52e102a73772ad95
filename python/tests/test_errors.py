"""Bad specs, bad builder arguments and bad calls raise clear exceptions."""

import numpy as np
import pytest

import norm_mlir as nm


@pytest.fixture(scope="module")
def layer_norm():
    return nm.compile(nm.layer_norm((None, 64), "f32"))


def ones(*shape, dtype=np.float32):
    return np.ones(shape, dtype)


def test_wrong_argument_count(layer_norm):
    with pytest.raises(TypeError, match=r"layer_norm\(\) takes 3 arguments "
                       r"\(x, scale, bias\), got 2"):
        layer_norm(ones(2, 64), ones(64))


def test_wrong_dtype(layer_norm):
    with pytest.raises(TypeError, match=r"argument 0 \(x\): expected dtype f32 "
                       r"\(float32\), got float64"):
        layer_norm(ones(2, 64, dtype=np.float64), ones(64), ones(64))


def test_wrong_static_extent(layer_norm):
    with pytest.raises(ValueError, match=r"argument 1 \(scale\) has extent 63 in "
                       r"dim 0, expected 64$"):
        layer_norm(ones(2, 64), ones(63), ones(64))


def test_wrong_rank(layer_norm):
    with pytest.raises(ValueError, match=r"argument 0 \(x\): expected rank 2"):
        layer_norm(ones(2, 2, 64), ones(64), ones(64))


def test_tied_dynamic_dims_must_agree():
    f = nm.compile(nm.batch_norm((None, None, 4), "f32"))
    x = ones(2, 8, 4)
    with pytest.raises(ValueError, match=r"argument 1 \(scale\) has extent 7 in dim "
                       r"0, expected 8 \(dim 1 of argument 0 \(x\)\)"):
        f(x, ones(7), ones(8), ones(8), ones(8))


def test_not_an_array(layer_norm):
    with pytest.raises(TypeError, match="expected a numpy array or an object "
                       "with __dlpack__, got list"):
        layer_norm([[1.0] * 64], ones(64), ones(64))


def test_spec_that_does_not_verify():
    text = """
    func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %i = tensor.empty() : tensor<4x8xf32>
      %y = norm.normalize standard axes = [2] epsilon = 1.0e-05
          ins(%x : tensor<4x8xf32>) outs(%i : tensor<4x8xf32>) -> tensor<4x8xf32>
      return %y : tensor<4x8xf32>
    }"""
    with pytest.raises(nm.CompileError, match=r"error: 'norm.normalize' op 'axes' "
                       r"entry 2 is out of range for an input of rank 2"):
        nm.compile(text)


def test_spec_that_does_not_parse():
    with pytest.raises(nm.CompileError, match="does not parse or verify"):
        nm.compile("func.func @f(")


def test_missing_entry():
    with pytest.raises(nm.CompileError, match="no function @nope in the spec"):
        nm.compile(nm.rms_norm((4, 8)), entry="nope")


def test_no_public_function():
    with pytest.raises(nm.CompileError, match="no public function"):
        nm.compile("func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32>")


def test_cuda_target_is_aot_only():
    with pytest.raises(ValueError, match="only target='cpu'"):
        nm.compile(nm.rms_norm((4, 8)), target="cuda")


def test_not_a_spec():
    with pytest.raises(TypeError, match="expected a Spec"):
        nm.compile(42)


@pytest.mark.parametrize("build,match", [
    (lambda: nm.layer_norm((4, 8), "f8"), "unsupported dtype 'f8'"),
    (lambda: nm.layer_norm((4, 8), axes=[2]), r"axes: 2 is out of range for rank 2"),
    (lambda: nm.layer_norm((4, 8), axes=[1, 1]), "without repeats"),
    (lambda: nm.layer_norm((4, -1)), "is not None or an int >= 0"),
    (lambda: nm.layer_norm((), "f32"), "rank-0"),
    (lambda: nm.layer_norm((4, 8), eps=-1.0), "eps must be a finite number >= 0"),
    (lambda: nm.layer_norm((4, 8), eps=float("inf")), "eps must be finite"),
    (lambda: nm.group_norm((2, 30, 4), groups=4), "30 channels do not split into 4 groups"),
    (lambda: nm.group_norm((2, 32, 4), channel_dim=0), "dim 0 is the batch"),
    (lambda: nm.batch_norm((2, 8), training=True, momentum=2.0), r"momentum must be in \[0, 1\]"),
    (lambda: nm.instance_norm((2, 8)), "at least one spatial dim"),
    (lambda: nm.cosine_norm((4, 8), (3, 9)), "x has K = 8, w has K = 9"),
    (lambda: nm.weight_norm((8,)), "besides `dim`"),
])
def test_builder_arguments(build, match):
    with pytest.raises(ValueError, match=match):
        build()


def test_dtype_spellings():
    assert [nm.canonical_dtype(d) for d in
            ("f32", "float32", np.float32, np.dtype("float16"), "bfloat16", "double")] \
        == ["f32", "f32", "f32", "f16", "bf16", "f64"]
