# r22: the shipped network r on the GPU machine, as one background job across device commands
# (r22_launch.sh starts it, r22_wait.sh follows it). Everything lands in /tmp/r22/out:
#   1. frame_bench, every configuration: the temporal ML pass as shipped (the accumulating
#      resolve), which no run had timed;
#   2. an A/B of the two resolves on the same network shape, alternating, three rounds: r (the
#      accumulating resolve, assets/) against c2 (the blend resolve, .devcarry/abc2/, exported
#      from logs/r18/upscaler_temporal_c2.npz);
#   3. r's held-out reports at 1920x1080 and 3840x2160 output, every method (as logs/r18/eval_gpu.sh
#      and logs/r15/eval_4k.sh did for c2);
#   4. upscale_demo in every mode and effect_sample under the validation layer
#      (bench/results/2026-11-28_conformance/demo_validation.sh), then the whole GoogleTest suite
#      with validation (run.sh there).
cd /tmp/r22/root
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
out=/tmp/r22/out root=$PWD fb=$PWD/.devcarry/bin/frame_bench demo=$PWD/.devcarry/bin/upscale_demo
mkdir -p $out/quality
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv | tail -n 1
echo "[r22] $(date +%T) frame_bench, every configuration"
timeout 300 $fb --frames 100 --warmup 10 --assets assets --json $out/fb_full.json > $out/fb_full.txt 2>&1
echo "[r22] $(date +%T) frame_bench rc $?"; sed -n '/^configuration/,$p' $out/fb_full.txt
for round in 1 2 3; do
  for v in accumulate blend; do
    dir=assets; [ $v = blend ] && dir=.devcarry/abc2
    timeout 120 $fb --frames 200 --warmup 20 --assets $dir --filter ml-temporal --json $out/ab_${v}_$round.json > $out/ab_${v}_$round.txt 2>&1
    echo "[r22] $(date +%T) A/B round $round $v: $(grep -h 'upscale_ml-temporal' $out/ab_${v}_$round.txt | tr -s ' ' | tr '\n' ';')"
  done
done
report() {  # seconds, report file, evaluate_temporal.py arguments
  local t=$1 f=$2; shift 2
  (cd .devcarry/heldout && timeout $t python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/r22/ho_$f \
     --demo "$demo" --jobs 14 --timeout 500 --score-on cuda --methods bilinear,bicubic,taau,ml-temporal --crops 3 \
     --report $out/quality/$f "$@" > $out/quality/${f%.md}.log 2>&1)
  echo "[r22] $(date +%T) $f: rc $?"; sed -n '/^| Method/,/^$/p' $out/quality/$f
}
report 400 temporal_1920x1080.md --display 1920x1080
report 600 temporal_3840x2160.md --display 3840x2160
echo "[r22] $(date +%T) demo and effect_sample under validation"
OUT=$out bash bench/results/2026-11-28_conformance/demo_validation.sh
echo "[r22] $(date +%T) the whole suite under validation"
OUT=$out LIMIT=300 bash bench/results/2026-11-28_conformance/run.sh > $out/conformance.txt 2>&1
sed -n '/== summary/,$p' $out/conformance.txt | grep -v "PASSED" | head -40
grep -c "PASSED" $out/conformance.txt
echo "[r22] $(date +%T) done"
