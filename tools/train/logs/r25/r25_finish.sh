# r25's second part (twenty-seventh session): the machine that trained t2 and p was taken back
# while its job validated them (an API outage left it idle past the device tool's 30 s), after the
# final weights had come back (logs/r25/out/). This one command, with a fresh machine, renders the
# validation split as device_train.sh does (seed 20 of the four kinds, procedural seed 5), validates
# t2 and p beside r and r24's s2, exports both and scores them on the held-out 2x plan at once.
# Carry [".devcarry"].
set -u
ROOT=$PWD
source tools/train/logs/r25/r25_common.sh
export JOB=r25 OUT=${OUT:?the device tool sets OUT}
mkdir -p $OUT/quality "$WORK_DIR"
cp tools/train/logs/r25/out/upscaler_temporal_{t2,p}.npz $OUT/
here=tools/train
python3 $here/make_scenes.py --out $WORK_DIR/val_scenes --kinds $KINDS --seeds 20 > /dev/null
python3 $here/render_temporal.py plan --scenes $WORK_DIR/val_scenes --out $WORK_DIR/val_plan.json --kinds $KINDS --seeds 20 \
  --procedural-seeds 5 --windows 1 --displays "$DISPLAY_SIZES" --render-scales 0.5,0.6666667,0.5,0.3333333 --frames 32 $PLAN_ARGS
python3 $here/render_temporal.py render $WORK_DIR/val_plan.json --out $WORK_DIR/val_data --demo "$DEMO" --jobs 14 2>&1 | tail -n 2
echo "[$JOB] $(date +%T) validation"
python3 $here/validate_temporal.py --data $WORK_DIR/val_data --models $OUT/upscaler_temporal_t2.npz $OUT/upscaler_temporal_p.npz \
  $R tools/train/logs/r24/out/upscaler_temporal_s2.npz --json $OUT/validation.json | tee $OUT/validation.txt
export VKML_MODEL_DIR=$ROOT/assets
source tools/train/logs/heldout_job.sh
for v in t2 p; do  # both exported before either is scored
  python3 tools/train/export_temporal.py --weights $OUT/upscaler_temporal_$v.npz --out $OUT/upscaler_temporal_$v.onnx --no-check
done
heldout t2 heldout_temporal.json temporal_t2.md 200 & heldout p heldout_temporal.json temporal_p.md 200 & wait
echo "[$JOB] $(date +%T) done"
