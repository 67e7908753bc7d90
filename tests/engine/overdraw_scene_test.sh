#!/usr/bin/env bash
# bench/make_overdraw_scene.py: its scenes load and render in upscale_demo (validation on, no
# loader warnings), the same arguments give the same bytes, and a bad layer count is refused.
# Usage: overdraw_scene_test.sh UPSCALE_DEMO MAKE_OVERDRAW_SCENE_PY OUTPUT_DIR
set -euo pipefail
demo=$1 script=$2 out=$3
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! "$py" -c "import numpy" 2>/dev/null; then echo "numpy is missing: skipped"; exit 77; fi
rm -rf "$out"
mkdir -p "$out"
"$py" "$script" "$out/one.glb"
"$py" "$script" "$out/four.glb" --layers 4 --back-to-front
"$py" "$script" "$out/again.glb" --layers 4 --back-to-front >/dev/null
cmp "$out/four.glb" "$out/again.glb"
for scene in one four; do
  if ! log=$("$demo" --headless --validation --scene "$out/$scene.glb" --frames 1 --width 64 --height 48 --out "$out/$scene" 2>&1); then
    echo "$log"
    exit 1
  fi
  echo "$log"
  if grep -q -e "\[vulkan" -e "warning" <<<"$log"; then echo "FAIL: a validation message or a loader warning"; exit 1; fi
done
if log=$("$py" "$script" "$out/bad.glb" --layers 0 2>&1); then echo "FAIL: --layers 0 was accepted"; exit 1; fi
grep -q -- "--layers 0 is out of range" <<<"$log" || { echo "FAIL: unexpected error: $log"; exit 1; }
[ ! -e "$out/bad.glb" ] || { echo "FAIL: a refused scene was written"; exit 1; }
echo "overdraw scenes rendered"
