# r20, part 4 (on the machine part 3 left warm, its data in /tmp/r20): continues the better of m
# and n on part 3's validation for the whole command, at two rates.
source tools/train/logs/r20/r20_common.sh
[ -e /tmp/r20/keep/validation.json ] || { echo "part 3's networks are gone (a fresh machine): run part 3 again"; exit 3; }
best=$(python3 -c "
import json; v = json.load(open('/tmp/r20/keep/validation.json'))
print(max(('m', 'n'), key=lambda k: v['upscaler_temporal_%s.npz' % k]['psnr']))")
echo "[r20] continuing $best"
export SECONDS_BUDGET=570 COMPARE_MODELS="$C2" \
  VARIANTS="${best}2:--init /tmp/r20/keep/upscaler_temporal_$best.npz $SHAPE --lr 3e-4;${best}3:--init /tmp/r20/keep/upscaler_temporal_$best.npz $SHAPE --lr 1.5e-4"
( while sleep 60; do echo "[r20] $(date +%T) $(tail -n 1 $OUT/run.log | cut -c1-100)"; done ) &
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?; kill %1
grep -h "s/step" $OUT/train_*.log | tail -n 2
tail -n 30 $OUT/run.log; exit $rc
