# r20, part 2 (on the machine part 1 left warm: its data in /tmp/r20): continue g and h for the
# whole command at half their rates. device_train.sh regenerates the scenes and plans, and the
# render finds every sequence already there.
source tools/train/logs/r20/r20_common.sh
export SECONDS_BUDGET=570 COMPARE_MODELS="$C2" \
  VARIANTS="g2:--init /tmp/r20/keep/upscaler_temporal_g.npz $SHAPE --lr 5e-4;h2:--init /tmp/r20/keep/upscaler_temporal_h.npz $SHAPE --lr 2e-4"
[ -e /tmp/r20/keep/upscaler_temporal_g.npz ] || { echo "part 1's networks are gone (a fresh machine): run part 1 again"; exit 3; }
( while sleep 60; do echo "[r20] $(date +%T) $(tail -n 1 $OUT/run.log | cut -c1-100)"; done ) &
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?; kill %1
cp $OUT/*.npz /tmp/r20/keep/
grep -h "s/step" $OUT/train_*.log | tail -n 2
tail -n 30 $OUT/run.log; exit $rc
