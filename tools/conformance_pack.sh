#!/usr/bin/env bash
# Packs the whole GoogleTest suite for the GPU machine, with the Khronos validation layer, so that
# one device command runs every test there as CI runs them on lavapipe (the tests' own context
# turns validation and synchronization validation on; any message fails the test). Lavapipe
# cannot show what only a real driver does: the first whole run on the H100 found two bugs
# (bench/RESULTS.md, "Twentieth session").
#
#   tools/conformance_pack.sh [EXTRA_BINARY...]
#
# Result: .devcarry/ (../shared/device/pack.sh) with every *_tests binary of the build, stripped
# and xz-compressed into .devcarry/tb.txz (about 12 MB against 114: the device tool carries at
# most 64 MiB with the working tree), upscale_demo (the run writes the golden frame as the GPU
# renders it) and EXTRA_BINARY, the validation layer and its manifest. Then the device command
# (carry [".devcarry"]):
#   bash bench/results/2026-11-28_conformance/run.sh
# BUILD_DIR names the build (default build/, Release).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cd "$root"
mapfile -t tests < <(find "$build" -name '*_tests' -type f -executable -not -path '*/CMakeFiles/*' | sort)
[ ${#tests[@]} -gt 0 ] || { echo "conformance_pack: no *_tests binaries under $build (build first)" >&2; exit 1; }
layer_json=/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json
layer_so=/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so
[ -f "$layer_json" ] && [ -f "$layer_so" ] || { echo "conformance_pack: the validation layer is not installed (tools/install_deps.sh)" >&2; exit 1; }

# pack.sh copies the libraries every binary needs; the test binaries themselves travel compressed.
"$root/../shared/device/pack.sh" "${tests[@]}" "$build/demos/upscale_demo/upscale_demo" "$@" -- "$layer_json" >/dev/null
cp "$layer_so" .devcarry/lib/
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
mkdir "$staging/tb"
for t in "${tests[@]}"; do mv ".devcarry/bin/$(basename "$t")" "$staging/tb/"; done
strip "$staging"/tb/* .devcarry/bin/*
echo "[conformance_pack] compressing ${#tests[@]} test binaries (xz, about a minute)"
tar cf - -C "$staging" tb | xz -T0 -9 > .devcarry/tb.txz
du -sh .devcarry
echo "carry [\".devcarry\"]; device command: bash bench/results/2026-11-28_conformance/run.sh"
