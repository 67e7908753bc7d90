#!/usr/bin/env bash
# bench/make_overdraw_scene.py: its scenes load and render in upscale_demo (validation on, no
# loader warnings), the same arguments give the same bytes, and a bad layer count is refused.
# Usage: overdraw_scene_test.sh UPSCALE_DEMO MAKE_OVERDRAW_SCENE_PY OUTPUT_DIR
set -euo pipefail
demo=$1 script=$2 out=$3
source "$(dirname "$0")/../support/script_test.sh"
require_python numpy
rm -rf "$out"
mkdir -p "$out"
"$py" "$script" "$out/one.glb"
"$py" "$script" "$out/four.glb" --layers 4 --back-to-front
"$py" "$script" "$out/again.glb" --layers 4 --back-to-front >/dev/null
cmp "$out/four.glb" "$out/again.glb"
for scene in one four; do
  render_clean "$demo" --headless --validation --scene "$out/$scene.glb" --frames 1 --width 64 --height 48 --out "$out/$scene"
done
if log=$("$py" "$script" "$out/bad.glb" --layers 0 2>&1); then echo "FAIL: --layers 0 was accepted"; exit 1; fi
grep -q -- "--layers 0 is out of range" <<<"$log" || { echo "FAIL: unexpected error: $log"; exit 1; }
[ ! -e "$out/bad.glb" ] || { echo "FAIL: a refused scene was written"; exit 1; }
echo "overdraw scenes rendered"
