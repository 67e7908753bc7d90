#!/usr/bin/env bash
# kernels helper, device run 2: graph conformance (validation on), ml_bench default vs tuned (fresh table), cuDNN peer.
C=.devcarry-kernels
source $C/env.sh
D=$(date +%F)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader 2>&1
export VK_LAYER_PATH=$PWD/$C/extra
timeout 50 $C/bin/mlplugin_graph_tests --gtest_filter='GraphCompile.*:GraphTest.*' > $OUT/tests.txt 2>&1; echo "graph tests rc=$?"
grep -E "^\[  (FAILED|PASSED) |FAILED  \]" $OUT/tests.txt | head
unset VK_LAYER_PATH
F='conv3x3 64->64 nhwc 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|srvgg_x2 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$|espcn_x2 1920x1080 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$|upscaler_x2 960x540 fp16-arith$'
timeout 60 $C/bin/ml_bench --runs 50 --warmup 5 --assets assets --filter "$F" --json $OUT/${D}_ml_bench_default.json > $OUT/ml_bench_default.txt 2>&1; echo "default rc=$?"
timeout 170 $C/bin/ml_bench --runs 50 --warmup 5 --assets assets --filter "$F" --tune $OUT/tuning.tsv --json $OUT/${D}_ml_bench_tuned.json > $OUT/ml_bench_tuned.txt 2>&1; echo "tuned rc=$?"
timeout 40 python3 $C/extra/peer_torch.py --no-compile --filter "upscaler_x2 1920x1080|denoiser 1920x1080|upscaler_x2 960x540|srvgg_x2|unet|conv3x3 64->64 1920x1080|espcn_x2 1920x1080" --configs fp16-cl+cudagraph --runs 50 --warmup 10 --json $OUT/${D}_peer_torch_run2.json > $OUT/peer.txt 2>&1; echo "peer rc=$?"
echo "== default"; grep -E "^  [a-z]" $OUT/ml_bench_default.txt
echo "== tuned"; grep -E "^  [a-z]" $OUT/ml_bench_tuned.txt
echo "== peer"; grep -E "ms$" $OUT/peer.txt
