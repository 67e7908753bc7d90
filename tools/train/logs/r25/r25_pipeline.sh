# r25 (twenty-seventh session): two networks distilled from the shipped r (r2 w32 d3 f3, 1.513 ms
# at 4K on an H200) on the GPU together, then validated beside r and r24's s2 and scored on the
# held-out 2x plan (the still/slow plan is left out for device time):
# - t2 continues r23's t (r4 w32 d3 f1, 0.897 ms at 4K; 1,537 steps from scratch, validation
#   30.025 dB). r24 continued s (r2 w32 d2 f1) and its validation PSNR stopped rising at 31.3 dB,
#   1 dB below r: s sees a 6x6 window of display pixels, t a 20x20 one at a quarter of the
#   resolution. Does t's reach get past s's plateau?
# - p starts from r pruned to 16 channels per layer (r2 w16 d3 f3, 1.032 ms at 4K), made here by
#     python3 tools/train/prune_temporal.py --weights assets/upscaler_temporal.npz --width 16 \
#       --out tools/train/logs/r25/upscaler_temporal_p_init.npz build/tests/temporal_training/data/*
#   (calibrated on the test suite's training-split sequences: r 22.67 dB on them, the pruned
#   network 22.03, a fresh w16 network 21.53, w16 with channels dropped at random 21.69). It keeps
#   r's receptive field (three 3x3 layers) at half of r's arithmetic.
# Checkpoints every 100 steps (--save-every) come back with every follow command.
cd /tmp/r25/root
source tools/train/logs/r25/r25_common.sh
T=tools/train/logs/r23/out/upscaler_temporal_t.npz P=tools/train/logs/r25/upscaler_temporal_p_init.npz
COMMON="--temporal-weight 1.0 --teacher $R --lr 1e-3 --save-every 100"
export JOB=r25 SECONDS_BUDGET=1200 COMPARE_MODELS="$R tools/train/logs/r24/out/upscaler_temporal_s2.npz" \
  HELDOUT_PLANS="heldout_temporal.json:temporal:130" \
  VARIANTS="t2:--unshuffle 4 --width 32 --depth 3 --first-kernel 1 --init $T $COMMON;p:--unshuffle 2 --width 16 --depth 3 --first-kernel 3 --init $P $COMMON"
source tools/train/logs/continue_job.sh
