# r17, part 2 (same machine: part 1's data and networks are in /tmp/r17): continue part 1's winner
# by the selection rule of r4 (best validation PSNR among networks whose validation flicker is at
# most TAAU's; within 0.05 dB the lower flicker wins) with its own recipe at a lower rate.
source tools/train/logs/r17/r17_common.sh
pick=$(python3 - <<'PY'
import json
r = json.load(open("/tmp/r17/keep/validation.json"))
taau = r["TAAU (engine)"]["flicker"]
ok = {k: v for k, v in r.items() if k.startswith("upscaler_temporal_") and v["flicker"] <= taau}
best = max(v["psnr"] for v in ok.values())
print(min((v["flicker"], k) for k, v in ok.items() if v["psnr"] >= best - 0.05)[1][len("upscaler_temporal_"):-4])
PY
)
echo "part 1's winner: $pick"
[ "$pick" = b ] && recipe="--frames 24 --detach-every 8 --batch 16" || recipe=""
export SECONDS_BUDGET=470 COMPARE_MODELS="assets/upscaler_temporal.npz /tmp/r17/keep/upscaler_temporal_a.npz /tmp/r17/keep/upscaler_temporal_b.npz" \
  VARIANTS="${pick}2:--init /tmp/r17/keep/upscaler_temporal_$pick.npz $SHAPE --lr 3e-4 $recipe"
( while sleep 60; do echo "[r17] $(date +%T) $(free -g | awk '/Mem/ {print $3 " GiB used"}'), /tmp $(df -h /tmp | awk 'NR==2 {print $3}'), $(tail -n 1 $OUT/run.log | cut -c1-100)"; done ) &
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?; kill %1
cp $OUT/*.npz /tmp/r17/keep/ 2>/dev/null
grep -h "s/step" $OUT/train_*.log | tail -n 1
tail -n 40 $OUT/run.log; exit $rc
