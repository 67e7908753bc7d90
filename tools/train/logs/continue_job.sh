# Sourced by a background device job's pipeline (NAME_pipeline.sh, from its copy of the repository,
# after NAME_common.sh): trains the variants of VARIANTS ("name:train_temporal.py args;...", the
# networks continued with --init) on the GPU together for SECONDS_BUDGET (1300) with
# device_train.sh, validates them beside COMPARE_MODELS, exports each and scores it on the held-out
# plans of HELDOUT_PLANS (default: the 2x and the still/slow plan; heldout_job.sh). r24 ran these
# steps written out in its own pipeline.
# Needs JOB (the job's name) and VARIANTS; V (one variant's name) with ARGS stands for VARIANTS="$V:$ARGS".
export OUT=/tmp/$JOB/out SECONDS_BUDGET=${SECONDS_BUDGET:-1300} VARIANTS=${VARIANTS:-$V:$ARGS}
HELDOUT_PLANS=${HELDOUT_PLANS:-"heldout_temporal.json:temporal:130 heldout_static.json:temporal_static:120"}
mkdir -p $OUT/quality
echo "[$JOB] $(date +%T) training"
bash tools/train/device_train.sh > $OUT/run.log 2>&1 || echo "[$JOB] device_train.sh failed: $?"
grep -h "s/step" $OUT/train_*.log | tail -n 3
sed -n '1,40p' $OUT/validation.txt 2>/dev/null
# A command cut off at its limit is killed with its EXIT trap: a `pack` the command defined (its
# outputs into the device's $OUT) runs here too, and after each export, so that what is done comes
# back (r31's two commands returned empty archives, their packing cut off during the exports).
packed() { declare -F pack > /dev/null && pack; true; }
packed
export VKML_MODEL_DIR=$PWD/assets
source tools/train/logs/heldout_job.sh
for v in $(tr ';' '\n' <<< "$VARIANTS" | cut -d: -f1); do
  python3 tools/train/export_temporal.py --weights $OUT/upscaler_temporal_$v.npz --out $OUT/upscaler_temporal_$v.onnx --no-check || continue
  packed
  for p in $HELDOUT_PLANS; do
    IFS=: read -r plan report seconds <<< "$p"
    heldout $v $plan ${report}_$v.md $seconds
  done
done
echo "[$JOB] $(date +%T) done"
