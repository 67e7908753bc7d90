#!/usr/bin/env bash
# Installs the Debian 12 packages the project builds, tests and runs with. Idempotent; needs root.
# doxygen: the API reference; dpkg-dev, file, binutils: Debian packages (cpack, dpkg-shlibdeps)
# and the package checks (tools/check_package.sh).
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config
  libvulkan-dev glslang-tools glslang-dev spirv-tools vulkan-tools
  vulkan-validationlayers mesa-vulkan-drivers
  libglfw3-dev libglm-dev libstb-dev libtinygltf-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  xvfb xauth python3 python3-numpy
  python3-torch python3-pil   # the temporal upscaler against its PyTorch mirror (tests/models)
  doxygen dpkg-dev file binutils
  valgrind
  clang libfuzzer-14-dev libclang-rt-14-dev   # tools/fuzz.sh (libFuzzer), fuzz corpus replay
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "[deps] installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "[deps] all ${#packages[@]} packages present"
