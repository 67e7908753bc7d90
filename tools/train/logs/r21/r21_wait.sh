# r21: follows the background job for at most $1 seconds (until "[r21] ... done"), printing its
# progress every 30 s, then packs what it wrote so far into $OUT/r21.tgz (weights, logs, reports).
# (Its first version looked for "] done", which the job's "[r21] 12:55:01 done" does not contain,
# so the last command waited out its 400 s after the job had ended: 6 minutes of device time.)
limit=${1:-570} start=$(date +%s)
[ -e /tmp/r21/pipeline.log ] || { echo "no r21 job on this machine (a fresh one): start it with r21_launch.sh"; exit 3; }
while ! grep -q "\] [0-9:]* done$" /tmp/r21/pipeline.log && [ $(( $(date +%s) - start )) -lt "$limit" ]; do
  sleep 30
  echo "[wait] $(date +%T) $(tail -n 1 /tmp/r21/pipeline.log | cut -c1-80) | $(tail -q -n 1 /tmp/r21/out/run.log /tmp/r21/out/train_*.log 2>/dev/null | cut -c1-90 | tr '\n' '|')"
done
cd /tmp/r21/out && tar czf $OUT/r21.tgz --exclude='*.tgz' . 2>/dev/null
cp /tmp/r21/pipeline.log $OUT/
cat /tmp/r21/pipeline.log | tail -n 60
