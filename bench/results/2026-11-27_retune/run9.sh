# The patch epilogue reads each accumulator's residual one accumulator ahead, before the stores
# of the accumulator before ("new"), against run7's build ("old"): conformance with the
# validation layer first, then alternating timings, three rounds.
cd .devcarry && tar xzf payload.tgz && cd ..
source .devcarry/env.sh
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
T=.devcarry/bin
(
  export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
  timeout 200 $T/mlplugin_graph_tests --gtest_filter='GraphCompile.*:*Espcn*:*Fsrcnn*:*Srvgg*:*Unet*:*UNet*:*Residual*' 2>&1 | tail -4
  timeout 200 $T/mlplugin_convolution_tests --gtest_filter='Convolution.ImplicitGemm*:Convolution.CooperativeMatrix*:*Winograd*:ConvolutionPlan.*' 2>&1 | tail -4
  timeout 100 $T/effects_upscaler_tests 2>&1 | tail -3
  timeout 60 $T/effects_denoiser_tests 2>&1 | tail -3
) > $OUT/conformance.txt 2>&1
grep -E "PASSED|FAILED|validation\]" $OUT/conformance.txt | head -20
F='upscaler_x2 1920x1080 fp16-arith$|upscaler_x2 960x540 fp16-arith$|denoiser 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|unet 1920x1088 fp16-arith$|unet_small 1920x1088 fp16-arith$|espcn_x2 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$|srvgg_x2_c48n12 960x540 fp16-arith$'
for r in 1 2 3; do for v in old new; do
  timeout 80 $T/ml_bench_$v --group network --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/$v r$r /"
  timeout 60 $T/frame_bench_$v --filter "1920x1080 + ml" --frames 100 --warmup 20 --assets assets 2>&1 | grep -E "upscale_|ml_upscale\.network" | sed "s/^/$v r$r fb /"
done; done > $OUT/ab.txt 2>&1
sort -k3,5 -s $OUT/ab.txt | cut -c1-100
