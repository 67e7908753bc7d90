#!/usr/bin/env bash
# Fills .devcarry for a background device job of this directory (r23-r25: start_job.sh): the Vulkan
# loader and upscale_demo and frame_bench from build/ (../shared/device/pack.sh, binaries
# stripped), and the held-out directory (tools/train/make_heldout_dir.sh) as .devcarry/heldout.
# About 34 MB; the device tool carries at most 64 MiB.
#   tools/train/logs/pack_job_carry.sh HELDOUT_DIR
set -euo pipefail
heldout=${1:?pack_job_carry.sh HELDOUT_DIR (tools/train/make_heldout_dir.sh makes it)}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
[ -f "$heldout/heldout_temporal.json" ] || { echo "pack_job_carry.sh: $heldout is not a held-out directory (no heldout_temporal.json)" >&2; exit 2; }
for b in build/demos/upscale_demo/upscale_demo build/bench/frame_bench; do
  [ -x "$b" ] || { echo "pack_job_carry.sh: no $b: cmake --build build --target upscale_demo frame_bench" >&2; exit 2; }
done
rm -rf .devcarry
"$root/../shared/device/pack.sh" build/demos/upscale_demo/upscale_demo build/bench/frame_bench >/dev/null
strip .devcarry/bin/*
mkdir -p .devcarry/heldout
cp -r "$heldout"/. .devcarry/heldout/
size=$(du -sm .devcarry | cut -f1)
[ "$size" -le 60 ] || { echo "pack_job_carry.sh: .devcarry is $size MiB, over what the device tool carries" >&2; exit 2; }
echo "[carry] .devcarry: $size MiB; carry [\".devcarry\"]"
