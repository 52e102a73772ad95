"""Packs the norm_mlir sources with the C API library of a norm-mlir build.

`pip install ./python` takes libNormCAPI.so and libnorm_cuda_runtime.so from
$NORM_MLIR_BUILD_DIR/lib (default: the repository's build/ directory); build
them first with `scripts/build.sh NormCAPI`. libNormCAPI.so finds libMLIR.so
in /usr/lib/llvm-22/lib, where the Debian packages put it.
"""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARIES = ("libNormCAPI.so", "libnorm_cuda_runtime.so")


class BuildPyWithCAPI(build_py):
    def run(self):
        super().run()
        build_dir = os.environ.get("NORM_MLIR_BUILD_DIR",
                                   os.path.join(HERE, "..", "build"))
        source = os.path.join(os.path.abspath(build_dir), "lib")
        missing = [l for l in LIBRARIES
                   if not os.path.isfile(os.path.join(source, l))]
        if missing:
            raise SystemExit(
                "norm_mlir: %s not found in %s; build them with "
                "`scripts/build.sh NormCAPI` or set NORM_MLIR_BUILD_DIR"
                % (", ".join(missing), source))
        target = os.path.join(self.build_lib, "norm_mlir", "_lib")
        os.makedirs(target, exist_ok=True)
        for name in LIBRARIES:
            shutil.copy2(os.path.join(source, name), os.path.join(target, name))


class BinaryDistribution(Distribution):
    """The wheel carries a shared library: platform-specific."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithCAPI}, distclass=BinaryDistribution)
