# Thirty-second session: TAAU with the moving pixels' history cap (gpu::TAAU_MOVING_HISTORY_WEIGHT).
# Two rounds of frame_bench's TAAU rows, then TAAU alone on the held-out plans whose reports were
# rendered on a GPU (docs/quality/: 2x, 1.5x, 3x, 1x, still/slow, 960x540, 1920x1080 and, if time
# is left, 3840x2160), each report packed into $OUT/quality.tgz as soon as it is written (a
# command cut short still returns those done). Carry [".devcarry"] with this checkout's binaries.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source .devcarry/env.sh
root=$PWD
for round in 1 2; do
  frame_bench --frames 200 --warmup 20 --assets assets --filter taau --effect-steps --json $OUT/fb_taau_$round.json | grep -E "taau" | sed "s/^/r$round /"
done
export VKML_MODEL_DIR=$root/assets
mkdir -p /tmp/q
cd .devcarry/heldout
for p in heldout_temporal.json:temporal:0.5: heldout_temporal.json:temporal_x1.5:0.6666667: heldout_temporal.json:temporal_x3:0.3333333: \
         heldout_temporal.json:temporal_x1:1.0: heldout_static.json:temporal_static:0.5: heldout_temporal.json:temporal_960x540:0.5:960x540 \
         heldout_temporal.json:temporal_1920x1080:0.5:1920x1080 heldout_temporal.json:temporal_3840x2160:0.5:3840x2160; do
  IFS=: read -r plan report scale display <<< "$p"
  left=$(( 440 - SECONDS ))
  [ $left -lt 40 ] && { echo "$report: skipped, ${left} s left"; continue; }
  timeout $left python3 -u $root/tools/train/evaluate_temporal.py $plan --work /tmp/ho_$report --demo $root/.devcarry/bin/upscale_demo \
    --jobs 11 --timeout 300 --score-on cuda --methods taau --render-scale $scale ${display:+--display $display} --crops 0 \
    --report /tmp/q/${report}_taau.md > /tmp/q/${report}_taau.log 2>&1
  echo "$report: rc $? at ${SECONDS} s"; sed -n '/^| TAAU/p' /tmp/q/${report}_taau.md
  (cd /tmp/q && tar czf $OUT/quality.tgz .)
done
