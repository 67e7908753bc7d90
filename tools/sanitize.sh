#!/usr/bin/env bash
# Builds the project with sanitizers (clang) and runs the ctest suite under them on the first
# Vulkan device (lavapipe without a GPU), validation layer on as always. docs/RELIABILITY.md says
# what runs and why.
#
#   tools/sanitize.sh                 ASan + UBSan, the suite but 4 long runs (build-asan/); the
#                                     same build holds the libFuzzer targets (tools/fuzz.sh with
#                                     FUZZ_BUILD_DIR=build-asan runs them without a build of their own)
#   SANITIZE=thread tools/sanitize.sh TSan, the tests that run threads      (build-tsan/)
#   tools/sanitize.sh -R Gemm         extra arguments go to ctest
#
# Undefined behaviour, leaks and races abort the process, so the test fails. Benchmarks are not
# built: their smoke runs time GPU work, which the sanitizers do not instrument. The ASan suite
# registers each GoogleTest binary as one test (VKML_TESTS_PER_BINARY): a sanitized process takes
# about a second to start, which a process per case paid about 800 times.
#
# The libraries, tools and demos compile as unity builds here (CMAKE_UNITY_BUILD: several source
# files per compiler run; the tests keep a file each, tests/CMakeLists.txt: docs/RELIABILITY.md has the
# timings). The plain build (tools/build.sh) compiles file by file, so a file that leans on
# a declaration another file of its batch brings in still fails there. The unity build found one
# ODR violation: two different classes mlplugin::detail::PersistentLayout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sanitize=${SANITIZE:-address,undefined}
case "$sanitize" in
  thread) build=${BUILD_DIR:-$root/build-tsan}
          # The only code that runs threads: the plugin's threading contract (concurrent compiles
          # and records on one device), in the framework suite.
          targets=(--target mlplugin_framework_tests)
          options=(-DVKML_FUZZ=OFF -DVKML_TESTS_PER_BINARY=OFF)
          filter=(-R "Threading") ;;
  # The whole suite but four long runs that the plain build already makes and that add no code
  # path: the two 5000-frame soaks (leaks are LeakSanitizer's at every process's exit anyway)
  # and the two Python pipelines around upscale_demo (mostly PyTorch time). About 280 of the
  # suite's 920 test seconds under ASan.
  *)      build=${BUILD_DIR:-$root/build-asan}; targets=()
          options=(-DVKML_TESTS_PER_BINARY=ON)
          # ASan + UBSan exactly is what libFuzzer's targets are built with: one build for both.
          [ "$sanitize" = "address,undefined" ] && options+=(-DVKML_FUZZ=ON)
          filter=(-E "^(soak\.ci|soak\.ci_validation|temporal_training_pipeline|trained_upscaler_temporal_matches_pytorch)$") ;;
esac
start=$(date +%s)
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DVKML_SANITIZE="$sanitize" -DVKML_BUILD_BENCH=OFF -DCMAKE_UNITY_BUILD=ON "${options[@]}" >/dev/null
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
built=$(date +%s)
echo "[sanitize] $sanitize build: $((built - start)) s"
cd "$build"
status=0
ctest --output-on-failure --timeout 1800 -j "$(nproc)" "${filter[@]}" "$@" || status=$?
echo "[sanitize] $sanitize tests: $(( $(date +%s) - built )) s"
exit $status
