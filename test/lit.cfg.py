# -*- Python -*-
# lit configuration for the norm-mlir test suite.

import os
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "NORM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.norm_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "lib", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.shlib_ext))
# The sanitizer build (scripts/test.sh --sanitize): reports stop the test;
# leaks are not checked (LLVM's and MLIR's globals live to the end), nor
# container overflows (libMLIR.so's containers are not instrumented). Python
# loads the instrumented C API library with the ASan runtime preloaded.
python = config.python_executable
if getattr(config, "norm_sanitize", False):
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=0:detect_container_overflow=0:abort_on_error=1:"
        "strict_string_checks=1:detect_stack_use_after_return=1"
    )
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    config.available_features.add("sanitize")
    python = "env LD_PRELOAD=%s %s" % (config.asan_runtime, python)
config.substitutions.append(("%python", python))
config.substitutions.append(("%norm_obj_root", config.norm_obj_root))
config.substitutions.append(("%llvm_lib_dir", config.llvm_lib_dir))
config.substitutions.append(
    ("%norm_src_root", os.path.dirname(config.test_source_root))
)

config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false"
)

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.norm_tools_dir, append_path=True)

tool_dirs = [config.norm_tools_dir, config.llvm_tools_dir]
tools = [
    "norm-opt",
    "norm-runner",
    "norm-builder-test",
    "norm-harness-test",
    "norm-cuda-runtime-test",
    "norm-capi-test",
    "norm-compile",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Runtime libraries for mlir-runner (upstream lit.cfg.py's add_runtime).
for lib in ["mlir_c_runner_utils", "mlir_runner_utils"]:
    config.substitutions.append(
        ("%" + lib, os.path.join(config.llvm_lib_dir, "lib" + lib + config.shlib_ext))
    )

# cuda-driver: a CUDA driver and a device are usable, as the runtime itself
# finds them (norm-cuda-runtime-test --probe exits 0). Without the tool, or
# when it fails or hangs, the feature is simply absent.
try:
    probe = subprocess.run(
        [os.path.join(config.norm_tools_dir, "norm-cuda-runtime-test"), "--probe"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=120,
    )
    if probe.returncode == 0:
        config.available_features.add("cuda-driver")
except (OSError, subprocess.SubprocessError):
    pass

# large-memory: enough free memory for the tests on inputs of more than
# 2^31 elements (Integration/CPU/large-sizes.test needs about 17.2 GB).
try:
    with open("/proc/meminfo") as meminfo:
        fields = dict(line.split(":", 1) for line in meminfo)
    available_kib = int(fields["MemAvailable"].split()[0])
    if available_kib >= 18 * 1024 * 1024:
        config.available_features.add("large-memory")
except (OSError, KeyError, ValueError):
    pass
