# Settings shared by the r24 device commands: r20's data recipe, as r21 used it (four kinds with
# rooms, seeds 1-3, validation seed 20; room_s7 stays held out; one slow and one still window per
# path, three display sizes, three ratios). Sourced by r24_pipeline.sh from its copy of the
# repository (/tmp/r24/root).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export DEMO=$PWD/.devcarry/bin/upscale_demo PYTHON=python3 WORK_DIR=/tmp/r24/work SEEDS=1:3 KINDS=street,poles,objects,room \
  DISPLAY_SIZES=384x216,768x432,1536x864 PLAN_ARGS="--slow-windows 1 --static-windows 1" UNROLL=12 BATCH=24 CROP=144 JOBS=14
R=assets/upscaler_temporal.npz
