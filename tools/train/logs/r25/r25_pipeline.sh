# r25 (prepared by the twenty-sixth session, not run yet): continues r23's t (r4 w32 d3 f1, 0.897 ms
# at 4K on an H200; 1,537 steps from scratch, validation 30.025 dB) for a whole session's device
# time, alone on the GPU, still distilling from the shipped r. r24 continued s (r2 w32 d2 f1) the
# same way and its validation PSNR stopped rising at 31.3 dB, 1 dB below r (tools/train/README.md,
# "Run r24"): s sees a 6x6 window of display pixels, t a 20x20 one at a quarter of the resolution.
# Does t's reach get past s's plateau? Checkpoints every 100 steps (--save-every) come back with
# every follow command. Then validation against r and r24's s2, and the held-out 2x and
# still/slow plans.
cd /tmp/r25/root
source tools/train/logs/r25/r25_common.sh
T=tools/train/logs/r23/out/upscaler_temporal_t.npz
export JOB=r25 V=t2 COMPARE_MODELS="$R tools/train/logs/r24/out/upscaler_temporal_s2.npz" \
  ARGS="--unshuffle 4 --width 32 --depth 3 --first-kernel 1 --temporal-weight 1.0 --teacher $R --init $T --lr 1e-3 --save-every 100"
source tools/train/logs/continue_job.sh
