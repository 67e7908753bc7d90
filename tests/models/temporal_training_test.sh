#!/usr/bin/env bash
# The temporal upscaler's training pipeline end to end at a tiny size, on this machine's Vulkan
# device: scenes (make_scenes.py), a plan with slow windows (render_temporal.py), rendering with
# the engine, a few training steps with truncated back-propagation from the shipped weights
# (train_temporal.py --detach-every), and validation with the TAAU baseline (validate_temporal.py).
# Also: a plan that would render held-out content (street seed 8, which heldout_temporal.json
# uses) must be refused, naming the scene.
# Usage: temporal_training_test.sh UPSCALE_DEMO PROJECT_SOURCE_DIR WORK_DIR
set -euo pipefail
demo=$1 root=$2 work=$3
source "$(dirname "$0")/../support/script_test.sh"
require_python torch PIL numpy
train=$root/tools/train
rm -rf "$work" && mkdir -p "$work" && cd "$work"
"$py" "$train/make_scenes.py" --out scenes --kinds street --seeds 1 --texture-size 64 > /dev/null
"$py" "$train/make_scenes.py" --out held --kinds street --seeds 8 --texture-size 64 > /dev/null
if "$py" "$train/render_temporal.py" plan --scenes held --out refused.json --kinds street --seeds 8 --procedural-seeds "" 2> refused.txt; then
  echo "FAIL: a plan rendering the held-out street_s8 was accepted"; exit 1
fi
grep -q "street_s8.glb" refused.txt || { echo "FAIL: the refusal does not name the scene:"; cat refused.txt; exit 1; }
"$py" "$train/render_temporal.py" plan --scenes scenes --out plan.json --kinds street --seeds 1 --procedural-seeds 1 --paths orbit \
  --display 64x32 --frames 10 --supersample 2 --windows 1 --slow-windows 1
grep -q '"fps": 120' plan.json || { echo "FAIL: the plan has no slow window"; exit 1; }
"$py" "$train/render_temporal.py" render plan.json --out data --demo "$demo" --only street_s1_walk_slow0,procedural_s1_orbit
"$py" "$train/train_temporal.py" --data data --steps 3 --batch 2 --crop 32 --frames 10 --detach-every 4 --unshuffle 2 \
  --first-kernel 3 --init "$root/assets/upscaler_temporal.npz" --log-every 1 --out trained.npz
"$py" "$train/validate_temporal.py" --data data --models trained.npz --warmup 4 --json validation.json | tee validation.txt
"$py" - <<'PY'
import json, math
v = json.load(open("validation.json"))
assert set(v) == {"TAAU (engine)", "trained.npz"}, v.keys()
for name, r in v.items():
    assert math.isfinite(r["psnr"]) and r["psnr"] > 10, (name, r["psnr"])
    assert math.isfinite(r["slow_psnr"]), (name, "no slow sequence scored")
print("temporal training pipeline: ok")
PY
