# Settings shared by the r20 device commands (sourced from the repository root there): r19's data
# recipe (four kinds with rooms, seeds 1-3, validation seed 20; room_s7 stays held out; one slow
# and one still window per path, three display sizes, three ratios, 12 frames unrolled), training
# the accumulating resolve (temporal.resolve with a history weight cap; tools/train/README.md,
# "Run r20") from the shipped c2.
# Run from the repository root on the GPU machine with carry [".devcarry"] (../shared/device/pack.sh
# of upscale_demo).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export DEMO=$PWD/.devcarry/bin/upscale_demo PYTHON=python3 WORK_DIR=/tmp/r20 SEEDS=1:3 KINDS=street,poles,objects,room \
  DISPLAY_SIZES=384x216,768x432,1536x864 PLAN_ARGS="--slow-windows 1 --static-windows 1" UNROLL=12 BATCH=24 CROP=144 JOBS=14
SHAPE="--unshuffle 2 --width 32 --depth 3 --first-kernel 3 --temporal-weight 1.0"
C2=assets/upscaler_temporal.npz
echo "[r20] $(date +%T) memory: $(free -g | awk '/Mem/ {print $3 " of " $2 " GiB used"}'), /tmp: $(df -h /tmp | awk 'NR==2 {print $3 " of " $2 " (" $1 ")"}')"
