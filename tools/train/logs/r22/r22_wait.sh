# r22: follows the background job for at most $1 seconds (until "[r22] HH:MM:SS done"), printing
# its progress every 20 s, then packs what it wrote so far into $OUT/r22.tgz.
limit=${1:-570} start=$(date +%s)
[ -e /tmp/r22/pipeline.log ] || { echo "no r22 job on this machine (a fresh one): start it with r22_launch.sh"; exit 3; }
while ! grep -q "\] [0-9:]* done$" /tmp/r22/pipeline.log && [ $(( $(date +%s) - start )) -lt "$limit" ]; do
  sleep 20
  echo "[wait] $(date +%T) $(tail -n 1 /tmp/r22/pipeline.log | cut -c1-100) | $(tail -q -n 1 /tmp/r22/out/quality/*.log 2>/dev/null | cut -c1-90 | tr '\n' '|')"
done
cd /tmp/r22/out && tar czf $OUT/r22.tgz --exclude='*.tgz' --exclude='*.png' . 2>/dev/null
tar czf $OUT/r22_png.tgz quality/*.png 2>/dev/null; cp *.tgz $OUT/ 2>/dev/null
cp /tmp/r22/pipeline.log $OUT/
tail -n 70 /tmp/r22/pipeline.log
