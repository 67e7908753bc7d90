# r30, second device command (carry [".devcarry"]): r30_train.sh again with a (its first
# command's variant a, 200 steps) continued; on a machine still warm the data of the first command
# is found complete and not rendered again. c keeps temporal weight 0.5, d takes 0.75.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source tools/train/logs/r24/r24_common.sh
DEVICE_OUT=$OUT
pack() { (cd /tmp/r30/out && tar czf $DEVICE_OUT/r30c.tgz --exclude="*.tgz" .); }
trap pack EXIT
shape="--unshuffle 2 --width 16 --depth 3 --first-kernel 3 --init tools/train/logs/r30/out_train/upscaler_temporal_a.npz --lr 5e-4 --save-every 100 --loss mse"
export WORK_DIR=/tmp/r30/work SEEDS=5:6 PROCEDURAL_SEEDS=2:3 JOB=r30 SECONDS_BUDGET=${SECONDS_BUDGET:-450} \
  RENDER_SCALES=0.5,0.6666667,0.5,0.3333333,0.5,0.8,1.0 \
  COMPARE_MODELS="tools/train/logs/r30/out_train/upscaler_temporal_a.npz assets/upscaler_temporal_fast.npz" \
  HELDOUT_PLANS="heldout_temporal.json:temporal:45" \
  VARIANTS="c:$shape --temporal-weight 0.5;d:$shape --temporal-weight 0.75"
source tools/train/logs/continue_job.sh
for v in c d; do heldout $v heldout_temporal.json temporal_x1.25_$v.md 45 --render-scale 0.8; done
