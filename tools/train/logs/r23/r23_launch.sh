# r23 (prepared by the twenty-fourth session, not run yet), first device command: copies the repository to /tmp/r23/root (a later command's sync of the
# working tree must not change the scripts under the running job), starts r23_pipeline.sh in its
# own process session so it outlives this command, and follows it (r23_wait.sh) for $1 seconds.
# Carry [".devcarry"] with upscale_demo and heldout/ (as r20's eval_g2.sh).
[ -e /tmp/r23 ] && { echo "/tmp/r23 exists: this machine ran r23 already; use r23_wait.sh"; exit 3; }
mkdir -p /tmp/r23/root /tmp/r23/out
cp -r tools assets .devcarry /tmp/r23/root/
setsid nohup bash /tmp/r23/root/tools/train/logs/r23/r23_pipeline.sh > /tmp/r23/pipeline.log 2>&1 < /dev/null &
bash tools/train/logs/r23/r23_wait.sh "${1:-570}"
