# Thirty-third session: the cost of a moving pixels' history cap in the ML feature pass, and run
# r31's networks held out. Two rounds of frame_bench's temporal ML rows with --effect-steps, with the
# shipped models (assets/) and with the quality model's place taken by r31's c (the same shape with
# "vkml.moving_history_weight" 1: the feature pass built with MOVING_HISTORY_CAP); the performance
# model, the same in both, is the control. Then two rounds of the TAAU rows (its resolve now reads
# the moving cap from the push constants). Then r31's a, b and c on the held-out 2x plan, as time
# allows. Carry [".devcarry"] with this checkout's binaries.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source .devcarry/env.sh
root=$PWD
rm -rf /tmp/capped && cp -r assets /tmp/capped && cp tools/train/logs/r31/out/upscaler_temporal_c.onnx /tmp/capped/upscaler_temporal.onnx
for round in 1 2; do
  for a in assets /tmp/capped; do
    frame_bench --frames 200 --warmup 20 --assets $a --filter ml-temporal --effect-steps | grep -E "ml-temporal|upscale_" | sed "s|^|r$round $a |"
  done
done
for round in 1 2; do
  frame_bench --frames 200 --warmup 20 --assets assets --filter taau --effect-steps | grep -E "taau" | sed "s/^/r$round /"
done
echo "timing done at ${SECONDS} s"
export VKML_MODEL_DIR=$root/assets
mkdir -p $OUT/quality
cd .devcarry/heldout
for v in c a b; do
  left=$(( 420 - SECONDS ))
  [ $left -lt 40 ] && { echo "$v: skipped, ${left} s left"; continue; }
  timeout $left python3 -u $root/tools/train/evaluate_temporal.py heldout_temporal.json --work /tmp/ho_$v --demo $root/.devcarry/bin/upscale_demo \
    --jobs 11 --timeout 90 --score-on cuda --methods taau,ml-temporal --temporal-model $root/tools/train/logs/r31/out/upscaler_temporal_$v.onnx \
    --render-scale 0.5 --crops 0 --report $OUT/quality/temporal_$v.md > $OUT/quality/temporal_$v.log 2>&1
  echo "$v: rc $? at ${SECONDS} s"; sed -n '/^| Method/,/^$/p' $OUT/quality/temporal_$v.md
done
