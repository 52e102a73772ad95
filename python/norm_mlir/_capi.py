"""ctypes bindings of libNormCAPI.so (the norm C API, dialect/norm-c/).

Debian's MLIR ships no Python bindings, so the package talks to the C API
directly. The library is found, in order, at $NORM_MLIR_CAPI_LIBRARY, in the
package's `_lib/` directory (where `pip install` and the CMake build tree put
it), else the import fails with what to do.
"""

import ctypes
import os

_LIBRARY_NAME = "libNormCAPI.so"


class MlirStringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    @classmethod
    def of(cls, text):
        data = text.encode() if isinstance(text, str) else bytes(text)
        return cls(data, len(data))


def _handle(name):
    return type(name, (ctypes.Structure,), {"_fields_": [("ptr", ctypes.c_void_p)]})


MlirContext = _handle("MlirContext")
MlirModule = _handle("MlirModule")
MlirNormKernel = _handle("MlirNormKernel")


class MlirLogicalResult(ctypes.Structure):
    _fields_ = [("value", ctypes.c_int8)]

    def __bool__(self):
        return self.value != 0


MlirStringCallback = ctypes.CFUNCTYPE(None, MlirStringRef, ctypes.c_void_p)


def _find_library():
    candidates = []
    override = os.environ.get("NORM_MLIR_CAPI_LIBRARY")
    if override:
        candidates.append(override)
    candidates.append(os.path.join(os.path.dirname(__file__), "_lib", _LIBRARY_NAME))
    for path in candidates:
        if os.path.isfile(path):
            return path
    raise ImportError(
        "norm_mlir: cannot find %s (looked at %s). Build it with "
        "`scripts/build.sh NormCAPI` and install the package with "
        "`pip install ./python`, or point NORM_MLIR_CAPI_LIBRARY at it."
        % (_LIBRARY_NAME, ", ".join(candidates))
    )


def _load():
    lib = ctypes.CDLL(_find_library())
    signatures = {
        "mlirNormContextCreate": ([], MlirContext),
        "mlirContextDestroy": ([MlirContext], None),
        "mlirNormContextCaptureDiagnostics": (
            [MlirContext, MlirStringCallback, ctypes.c_void_p],
            ctypes.c_uint64,
        ),
        "mlirModuleCreateParse": ([MlirContext, MlirStringRef], MlirModule),
        "mlirModuleDestroy": ([MlirModule], None),
        "mlirNormLowerToLLVM": (
            [MlirModule, MlirStringRef, ctypes.c_bool],
            MlirLogicalResult,
        ),
        "mlirNormCompileAheadOfTime": (
            [MlirModule, MlirStringRef, MlirStringRef, ctypes.c_bool,
             ctypes.c_bool, ctypes.c_bool],
            MlirLogicalResult,
        ),
        "mlirNormKernelCreate": (
            [MlirModule, MlirStringRef, MlirStringRef, ctypes.c_bool],
            MlirNormKernel,
        ),
        "mlirNormKernelDestroy": ([MlirNormKernel], None),
        "mlirNormKernelGetNumArguments": ([MlirNormKernel], ctypes.c_ssize_t),
        "mlirNormKernelGetNumResults": ([MlirNormKernel], ctypes.c_ssize_t),
        "mlirNormKernelGetDType": ([MlirNormKernel, ctypes.c_ssize_t], ctypes.c_int),
        "mlirNormKernelGetRank": (
            [MlirNormKernel, ctypes.c_ssize_t],
            ctypes.c_ssize_t,
        ),
        "mlirNormKernelGetDimSize": (
            [MlirNormKernel, ctypes.c_ssize_t, ctypes.c_ssize_t],
            ctypes.c_int64,
        ),
        "mlirNormKernelGetTiedDim": (
            [MlirNormKernel, ctypes.c_ssize_t, ctypes.c_ssize_t,
             ctypes.POINTER(ctypes.c_ssize_t), ctypes.POINTER(ctypes.c_ssize_t)],
            ctypes.c_bool,
        ),
        "mlirNormKernelInferResultShapes": (
            [
                MlirNormKernel,
                ctypes.POINTER(ctypes.c_int64),
                ctypes.POINTER(ctypes.c_int64),
                MlirStringCallback,
                ctypes.c_void_p,
            ],
            MlirLogicalResult,
        ),
        "mlirNormKernelCall": (
            [
                MlirNormKernel,
                ctypes.c_ssize_t,
                ctypes.POINTER(ctypes.c_void_p),
                ctypes.POINTER(ctypes.c_int64),
                MlirStringCallback,
                ctypes.c_void_p,
            ],
            MlirLogicalResult,
        ),
    }
    for name, (argtypes, restype) in signatures.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = restype
    return lib


lib = _load()

# MlirNormDType values, in the C API's order.
DTYPE_NAMES = ("f16", "bf16", "f32", "f64")


class Diagnostics:
    """A context with the compiler's dialects whose diagnostics are kept."""

    def __init__(self):
        self.messages = []
        self.context = lib.mlirNormContextCreate()
        # Kept alive as long as the context: the C side holds the pointer.
        self._callback = MlirStringCallback(self._append)
        lib.mlirNormContextCaptureDiagnostics(self.context, self._callback, None)

    def _append(self, text, _user_data):
        self.messages.append(ctypes.string_at(text.data, text.length).decode())

    def take(self):
        text = "".join(self.messages).rstrip()
        self.messages.clear()
        return text

    def close(self):
        if self.context.ptr:
            lib.mlirContextDestroy(self.context)
            self.context = MlirContext()

    def __del__(self):
        self.close()
