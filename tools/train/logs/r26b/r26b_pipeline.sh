# r26b (twenty-eighth session): r26's job was lost with its machine after 800 steps (an API error
# held up the follow command past the device tool's 30 s idle release; the step-800 checkpoint came
# back with the first follow command: ../r26/out). This continues that checkpoint with the device
# time left: lr 5e-4 (r26 was still at about 8e-4 at step 800), cosine to zero within
# SECONDS_BUDGET 700 (about 265 s of training after the ~300 s of scenes and rendering), no compare
# models in the validation (p's validation figure is r25's, on the same validation split), then the
# held-out 2x plan only.
cd /tmp/r26b/root
source tools/train/logs/r26/r26_common.sh
export WORK_DIR=/tmp/r26b/work
P=tools/train/logs/r26/out/upscaler_temporal_p2_step800.npz
export JOB=r26b V=p3 SECONDS_BUDGET=${SECONDS_BUDGET:-700} COMPARE_MODELS="" HELDOUT_PLANS="heldout_temporal.json:temporal:130" \
  ARGS="--unshuffle 2 --width 16 --depth 3 --first-kernel 3 --temporal-weight 1.0 --teacher $R --init $P --lr 5e-4 --save-every 100"
source tools/train/logs/continue_job.sh
