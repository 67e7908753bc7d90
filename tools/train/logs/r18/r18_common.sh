# Settings shared by the r18 device commands (sourced from the repository root there): r17's recipe
# (the r13 data plus one still-camera window per path, SEEDS=1:4, three display sizes, three ratios),
# continuing r17's a2 for longer. a2 flickered 18% less than the shipped w2 on still validation
# windows and was 0.052 dB behind it on validation PSNR, just outside the selection rule's 0.05 dB;
# r17 ran out of device time before a longer run.
# Run from the repository root on the GPU machine with carry [".devcarry"] (../shared/device/pack.sh
# of upscale_demo and frame_bench).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export DEMO=$PWD/.devcarry/bin/upscale_demo PYTHON=python3 WORK_DIR=/tmp/r18 SEEDS=1:4 \
  DISPLAY_SIZES=384x216,768x432,1536x864 PLAN_ARGS="--slow-windows 1 --static-windows 1" UNROLL=12 BATCH=24 CROP=144 JOBS=14
SHAPE="--unshuffle 2 --width 32 --depth 3 --first-kernel 3 --temporal-weight 1.0"
A2=tools/train/logs/r17/upscaler_temporal_a2.npz
echo "[r18] $(date +%T) memory: $(free -g | awk '/Mem/ {print $3 " of " $2 " GiB used"}'), /tmp: $(df -h /tmp | awk 'NR==2 {print $3 " of " $2 " (" $1 ")"}')"
