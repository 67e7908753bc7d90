# Settings shared by the r17 device commands (sourced from the repository root there): the shipped
# network w2 continued on the r13 data recipe plus still-camera windows (render_temporal.py plan
# --static-windows 1), which no earlier training plan had; the held-out static plan showed w2
# flickering more than TAAU on a still camera in 6 of 11 sequences.
# Run from the repository root on the GPU machine with carry [".devcarry"] (../shared/device/pack.sh
# of upscale_demo and frame_bench). A first attempt with SEEDS=1:6 (198 sequences) lost the machine
# after 249 s with no output back; the cause is not known (the attempt that ran saw /tmp on a
# 252 GB disk and at most 9 GiB of host memory in use). Host memory was the suspect, so
# train_temporal.py now moves each sequence to the GPU as it is read instead of holding the whole
# set per process, and SEEDS=1:4 keeps the set near r13's size.
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export DEMO=$PWD/.devcarry/bin/upscale_demo PYTHON=python3 WORK_DIR=/tmp/r17 SEEDS=1:4 \
  DISPLAY_SIZES=384x216,768x432,1536x864 PLAN_ARGS="--slow-windows 1 --static-windows 1" UNROLL=12 BATCH=24 CROP=144 JOBS=14
SHAPE="--unshuffle 2 --width 32 --depth 3 --first-kernel 3 --temporal-weight 1.0"
echo "[r17] $(date +%T) memory: $(free -g | awk '/Mem/ {print $3 " of " $2 " GiB used"}'), /tmp: $(df -h /tmp | awk 'NR==2 {print $3 " of " $2 " (" $1 ")"}')"
