# Sourced by a background device job's pipeline (NAME_pipeline.sh, from its copy of the repository,
# after NAME_common.sh): continues one network alone on the GPU for SECONDS_BUDGET (1300) with
# device_train.sh, validates it beside COMPARE_MODELS, exports it and scores it on the held-out 2x
# and still/slow plans (heldout_job.sh). r24 ran these steps written out in its own pipeline.
# Needs JOB (the job's name), V (the variant's name) and ARGS (its train_temporal.py arguments).
export OUT=/tmp/$JOB/out SECONDS_BUDGET=${SECONDS_BUDGET:-1300} VARIANTS="$V:$ARGS"
mkdir -p $OUT/quality
echo "[$JOB] $(date +%T) training"
bash tools/train/device_train.sh > $OUT/run.log 2>&1 || echo "[$JOB] device_train.sh failed: $?"
grep -h "s/step" $OUT/train_*.log | tail -n 3
sed -n '1,40p' $OUT/validation.txt 2>/dev/null
export VKML_MODEL_DIR=$PWD/assets
source tools/train/logs/heldout_job.sh
python3 tools/train/export_temporal.py --weights $OUT/upscaler_temporal_$V.npz --out $OUT/upscaler_temporal_$V.onnx --no-check || exit 1
heldout $V heldout_temporal.json temporal_$V.md 130
heldout $V heldout_static.json temporal_static_$V.md 120
echo "[$JOB] $(date +%T) done"
