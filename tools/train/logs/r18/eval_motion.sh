# After the motion-vector change (this frame's position interpolated like the previous one's):
# frame_bench's native and temporal ML rows and the 2x and still/slow held-out reports of the
# shipped c2, on the H100. Carry as for eval_gpu.sh (upscale_demo, frame_bench, heldout/).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo
for f in native ml-temporal; do timeout 45 .devcarry/bin/frame_bench --frames 100 --warmup 10 --assets assets --filter $f; done > $OUT/frame_bench.txt 2>&1
grep -E "^ *(native|ml-temporal|3840|1920)|total|gbuffer" $OUT/frame_bench.txt | head -n 30
cd .devcarry/heldout && mkdir -p quality
timeout 130 python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho --demo "$demo" --jobs 10 \
    --timeout 100 --score-on cuda --report quality/temporal.md --crops 3 > quality/temporal.log 2>&1
echo "rc $?"; sed -n '/^| Method/,/^$/p' quality/temporal.md
timeout 120 python3 -u "$root/tools/train/evaluate_temporal.py" heldout_static.json --work /tmp/hos --demo "$demo" --jobs 11 \
  --timeout 100 --score-on cuda --methods bicubic,taau,ml-temporal --crops 0 --report quality/temporal_static.md > quality/temporal_static.log 2>&1
echo "rc $?"; sed -n '/^| Method/,/^$/p' quality/temporal_static.md
tar czf $OUT/quality.tgz quality
