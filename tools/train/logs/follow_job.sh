# Follows a background device job NAME (started by start_job.sh) for at most LIMIT seconds, until its
# pipeline log ends in "[NAME] HH:MM:SS done", printing its progress every 30 s; then packs what it
# wrote so far into $OUT/NAME.tgz (weights, logs, reports) and prints the log's tail.
#   bash tools/train/logs/follow_job.sh NAME [LIMIT]
# (The pattern matters: r21's first version looked for "] done", which "[r21] 12:55:01 done" does
# not contain, and waited out 400 s of device time after its job had ended.) The loop never sleeps
# past LIMIT, so LIMIT plus about 10 s for the packing must fit the device command's timeout: r24's
# second follow command (LIMIT 580 under a 600 s timeout) overslept, was killed, and brought
# nothing back.
name=${1:?follow_job.sh NAME [LIMIT]} limit=${2:-570} start=$(date +%s)
dir=/tmp/$name
[ -e $dir/pipeline.log ] || { echo "no $name job on this machine (a fresh one): start it with ${name}_launch.sh"; exit 3; }
while ! grep -q "\] [0-9:]* done$" $dir/pipeline.log && [ $(( $(date +%s) - start + 30 )) -le "$limit" ]; do
  sleep 30
  echo "[wait] $(date +%T) $(tail -n 1 $dir/pipeline.log | cut -c1-80) | $(tail -q -n 1 $dir/out/run.log $dir/out/train_*.log $dir/out/quality/*.log 2>/dev/null | cut -c1-90 | tr '\n' '|')"
done
cd $dir/out && tar czf $OUT/$name.tgz --exclude='*.tgz' . 2>/dev/null
cp $dir/pipeline.log $OUT/
tail -n 60 $dir/pipeline.log
