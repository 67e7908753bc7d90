# r31, first device command (carry [".devcarry"]), in the foreground: the quality model r
# (assets/upscaler_temporal.npz) continued with the moving pixels' history cap the TAAU resolve got
# in the thirty-second session (train_temporal.py --moving-history-weight: feature 14, the history
# state, capped once the fastest of a pixel's 3x3 samples moves half a display pixel per frame).
# a: no cap (the control: the same continued training without it), b: moving weight 0.5 (TAAU's),
# c: moving weight 1.0. Data and recipe as r30 (glTF seeds 5-6, procedural seeds 2-3, render
# scales 2x, 1.5x, 2x, 3x, 2x, 1.25x, 1x, --loss mse, temporal weight 0.5, lr 5e-4). Validation
# beside r; no held-out plan here (the binaries carried do not read the new metadata yet).
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source tools/train/logs/r24/r24_common.sh
DEVICE_OUT=$OUT
pack() { (cd /tmp/${JOB:-r31}/out && tar czf $DEVICE_OUT/${JOB:-r31}.tgz --exclude="*.tgz" .); }
trap pack EXIT
init=${INIT_DIR:-}
shape="--unshuffle 2 --width 32 --depth 3 --first-kernel 3 --lr 5e-4 --save-every 100 --loss mse --temporal-weight 0.5"
from() { [ -n "$init" ] && echo "--init $init/upscaler_temporal_$1.npz" || echo "--init $R"; }
export WORK_DIR=/tmp/r31/work SEEDS=5:6 PROCEDURAL_SEEDS=2:3 JOB=${JOB:-r31} SECONDS_BUDGET=${SECONDS_BUDGET:-530} \
  RENDER_SCALES=0.5,0.6666667,0.5,0.3333333,0.5,0.8,1.0 \
  COMPARE_MODELS="$R" HELDOUT_PLANS="" \
  VARIANTS="a:$shape $(from a);b:$shape $(from b) --moving-history-weight 0.5;c:$shape $(from c) --moving-history-weight 1.0"
source tools/train/logs/continue_job.sh
