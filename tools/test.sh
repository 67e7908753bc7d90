#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs the whole suite on the first Vulkan
# device (lavapipe on GPU-less machines) with the Khronos validation layer on, then checks the
# package a consumer gets from this build (tools/check_package.sh: install, example, Debian
# packages, API reference).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install_deps.sh"
"$root/tools/build.sh"
cd "${BUILD_DIR:-$root/build}"
ctest --output-on-failure --timeout 900 -j "$(nproc)" "$@"
"$root/tools/check_package.sh" "${BUILD_DIR:-$root/build}"
