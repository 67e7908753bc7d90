# r18's c2, shipped: the held-out reports at 480x272 (2x with crops, 1.5x, 3x, 1x, 1.25x) and the
# static and slow plan, every method and the reference rendered on the GPU machine. These ran as
# two inline device commands right after eval_gpu.sh on the same warm machine (1.6 and 0.3 minutes);
# this file is those commands. Carry as for eval_gpu.sh.
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo
cd .devcarry/heldout && mkdir -p quality
four=bilinear,bicubic,taau,ml-temporal
r() {  # seconds, report file, evaluate_temporal.py arguments
  t=$1 f=$2; shift 2; echo "== $f"
  timeout $t python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho --demo "$demo" --jobs 10 \
    --timeout 100 --score-on cuda --report quality/$f "$@" > quality/${f%.md}.log 2>&1
  echo "rc $?"; sed -n '/^| Method/,/^$/p' quality/$f; tar czf $OUT/quality480.tgz quality
}
r 110 temporal.md --crops 3
r 50 temporal_x1.5.md --render-scale 0.6666667 --methods $four --crops 0
r 50 temporal_x3.md --render-scale 0.3333333 --methods $four --crops 0
r 60 temporal_x1.md --render-scale 1.0 --methods $four --crops 0
r 60 temporal_x1.25.md --render-scale 0.8 --methods $four --crops 0
# second command
timeout 200 python3 -u "$root/tools/train/evaluate_temporal.py" heldout_static.json --work /tmp/hos --demo "$demo" --jobs 11 \
  --timeout 150 --score-on cuda --methods bicubic,taau,ml-temporal --crops 0 --report quality/temporal_static.md > quality/temporal_static.log 2>&1
echo "rc $?"; sed -n '/^| Method/,/^$/p;/^| Sequence/,/^$/p' quality/temporal_static.md
tar czf $OUT/quality_static.tgz quality/temporal_static.*
