# After the motion-vector change (eval_motion.sh re-rendered the 2x and still/slow reports): the
# other 480x272 ratio reports of the shipped c2 again, every method and the reference on the GPU
# machine. Carry as for eval_gpu.sh (upscale_demo, heldout/).
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo
cd .devcarry/heldout && mkdir -p quality
four=bilinear,bicubic,taau,ml-temporal
r() {  # seconds, report file, evaluate_temporal.py arguments
  t=$1 f=$2; shift 2; echo "== $f"
  timeout $t python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho --demo "$demo" --jobs 10 \
    --timeout 100 --score-on cuda --report quality/$f "$@" > quality/${f%.md}.log 2>&1
  echo "rc $?"; sed -n '/^| Method/,/^$/p' quality/$f; tar czf $OUT/quality_ratios.tgz quality
}
r 60 temporal_x1.5.md --render-scale 0.6666667 --methods $four --crops 0
r 60 temporal_x3.md --render-scale 0.3333333 --methods $four --crops 0
r 70 temporal_x1.md --render-scale 1.0 --methods $four --crops 0
r 70 temporal_x1.25.md --render-scale 0.8 --methods $four --crops 0
