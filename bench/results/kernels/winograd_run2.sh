#!/usr/bin/env bash
# Winograd helper, device run 2 (2026-11-25), after run 1 measured the first tiles 1.6-2.1x slower
# than the implicit GEMM: 16-subgroup tiles (64 channels in one N block), a 16-block x 32-channel
# tile, one bias/slope load per output item. Conformance of the Winograd tests that run 1's
# 80 s limit cut off (validation on) with pipeline_stats beside them, then ml_bench default,
# a fresh tuning run (every candidate timed), Winograd forced, and the cuDNN peer for the single
# convolution. Packed as run 1 (winograd_run1.sh) plus this file.
C=.devcarry
source $C/env.sh
D=2026-11-25
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader 2>&1
timeout 40 $C/bin/pipeline_stats > $OUT/${D}_winograd_run2_pipeline_stats.txt 2>&1 &
STATS=$!
export VK_LAYER_PATH=$PWD/$C/extra
export LD_LIBRARY_PATH=$PWD/$C/extra:$LD_LIBRARY_PATH
timeout 100 $C/bin/mlplugin_convolution_tests --gtest_filter='*Winograd*:ConvolutionPlan.*:Convolution.ImplicitGemmEveryCandidate' > $OUT/${D}_winograd_run2_tests.txt 2>&1; echo "conv tests rc=$?"
timeout 25 $C/bin/mlplugin_graph_tests --gtest_filter='GraphCompile.Srvgg*' >> $OUT/${D}_winograd_run2_tests.txt 2>&1; echo "graph tests rc=$?"
grep -E "^\[  (FAILED|PASSED|SKIPPED) |^\[ +(OK|FAILED) \]|FAILED  \]" $OUT/${D}_winograd_run2_tests.txt | head -30
grep -B2 -A10 "Failure" $OUT/${D}_winograd_run2_tests.txt | head -40
unset VK_LAYER_PATH
wait $STATS; echo "pipeline_stats rc=$?"
awk '/^conv3x3 64->64/{p=1} /^conv3x3 64->32/{p=0} p' $OUT/${D}_winograd_run2_pipeline_stats.txt | grep -A1 -E "^  (winograd|igemm_t16x16_w4x2_f4x2 )" | grep -oE "^  [a-z0-9_]+|Register Count=[0-9]+|Shared Memory Size=[0-9]+" | paste -sd' ' | sed 's/  /\n/g'
F='conv3x3 64->64 nhwc 1920x1080 fp16$|conv3x3 64->64 nhwc 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16$|srvgg_x2 960x540 fp16-arith$'
timeout 30 $C/bin/ml_bench --runs 50 --warmup 5 --assets none --filter "$F" > $OUT/${D}_winograd_run2_ml_bench.txt 2>&1; echo "default rc=$?"
timeout 80 $C/bin/ml_bench --runs 30 --warmup 5 --assets none --filter "$F" --tune /tmp/tuned.tsv > /tmp/tuned.txt 2>&1; echo "tuned rc=$?"
python3 $C/extra/winograd_force.py /tmp/tuned.txt /tmp/tuned.tsv /tmp/forced.tsv
timeout 30 $C/bin/ml_bench --runs 50 --warmup 5 --assets none --filter "$F" --tune /tmp/forced.tsv > /tmp/forced.txt 2>&1; echo "forced rc=$?"
{ echo "== tuned (fresh table: every candidate timed)"; cat /tmp/tuned.txt; echo "== tuning table"; cat /tmp/tuned.tsv
  echo "== Winograd forced on every key that lists it (fastest Winograd tile per key)"; cat /tmp/forced.tsv; cat /tmp/forced.txt; } >> $OUT/${D}_winograd_run2_ml_bench.txt
timeout 30 python3 $C/extra/peer_torch.py --no-compile --filter "conv3x3 64->64 1920x1080" --configs fp16-cl+cudagraph --runs 50 --warmup 10 --json $OUT/${D}_winograd_run2_peer_torch.json > $OUT/${D}_winograd_run2_peer.txt 2>&1; echo "peer rc=$?"
echo "== default"; grep -E "^  [a-z]" $OUT/${D}_winograd_run2_ml_bench.txt | head -4
echo "== tune"; grep -E "tune .*(winograd|igemm_t16x16_w4x2_f4x2 )" /tmp/tuned.txt | grep "out64v" | cut -c1-100
echo "== tuned / forced"; grep -E "^  [a-z]" /tmp/tuned.txt /tmp/forced.txt
echo "== peer"; grep -E "ms" $OUT/${D}_winograd_run2_peer.txt | tail -2
