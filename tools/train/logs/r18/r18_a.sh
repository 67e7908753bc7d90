# r18, part 1: render r17's plan again (a fresh machine) and continue a2 in two variants at once:
# c at r17's last rate (3e-4), d at half of it.
source tools/train/logs/r18/r18_common.sh
export SECONDS_BUDGET=560 COMPARE_MODELS="assets/upscaler_temporal.npz $A2" \
  VARIANTS="c:--init $A2 $SHAPE --lr 3e-4;d:--init $A2 $SHAPE --lr 1.5e-4"
( while sleep 60; do echo "[r18] $(date +%T) $(free -g | awk '/Mem/ {print $3 " GiB used"}'), $(tail -n 1 $OUT/run.log | cut -c1-100)"; done ) &
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?; kill %1
mkdir -p /tmp/r18/keep && cp $OUT/*.npz $OUT/validation.json /tmp/r18/keep/
grep -h "s/step" $OUT/train_*.log | tail -n 2
tail -n 40 $OUT/run.log; exit $rc
