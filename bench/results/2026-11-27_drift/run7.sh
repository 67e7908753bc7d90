#!/usr/bin/env bash
# The heuristic change (packed inputs of 8 channels or more to the implicit GEMM): conformance
# with the validation layer, the networks against the CPU reference (--verify) and timed with the
# heuristics alone, the ML denoise pass in whole frames, and max-autotune on the denoiser in the
# same command. Packed: pack.sh build/bench/{ml_bench,frame_bench} build/tests/mlplugin/mlplugin_{convolution,graph}_tests
#   -- VkLayer_khronos_validation.json (+ the layer's .so)
C=.devcarry
source $C/env.sh
(export VK_LAYER_PATH=$PWD/$C/extra LD_LIBRARY_PATH=$PWD/$C/extra:$LD_LIBRARY_PATH
 timeout 150 $C/bin/mlplugin_convolution_tests --gtest_filter='Convolution.ImplicitGemm*:Convolution.CooperativeMatrix*:ConvolutionPlan.*' > $OUT/conformance.txt 2>&1; echo "conv tests rc=$?"
 timeout 90 $C/bin/mlplugin_graph_tests --gtest_filter='GraphCompile.*:GraphTest.Unet*' >> $OUT/conformance.txt 2>&1; echo "graph tests rc=$?")
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED  \]|\[vulkan" $OUT/conformance.txt | head
F='denoiser 1920x1080 fp16-arith$|denoiser 960x540 fp16-arith$|unet 1920x1088 fp16-arith$|unet_small 1920x1088 fp16-arith$|espcn_x2 1920x1080 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$'
timeout 120 $C/bin/ml_bench --verify --assets assets --filter "$F" --json $OUT/ml_bench7.json > $OUT/ml_bench7.txt 2>&1; echo "ml_bench rc=$?"
grep -E "FAILED|^  [a-z]" $OUT/ml_bench7.txt | cut -c1-100
timeout 100 $C/bin/frame_bench --frames 100 --warmup 10 --assets assets --filter denoise --json $OUT/fb7.json > $OUT/fb7.txt 2>&1; echo "frame_bench rc=$?"
grep -E "^    ml_denoise.network" $OUT/fb7.txt
timeout 150 python3 bench/peer_torch.py --configs fp16-cl+max-autotune --filter "denoiser 1920x1080" --runs 100 --warmup 10 --json $OUT/ma7_denoiser.json > $OUT/ma7_denoiser.txt 2>&1
tail -2 $OUT/ma7_denoiser.txt
