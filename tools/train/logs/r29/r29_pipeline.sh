# r29 (thirty-first session): the performance model p4 (r27; r2 w16 d3 f3 with the 5-tap history
# fetch; held out +1.44 dB over TAAU at 2x against the +1.5 target) fine-tuned to the metric.
# Every earlier run trained with the Charbonnier distance (a smooth L1), distilled from r, with a
# temporal term of weight 1.0; held-out quality is scored in PSNR, a squared error. Two
# continuations of p4 trained together, lr 5e-4, on glTF scenes of seeds 4-6 (r27's and r28's;
# seeds 7-9 hold the held-out scenes, seed 20 the validation split), both with the 5-tap fetch
# (--init keeps p4's history_taps):
# - m: --loss mse, everything else as r28's p5 (the control: p5, +1.45 at 2x), so that what m
#   gains is the distance's;
# - n: --loss mse, no teacher, temporal weight 0.5: the loss nearest to PSNR that still weighs
#   stability.
# Then validation beside p4, export and the held-out 2x plan for both (HELDOUT_PLANS).
cd /tmp/r29/root
source tools/train/logs/r24/r24_common.sh
export WORK_DIR=/tmp/r29/work SEEDS=4:6
P=assets/upscaler_temporal_fast.npz
COMMON="--unshuffle 2 --width 16 --depth 3 --first-kernel 3 --init $P --lr 5e-4 --save-every 100 --loss mse"
export JOB=r29 SECONDS_BUDGET=${SECONDS_BUDGET:-800} COMPARE_MODELS="$P" \
  HELDOUT_PLANS=${HELDOUT_PLANS:-"heldout_temporal.json:temporal:130"} \
  VARIANTS="m:--temporal-weight 1.0 --teacher $R $COMMON;n:--temporal-weight 0.5 $COMMON"
source tools/train/logs/continue_job.sh
