# Held-out report at a 3840x2160 output (2x, from 1920x1080) on the GPU machine: r14's eval_4k.sh
# with the scores taken on the GPU (evaluate_temporal.py --score-on cuda; numpy took seconds per
# 4K SSIM, and the r14 runs were cut off while scoring) and kept beside the frames, so a second
# command on the same warm machine finishes what a first one left. Run from the repository root
# there, carry [".devcarry"] as for ../r14/eval_clamp.sh.
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo
cd .devcarry/heldout && mkdir -p quality
timeout ${SECONDS_LEFT:-560} python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho4k --demo "$demo" \
  --jobs ${JOBS:-14} --timeout 500 --display 3840x2160 --methods bilinear,bicubic,taau,ml-temporal --crops 3 --score-on cuda \
  --report quality/temporal_3840x2160.md > quality/temporal_3840x2160.log 2>&1
echo "rc $?"; tail -n 12 quality/temporal_3840x2160.log; df -h /tmp | tail -1
sed -n '/^| Method/,/^$/p;/^| Sequence/,/^$/p' quality/temporal_3840x2160.md 2>/dev/null
tar czf $OUT/quality4k.tgz quality/temporal_3840x2160.* quality/*3840x2160*.png 2>/dev/null
