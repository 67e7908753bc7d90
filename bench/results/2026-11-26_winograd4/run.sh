#!/usr/bin/env bash
# Winograd F(4x4, 3x3), one device command (2026-11-26): conformance with the validation layer
# (every Winograd tile, F(2x2) and F(4x4), against the reference; SRVGG on every Winograd tile),
# the driver's register and shared-memory counts, then the 3x3 64->64 convolution at 1080p and
# SRVGG 540p tuned with every candidate timed (the F(4x4) tiles among them), with Winograd forced
# (fastest Winograd tile per key), and the cuDNN peer in the same command.
# Packed: pack.sh build/bench/{ml_bench,pipeline_stats} build/tests/mlplugin/mlplugin_{convolution,graph}_tests
#   -- VkLayer_khronos_validation.json bench/results/kernels/winograd_force.py; the layer's .so copied into .devcarry/extra.
C=.devcarry
source $C/env.sh
D=2026-11-26
R=$OUT/${D}_winograd4
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader 2>&1
timeout 60 $C/bin/pipeline_stats > ${R}_pipeline_stats.txt 2>&1 &
STATS=$!
export VK_LAYER_PATH=$PWD/$C/extra
export LD_LIBRARY_PATH=$PWD/$C/extra:$LD_LIBRARY_PATH
timeout 150 $C/bin/mlplugin_convolution_tests --gtest_filter='*Winograd*:ConvolutionPlan.*' > ${R}_tests.txt 2>&1; echo "conv tests rc=$?"
timeout 60 $C/bin/mlplugin_graph_tests --gtest_filter='GraphCompile.Srvgg*' >> ${R}_tests.txt 2>&1; echo "graph tests rc=$?"
grep -E "^\[  (FAILED|PASSED|SKIPPED) |FAILED  \]" ${R}_tests.txt | head -20
grep -B2 -A8 "Failure" ${R}_tests.txt | head -30
unset VK_LAYER_PATH
wait $STATS; echo "pipeline_stats rc=$?"
awk '/^conv3x3 64->64/{p=1} /^conv3x3 64->32/{p=0} p' ${R}_pipeline_stats.txt | grep -A1 -E "^  (winograd|igemm_t16x16_w4x2_f4x2 )" | grep -oE "^  [a-z0-9_]+|Register Count=[0-9]+|Shared Memory Size=[0-9]+" | paste -sd' ' | sed 's/  /\n/g'
F='conv3x3 64->64 nhwc 1920x1080 fp16$|conv3x3 64->64 nhwc 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16$|srvgg_x2 960x540 fp16-arith$'
timeout 40 $C/bin/ml_bench --runs 50 --warmup 5 --assets none --filter "$F" > ${R}_ml_bench.txt 2>&1; echo "default rc=$?"
timeout 150 $C/bin/ml_bench --runs 30 --warmup 5 --assets none --filter "$F" --tune /tmp/tuned.tsv > /tmp/tuned.txt 2>&1; echo "tuned rc=$?"
python3 $C/extra/winograd_force.py /tmp/tuned.txt /tmp/tuned.tsv /tmp/forced.tsv
timeout 40 $C/bin/ml_bench --runs 50 --warmup 5 --assets none --filter "$F" --tune /tmp/forced.tsv > /tmp/forced.txt 2>&1; echo "forced rc=$?"
{ echo "== tuned (fresh table: every candidate timed)"; cat /tmp/tuned.txt; echo "== tuning table"; cat /tmp/tuned.tsv
  echo "== Winograd forced on every key that lists it (fastest Winograd tile per key)"; cat /tmp/forced.tsv; cat /tmp/forced.txt; } >> ${R}_ml_bench.txt
timeout 60 python3 bench/peer_torch.py --no-compile --filter "conv3x3 64->64 1920x1080|srvgg_x2 960x540" --configs fp16-cl,fp16-cl+cudagraph --runs 50 --warmup 10 --json ${R}_peer_torch.json > ${R}_peer.txt 2>&1; echo "peer rc=$?"
echo "== default"; grep -E "^  [a-z]" ${R}_ml_bench.txt | head -4
echo "== 64->64 candidates"; grep -E "tune .*(winograd|igemm_t16x16_w4x2_f4x2 )" /tmp/tuned.txt | head -30
echo "== forced"; grep -E "^  [a-z]" /tmp/forced.txt | head -4
tail -n 6 ${R}_peer.txt
