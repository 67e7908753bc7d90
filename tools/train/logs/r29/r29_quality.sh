# r29, fourth device command (carry [".devcarry"]), in the foreground (the first command's machine
# was taken back between its commands): the quality model r (r21; r2 w32 d3 f3, the accumulating
# resolve with cap 4) fine-tuned with n's recipe, the one that moved p4 by +0.24 dB held out:
# --loss mse, no teacher, temporal weight 0.5, lr 5e-4. To fit one command, less data than r29's
# first command (glTF seeds 5-6, procedural seeds 2-3; seeds 7-9 hold the held-out scenes, seed 20
# the validation split) and 12 frames unrolled (r: 24 with detach every 12). Then validation beside
# r and n, export, and the held-out 2x and still/slow plans.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source tools/train/logs/r24/r24_common.sh
DEVICE_OUT=$OUT
export WORK_DIR=/tmp/r29q/work SEEDS=5:6 PROCEDURAL_SEEDS=2:3 JOB=r29q SECONDS_BUDGET=${SECONDS_BUDGET:-480} \
  COMPARE_MODELS="$R assets/upscaler_temporal_fast.npz" \
  HELDOUT_PLANS="heldout_temporal.json:temporal:60 heldout_static.json:temporal_static:60" \
  VARIANTS="rm:--unshuffle 2 --width 32 --depth 3 --first-kernel 3 --init $R --lr 5e-4 --save-every 100 --loss mse --temporal-weight 0.5"
source tools/train/logs/continue_job.sh
cd /tmp/r29q/out && tar czf $DEVICE_OUT/r29q.tgz --exclude="*.tgz" .
