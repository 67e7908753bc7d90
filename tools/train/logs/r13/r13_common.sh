# Settings shared by the r13 device commands (sourced from the repository root there).
# Run from the repository root on the GPU machine with carry [".devcarry"] (../shared/device/pack.sh of upscale_demo).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export DEMO=$PWD/.devcarry/bin/upscale_demo PYTHON=python3 WORK_DIR=/tmp/r13 SEEDS=1:6 \
  DISPLAY_SIZES=384x216,768x432,1536x864 PLAN_ARGS="--slow-windows 1" UNROLL=12 BATCH=24 CROP=144 JOBS=14
SHAPE="--unshuffle 2 --width 32 --depth 3 --first-kernel 3 --temporal-weight 1.0"
