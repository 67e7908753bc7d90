# r23: follows the background job for at most $1 seconds (until "[r23] ... done"), printing its
# progress every 30 s, then packs what it wrote so far into $OUT/r23.tgz (weights, logs, reports).
# (Its first version looked for "] done", which the job's "[r23] 12:55:01 done" does not contain,
# so the last command waited out its 400 s after the job had ended: 6 minutes of device time.)
limit=${1:-570} start=$(date +%s)
[ -e /tmp/r23/pipeline.log ] || { echo "no r23 job on this machine (a fresh one): start it with r23_launch.sh"; exit 3; }
while ! grep -q "\] [0-9:]* done$" /tmp/r23/pipeline.log && [ $(( $(date +%s) - start )) -lt "$limit" ]; do
  sleep 30
  echo "[wait] $(date +%T) $(tail -n 1 /tmp/r23/pipeline.log | cut -c1-80) | $(tail -q -n 1 /tmp/r23/out/run.log /tmp/r23/out/train_*.log 2>/dev/null | cut -c1-90 | tr '\n' '|')"
done
cd /tmp/r23/out && tar czf $OUT/r23.tgz --exclude='*.tgz' . 2>/dev/null
cp /tmp/r23/pipeline.log $OUT/
cat /tmp/r23/pipeline.log | tail -n 60
