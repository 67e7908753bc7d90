# r18's network c2, shipped: its held-out reports at the larger outputs (960x540 and 1920x1080,
# every method and the reference rendered on the GPU machine) and its 4K pass timing. The reports
# at 480x272 were rendered on lavapipe (eval_lavapipe.sh). Run from the repository root on the GPU
# machine (carry [".devcarry"]: ../shared/device/pack.sh of upscale_demo and frame_bench, plus
# .devcarry/heldout holding heldout_temporal.json, heldout_paths/, the gen*/ scenes of
# make_scenes.py and assets/models/ of fetch_heldout.md: tools/train/README.md).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo
report() {  # seconds, report file, evaluate_temporal.py arguments
  local t=$1 f=$2; shift 2
  echo "== $f"
  (cd .devcarry/heldout && mkdir -p quality &&
   timeout $t python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho --demo "$demo" --jobs 10 \
     --timeout 240 --score-on cuda --report quality/$f "$@" > quality/${f%.md}.log 2>&1; echo "rc $?"; tail -n 1 quality/${f%.md}.log
   sed -n '/^| Method/,/^$/p' quality/$f; tar czf $OUT/quality.tgz quality)
}
echo "== frame_bench"
timeout 45 .devcarry/bin/frame_bench --frames 100 --warmup 10 --assets assets --filter ml-temporal > $OUT/frame_bench.txt 2>&1; tail -n 8 $OUT/frame_bench.txt
report 110 temporal_960x540.md --display 960x540 --methods bicubic,taau,ml-temporal --crops 3
report 300 temporal_1920x1080.md --display 1920x1080 --methods bilinear,bicubic,taau,ml-temporal --crops 3
