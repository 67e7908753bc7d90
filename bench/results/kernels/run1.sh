#!/usr/bin/env bash
# kernels helper, device run 1: conformance (validation on), driver statistics, cuDNN peer, ml_bench with tuning.
C=.devcarry-kernels
source $C/env.sh
D=$(date +%F)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv 2>&1
export VK_LAYER_PATH=$PWD/$C/extra
timeout 90 $C/bin/mlplugin_convolution_tests --gtest_filter='Convolution.ImplicitGemm*:Convolution.CooperativeMatrix*:ConvolutionPlan.*' > $OUT/tests.txt 2>&1; echo "conv tests rc=$?"
timeout 45 $C/bin/mlplugin_graph_tests --gtest_filter='GraphCompile.*:GraphTest.Espcn*:GraphTest.Unet*' > $OUT/graph_tests.log 2>&1; cat $OUT/graph_tests.log >> $OUT/tests.txt; rm $OUT/graph_tests.log; echo "graph tests rc=$?"
grep -E "^\[  (FAILED|PASSED) |tests? ran|FAILED  \]" $OUT/tests.txt | head -30
grep -B2 -A12 "Failure" $OUT/tests.txt | head -80
unset VK_LAYER_PATH
timeout 25 $C/bin/pipeline_stats > $OUT/pipeline_stats.txt 2>&1; echo "pipeline_stats rc=$?"
timeout 45 python3 $C/extra/peer_torch.py --no-compile --filter "conv3x3 64->64 1920x1080|srvgg_x2|unet|espcn_x2 1920x1080" --configs fp16-cl,fp16-cl+cudagraph --runs 50 --warmup 10 --json $OUT/${D}_peer_torch_samecmd.json > $OUT/peer.txt 2>&1; echo "peer rc=$?"
F='conv3x3 64->64 nhwc 1920x1080 fp16$|conv3x3 64->64 nhwc 1920x1080 fp16-arith$|conv3x3 64->64 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|srvgg_x2 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$|espcn_x2 1920x1080 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16$'
timeout 60 $C/bin/ml_bench --runs 50 --warmup 5 --assets assets --filter "$F" --json /tmp/default.json > $OUT/ml_bench_default.txt 2>&1; echo "ml_bench default rc=$?"
timeout 150 $C/bin/ml_bench --runs 50 --warmup 5 --assets assets --filter "$F" --tune $OUT/tuning.tsv --json $OUT/${D}_ml_bench_tuned.json > $OUT/ml_bench_tuned.txt 2>&1; echo "ml_bench tuned rc=$?"
grep -E "^ +(conv|srvgg|unet|espcn|upscaler)" $OUT/ml_bench_default.txt | head -20
grep -E "^ +(conv|srvgg|unet|espcn|upscaler)" $OUT/ml_bench_tuned.txt | head -20
grep -E "ms$" $OUT/peer.txt | head; tail -3 $OUT/peer.txt
grep -A3 "default\|igemm" $OUT/pipeline_stats.txt | grep -E "igemm|coopmat|NHWC" | head -40
