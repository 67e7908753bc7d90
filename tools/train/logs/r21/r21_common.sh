# Settings shared by the r21 device commands: r20's data recipe (four kinds with rooms, seeds 1-3,
# validation seed 20; room_s7 stays held out; one slow and one still window per path, three display
# sizes, three ratios) and r20's networks to continue (tools/train/README.md, "Run r21").
# Sourced by r21_pipeline.sh from its copy of the repository (/tmp/r21/root).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export DEMO=$PWD/.devcarry/bin/upscale_demo PYTHON=python3 WORK_DIR=/tmp/r21/work SEEDS=1:3 KINDS=street,poles,objects,room \
  DISPLAY_SIZES=384x216,768x432,1536x864 PLAN_ARGS="--slow-windows 1 --static-windows 1" UNROLL=12 BATCH=24 CROP=144 JOBS=14
SHAPE="--unshuffle 2 --width 32 --depth 3 --first-kernel 3 --temporal-weight 1.0"
C2=assets/upscaler_temporal.npz G2=tools/train/logs/r20/upscaler_temporal_g2.npz M=tools/train/logs/r20/upscaler_temporal_m.npz
