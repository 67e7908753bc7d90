#!/usr/bin/env bash
# Builds the project with sanitizers and runs the ctest suite under them on the first Vulkan
# device (lavapipe without a GPU), validation layer on as always. docs/RELIABILITY.md says what
# runs and why.
#
#   tools/sanitize.sh                 ASan + UBSan, the suite but 4 long runs (build-asan/)
#   SANITIZE=thread tools/sanitize.sh TSan, the tests that run threads      (build-tsan/)
#   tools/sanitize.sh -R Gemm         extra arguments go to ctest
#
# Undefined behaviour, leaks and races abort the process, so the test fails. Benchmarks are not
# built: their smoke runs time GPU work, which the sanitizers do not instrument.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sanitize=${SANITIZE:-address,undefined}
case "$sanitize" in
  thread) build=${BUILD_DIR:-$root/build-tsan}
          # The only code that runs threads: the plugin's threading contract (concurrent compiles
          # and records on one device), in the framework suite.
          targets=(--target mlplugin_framework_tests)
          filter=(-R "Threading") ;;
  # The whole suite but four long runs that the plain build already makes and that add no code
  # path: the two 5000-frame soaks (leaks are LeakSanitizer's at every process's exit anyway)
  # and the two Python pipelines around upscale_demo (mostly PyTorch time). About 280 of the
  # suite's 920 test seconds under ASan.
  *)      build=${BUILD_DIR:-$root/build-asan}; targets=()
          filter=(-E "^(soak\.ci|soak\.ci_validation|temporal_training_pipeline|trained_upscaler_temporal_matches_pytorch)$") ;;
esac
start=$(date +%s)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DVKML_SANITIZE="$sanitize" -DVKML_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
built=$(date +%s)
echo "[sanitize] $sanitize build: $((built - start)) s"
cd "$build"
status=0
ctest --output-on-failure --timeout 1800 -j "$(nproc)" "${filter[@]}" "$@" || status=$?
echo "[sanitize] $sanitize tests: $(( $(date +%s) - built )) s"
exit $status
