# r18, part 2 (same machine: part 1's data and networks are in /tmp/r18): continue part 1's winner
# by the selection rule of r4 (best validation PSNR among networks whose validation flicker is at
# most TAAU's; within 0.05 dB the lower flicker wins), at its own rate, for the rest of the command.
source tools/train/logs/r18/r18_common.sh
pick=$(python3 - <<'PY'
import json
r = json.load(open("/tmp/r18/keep/validation.json"))
taau = r["TAAU (engine)"]["flicker"]
ok = {k: v for k, v in r.items() if k.startswith("upscaler_temporal_") and v["flicker"] <= taau}
best = max(v["psnr"] for v in ok.values())
print(min((v["flicker"], k) for k, v in ok.items() if v["psnr"] >= best - 0.05)[1][len("upscaler_temporal_"):-4])
PY
)
echo "part 1's winner among the new ones: $pick"
case $pick in c) lr=3e-4;; d) lr=1.5e-4;; *) echo "no new network passed; stopping"; exit 0;; esac
export SECONDS_BUDGET=560 COMPARE_MODELS="assets/upscaler_temporal.npz $A2 /tmp/r18/keep/upscaler_temporal_c.npz /tmp/r18/keep/upscaler_temporal_d.npz" \
  VARIANTS="${pick}2:--init /tmp/r18/keep/upscaler_temporal_$pick.npz $SHAPE --lr $lr"
( while sleep 60; do echo "[r18] $(date +%T) $(free -g | awk '/Mem/ {print $3 " GiB used"}'), $(tail -n 1 $OUT/run.log | cut -c1-100)"; done ) &
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?; kill %1
cp $OUT/*.npz /tmp/r18/keep/ 2>/dev/null
grep -h "s/step" $OUT/train_*.log | tail -n 1
tail -n 40 $OUT/run.log; exit $rc
