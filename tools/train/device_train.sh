#!/bin/bash
# The temporal upscaler's training run as one command on the GPU machine (or any machine with a
# Vulkan GPU and PyTorch): generates the training scenes, renders the training sequences with the
# engine, trains, and writes the weights and logs into $OUT. Scenes, seeds and camera paths are the
# training split of tools/train/README.md; nothing of the held-out split is generated here.
#
#   OUT=dir DEMO=path/to/upscale_demo tools/train/device_train.sh
# Settings (environment): SEEDS (glTF scene seeds, 1:6,10:12; a list of ranges), KINDS (the make_scenes.py
# kinds of both splits, street,poles,objects), PROCEDURAL_SEEDS (1:4), DISPLAY_SIZE
# (384x216), DISPLAY_SIZES (several sizes dealt out to the sequences, e.g. 384x216,768x432: overrides
# DISPLAY_SIZE; render_temporal.py plan --displays), RENDER_SCALES (0.5,0.6666667,0.5,0.3333333: half the sequences at 2x, a quarter each at 1.5x
# and 3x; render_temporal.py plan --render-scales), FRAMES (32 per sequence), STEPS (6000), BATCH (8), CROP (144: a multiple of 48, so that crops at 1.5x and 3x, which round down to multiples of 48 display pixels, keep the size), UNROLL (8), JOBS (6),
# SECONDS_BUDGET (540: training stops in time to load, save and validate within it), VARIANTS ("name:train args;..."
# to train several networks at once on the same data, e.g. "a:--width 32 --depth 2;b:--width 48";
# each writes $OUT/upscaler_temporal_<name>.npz and train_<name>.log), VAL_SEEDS (20) and
# VAL_PROCEDURAL_SEEDS (5): a validation split, rendered and scored (validate_temporal.py ->
# $OUT/validation.txt) to choose among variants without touching the held-out split, PLAN_ARGS
# (extra render_temporal.py plan arguments for both splits, e.g. "--slow-windows 1 --static-windows 1") and
# COMPARE_MODELS (networks trained earlier, e.g. assets/upscaler_temporal.npz, validated beside
# the new ones).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-python3}
demo=${DEMO:?DEMO must name the upscale_demo binary}
out=${OUT:?OUT must name the output directory}
work=${WORK_DIR:-/tmp/vkml_temporal_train}
end=$(( $(date +%s) + ${SECONDS_BUDGET:-540} ))
seeds=${SEEDS:-1:6,10:12}
kinds=${KINDS:-street,poles,objects}
mkdir -p "$work" "$out"
echo "[device_train] scenes"
val_seeds=${VAL_SEEDS:-20}
for s in $("$py" -c "import sys; sys.path.insert(0, '$here'); import render_temporal; print(*render_temporal.parse_range('$seeds'))"); do
  "$py" "$here/make_scenes.py" --out "$work/scenes/s$s" --kinds "$kinds" --seeds "$s" > /dev/null &
done
"$py" "$here/make_scenes.py" --out "$work/val_scenes" --kinds "$kinds" --seeds "$val_seeds" > /dev/null &
wait
# The validation plan first: the training plan may render neither its scenes nor the held-out ones.
"$py" "$here/render_temporal.py" plan --scenes "$work/val_scenes" --out "$work/val_plan.json" --kinds "$kinds" --seeds "$val_seeds" \
  --procedural-seeds "${VAL_PROCEDURAL_SEEDS:-5}" --windows 1 --display "${DISPLAY_SIZE:-384x216}" ${DISPLAY_SIZES:+--displays "$DISPLAY_SIZES"} --render-scales "${RENDER_SCALES:-0.5,0.6666667,0.5,0.3333333}" --frames "${FRAMES:-32}" ${PLAN_ARGS:-}
"$py" "$here/render_temporal.py" plan --scenes "$work"/scenes/s* --out "$work/plan.json" --kinds "$kinds" --seeds "$seeds" \
  --procedural-seeds "${PROCEDURAL_SEEDS:-1:4}" --display "${DISPLAY_SIZE:-384x216}" ${DISPLAY_SIZES:+--displays "$DISPLAY_SIZES"} --render-scales "${RENDER_SCALES:-0.5,0.6666667,0.5,0.3333333}" --frames "${FRAMES:-32}" ${PLAN_ARGS:-} \
  --held-out "$here/heldout_temporal.json" "$work/val_plan.json"
echo "[device_train] render"
"$py" "$here/render_temporal.py" render "$work/plan.json" --out "$work/data" --demo "$demo" --jobs "${JOBS:-6}" 2>&1 | tee "$out/render.log"
"$py" "$here/render_temporal.py" render "$work/val_plan.json" --out "$work/val_data" --demo "$demo" --jobs "${JOBS:-6}" 2>&1 | tail -n 4
# Leave time for what follows training within SECONDS_BUDGET: loading the data and saving (about
# a minute on the H100 for 150 sequences; --max-minutes counts training steps only) and the
# validation (about 30 s, then 15 s per network: r18's first command ran 30 s past its budget
# with a fixed minute for all of it and four networks to validate).
variant_count=1
[ -n "${VARIANTS:-}" ] && variant_count=$(awk -F';' '{print NF}' <<< "$VARIANTS")
model_count=$(( variant_count + $(wc -w <<< "${COMPARE_MODELS:-}") ))
reserve=$(( 90 + 15 * model_count ))
minutes=$("$py" -c "import time; print(max(0.5, ($end - time.time() - $reserve) / 60))")
echo "[device_train] train for at most $minutes minutes"
train() {  # name, extra arguments
  "$py" "$here/train_temporal.py" --data "$work/data" --steps "${STEPS:-6000}" --batch "${BATCH:-8}" --crop "${CROP:-144}" \
    --frames "${UNROLL:-8}" --max-minutes "$minutes" --log-every 100 --out "$out/upscaler_temporal$1.npz" $2 > "$out/train$1.log" 2>&1
}
if [ -z "${VARIANTS:-}" ]; then
  train "" ""
else
  IFS=';' read -ra variants <<< "$VARIANTS"
  for v in "${variants[@]}"; do train "_${v%%:*}" "${v#*:}" & done
  wait
fi
tail -n 3 "$out"/train*.log
echo "[device_train] validation"
"$py" "$here/validate_temporal.py" --data "$work/val_data" --models "$out"/upscaler_temporal*.npz ${COMPARE_MODELS:-} --json "$out/validation.json" | tee "$out/validation.txt"
