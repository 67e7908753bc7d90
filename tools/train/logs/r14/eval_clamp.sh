# Held-out check of the ratio-feature clamp on the GPU machine (the shipped network w2, whose ONNX
# now carries vkml.ratio_feature_max = 2/3): reports at 1x (native anti-aliasing) and 1.25x, and
# the same network without the clamp (the previous file, unclamped.onnx) at 1.25x for comparison
# (its 1x figures are run r13's). Run from the repository root on the GPU machine with carry
# [".devcarry"]: ../shared/device/pack.sh of upscale_demo -- unclamped.onnx (into .devcarry/extra), plus .devcarry/heldout
# as for ../r13/eval_docs.sh.
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo
report() {  # seconds, report file, evaluate_temporal.py arguments
  local t=$1 f=$2; shift 2
  echo "== $f"
  (cd .devcarry/heldout && mkdir -p quality &&
   timeout $t python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho --demo "$demo" --jobs ${JOBS:-10} \
     --timeout 400 --report quality/$f "$@" > quality/${f%.md}.log 2>&1; echo "rc $?"; tail -n 1 quality/${f%.md}.log
   sed -n '/^| Method/,/^$/p' quality/$f; tar czf $OUT/quality.tgz quality)
}
four=bilinear,bicubic,taau,ml-temporal
report 150 temporal_x1.md --render-scale 1.0 --methods $four --crops 3
report 150 temporal_x1.25.md --render-scale 0.8 --methods $four --crops 0
report 100 unclamped_x1.25.md --render-scale 0.8 --methods ml-temporal --crops 0 --temporal-model "$root/.devcarry/extra/unclamped.onnx"
