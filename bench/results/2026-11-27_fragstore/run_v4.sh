# v4 (fragment stores for up to two N fragments per subgroup and with PReLU, the channel matrices
# built before the fragment loop) against the shipped v3: A/B first, then conformance.
source .devcarry/env.sh
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
T=.devcarry/bin
F='espcn_x2 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$|conv3x3 64->64 nhwc 1920x1080 fp16$|srvgg_x2_c48n12 960x540 fp16-arith$|srvgg_x4_c32n16 960x540 fp16-arith$|unet_small 1920x1088 fp16-arith$'
for r in 1 2; do for v in v3 v4; do
  timeout 100 $T/ml_bench_$v --group network,conv --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/$v r$r /"
done; done > $OUT/ab_v4.txt 2>&1
sort -k3,5 $OUT/ab_v4.txt | cut -c1-90
export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
{
  timeout 150 $T/mlplugin_convolution_tests --gtest_filter='Convolution.ImplicitGemm*' 2>&1 | tail -4
  timeout 120 $T/mlplugin_graph_tests --gtest_filter='GraphCompile.*:*Espcn*' 2>&1 | tail -4
} > $OUT/conformance_v4.txt 2>&1
grep -E "PASSED|FAILED|validation\]" $OUT/conformance_v4.txt | head
