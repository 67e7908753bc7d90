# r17, part 1: render (with still windows) and continue the shipped network w2 in two variants:
# a, 12 frames unrolled as in r13; b, 24 frames with back-propagation truncated every 8 (a still
# camera accumulates for longer than 12 frames).
source tools/train/logs/r17/r17_common.sh
export SECONDS_BUDGET=520 COMPARE_MODELS=assets/upscaler_temporal.npz \
  VARIANTS="a:--init assets/upscaler_temporal.npz $SHAPE --lr 5e-4;b:--init assets/upscaler_temporal.npz $SHAPE --lr 5e-4 --frames 24 --detach-every 8 --batch 16"
( while sleep 60; do echo "[r17] $(date +%T) $(free -g | awk '/Mem/ {print $3 " GiB used"}'), /tmp $(df -h /tmp | awk 'NR==2 {print $3}'), $(tail -n 1 $OUT/run.log | cut -c1-100)"; done ) &
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?; kill %1
mkdir -p /tmp/r17/keep && cp $OUT/*.npz $OUT/validation.json /tmp/r17/keep/
grep -h "s/step" $OUT/train_*.log | tail -n 2
tail -n 40 $OUT/run.log; exit $rc
