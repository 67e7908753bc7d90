#!/usr/bin/env bash
# The tuner with inputs copied on the GPU (GraphSession::copyInputsFrom): the temporal network,
# whose candidates drifted most in run 3, tuned again from an empty table with the clocks
# sampled; then the bridge tuning tests with the validation layer.
# Packed: pack.sh build/bench/ml_bench build/tests/bridge_tuning_tests -- VkLayer_khronos_validation.json (+ the layer's .so)
C=.devcarry
source $C/env.sh
stamp() { while IFS= read -r l; do printf '%s %s\n' "$(date +%T.%3N)" "$l"; done; }
nvidia-smi --query-gpu=timestamp,pstate,clocks.sm,power.draw,utilization.gpu,clocks_throttle_reasons.active --format=csv -lms 100 > $OUT/smi6.csv 2>&1 &
SMI=$!
timeout 300 $C/bin/ml_bench --assets assets --filter 'upscaler_temporal 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$' --tune $OUT/tuned6.tsv --json $OUT/tuned6.json 2>&1 | stamp > $OUT/tune6_log.txt
kill $SMI
grep -E "(tune|again|confirm) " $OUT/tune6_log.txt | awk '{print $1, $2, $4, $(NF-3)}' | cut -c1-100
grep -E "^[0-9:.]+ +  [a-z]" $OUT/tune6_log.txt | cut -c1-120
(export VK_LAYER_PATH=$PWD/$C/extra LD_LIBRARY_PATH=$PWD/$C/extra:$LD_LIBRARY_PATH
 timeout 120 $C/bin/bridge_tuning_tests > $OUT/bridge_tuning_tests_h100.txt 2>&1; echo "tuning tests rc=$?")
grep -E "^\[  (PASSED|FAILED|SKIPPED)|vulkan" $OUT/bridge_tuning_tests_h100.txt | head
