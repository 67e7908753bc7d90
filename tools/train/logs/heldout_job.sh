# Sourced by a background device job's pipeline (tools/train/logs/NAME/NAME_pipeline.sh, from its
# copy of the repository): defines heldout(), which scores one of the job's networks on a held-out
# plan of .devcarry/heldout (TAAU and temporal ML alone, scored on the GPU) and prints the summary.
# Needs JOB (the job's name), OUT and DEMO.
#   heldout NETWORK PLAN REPORT SECONDS [evaluate_temporal.py arguments...]
heldout() {
  local v=$1 plan=$2 f=$3 t=$4 root=$PWD; shift 4
  (cd .devcarry/heldout && timeout $t python3 -u "$root/tools/train/evaluate_temporal.py" $plan --work /tmp/$JOB/ho_$v --demo "$DEMO" \
    --jobs 11 --timeout 100 --score-on cuda --methods taau,ml-temporal --temporal-model $OUT/upscaler_temporal_$v.onnx --crops 0 \
    --report $OUT/quality/$f "$@" > $OUT/quality/${f%.md}.log 2>&1)
  local rc=$?  # before the echo, whose $(date) resets $?: r23 and r24 logged "rc 0" whatever it was (their reports were written)
  echo "[$JOB] $(date +%T) $f: rc $rc"; sed -n '/^| Method/,/^$/p' $OUT/quality/$f
}
