#!/usr/bin/env bash
# Winograd helper, device run 1 (2026-11-25): conformance with validation (Winograd + the existing
# convolution and graph-fusion tests), driver statistics, ml_bench default vs a fresh tuning run
# (every candidate timed, Winograd tiles among them) vs Winograd forced on the 64->64 layers,
# and the cuDNN peer, in one command. Packed with
#   ../shared/device/pack.sh build-wino/bench/ml_bench build-wino/bench/pipeline_stats \
#     build-wino/tests/mlplugin/mlplugin_convolution_tests build-wino/tests/mlplugin/mlplugin_graph_tests \
#     -- bench/peer_torch.py bench/results/kernels/winograd_run1.sh bench/results/kernels/winograd_force.py \
#     /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json
# Its outputs were renamed 2026-11-25_winograd_run1_* afterwards (runs 2 and 3 name them so).
C=.devcarry
source $C/env.sh
D=2026-11-25
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader 2>&1
export VK_LAYER_PATH=$PWD/$C/extra
export LD_LIBRARY_PATH=$PWD/$C/extra:$LD_LIBRARY_PATH
timeout 80 $C/bin/mlplugin_convolution_tests > $OUT/${D}_winograd_tests.txt 2>&1; echo "conv tests rc=$?"
timeout 30 $C/bin/mlplugin_graph_tests --gtest_filter='GraphCompile.*' >> $OUT/${D}_winograd_tests.txt 2>&1; echo "graph tests rc=$?"
grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests? ran|FAILED  \]" $OUT/${D}_winograd_tests.txt | head -20
grep -B2 -A10 "Failure" $OUT/${D}_winograd_tests.txt | head -60
unset VK_LAYER_PATH
timeout 20 $C/bin/pipeline_stats > $OUT/${D}_winograd_pipeline_stats.txt 2>&1; echo "pipeline_stats rc=$?"
grep -A2 -E "^  (winograd|igemm_t16x16_w4x2_f4x2 )" $OUT/${D}_winograd_pipeline_stats.txt | grep -E "^  (winograd|igemm)|conv2d_(winograd|igemm)" | head -40
F='conv3x3 64->64 nhwc 1920x1080 fp16$|conv3x3 64->64 nhwc 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16$|srvgg_x2 960x540 fp16-arith$'
timeout 30 $C/bin/ml_bench --runs 50 --warmup 5 --assets none --filter "$F" --json $OUT/${D}_winograd_ml_bench_default.json > $OUT/${D}_winograd_ml_bench.txt 2>&1; echo "default rc=$?"
timeout 80 $C/bin/ml_bench --runs 30 --warmup 5 --assets none --filter "$F" --tune /tmp/tuned.tsv --json /tmp/tuned.json > /tmp/tuned.txt 2>&1; echo "tuned rc=$?"
python3 $C/extra/winograd_force.py /tmp/tuned.txt /tmp/tuned.tsv /tmp/forced.tsv
timeout 30 $C/bin/ml_bench --runs 50 --warmup 5 --assets none --filter "$F" --tune /tmp/forced.tsv --json /tmp/forced.json > /tmp/forced.txt 2>&1; echo "forced rc=$?"
{ echo "== tuned (fresh table: every candidate timed)"; cat /tmp/tuned.txt; echo "== tuning table"; cat /tmp/tuned.tsv
  echo "== Winograd forced on every key that lists it (fastest Winograd tile per key)"; cat /tmp/forced.tsv; cat /tmp/forced.txt; } >> $OUT/${D}_winograd_ml_bench.txt
timeout 35 python3 $C/extra/peer_torch.py --no-compile --filter "conv3x3 64->64 1920x1080|srvgg_x2 960x540" --configs fp16-cl,fp16-cl+cudagraph --runs 50 --warmup 10 --json $OUT/${D}_winograd_peer_torch.json > $OUT/${D}_winograd_peer.txt 2>&1; echo "peer rc=$?"
echo "== default"; grep -E "^  [a-z]" $OUT/${D}_winograd_ml_bench.txt | head -4
echo "== tune"; grep -E "tune .*(winograd|igemm_t16x16_w4x2_f4x2 |coopmat)" /tmp/tuned.txt | grep "out64v" | cut -c1-120
echo "== tuned / forced"; grep -E "^  [a-z]" /tmp/tuned.txt /tmp/forced.txt
echo "== peer"; grep -E "ms" $OUT/${D}_winograd_peer.txt | tail -6
