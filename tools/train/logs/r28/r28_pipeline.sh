# r28 (thirtieth session): two continuations of the performance model p4 (r27; r2 w16 d3 f3 with
# the 5-tap history fetch, held out +1.44 dB over TAAU at 2x against the +1.5 target), trained
# together on the GPU, distilled from r, lr 5e-4, on glTF scenes of seeds 4-6 (r27's; seeds 7-9
# hold the held-out scenes, seed 20 the validation split), both with the 5-tap fetch (--init keeps
# p4's history_taps):
# - q continues q0, p4 grown to depth 4 by an identity 3x3 layer before its output layer
#   (grow_temporal.py): the same function at the start, one more layer of reach and capacity.
#   (The session also tried the resolve pass applying the output layer, to pay for part of the
#   extra layer's time; ab.sh measured both. It was slower and was reverted: bench/RESULTS.md,
#   "Thirtieth session".)
# - p5 continues p4 itself with the same steps and data, so that what q gains over it is the layer's.
# Then validation beside p4, export and the held-out 2x plan for both (the still/slow plan for
# device time only if asked: HELDOUT_PLANS).
cd /tmp/r28/root
source tools/train/logs/r24/r24_common.sh
export WORK_DIR=/tmp/r28/work SEEDS=4:6
P=assets/upscaler_temporal_fast.npz Q=tools/train/logs/r28/upscaler_temporal_q0.npz
COMMON="--unshuffle 2 --width 16 --first-kernel 3 --temporal-weight 1.0 --teacher $R --lr 5e-4 --save-every 100"
export JOB=r28 SECONDS_BUDGET=${SECONDS_BUDGET:-800} COMPARE_MODELS="$P" \
  HELDOUT_PLANS=${HELDOUT_PLANS:-"heldout_temporal.json:temporal:130"} \
  VARIANTS="q:--depth 4 --init $Q $COMMON;p5:--depth 3 --init $P $COMMON"
source tools/train/logs/continue_job.sh
