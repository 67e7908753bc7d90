# Held-out report at a 3840x2160 output (2x, from 1920x1080) on the GPU machine, in two device
# commands of at most 10 minutes: the first renders (each finished render is kept under /tmp/ho4k
# while the machine stays warm) and may be cut off; the second renders what is left and scores.
# Run from the repository root there, carry [".devcarry"] as for eval_clamp.sh.
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo
cd .devcarry/heldout && mkdir -p quality
timeout ${SECONDS_LEFT:-560} python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho4k --demo "$demo" \
  --jobs ${JOBS:-10} --timeout 500 --display 3840x2160 --methods bilinear,bicubic,taau,ml-temporal --crops 0 \
  --report quality/temporal_3840x2160.md > quality/temporal_3840x2160.log 2>&1
echo "rc $?"; tail -n 3 quality/temporal_3840x2160.log; df -h /tmp | tail -1
ls /tmp/ho4k/*/ 2>/dev/null | grep -c x2160 || true
sed -n '/^| Method/,/^$/p;/^| Sequence/,/^$/p' quality/temporal_3840x2160.md 2>/dev/null
tar czf $OUT/quality4k.tgz quality/temporal_3840x2160.*
