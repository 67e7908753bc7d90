# r30, one device command (carry [".devcarry"]), in the foreground: the performance model n
# (assets/upscaler_temporal_fast.npz, r29's n900) continued on data that adds the two ratios it
# was never trained at, 1.25x (render scale 0.8) and 1x (render scale 1.0), where it flickered
# more than TAAU held out. Render scales dealt in turn 2x, 1.5x, 2x, 3x, 2x, 1.25x, 1x (3/7 of the
# sequences at 2x), for the validation split too. Two variants trained together, both --loss mse,
# lr 5e-4 decayed over the time left: a keeps n's temporal weight 0.5, b doubles it to 1.0. Data as
# r29q (glTF seeds 5-6, procedural seeds 2-3; seeds 7-9 hold the held-out scenes, seed 20 the
# validation split). Then validation beside n and the quality model r, export, and the held-out
# 2x plan and the held-out 2x plan at render scale 0.8, each within its timeout. Everything under
# /tmp/r30/out is packed into $OUT even when the command's own limit cuts it short.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source tools/train/logs/r24/r24_common.sh
DEVICE_OUT=$OUT
pack() { (cd /tmp/r30/out && tar czf $DEVICE_OUT/r30.tgz --exclude="*.tgz" .); }
trap pack EXIT
shape="--unshuffle 2 --width 16 --depth 3 --first-kernel 3 --init assets/upscaler_temporal_fast.npz --lr 5e-4 --save-every 100 --loss mse"
export WORK_DIR=/tmp/r30/work SEEDS=5:6 PROCEDURAL_SEEDS=2:3 JOB=r30 SECONDS_BUDGET=${SECONDS_BUDGET:-420} \
  RENDER_SCALES=0.5,0.6666667,0.5,0.3333333,0.5,0.8,1.0 \
  COMPARE_MODELS="assets/upscaler_temporal_fast.npz $R" \
  HELDOUT_PLANS="heldout_temporal.json:temporal:45" \
  VARIANTS="a:$shape --temporal-weight 0.5;b:$shape --temporal-weight 1.0"
source tools/train/logs/continue_job.sh
for v in a b; do heldout $v heldout_temporal.json temporal_x1.25_$v.md 45 --render-scale 0.8; done
