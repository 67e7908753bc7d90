# r20's g2 on the other held-out reports: the 480x272 plan at 1.5x, 3x, 1x and 1.25x, and at
# 960x540 (2x), TAAU and temporal ML only, on the GPU machine. Carry as eval_g2.sh.
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo model=$PWD/tools/train/logs/r20/upscaler_temporal_g2.onnx
cd .devcarry/heldout && mkdir -p quality
r() {  # seconds, report file, evaluate_temporal.py arguments
  t=$1 f=$2; shift 2; echo "== $f"
  timeout $t python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho --demo "$demo" --jobs 10 \
    --timeout 100 --score-on cuda --methods taau,ml-temporal --temporal-model "$model" --crops 0 --report quality/$f "$@" > quality/${f%.md}.log 2>&1
  echo "rc $?"; sed -n '/^| Method/,/^$/p' quality/$f; tar czf $OUT/quality_g2_ratios.tgz quality
}
r 70 temporal_x1.5_g2.md --render-scale 0.6666667
r 70 temporal_x3_g2.md --render-scale 0.3333333
r 80 temporal_x1_g2.md --render-scale 1.0
r 80 temporal_x1.25_g2.md --render-scale 0.8
r 120 temporal_960x540_g2.md --display 960x540
