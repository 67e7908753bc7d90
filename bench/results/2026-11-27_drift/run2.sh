#!/usr/bin/env bash
# The settled clock ramp (GraphSession::time), checked: the tuner again, with the clocks sampled,
# on every network of the plan at the size of its target, then the heuristics and the tuned table
# each timed in fresh processes, alternating. Packed: pack.sh build/bench/ml_bench
C=.devcarry
source $C/env.sh
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%T.%3N)" "$l"; done; }
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw,utilization.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 100 > $OUT/smi2.csv 2>&1 &
SMI=$!
F='denoiser 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|conv3x3 64->64 nhwc 1920x1080 fp16-arith$|espcn_x2 1920x1080 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$'
timeout 420 $C/bin/ml_bench --assets assets --filter "$F" --tune $OUT/tuned.tsv --json $OUT/tuned_inprocess.json 2>&1 | stamp > $OUT/tune_log.txt
echo "tune rc=${PIPESTATUS[0]}"
kill $SMI
for r in 1 2; do
  timeout 60 $C/bin/ml_bench --assets assets --filter "$F" --json $OUT/heuristics_$r.json > /tmp/h$r.txt 2>&1
  timeout 60 $C/bin/ml_bench --assets assets --filter "$F" --tune $OUT/tuned.tsv --json $OUT/tunedtable_$r.json > /tmp/t$r.txt 2>&1
done
cat /tmp/h1.txt /tmp/t1.txt /tmp/h2.txt /tmp/t2.txt > $OUT/fresh.txt
grep -E "^[0-9:.]+ +  [a-z]" $OUT/tune_log.txt | cut -c1-120
for f in /tmp/h1.txt /tmp/t1.txt /tmp/h2.txt /tmp/t2.txt; do echo "== $f"; grep -E "^  [a-z]" $f | cut -c1-100; done
awk -F', ' 'NR>1{print $3}' $OUT/smi2.csv | sort | uniq -c | sort -rn | head -8
