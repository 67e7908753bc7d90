# v4 (FRAG_STORE for up to two N fragments per subgroup, PReLU included): conformance on the
# H100 with the validation layer and synchronization validation.
source .devcarry/env.sh
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
T=.devcarry/bin
export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
{
  $T/mlplugin_convolution_tests --gtest_filter='Convolution.ImplicitGemm*:Convolution.CooperativeMatrix*:*Winograd*:ConvolutionPlan.*' 2>&1 | tail -4
  $T/mlplugin_graph_tests --gtest_filter='GraphCompile.*:*Espcn*:*Fsrcnn*' 2>&1 | tail -4
  $T/effects_upscaler_tests 2>&1 | tail -3
  $T/effects_denoiser_tests 2>&1 | tail -3
} > $OUT/conformance4.txt 2>&1
grep -E "PASSED|FAILED|validation\]" $OUT/conformance4.txt | head -20
