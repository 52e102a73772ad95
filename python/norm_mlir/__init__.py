"""norm_mlir: normalization kernels from the norm MLIR dialect, in Python.

    import numpy as np
    import norm_mlir as nm

    spec = nm.layer_norm((None, 768), "f32")      # norm-dialect text
    f = nm.compile(spec)                          # JIT, this CPU
    x = np.random.randn(4, 768).astype(np.float32)
    y = f(x, np.ones(768, np.float32), np.zeros(768, np.float32))
    nm.aot(spec, "out")                           # out/layer_norm.{o,h}, liblayer_norm.{a,so}

Builders: layer_norm, rms_norm, batch_norm, instance_norm, group_norm,
l2_normalize, weight_norm, cosine_norm. Kernels take numpy arrays (bf16 as
ml_dtypes.bfloat16) or any object with __dlpack__ on the CPU (torch tensors),
and check dtypes and shapes before running.
"""

from .compiler import (
    AotOutputs,
    CompileError,
    Kernel,
    KernelError,
    LibraryKernel,
    aot,
    compile,
    load_library,
    numpy_dtype,
)
from .specs import (
    DTYPES,
    Operand,
    Spec,
    batch_norm,
    canonical_dtype,
    cosine_norm,
    group_norm,
    instance_norm,
    l2_normalize,
    layer_norm,
    rms_norm,
    weight_norm,
)

__all__ = [
    "AotOutputs",
    "CompileError",
    "DTYPES",
    "Kernel",
    "KernelError",
    "LibraryKernel",
    "Operand",
    "Spec",
    "aot",
    "batch_norm",
    "canonical_dtype",
    "compile",
    "cosine_norm",
    "group_norm",
    "instance_norm",
    "l2_normalize",
    "layer_norm",
    "load_library",
    "numpy_dtype",
    "rms_norm",
    "weight_norm",
]
