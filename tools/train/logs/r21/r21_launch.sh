# r21, first device command: copies the repository to /tmp/r21/root (a later command's sync of the
# working tree must not change the scripts under the running job), starts r21_pipeline.sh in its
# own process session so it outlives this command, and follows it (r21_wait.sh) for $1 seconds.
# Carry [".devcarry"] with upscale_demo and heldout/ (as r20's eval_g2.sh).
[ -e /tmp/r21 ] && { echo "/tmp/r21 exists: this machine ran r21 already; use r21_wait.sh"; exit 3; }
mkdir -p /tmp/r21/root /tmp/r21/out
cp -r tools assets .devcarry /tmp/r21/root/
setsid nohup bash /tmp/r21/root/tools/train/logs/r21/r21_pipeline.sh > /tmp/r21/pipeline.log 2>&1 < /dev/null &
bash tools/train/logs/r21/r21_wait.sh "${1:-570}"
