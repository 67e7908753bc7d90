# v2b: run2.sh after the zero-length array fix, without the tuning run (PROJ_FRAGS >= 1); the same steps, fewer cases.
cd .devcarry && tar xzf payload.tgz && cd ..
source .devcarry/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee $OUT/gpu.txt
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
T=.devcarry/bin
(
  export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
  $T/mlplugin_graph_tests --gtest_filter='GraphCompile.*:*Espcn*:*Fsrcnn*' 2>&1 | grep -E "FAILED|PASSED|validation|Failure" | head -30
  $T/mlplugin_convolution_tests --gtest_filter='Convolution.ImplicitGemm*:Convolution.CooperativeMatrix*:*Winograd*:ConvolutionPlan.*' 2>&1 | grep -E "FAILED|PASSED|validation|Failure" | head -30
  $T/effects_upscaler_tests 2>&1 | grep -E "FAILED|PASSED|validation|Failure" | head -30
  $T/effects_denoiser_tests 2>&1 | grep -E "FAILED|PASSED|validation|Failure" | head -30
) > $OUT/conformance.txt 2>&1
grep -E "PASSED|FAILED|validation\]" $OUT/conformance.txt | head -20
F='upscaler_temporal 1920x1080 fp16-arith$|upscaler_temporal 960x540 fp16-arith$|denoiser 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$'
for r in 1 2; do for v in old new; do
  $T/ml_bench_$v --group network --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/$v r$r /"
  $T/frame_bench_$v --filter "1920x1080 + ml-temporal" --frames 100 --warmup 20 --assets assets 2>&1 | grep -E "upscale_|ml_upscale\.network|ml_denoise\.network" | sed "s/^/$v r$r fb /"
done; done > $OUT/ab.txt 2>&1
sort -k3,6 $OUT/ab.txt | cut -c1-100
cat $OUT/conformance.txt | head -40
