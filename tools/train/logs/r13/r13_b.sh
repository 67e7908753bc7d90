# r13, part 2: continue w (from part 1, carried back in .devcarry/r13) at a lower rate; the data
# of part 1 is reused while the machine is the same one (render_temporal.py skips what exists).
source .devcarry/r13_common.sh
export SECONDS_BUDGET=555 COMPARE_MODELS="assets/upscaler_temporal.npz .devcarry/r13/upscaler_temporal_w.npz" \
  VARIANTS="w2:--init .devcarry/r13/upscaler_temporal_w.npz $SHAPE --lr 5e-4"
bash tools/train/device_train.sh > $OUT/run.log 2>&1; rc=$?
tail -n 25 $OUT/run.log; exit $rc
