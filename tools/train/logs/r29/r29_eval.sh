# r29, second device command (carry [".devcarry"]): the first command's machine was taken back
# between its two commands, with the job's checkpoints of m (step 800) and n (step 900) in its
# output, mid-schedule. This command scores those checkpoints in the foreground: the validation
# split (rendered here as device_train.sh renders it) beside p4, then the held-out 2x plan for
# m800, n900 and p4 (the control, same binaries, same command).
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source tools/train/logs/r24/r24_common.sh
export JOB=r29e OUT=$OUT/r29e WORK_DIR=/tmp/r29e/work
mkdir -p $OUT/quality $WORK_DIR
here=tools/train L=tools/train/logs/r29 P=assets/upscaler_temporal_fast
python3 $here/make_scenes.py --out $WORK_DIR/val_scenes --kinds "$KINDS" --seeds 20 > /dev/null
python3 $here/render_temporal.py plan --scenes $WORK_DIR/val_scenes --out $WORK_DIR/val_plan.json --kinds "$KINDS" --seeds 20 \
  --procedural-seeds 5 --windows 1 --displays "$DISPLAY_SIZES" --render-scales 0.5,0.6666667,0.5,0.3333333 --frames 32 $PLAN_ARGS
python3 $here/render_temporal.py render $WORK_DIR/val_plan.json --out $WORK_DIR/val_data --demo "$DEMO" --jobs "$JOBS" 2>&1 | tail -n 2
python3 $here/validate_temporal.py --data $WORK_DIR/val_data --models $P.npz $L/upscaler_temporal_m800.npz $L/upscaler_temporal_n900.npz \
  --json $OUT/validation.json | tee $OUT/validation.txt
cp $L/upscaler_temporal_m800.onnx $L/upscaler_temporal_n900.onnx $OUT/
cp $P.onnx $OUT/upscaler_temporal_p4.onnx
export VKML_MODEL_DIR=$PWD/assets
source tools/train/logs/heldout_job.sh
for v in m800 n900 p4; do heldout $v heldout_temporal.json temporal_$v.md 120; done
