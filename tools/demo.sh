#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the headless upscaling demo on the
# default scene: 1-ray shadows denoised and jittered 320x180 frames upscaled x2 by the shipped
# networks (assets/: the denoiser and the temporal upscaler, through bridge::MlPass and
# effects::Upscaler), inside the engine frame. Frames (PNG) and a timing report (report.json) land
# in out/ unless --out is given; later arguments override these (e.g. --mode ml for the
# single-frame network, --mode taau for the hand-written temporal upscaler).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install_deps.sh"
"$root/tools/build.sh"
exec "${BUILD_DIR:-$root/build}/demos/upscale_demo/upscale_demo" --headless --frames 8 --width 640 --height 360 --mode ml-temporal --render-scale 0.5 --shadows stochastic --denoise ml --out "$root/out" "$@"
