#!/usr/bin/env bash
# Drift within a process (2026-11-27, eleventh session): the denoiser timed over several rounds in
# one process, plain and under the tuner, with the GPU's clocks and power state sampled every
# 100 ms beside it, and every output line time-stamped so the two can be matched.
# Packed: pack.sh build/bench/ml_bench
C=.devcarry
source $C/env.sh
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%T.%3N)" "$l"; done; }
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,clocks.mem,power.draw,utilization.gpu,utilization.memory,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 100 > $OUT/smi.csv 2>&1 &
SMI=$!
nvidia-smi > $OUT/smi_start.txt 2>&1
F='denoiser 960x540 fp16$|denoiser 960x540 fp16-arith$|denoiser 1920x1080 fp16-arith$'
echo "== A: plain, 6 rounds" | stamp > $OUT/log.txt
timeout 100 $C/bin/ml_bench --group network --assets assets --filter "$F" --rounds 6 --json $OUT/rounds.json 2>&1 | stamp >> $OUT/log.txt
echo "== B: plain, tuner-sized timings (10 runs after 2), 6 rounds" | stamp >> $OUT/log.txt
timeout 100 $C/bin/ml_bench --group network --assets assets --filter "$F" --rounds 6 --runs 10 --warmup 2 --json /tmp/b.json 2>&1 | stamp >> $OUT/log.txt
echo "== C: tuner, then 4 rounds" | stamp >> $OUT/log.txt
timeout 200 $C/bin/ml_bench --group network --assets assets --filter 'denoiser 960x540 fp16-arith$' --tune /tmp/t.txt --rounds 4 --json /tmp/c.json 2>&1 | stamp >> $OUT/log.txt
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv >> $OUT/smi_start.txt 2>&1
kill $SMI
grep -E "== |\] +denoiser|^[0-9:.]+ +denoiser" $OUT/log.txt | cut -c1-150
grep -E "tune |confirm" $OUT/log.txt | awk '{print $1, $3, $4, $5, $(NF-3), $(NF-2)}' | head -80
