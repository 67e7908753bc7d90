# r24 (prepared by the twenty-fifth session, not run yet): continues r23's s (r2 w32 d2 f1, 0.965 ms
# at 4K on an H200; 1,584 steps from scratch, +0.50 dB over TAAU held out) for a whole session's
# device time, alone on the GPU, still distilling from the shipped r: does a network inside the
# 1.0 ms target reach r's quality (+1.94 dB) with the steps r's lineage had? Checkpoints every 100
# steps (--save-every) come back with every follow command. Then validation against r, and the
# held-out 2x and still/slow plans.
cd /tmp/r24/root
source tools/train/logs/r24/r24_common.sh
S=tools/train/logs/r23/out/upscaler_temporal_s.npz
export OUT=/tmp/r24/out SECONDS_BUDGET=${SECONDS_BUDGET:-1300} COMPARE_MODELS="$R $S" \
  VARIANTS="s2:--unshuffle 2 --width 32 --depth 2 --first-kernel 1 --temporal-weight 1.0 --teacher $R --init $S --lr 1e-3 --save-every 100"
mkdir -p $OUT/quality
echo "[r24] $(date +%T) training"
bash tools/train/device_train.sh > $OUT/run.log 2>&1 || echo "[r24] device_train.sh failed: $?"
grep -h "s/step" $OUT/train_*.log | tail -n 3
sed -n '1,40p' $OUT/validation.txt 2>/dev/null
export VKML_MODEL_DIR=$PWD/assets JOB=r24
source tools/train/logs/heldout_job.sh
python3 tools/train/export_temporal.py --weights $OUT/upscaler_temporal_s2.npz --out $OUT/upscaler_temporal_s2.onnx --no-check || exit 1
heldout s2 heldout_temporal.json temporal_s2.md 130
heldout s2 heldout_static.json temporal_static_s2.md 120
echo "[r24] $(date +%T) done"
