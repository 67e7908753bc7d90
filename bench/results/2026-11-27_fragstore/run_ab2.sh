# Second version (accumulators start from the bias; i outer, j inner in the epilogue): the driver's
# statistics for both builds, conformance with the validation layer, the A/B, two rounds.
source .devcarry/env.sh
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee $OUT/gpu.txt
T=.devcarry/bin
for v in new; do $T/pipeline_stats_$v > $OUT/pipeline_stats_$v.txt 2>&1; done
export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
{
  $T/mlplugin_convolution_tests --gtest_filter='Convolution.ImplicitGemm*:Convolution.CooperativeMatrix*:ConvolutionPlan.*' 2>&1 | tail -4
  $T/mlplugin_graph_tests --gtest_filter='GraphCompile.*:*Espcn*:*Fsrcnn*' 2>&1 | tail -4
  $T/effects_upscaler_tests 2>&1 | tail -3
  [ -x $T/effects_denoiser_tests ] && $T/effects_denoiser_tests 2>&1 | tail -3
} > $OUT/conformance2.txt 2>&1
grep -E "PASSED|FAILED|validation\]" $OUT/conformance2.txt | head -20
F='espcn_x2 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$|conv3x3 64->64 nhwc 1920x1080 fp16$|conv3x3 64->64 nhwc 1920x1080 fp16-arith$|espcn_x3 1920x1080 fp16-arith$|srvgg_x2_c48n12 960x540 fp16-arith$|srvgg_x4_c32n16 960x540 fp16-arith$|unet_small 1920x1088 fp16-arith$'
for r in 1 2; do for v in old new; do
  $T/ml_bench_$v --group network,conv --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/$v r$r /"
done; done > $OUT/ab2.txt 2>&1
sort -k3,5 $OUT/ab2.txt | cut -c1-100
