# Settings shared by the r16 device commands (sourced from the repository root there): cheaper
# network shapes for the 1.0 ms target at 4K, trained from scratch with the shipped network as a
# teacher (train_temporal.py --teacher). Same data recipe as r13 (three display sizes, slow windows).
# Run from the repository root on the GPU machine with carry [".devcarry"] (../shared/device/pack.sh
# of upscale_demo and frame_bench).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export DEMO=$PWD/.devcarry/bin/upscale_demo PYTHON=python3 WORK_DIR=/tmp/r16 SEEDS=1:6 \
  DISPLAY_SIZES=384x216,768x432,1536x864 PLAN_ARGS="--slow-windows 1" UNROLL=12 BATCH=24 CROP=144 JOBS=14
# 4K pass (1920x1080 -> 3840x2160, random weights, bench/results/2026-11-27_temporal_shapes):
# A 1.187 ms, B 1.164 ms, the shipped shape 1.778 ms.
A="--unshuffle 2 --width 32 --depth 2 --first-kernel 1 --temporal-weight 1.0"
B="--unshuffle 2 --width 16 --depth 3 --first-kernel 3 --temporal-weight 1.0"
TEACHER="--teacher assets/upscaler_temporal.npz"
