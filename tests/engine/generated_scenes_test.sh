#!/usr/bin/env bash
# tools/train/make_scenes.py: every scene kind loads and renders in upscale_demo along each of
# its camera paths (validation on, no loader warnings), and a seed always gives the same bytes.
# Usage: generated_scenes_test.sh UPSCALE_DEMO MAKE_SCENES_PY OUTPUT_DIR
set -euo pipefail
demo=$1 script=$2 out=$3
source "$(dirname "$0")/../support/script_test.sh"
require_python numpy
rm -rf "$out"
mkdir -p "$out"
"$py" "$script" --out "$out/scenes" --seeds 3 --texture-size 64
"$py" "$script" --out "$out/again" --kinds street --seeds 3 --texture-size 64 >/dev/null
cmp "$out/scenes/street_s3.glb" "$out/again/street_s3.glb"
for kind in street poles room objects; do
  for path in "$out"/scenes/"${kind}"_s3_*.json; do
    name=$(basename "$path" .json)
    render_clean "$demo" --headless --validation --scene "$out/scenes/${kind}_s3.glb" --camera-path "$path" --time 5 --frames 2 \
      --width 64 --height 48 --out "$out/$name"
    grep -q "\"camera_path\": \"$name\"" "$out/$name/report.json" || { echo "FAIL: report.json does not name $name"; exit 1; }
  done
done
echo "all generated scenes rendered"
