"""Compiling specs: JIT kernels callable on arrays, and ahead-of-time
libraries (what norm-compile writes)."""

import collections
import ctypes
import os
import re
import sys
import threading

import numpy as np

from . import _capi
from ._capi import MlirStringRef, lib
from .specs import Operand, Spec, canonical_dtype


class CompileError(RuntimeError):
    """The spec did not parse, verify or lower; the message holds MLIR's
    diagnostics."""


class KernelError(RuntimeError):
    """The kernel refused a call (the C API's reason)."""


def _bfloat16():
    try:
        import ml_dtypes
    except ImportError:
        return None
    return np.dtype(ml_dtypes.bfloat16)


def numpy_dtype(dtype):
    """The numpy dtype of a norm dtype (bf16 is ml_dtypes.bfloat16)."""
    dtype = canonical_dtype(dtype)
    if dtype == "bf16":
        bf16 = _bfloat16()
        if bf16 is None:
            raise TypeError("bf16 arrays need the ml_dtypes package "
                            "(pip install ml_dtypes)")
        return bf16
    return np.dtype({"f16": np.float16, "f32": np.float32, "f64": np.float64}[dtype])


def _entry_of(text):
    """The first public function of a spec's text."""
    for match in re.finditer(r"func\.func\s+(private\s+)?@([\w$.]+)", text):
        if not match.group(1):
            return match.group(2)
    raise CompileError("the spec has no public function")


def _spec_text(spec):
    if isinstance(spec, Spec):
        return spec.text, spec.name
    if isinstance(spec, str):
        return spec, None
    raise TypeError("expected a Spec (norm_mlir.layer_norm(...), ...) or "
                    "MLIR text, got %s" % type(spec).__name__)


class _Module:
    """A parsed spec in a context of its own, diagnostics kept."""

    def __init__(self, text):
        self.diagnostics = _capi.Diagnostics()
        self.module = lib.mlirModuleCreateParse(self.diagnostics.context,
                                                MlirStringRef.of(text))
        if not self.module.ptr:
            message = self.diagnostics.take()
            self.diagnostics.close()
            raise CompileError("the spec does not parse or verify:\n" + message)

    def fail(self, what):
        return CompileError(what + ":\n" + self.diagnostics.take())

    def close(self):
        if self.module.ptr:
            lib.mlirModuleDestroy(self.module)
            self.module = _capi.MlirModule()
        self.diagnostics.close()


def _what(index, operand):
    return "argument %d (%s)" % (index, operand.name)


def _shape_text(operand):
    return "(%s)" % ", ".join(
        "?" if isinstance(d, str) else str(d) for d in operand.shape)


class _Callable:
    """Argument checks, result allocation and conversions shared by JIT and
    ahead-of-time kernels."""

    def _set_signature(self, name, arguments, results):
        self.name = name
        self.arguments = list(arguments)
        self.results = list(results)
        # numpy dtypes, resolved once (bf16 needs ml_dtypes, checked then).
        self._argument_dtypes = [numpy_dtype(o.dtype) for o in self.arguments]
        self._result_dtypes = [numpy_dtype(o.dtype) for o in self.results]

    def __repr__(self):
        return "<%s %s(%s) -> (%s)>" % (
            type(self).__name__, self.name,
            ", ".join(map(repr, self.arguments)),
            ", ".join(map(repr, self.results)))

    def _as_array(self, value, index):
        operand = self.arguments[index]
        producer = None
        if value.__class__ is np.ndarray or isinstance(value, np.ndarray):
            array = value
        elif hasattr(value, "__dlpack__"):
            producer = sys.modules.get(type(value).__module__.split(".")[0])
            array = _from_torch(value) if producer is not None and \
                producer.__name__ == "torch" else None
            if array is None:
                array = _from_dlpack(value, _what(index, operand))
        else:
            raise TypeError("%s: expected a numpy array or an object with "
                            "__dlpack__, got %s"
                            % (_what(index, operand), type(value).__name__))
        expected = self._argument_dtypes[index]
        if array.dtype != expected:
            raise TypeError("%s: expected dtype %s (%s), got %s"
                            % (_what(index, operand), operand.dtype, expected,
                               array.dtype))
        if not array.flags.c_contiguous:
            array = np.ascontiguousarray(array)
        return array, producer

    def _check_ranks(self, arrays):
        # The C side reads the extents of each array by the signature's rank.
        for index, (array, operand) in enumerate(zip(arrays, self.arguments)):
            if array.ndim != len(operand.shape):
                raise ValueError("%s: expected rank %d %s, got shape %s"
                                 % (_what(index, operand), len(operand.shape),
                                    _shape_text(operand), array.shape))

    def _named(self, message):
        """The C side's "argument #i"/"result #i", with the operands' names."""
        def name(match):
            operands = self.arguments if match.group(1) == "argument" else \
                self.results
            index = int(match.group(2))
            if index < len(operands):
                return "%s %d (%s)" % (match.group(1), index,
                                       operands[index].name)
            return match.group(0)
        return re.sub(r"\b(argument|result) #(\d+)", name, message)

    def __call__(self, *args):
        if len(args) != len(self.arguments):
            raise TypeError("%s() takes %d arguments (%s), got %d" % (
                self.name, len(self.arguments),
                ", ".join(o.name for o in self.arguments), len(args)))
        converted = [self._as_array(a, i) for i, a in enumerate(args)]
        arrays = [a for a, _ in converted]
        self._check_ranks(arrays)
        outputs = [np.empty(shape, dtype=dtype) for shape, dtype in
                   zip(self._result_shapes(arrays), self._result_dtypes)]
        self._invoke(arrays + outputs)
        producer = next((p for _, p in converted if p is not None), None)
        if producer is not None and hasattr(producer, "from_dlpack"):
            outputs = [_to_dlpack_of(producer, o) for o in outputs]
        return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _from_dlpack(value, what):
    device = getattr(value, "__dlpack_device__", lambda: (1, 0))()
    if device[0] != 1:  # kDLCPU
        raise ValueError("%s: the array lives on DLPack device %r; norm_mlir "
                         "kernels take host (CPU) memory" % (what, device))
    try:
        return np.from_dlpack(value)
    except (TypeError, BufferError, RuntimeError) as error:
        # numpy has no bf16: reinterpret a torch bf16 tensor's bits.
        view = getattr(value, "view", None)
        bf16 = _bfloat16()
        if view is not None and bf16 is not None and "bfloat16" in str(
                getattr(value, "dtype", "")):
            import torch

            return np.from_dlpack(value.view(torch.int16)).view(bf16)
        raise TypeError("%s: cannot read it through DLPack: %s" % (what, error))


def _from_torch(tensor):
    """A CPU torch tensor's memory as numpy, without DLPack's per-call cost
    (a few microseconds per tensor); None where only DLPack will do."""
    import torch

    if tensor.device.type != "cpu" or tensor.requires_grad:
        return None
    if tensor.dtype == torch.bfloat16:
        bf16 = _bfloat16()
        return None if bf16 is None else tensor.view(torch.int16).numpy().view(bf16)
    try:
        return tensor.numpy()
    except (TypeError, RuntimeError):
        return None


def _to_dlpack_of(producer, array):
    if producer.__name__ == "torch":
        import torch

        if array.dtype == _bfloat16():
            return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
        return torch.from_numpy(array)
    return producer.from_dlpack(array)


def _signature_from_kernel(handle):
    """Operands read from the compiled kernel, for specs given as text: a
    dynamic dim is named after the first dim its call contract ties it to,
    so that the dims which must agree share a name (a result's dynamic dims
    are always an argument's)."""
    count = lib.mlirNormKernelGetNumArguments(handle)
    total = count + lib.mlirNormKernelGetNumResults(handle)
    operands, symbols = [], {}
    tied_pos, tied_dim = ctypes.c_ssize_t(), ctypes.c_ssize_t()
    for pos in range(total):
        dtype = _capi.DTYPE_NAMES[lib.mlirNormKernelGetDType(handle, pos)]
        rank = lib.mlirNormKernelGetRank(handle, pos)
        name = "arg%d" % pos if pos < count else "result%d" % (pos - count)
        shape = []
        for dim in range(rank):
            size = lib.mlirNormKernelGetDimSize(handle, pos, dim)
            if size >= 0:
                shape.append(size)
                continue
            if lib.mlirNormKernelGetTiedDim(handle, pos, dim,
                                            ctypes.byref(tied_pos),
                                            ctypes.byref(tied_dim)):
                symbol = symbols[(tied_pos.value, tied_dim.value)]
            else:
                symbol = "%s.%d" % (name, dim)
            symbols[(pos, dim)] = symbol
            shape.append(symbol)
        operands.append(Operand(name, dtype, shape))
    return operands[:count], operands[count:]


class _ErrorSink:
    """Collects the C side's error text per calling thread: one ctypes
    callback for the kernel's lifetime (they are costly to create per call),
    told the thread by its user data, so that concurrent failing calls never
    see each other's messages."""

    def __init__(self):
        messages = self._messages = {}
        self.callback = _capi.MlirStringCallback(
            lambda text, key: messages.setdefault(key or 0, []).append(
                ctypes.string_at(text.data, text.length).decode()))

    def key(self):
        key = threading.get_ident()
        self._messages.pop(key, None)
        return key

    def take(self, key):
        return "".join(self._messages.pop(key, []))


class Kernel(_Callable):
    """A JIT-compiled function of a spec, called on arrays:
    `kernel(*arguments)` returns the result (or a tuple of results) as new
    arrays: numpy arrays, or the producer's tensors for DLPack inputs
    (torch.from_dlpack, zero copy)."""

    def __init__(self, spec, target="cpu", openmp=False, entry=None):
        if target != "cpu":
            raise ValueError(
                "compile(target=%r): Python calls run on host arrays, so only "
                "target='cpu'; for GPU code, aot(spec, out_dir, "
                "target='cuda') writes a library and a C header" % (target,))
        text, name = _spec_text(spec)
        name = entry or name or _entry_of(text)
        module = _Module(text)
        try:
            self._handle = lib.mlirNormKernelCreate(
                module.module, MlirStringRef.of(name), MlirStringRef.of(target),
                bool(openmp))
            if not self._handle.ptr:
                raise module.fail("@%s does not compile" % name)
        finally:
            module.close()
        arguments, results = _signature_from_kernel(self._handle)
        if isinstance(spec, Spec) and name == spec.name:
            _check_same_signature(spec, arguments, results)
            arguments, results = spec.arguments, spec.results
        self._set_signature(name, arguments, results)
        self._errors = _ErrorSink()

    def _result_shapes(self, arrays):
        """The result shapes the call contract gives for these arguments,
        which it checks (ValueError naming the argument and dims)."""
        shapes = [d for a in arrays for d in a.shape]
        shape_array = (ctypes.c_int64 * max(len(shapes), 1))(*shapes)
        ranks = [len(o.shape) for o in self.results]
        result_array = (ctypes.c_int64 * max(sum(ranks), 1))()
        key = self._errors.key()
        if not lib.mlirNormKernelInferResultShapes(
                self._handle, shape_array, result_array,
                self._errors.callback, key):
            raise ValueError("%s: %s" % (self.name,
                                         self._named(self._errors.take(key))))
        out, start = [], 0
        for rank in ranks:
            out.append(tuple(result_array[start:start + rank]))
            start += rank
        return out

    def _invoke(self, arrays):
        buffers = (ctypes.c_void_p * len(arrays))(
            *[a.__array_interface__["data"][0] for a in arrays])
        shapes = [d for a in arrays for d in a.shape]
        shape_array = (ctypes.c_int64 * max(len(shapes), 1))(*shapes)
        key = self._errors.key()
        if not lib.mlirNormKernelCall(self._handle, len(arrays), buffers,
                                      shape_array, self._errors.callback, key):
            raise KernelError("%s: %s" % (self.name,
                                          self._named(self._errors.take(key))))

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle is not None and handle.ptr:
            lib.mlirNormKernelDestroy(handle)
            self._handle = None


def _check_same_signature(spec, arguments, results):
    for mine, theirs in zip(spec.arguments + spec.results, arguments + results):
        same = mine.dtype == theirs.dtype and len(mine.shape) == len(theirs.shape)
        same = same and all(isinstance(a, str) == isinstance(b, str) and
                            (isinstance(a, str) or a == b)
                            for a, b in zip(mine.shape, theirs.shape))
        if not same:
            raise CompileError("the compiled signature %r differs from the "
                               "spec's %r" % (theirs, mine))
    if (len(spec.arguments), len(spec.results)) != (len(arguments), len(results)):
        raise CompileError("the compiled function has %d arguments and %d "
                           "results, the spec %d and %d"
                           % (len(arguments), len(results), len(spec.arguments),
                              len(spec.results)))


def compile(spec, target="cpu", openmp=False, entry=None):
    """JIT-compiles `spec` (a Spec or MLIR text; `entry` picks the function,
    by default the Spec's or the first public one) into a callable Kernel.
    With `openmp` the kernel's loops run on OpenMP threads."""
    return Kernel(spec, target=target, openmp=openmp, entry=entry)


AotOutputs = collections.namedtuple(
    "AotOutputs", "object header launchers description static_library "
    "shared_library")


def aot(spec, out_dir, target="cpu", openmp=False, libraries=True, name=None,
        cpu_dispatch=False):
    """Compiles every public function of `spec` ahead of time into `out_dir`,
    as `norm-compile --target=TARGET -o OUT_DIR/NAME` does: NAME.o, NAME.h
    (the documented C entry points `int norm_<function>(void *const *args,
    const int64_t *dims, int threads)`, or a stream for cuda), NAME_launch.c,
    NAME.json and, with `libraries`, libNAME.a and libNAME.so. NAME defaults
    to the spec's function name. With `cpu_dispatch` (cpu) the library holds
    the kernels for every x86-64 level (SSE2, AVX2, AVX-512) and picks the
    CPU's best when it is loaded. Returns the paths."""
    text, spec_name = _spec_text(spec)
    name = name or spec_name or _entry_of(text)
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError("aot: name %r is not a C identifier" % (name,))
    if target not in ("cpu", "cuda"):
        raise ValueError("aot: target must be 'cpu' or 'cuda', got %r" % (target,))
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(os.path.abspath(out_dir), name)
    module = _Module(text)
    try:
        if not lib.mlirNormCompileAheadOfTime(
                module.module, MlirStringRef.of(base), MlirStringRef.of(target),
                bool(openmp), bool(cpu_dispatch), bool(libraries)):
            raise module.fail("ahead-of-time compilation failed")
    finally:
        module.close()
    directory = os.path.dirname(base)
    return AotOutputs(
        base + ".o", base + ".h", base + "_launch.c", base + ".json",
        os.path.join(directory, "lib%s.a" % name) if libraries else None,
        os.path.join(directory, "lib%s.so" % name) if libraries else None)


class LibraryKernel(_Callable):
    """A function of a shared library from aot(target='cpu'), called through
    its C entry point norm_<function>(args, dims, threads)."""

    def __init__(self, path, spec, threads=0):
        if not isinstance(spec, Spec):
            raise TypeError("load_library needs the Spec the library was "
                            "built from (its signature), got %s"
                            % type(spec).__name__)
        self._library = ctypes.CDLL(os.path.abspath(path))
        self._entry = getattr(self._library, "norm_" + spec.name)
        self._entry.argtypes = [ctypes.POINTER(ctypes.c_void_p),
                                ctypes.POINTER(ctypes.c_int64), ctypes.c_int]
        self._entry.restype = ctypes.c_int
        self._threads = int(threads)
        self._set_signature(spec.name, spec.arguments, spec.results)

        self._last_error = getattr(self._library,
                                   "norm_%s_last_error" % _stem_of(path),
                                   None)
        if self._last_error is not None:
            self._last_error.argtypes = []
            self._last_error.restype = ctypes.c_char_p

    def _extents(self, arrays):
        """The extent of each dynamic dim symbol: its first argument's (the
        launcher checks that the others agree). The launcher's ABI carries
        the dynamic dims only, so the static ones are checked here."""
        extents = {}
        for index, (array, operand) in enumerate(zip(arrays, self.arguments)):
            for dim, (got, want) in enumerate(zip(array.shape, operand.shape)):
                if isinstance(want, str):
                    extents.setdefault(want, got)
                elif got != want:
                    raise ValueError("norm_%s: %s has extent %d in dim %d, "
                                     "expected %d" % (
                                         self.name, _what(index, operand),
                                         got, dim, want))
        return extents

    def _result_shapes(self, arrays):
        extents = self._extents(arrays)
        shapes = []
        for operand in self.results:
            shape = []
            for d in operand.shape:
                if isinstance(d, int):
                    shape.append(d)
                elif d in extents:
                    shape.append(extents[d])
                else:
                    raise ValueError("result %s: dynamic dim %s is not the dim "
                                     "of an argument" % (operand.name, d))
            shapes.append(tuple(shape))
        return shapes

    def _invoke(self, arrays):
        # Every dynamic dim of every operand in order of appearance,
        # arguments then results: the launcher checks them all.
        dims = [d for a, o in zip(arrays, self.arguments + self.results)
                for d, s in zip(a.shape, o.shape) if isinstance(s, str)]
        buffers = (ctypes.c_void_p * len(arrays))(
            *[a.__array_interface__["data"][0] for a in arrays])
        dim_array = (ctypes.c_int64 * max(len(dims), 1))(*dims)
        status = self._entry(buffers, dim_array, self._threads)
        if status == 1 and self._last_error is not None:
            raise ValueError(self._named(self._last_error().decode()))
        if status != 0:
            raise KernelError("norm_%s returned %d" % (self.name, status))


def _stem_of(path):
    """The library's stem as a C identifier: libNAME.so -> NAME."""
    stem = os.path.basename(path)
    stem = stem[3:] if stem.startswith("lib") else stem
    stem = stem.split(".")[0]
    return re.sub(r"[^A-Za-z0-9]", "_", stem)


def load_library(path, spec, threads=0):
    """Loads a shared library written by aot(spec, ..., target='cpu') and
    returns its function as a callable with the same checks as compile()."""
    return LibraryKernel(path, spec, threads)
