# r13, part 1: render (three display sizes) and continue the shipped network y.
source .devcarry/r13_common.sh
export SECONDS_BUDGET=530 COMPARE_MODELS=assets/upscaler_temporal.npz VARIANTS="w:--init assets/upscaler_temporal.npz $SHAPE --lr 1e-3"
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?
mkdir -p /tmp/r13/keep && cp $OUT/*.npz /tmp/r13/keep/
tail -n 25 $OUT/run.log; exit $rc
