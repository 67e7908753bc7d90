#!/usr/bin/env bash
# Assembles the directory the held-out plans (heldout_temporal.json, heldout_static.json) run in:
# the generated held-out scenes (make_scenes.py: room seed 7, street and poles seed 8, objects
# seed 9, never rendered for training), the camera paths and the plans, and the two public models
# the plans name, copied from a Bevy checkout or git directory (fetch_heldout.md: FlightHelmet and
# DepthOfFieldExample from Bevy's assets; never committed). Background device jobs carry it as
# .devcarry/heldout (tools/train/logs/pack_job_carry.sh).
#   tools/train/make_heldout_dir.sh OUT_DIR BEVY_DIR      (a work tree, or a bare git directory)
set -euo pipefail
out=${1:?make_heldout_dir.sh OUT_DIR BEVY_DIR}
bevy=${2:?make_heldout_dir.sh OUT_DIR BEVY_DIR (fetch_heldout.md)}
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-python3}
models=(assets/models/FlightHelmet assets/models/DepthOfFieldExample/DepthOfFieldExample.glb)
mkdir -p "$out"
if [ -d "$bevy/assets/models" ]; then
  for m in "${models[@]}"; do mkdir -p "$out/$(dirname "$m")"; cp -r "$bevy/$m" "$out/$(dirname "$m")/"; done
elif git -C "$bevy" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$bevy" archive HEAD "${models[@]}" | tar -x -C "$out"
else
  echo "make_heldout_dir.sh: $bevy is neither a Bevy work tree (no assets/models) nor a git directory" >&2; exit 2
fi
for m in "${models[@]}"; do
  [ -e "$out/$m" ] || { echo "make_heldout_dir.sh: $bevy has no $m" >&2; exit 2; }
done
"$py" "$here/make_scenes.py" --out "$out/gen" --kinds room --seeds 7
"$py" "$here/make_scenes.py" --out "$out/gen2" --kinds street,poles --seeds 8
"$py" "$here/make_scenes.py" --out "$out/gen3" --kinds objects --seeds 9
cp -r "$here/heldout_paths" "$out/"
cp "$here"/heldout_temporal.json "$here"/heldout_static.json "$out/"
echo "[heldout] $out: $(du -sh "$out" | cut -f1)"
