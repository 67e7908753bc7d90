# The shipped temporal network's held-out reports for docs/quality, rendered on the GPU machine
# (every method and the reference; evaluate_temporal.py --jobs), and its timing (frame_bench).
# Reports, logs and crops: $OUT/quality.tgz, refreshed after each report.
# Run from the repository root on the GPU machine (carry [".devcarry"]: ../shared/device/pack.sh of
# upscale_demo and frame_bench, plus .devcarry/heldout holding heldout_temporal.json, heldout_paths/,
# the gen*/ scenes of make_scenes.py and assets/models/ of fetch_heldout.md: tools/train/README.md).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo
report() {  # seconds, report file, evaluate_temporal.py arguments
  local t=$1 f=$2; shift 2
  echo "== $f"
  (cd .devcarry/heldout && mkdir -p quality &&
   timeout $t python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho --demo "$demo" --jobs 10 \
     --timeout 100 --report quality/$f "$@" > quality/${f%.md}.log 2>&1; echo "rc $?"; tail -n 1 quality/${f%.md}.log
   sed -n '/^| Method/,/^$/p' quality/$f; tar czf $OUT/quality.tgz quality)
}
four=bilinear,bicubic,taau,ml-temporal
report 100 temporal.md --crops 3
echo "== frame_bench"
timeout 45 frame_bench --frames 100 --warmup 10 --assets assets --filter ml-temporal > $OUT/frame_bench.txt 2>&1; tail -n 8 $OUT/frame_bench.txt
report 250 temporal_1920x1080.md --display 1920x1080 --methods $four --crops 3
report 90 temporal_960x540.md --display 960x540 --methods bicubic,taau,ml-temporal --crops 3
report 45 temporal_x1.5.md --render-scale 0.6666667 --methods $four --crops 0
report 45 temporal_x3.md --render-scale 0.3333333 --methods $four --crops 0
