# r20, part 1: render r19's plan and train the accumulating resolve from c2 (history weight cap
# 16, TAAU's) at two learning rates at once: g at 1e-3, h at 4e-4. c2's features change meaning
# under the new resolve (feature 14 becomes the accumulated weight), so it starts far below c2
# (31.1 dB on the held-out still room against 36.4; the resolve itself, with fixed parameters,
# reaches 38.5 there) and must relearn.
source tools/train/logs/r20/r20_common.sh
export SECONDS_BUDGET=560 COMPARE_MODELS="$C2" \
  VARIANTS="g:--init $C2 $SHAPE --history-weight-cap 16 --lr 1e-3;h:--init $C2 $SHAPE --history-weight-cap 16 --lr 4e-4"
( while sleep 60; do echo "[r20] $(date +%T) $(tail -n 1 $OUT/run.log | cut -c1-100)"; done ) &
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?; kill %1
mkdir -p /tmp/r20/keep && cp $OUT/*.npz $OUT/validation.json /tmp/r20/keep/
grep -h "s/step" $OUT/train_*.log | tail -n 2
tail -n 30 $OUT/run.log; exit $rc
