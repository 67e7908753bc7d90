# Thirty-first session: the performance model is now n of run r29 (fine-tuned with the squared
# error). TAAU's rows, then two rounds of the temporal ML rows with --effect-steps (the 4K and
# 1080p configurations of both shipped models); then the performance
# model's held-out quality (its "vkml.history_taps" 5 picks the 5-tap feature pass) on the 2x plan
# at 2x, 1.5x and 3x and on the still/slow plan. Carry [".devcarry"] with this checkout's
# frame_bench, upscale_demo and mlrun in .devcarry/big.txz.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source .devcarry/env.sh
root=$PWD
frame_bench --frames 200 --warmup 20 --assets assets --filter taau --json $OUT/fb_taau.json | grep -E "taau"
for round in 1 2; do
  frame_bench --frames 200 --warmup 20 --assets assets --filter ml-temporal --effect-steps | grep -E "ml-temporal|upscale_" | sed "s/^/r$round /"
done
export VKML_MODEL_DIR=$root/assets
mkdir -p $OUT/quality
cd .devcarry/heldout
for p in heldout_temporal.json:temporal:0.5 heldout_temporal.json:temporal_x1.5:0.6666667 heldout_temporal.json:temporal_x3:0.3333333 heldout_static.json:temporal_static:0.5; do
  IFS=: read -r plan report scale <<< "$p"
  timeout 150 python3 -u $root/tools/train/evaluate_temporal.py $plan --work /tmp/hof --demo $root/.devcarry/bin/upscale_demo \
    --jobs 11 --timeout 120 --score-on cuda --methods bicubic,taau,ml-temporal --temporal-model $root/assets/upscaler_temporal_fast.onnx \
    --render-scale $scale --crops 0 --report $OUT/quality/${report}_fast.md > $OUT/quality/${report}_fast.log 2>&1
  echo "$report: rc $?"; sed -n '/^| Method/,/^$/p' $OUT/quality/${report}_fast.md
done
