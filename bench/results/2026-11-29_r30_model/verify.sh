# Thirty-second session: the performance model is now c of run r30 (n continued on data with the
# 1.25x and 1x ratios). Two rounds of the temporal ML rows with --effect-steps (the 4K and 1080p
# configurations of both shipped models); then the performance model's held-out quality on the 2x
# plan at 2x, 1.5x, 3x, 1.25x and 1x, on the still/slow plan and on the eight third-party scenes.
# Carry [".devcarry"] with this checkout's frame_bench, upscale_demo and mlrun in
# .devcarry/big.txz and the third-party scenes in .devcarry/heldout/thirdparty.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source .devcarry/env.sh
root=$PWD
for round in 1 2; do
  frame_bench --frames 200 --warmup 20 --assets assets --filter ml-temporal --effect-steps | grep -E "ml-temporal|upscale_" | sed "s/^/r$round /"
done
export VKML_MODEL_DIR=$root/assets
mkdir -p $OUT/quality
cd .devcarry/heldout
for p in heldout_temporal.json:temporal:0.5:bicubic, heldout_temporal.json:temporal_x1.5:0.6666667:bicubic, \
         heldout_temporal.json:temporal_x3:0.3333333:bicubic, heldout_static.json:temporal_static:0.5:bicubic, \
         heldout_temporal.json:temporal_x1.25:0.8: heldout_temporal.json:temporal_x1:1.0: \
         heldout_thirdparty.json:temporal_thirdparty:0.5:bicubic,; do
  IFS=: read -r plan report scale extra <<< "$p"
  timeout 100 python3 -u $root/tools/train/evaluate_temporal.py $plan --work /tmp/hof --demo $root/.devcarry/bin/upscale_demo \
    --jobs 11 --timeout 90 --score-on cuda --methods ${extra}taau,ml-temporal --temporal-model $root/assets/upscaler_temporal_fast.onnx \
    --render-scale $scale --crops 0 --report $OUT/quality/${report}_fast.md > $OUT/quality/${report}_fast.log 2>&1
  echo "$report: rc $?"; sed -n '/^| Method/,/^$/p' $OUT/quality/${report}_fast.md
done
