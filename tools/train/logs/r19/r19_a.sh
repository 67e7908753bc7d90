# r19, part 1: render the plan with rooms and continue c2 in two variants at once: e at r18's rate
# (3e-4), f at half of it.
source tools/train/logs/r19/r19_common.sh
export SECONDS_BUDGET=575 COMPARE_MODELS="$C2" \
  VARIANTS="e:--init $C2 $SHAPE --lr 3e-4;f:--init $C2 $SHAPE --lr 1.5e-4"
( while sleep 60; do echo "[r19] $(date +%T) $(free -g | awk '/Mem/ {print $3 " GiB used"}'), $(tail -n 1 $OUT/run.log | cut -c1-100)"; done ) &
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?; kill %1
mkdir -p /tmp/r19/keep && cp $OUT/*.npz $OUT/validation.json /tmp/r19/keep/
grep -h "s/step" $OUT/train_*.log | tail -n 2
tail -n 45 $OUT/run.log; exit $rc
