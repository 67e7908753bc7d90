#!/usr/bin/env bash
# The two-sweep tuner (TuneOptions::sweeps) on every network of the plan at its target's size,
# clocks sampled beside it. Packed: pack.sh build/bench/ml_bench
C=.devcarry
source $C/env.sh
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%T.%3N)" "$l"; done; }
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw,utilization.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 100 > $OUT/smi3.csv 2>&1 &
SMI=$!
F='denoiser 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|conv3x3 64->64 nhwc 1920x1080 fp16-arith$|espcn_x2 1920x1080 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$'
timeout 560 $C/bin/ml_bench --assets assets --filter "$F" --tune $OUT/tuned3.tsv --json $OUT/tuned3_inprocess.json 2>&1 | stamp > $OUT/tune3_log.txt
echo "tune rc=${PIPESTATUS[0]}"
kill $SMI
grep -E "^[0-9:.]+ +  [a-z]" $OUT/tune3_log.txt | cut -c1-120
cut -d'|' -f3 $OUT/tuned3.tsv
