# r16, part 2 (part 1's four students ran out of GPU memory at once: each process holds the whole
# data set on the GPU; logs in oom/): two students on part 1's data (same machine, so the render
# is skipped) for the command's time.
source tools/train/logs/r16/r16_common.sh
export SECONDS_BUDGET=560 COMPARE_MODELS=assets/upscaler_temporal.npz \
  VARIANTS="a:$A $TEACHER --distill-weight 1.0;b:$B $TEACHER --distill-weight 1.0"
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?
mkdir -p /tmp/r16/keep && cp $OUT/*.npz /tmp/r16/keep/
grep -h "s/step" $OUT/train_*.log | tail -n 4
tail -n 30 $OUT/run.log; exit $rc
