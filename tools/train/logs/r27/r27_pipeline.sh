# r27 (prepared by the twenty-eighth session, not run yet): continues r26b's p3 (r2 w16 d3 f3,
# 1.020 ms at 4K on an H200 with the folded reprojection; validation 31.722 dB, held out +1.40 dB
# over TAAU on the 2x plan) for a session's device time on glTF scenes of seeds 4-6, which no
# earlier run of this network rendered (r21's recipe otherwise; seeds 7-9 hold the held-out
# scenes and seed 20 the validation split, and device_train.sh refuses any overlap with them):
# r26b gained only 0.06 dB in 1,538 steps on seeds 1-3, so new content, not more steps on the
# same, is what this run tests. Distilling from r, lr 5e-4, checkpoints every 100 steps; then
# validation beside p3, export, and both held-out plans. Run by the twenty-ninth session with
# SECONDS_BUDGET 850 (about 600 s of training after the ~250 s of scenes and rendering), after the
# per-step timing in the same first device command (r27_launch.sh).
cd /tmp/r27/root
source tools/train/logs/r24/r24_common.sh
export WORK_DIR=/tmp/r27/work SEEDS=4:6
P=tools/train/logs/r26b/out/upscaler_temporal_p3.npz
export JOB=r27 V=p4 SECONDS_BUDGET=${SECONDS_BUDGET:-850} COMPARE_MODELS="$P" \
  ARGS="--unshuffle 2 --width 16 --depth 3 --first-kernel 3 --temporal-weight 1.0 --teacher $R --init $P --lr 5e-4 --save-every 100"
source tools/train/logs/continue_job.sh
