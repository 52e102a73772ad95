"""Calls that break a kernel's shapes fail cleanly (ValueError naming the
argument and dims, nothing written), result shapes come from the call
contract rather than a guess, and kernels are safe to compile and call from
several threads at once."""

import threading

import numpy as np
import pytest

import norm_mlir as nm
from reference import Statistics, as_f64, check_output, k_n, random_input, unit_roundoff


def ones(*shape):
    return np.ones(shape, np.float32)


# `affine_dims = [0]` ties the dynamic dim 0 of x to the scale's 16.
DYNAMIC_AFFINE_DIM = """
func.func @f(%x: tensor<?x16xf32>, %g: tensor<16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x16xf32>) scale(%g : tensor<16xf32>) affine_dims = [0]
      outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
"""


@pytest.mark.parametrize("rows", [20, 4000000])
def test_scale_fixes_a_dynamic_dim(rows):
    f = nm.compile(DYNAMIC_AFFINE_DIM)
    with pytest.raises(ValueError, match=r"f: argument 0 \(arg0\) has extent %d in "
                       r"dim 0, expected 16$" % rows):
        f(np.ones((rows, 16), np.float32), ones(16))
    assert f(ones(16, 16), ones(16)).shape == (16, 16)


def test_groups_must_divide_the_channels():
    f = nm.compile(nm.group_norm((None, None, 2, 2), "f32", groups=16, scale=False,
                                 bias=False))
    with pytest.raises(ValueError, match=r"argument 0 \(x\) has extent 8 in dim 1, "
                       r"which does not split into 16 groups"):
        f(ones(1, 8, 2, 2))
    # 320 channels in 30 groups would leave channels 300-319 unwritten.
    g = nm.compile(nm.group_norm((None, None, 1, 1), "f32", groups=30, scale=False,
                                 bias=False))
    with pytest.raises(ValueError, match="does not split into 30 groups"):
        g(ones(1, 320, 1, 1))


COSINE_TEXT = """
func.func @cos(%x: tensor<?x8xf32>, %w: tensor<?x8xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x8xf32>
  %n = tensor.dim %w, %c0 : tensor<?x8xf32>
  %xi = tensor.empty(%m) : tensor<?x8xf32>
  %wi = tensor.empty(%n) : tensor<?x8xf32>
  %xn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%x : tensor<?x8xf32>) outs(%xi : tensor<?x8xf32>) -> tensor<?x8xf32>
  %wn = norm.normalize l2 axes = [1] epsilon = 1.0e-08 ins(%w : tensor<?x8xf32>) outs(%wi : tensor<?x8xf32>) -> tensor<?x8xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%xn, %wn : tensor<?x8xf32>, tensor<?x8xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %c : tensor<?x?xf32>
}
"""


def test_result_shape_of_text_spec_comes_from_the_contract(rng):
    # x is 3x8, w 40x8: the result is 3x40, not the shape of x.
    f = nm.compile(COSINE_TEXT)
    assert [tuple(o.shape) for o in f.results] == [("arg0.0", "arg1.0")]
    x, w = random_input(rng, (3, 8), "f32"), random_input(rng, (40, 8), "f32")
    cos = f(x, w)
    assert cos.shape == (3, 40)
    xn = as_f64(x) / np.linalg.norm(as_f64(x), axis=1, keepdims=True)
    wn = as_f64(w) / np.linalg.norm(as_f64(w), axis=1, keepdims=True)
    assert np.max(np.abs(cos - xn @ wn.T)) <= 3 * k_n(8) * unit_roundoff("f32")


LAYER_NORM_SAVED_TEXT = """
func.func @ln(%x: tensor<?x32xf32>, %g: tensor<32xf32>) -> (tensor<?x32xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x32xf32>
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %m = tensor.empty(%n) : tensor<?xf32>
  %r = tensor.empty(%n) : tensor<?xf32>
  %y:3 = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x32xf32>) scale(%g : tensor<32xf32>) affine_dims = [1]
      outs(%e : tensor<?x32xf32>) saved(%m, %r : tensor<?xf32>, tensor<?xf32>)
      -> tensor<?x32xf32>, tensor<?xf32>, tensor<?xf32>
  return %y#0, %y#1, %y#2 : tensor<?x32xf32>, tensor<?xf32>, tensor<?xf32>
}
"""


def test_saved_statistics_of_text_spec_have_one_value_per_row(rng):
    f = nm.compile(LAYER_NORM_SAVED_TEXT)
    x = random_input(rng, (5, 32), "f32", 3.0)
    y, mean, rstd = f(x, ones(32))
    assert y.shape == (5, 32) and mean.shape == (5,) and rstd.shape == (5,)
    stats = Statistics(x, "standard", [1], 1e-5)
    check_output(y, stats, "f32", "f32")
    assert np.allclose(mean, as_f64(x).mean(axis=1), rtol=1e-6)


def test_cosine_builder_with_two_dynamic_row_counts(rng):
    f = nm.compile(nm.cosine_norm((None, 8), (None, 8)))
    assert f(random_input(rng, (3, 8), "f32"), random_input(rng, (5, 8), "f32")).shape == (3, 5)
    with pytest.raises(ValueError, match=r"argument 1 \(w\) has extent 9 in dim 1, "
                       r"expected 8"):
        f(ones(3, 8), ones(5, 9))


def run_threads(count, body):
    errors = []

    def guarded(index):
        try:
            body(index)
        except Exception as error:  # reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def test_one_kernel_called_from_four_threads(rng):
    f = nm.compile(nm.layer_norm((None, 256), "f32"))
    inputs = [random_input(np.random.default_rng(i), (4, 256), "f32", float(i))
              for i in range(4)]
    g, b = ones(256), np.zeros(256, np.float32)
    expected = [f(x, g, b) for x in inputs]

    def body(i):
        for _ in range(1000):
            assert np.array_equal(f(inputs[i], g, b), expected[i])

    run_threads(4, body)
    for x, y in zip(inputs, expected):
        check_output(y, Statistics(x, "standard", [1], 1e-5), "f32", "f32")


def test_failing_calls_from_four_threads_keep_their_own_errors():
    f = nm.compile(nm.layer_norm((None, 64), "f32"))

    def body(i):
        for _ in range(500):
            with pytest.raises(ValueError) as error:
                f(ones(2, 64), ones(60 + i), ones(64))
            assert "has extent %d in dim 0, expected 64" % (60 + i) in str(error.value)

    run_threads(4, body)


def test_four_threads_compile_different_kernels(rng):
    specs = [nm.layer_norm((None, 96), "f32"), nm.rms_norm((None, 160), "f32"),
             nm.l2_normalize((None, 40), "f32"),
             nm.group_norm((None, 16, 3, 3), "f32", groups=4, scale=False, bias=False)]
    kernels = [None] * 4

    def body(i):
        kernels[i] = nm.compile(specs[i])

    run_threads(4, body)
    x = random_input(rng, (3, 96), "f32")
    check_output(kernels[0](x, ones(96), np.zeros(96, np.float32)),
                 Statistics(x, "standard", [1], 1e-5), "f32", "f32")
    x = random_input(rng, (3, 160), "f32")
    check_output(kernels[1](x, ones(160)), Statistics(x, "rms", [1], 1e-6), "f32", "f32")
    x = random_input(rng, (3, 40), "f32")
    check_output(kernels[2](x), Statistics(x, "l2", [1], 1e-12), "f32", "f32")
    x = random_input(rng, (2, 16, 3, 3), "f32")
    check_output(kernels[3](x), Statistics(x, "standard", [1, 2, 3], 1e-5, groups=4,
                                           group_dim=1), "f32", "f32")
