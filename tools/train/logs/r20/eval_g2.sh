# r20's g2 (the accumulating resolve, 10 minutes of training from c2): the held-out 2x plan and the
# still/slow plan, TAAU and temporal ML only, on the GPU machine. Carry .devcarry with upscale_demo
# and heldout/ (as r18's eval_motion.sh).
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo model=$PWD/tools/train/logs/r20/upscaler_temporal_g2.onnx
cd .devcarry/heldout && mkdir -p quality
timeout 120 python3 -u "$root/tools/train/evaluate_temporal.py" heldout_static.json --work /tmp/hos --demo "$demo" --jobs 11 --timeout 100 \
  --score-on cuda --methods taau,ml-temporal --temporal-model "$model" --crops 0 --report quality/temporal_static_g2.md > quality/temporal_static_g2.log 2>&1
echo "rc $?"; sed -n '/^| Method/,/^$/p;/^| Sequence/,/^$/p' quality/temporal_static_g2.md
timeout 130 python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho --demo "$demo" --jobs 10 --timeout 100 \
  --score-on cuda --methods taau,ml-temporal --temporal-model "$model" --crops 0 --report quality/temporal_g2.md > quality/temporal_g2.log 2>&1
echo "rc $?"; sed -n '/^| Method/,/^$/p;/^| Sequence/,/^$/p' quality/temporal_g2.md
tar czf $OUT/quality_g2.tgz quality
