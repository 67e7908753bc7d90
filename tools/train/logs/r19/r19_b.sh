# r19, part 2 (same machine: part 1's data and networks are in /tmp/r19): continue part 1's winner
# by the selection rule of r4 (best validation PSNR among networks whose validation flicker is at
# most TAAU's; within 0.05 dB the lower flicker wins), at its own rate, for the rest of the command.
source tools/train/logs/r19/r19_common.sh
pick=$(python3 - <<'PY'
import json
r = json.load(open("/tmp/r19/keep/validation.json"))
taau = r["TAAU (engine)"]["flicker"]
ok = {k: v for k, v in r.items() if k.startswith("upscaler_temporal_") and v["flicker"] <= taau}
best = max(v["psnr"] for v in ok.values())
print(min((v["flicker"], k) for k, v in ok.items() if v["psnr"] >= best - 0.05)[1][len("upscaler_temporal_"):-4])
PY
)
echo "part 1's winner among the new ones: $pick"
case $pick in e) lr=3e-4;; f) lr=1.5e-4;; *) echo "no new network passed; stopping"; exit 0;; esac
export SECONDS_BUDGET=565 COMPARE_MODELS="$C2 /tmp/r19/keep/upscaler_temporal_e.npz /tmp/r19/keep/upscaler_temporal_f.npz" \
  VARIANTS="${pick}2:--init /tmp/r19/keep/upscaler_temporal_$pick.npz $SHAPE --lr $lr"
( while sleep 60; do echo "[r19] $(date +%T) $(free -g | awk '/Mem/ {print $3 " GiB used"}'), $(tail -n 1 $OUT/run.log | cut -c1-100)"; done ) &
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?; kill %1
cp $OUT/*.npz /tmp/r19/keep/ 2>/dev/null
grep -h "s/step" $OUT/train_*.log | tail -n 1
tail -n 45 $OUT/run.log; exit $rc
