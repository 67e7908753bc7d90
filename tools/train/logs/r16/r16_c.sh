# r16, part 3: continue student a of part 2 (carried back in .devcarry/r16) in two variants; the
# data of part 1 is reused (same machine). Part 2 scored a 29.580 dB and b 27.921 dB on the
# validation split (its table was cut off by the command's time limit: b_run.log).
source tools/train/logs/r16/r16_common.sh
export SECONDS_BUDGET=500 COMPARE_MODELS="assets/upscaler_temporal.npz .devcarry/r16/upscaler_temporal_a.npz" \
  VARIANTS="a2:$A --init .devcarry/r16/upscaler_temporal_a.npz $TEACHER --distill-weight 1.0 --lr 1e-3;a3:$A --init .devcarry/r16/upscaler_temporal_a.npz $TEACHER --distill-weight 0.3 --lr 1e-3"
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?
grep -h "s/step" $OUT/train_*.log | tail -n 4
tail -n 30 $OUT/run.log; exit $rc
