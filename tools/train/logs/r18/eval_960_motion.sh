# After the motion-vector change: the 960x540 held-out report of the shipped c2 again (as in
# eval_gpu.sh), every method and the reference on the GPU machine. Carry as for eval_gpu.sh.
source .devcarry/env.sh
export VKML_MODEL_DIR=$PWD/assets
root=$PWD demo=$PWD/.devcarry/bin/upscale_demo
cd .devcarry/heldout && mkdir -p quality
timeout 110 python3 -u "$root/tools/train/evaluate_temporal.py" heldout_temporal.json --work /tmp/ho --demo "$demo" --jobs 10 \
  --timeout 100 --score-on cuda --report quality/temporal_960x540.md --display 960x540 --methods bicubic,taau,ml-temporal --crops 3 \
  > quality/temporal_960x540.log 2>&1
echo "rc $?"; sed -n '/^| Method/,/^$/p' quality/temporal_960x540.md; tar czf $OUT/quality_960.tgz quality
