#!/usr/bin/env bash
# The sanitizer suite: builds the tools, runtime, C API and Python package
# with ASan and UBSan (and libFuzzer coverage) into ${SANITIZE_BUILD_DIR:-
# build-sanitize}, runs the CPU integration tests, the runtime and tool
# tests, the C API test and the Python suite on it, then each libFuzzer
# target for ${FUZZ_SECONDS:-60} seconds. Any sanitizer report, lit failure
# or fuzzer crash fails the script; a crash's input is kept in
# ${SANITIZE_BUILD_DIR}/fuzz/<target>/ and must become a regression test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SANITIZE_BUILD_DIR:-$root/build-sanitize}"
seconds="${FUZZ_SECONDS:-60}"
"$root/scripts/setup.sh"

fuzzers=(norm-SpecFuzzer norm-NpyFuzzer norm-CallCheckFuzzer)
BUILD_DIR="$build" NORM_CMAKE_ARGS="-DNORM_SANITIZE=ON" \
  "$root/scripts/build.sh" norm-opt norm-runner norm-compile norm-capi-test \
  norm-harness-test norm-cuda-runtime-test NormCAPI NormMLIRPythonPackage \
  norm_harness_static "${fuzzers[@]}"

echo "sanitize: lit on the ASan + UBSan build"
/usr/lib/llvm-22/bin/lit -sv "$build/test/Integration/CPU" \
  "$build/test/tools/norm-runner" "$build/test/Runtime" "$build/test/Harness" \
  "$build/test/CAPI" \
  "$build/test/python/pytest.test" "$build/test/IR/invalid.mlir" \
  "$build/test/IR/roundtrip.mlir"

asan_runtime="$(/usr/lib/llvm-22/bin/clang -print-file-name=libclang_rt.asan-x86_64.so)"
# Seeds: the committed corpus, plus for the spec target every split chunk
# of the specs under test/.
for fuzzer in "${fuzzers[@]}"; do
  name="${fuzzer#norm-}"
  corpus="$build/fuzz/$name/corpus"
  artifacts="$build/fuzz/$name/"
  rm -rf "$build/fuzz/$name" && mkdir -p "$corpus"
  if [ -d "$root/test/fuzz/corpus/$name" ]; then
    cp "$root/test/fuzz/corpus/$name"/* "$corpus"/ 2>/dev/null || true
  fi
  if [ "$name" = SpecFuzzer ]; then
    "${PYTHON:-python3}" "$root/test/fuzz/seed_specs.py" "$root/test" "$corpus"
  fi
  echo "sanitize: $fuzzer for ${seconds}s ($(ls "$corpus" | wc -l) seeds)"
  # libFuzzer's link puts libstdc++ before the ASan runtime: preload it.
  LD_PRELOAD="$asan_runtime" \
    ASAN_OPTIONS="detect_leaks=0:detect_container_overflow=0" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "$build/bin/$fuzzer" -max_total_time="$seconds" -timeout=30 \
      -rss_limit_mb=6144 -max_len=16384 -print_final_stats=1 \
      -artifact_prefix="$artifacts" "$corpus" 2>&1 |
    tee "$build/fuzz/$name/log.txt" | grep -E "^#[0-9]+ +(DONE|pulse)|^(stat|==|SUMMARY|Done)" || true
  if ls "$artifacts" | grep -qE '^(crash|leak|timeout|oom)-'; then
    echo "sanitize: $fuzzer found a failing input:" "$artifacts"/{crash,leak,timeout,oom}-* 2>/dev/null
    exit 1
  fi
  grep -q "^Done [0-9]* runs" "$build/fuzz/$name/log.txt" || {
    echo "sanitize: $fuzzer did not finish; see $build/fuzz/$name/log.txt"
    exit 1
  }
done
echo "sanitize: passed"
