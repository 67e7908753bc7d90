# r21: the accumulating resolve trained longer, as one background job across device commands
# (r21_launch.sh starts it, r21_wait.sh follows it): render r20's plan, continue three networks at
# once, validate them beside c2 and g2, then score each on the held-out 2x and still/slow plans and
# the validation's best of the three on the other ratios. Everything lands in /tmp/r21/out.
#   p: g2 (cap 16), 12 frames unrolled, lr 3e-4: only more training;
#   q: g2, 24 frames unrolled (back-propagation truncated every 12), loss from frame 4: the
#      accumulated weights of the reports' later frames, which a 12-frame unroll never reaches;
#   r: m (cap 4, better than g2 on r20's moving sequences), as q.
# The choice among the networks is by validation (tools/train/README.md's rule); the held-out
# figures are for the record of every candidate and decide nothing.
cd /tmp/r21/root
source tools/train/logs/r21/r21_common.sh
export OUT=/tmp/r21/out SECONDS_BUDGET=${SECONDS_BUDGET:-1020} COMPARE_MODELS="$C2 $G2" \
  VARIANTS="p:--init $G2 $SHAPE --lr 3e-4;q:--init $G2 $SHAPE --lr 3e-4 --frames 24 --detach-every 12 --loss-from 4;r:--init $M $SHAPE --lr 3e-4 --frames 24 --detach-every 12 --loss-from 4"
mkdir -p $OUT/quality
echo "[r21] $(date +%T) training"
bash tools/train/device_train.sh > $OUT/run.log 2>&1 || echo "[r21] device_train.sh failed: $?"
grep -h "s/step" $OUT/train_*.log | tail -n 3
root=$PWD
export VKML_MODEL_DIR=$root/assets
heldout() {  # network name, plan, report name, seconds, extra evaluate_temporal.py arguments
  local v=$1 plan=$2 f=$3 t=$4; shift 4
  (cd .devcarry/heldout && timeout $t python3 -u "$root/tools/train/evaluate_temporal.py" $plan --work /tmp/r21/ho_$v --demo "$DEMO" \
    --jobs 11 --timeout 100 --score-on cuda --methods taau,ml-temporal --temporal-model $OUT/upscaler_temporal_$v.onnx --crops 0 \
    --report $OUT/quality/$f "$@" > $OUT/quality/${f%.md}.log 2>&1)
  echo "[r21] $(date +%T) $f: rc $?"; sed -n '/^| Method/,/^$/p' $OUT/quality/$f
}
for v in p q r; do
  python3 tools/train/export_temporal.py --weights $OUT/upscaler_temporal_$v.npz --out $OUT/upscaler_temporal_$v.onnx --no-check || continue
  heldout $v heldout_static.json temporal_static_$v.md 120
  heldout $v heldout_temporal.json temporal_$v.md 130
done
best=$(python3 - <<PY
import json
# The rule of tools/train/README.md: the best validation PSNR among the networks whose flicker is at
# most TAAU's; within 0.05 dB of it, the lower flicker.
v = json.load(open("$OUT/validation.json"))
taau = v["TAAU (engine)"]["flicker"]
ours = {k: m for k, m in v.items() if any(k.endswith(f"_{x}.npz") for x in "pqr") and m["flicker"] <= taau}
if not ours:
    print("p")
else:
    top = max(m["psnr"] for m in ours.values())
    close = [k for k, m in ours.items() if m["psnr"] >= top - 0.05]
    print(min(close, key=lambda k: ours[k]["flicker"])[-5])
PY
)
echo "[r21] $(date +%T) the validation's best of p, q, r: $best"
heldout $best heldout_temporal.json temporal_x1.5_$best.md 70 --render-scale 0.6666667
heldout $best heldout_temporal.json temporal_x3_$best.md 70 --render-scale 0.3333333
heldout $best heldout_temporal.json temporal_x1_$best.md 80 --render-scale 1.0
heldout $best heldout_temporal.json temporal_960x540_$best.md 120 --display 960x540
echo "[r21] $(date +%T) done"
