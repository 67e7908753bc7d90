# r26 (prepared by the twenty-seventh session, not run yet): continues r25's p (the shipped r pruned
# to 16 channels per layer, r2 w16 d3 f3, 1.035 ms at 4K on an H200; 2,306 steps of distillation
# from r, validation 31.644 dB, held out +1.34 dB over TAAU on the 2x plan and +1.45 dB on the
# still/slow plan) alone on the GPU for a whole session's device time, still distilling from r.
# p's run ended on the cosine schedule's zero learning rate, not on a plateau; r24 continued s the
# same way and gained 0.75 dB. Checkpoints every 100 steps (--save-every) come back with every
# follow command. Then validation against r and p, export, and both held-out plans.
cd /tmp/r26/root
source tools/train/logs/r26/r26_common.sh
P=tools/train/logs/r25/out/upscaler_temporal_p.npz
export JOB=r26 V=p2 COMPARE_MODELS="$R $P" \
  ARGS="--unshuffle 2 --width 16 --depth 3 --first-kernel 3 --temporal-weight 1.0 --teacher $R --init $P --lr 1e-3 --save-every 100"
source tools/train/logs/continue_job.sh
