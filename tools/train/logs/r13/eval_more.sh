# Held-out spot checks of the shipped temporal network on the GPU machine: 1x (native
# anti-aliasing) and 1.7x at 480x272, then 2x at a 3840x2160 output (report with crops).
# Run from the repository root on the GPU machine (carry [".devcarry"]: ../shared/device/pack.sh of
# upscale_demo, plus .devcarry/heldout as for eval_docs.sh). The 3840x2160 report did not finish in 440 s.
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
report 70 temporal_x1.md --render-scale 1.0 --methods $four --crops 0
report 60 temporal_x1.7.md --render-scale 0.5882353 --methods $four --crops 0
report 440 temporal_3840x2160.md --display 3840x2160 --methods $four --crops 3
