# r16, part 1: render, then four students from scratch for the rest of the command's time.
source tools/train/logs/r16/r16_common.sh
export SECONDS_BUDGET=540 COMPARE_MODELS=assets/upscaler_temporal.npz \
  VARIANTS="a:$A $TEACHER --distill-weight 1.0;c:$A $TEACHER --distill-weight 0.3;d:$A;b:$B $TEACHER --distill-weight 1.0"
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?
mkdir -p /tmp/r16/keep && cp $OUT/*.npz /tmp/r16/keep/
grep -h "s/step" $OUT/train_*.log | tail -n 4
tail -n 30 $OUT/run.log; exit $rc
