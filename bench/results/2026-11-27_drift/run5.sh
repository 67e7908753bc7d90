#!/usr/bin/env bash
# Whole frames with and without run 3's tuned table (frame_bench --tuning), and the tuner's GPU
# test with the validation layer. Packed: pack.sh build/bench/frame_bench build/tests/bridge_tuning_tests
#   -- bench/results/2026-11-27_drift/run3/tuned3.tsv VkLayer_khronos_validation.json (+ the layer's .so)
C=.devcarry
source $C/env.sh
T=$C/extra/tuned3.tsv
(export VK_LAYER_PATH=$PWD/$C/extra LD_LIBRARY_PATH=$PWD/$C/extra:$LD_LIBRARY_PATH
 timeout 120 $C/bin/bridge_tuning_tests > $OUT/bridge_tuning_tests_h100.txt 2>&1; echo "tuning tests rc=$?")
grep -E "^\[  (PASSED|FAILED|SKIPPED)|validation|VUID" $OUT/bridge_tuning_tests_h100.txt | head
for r in 1 2; do
  timeout 200 $C/bin/frame_bench --frames 100 --warmup 10 --assets assets --json $OUT/fb_heuristics_$r.json > $OUT/fb_heuristics_$r.txt 2>&1
  timeout 200 $C/bin/frame_bench --frames 100 --warmup 10 --assets assets --tuning $T --json $OUT/fb_tuned_$r.json > $OUT/fb_tuned_$r.txt 2>&1
done
for f in fb_heuristics_1 fb_tuned_1 fb_heuristics_2 fb_tuned_2; do echo "== $f"; grep -E "^    (upscale_ml-temporal|ml_upscale.network|ml_denoise.network) " $OUT/$f.txt | paste -sd' '; tail -16 $OUT/$f.txt | head -15 | cut -c1-80; done
