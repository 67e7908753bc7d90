# The 1x1 projection in conv2d_igemm's epilogue (PROJ_C): conformance on the H100 with the
# validation layer and synchronization validation, then the build before it (ebee286, "old")
# against this one ("new"), alternating, two rounds: ml_bench (networks), frame_bench (the 4K
# passes). The binaries travel compressed (the carry limit).
cd .devcarry && tar xzf payload.tgz && cd ..
source .devcarry/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee $OUT/gpu.txt
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
T=.devcarry/bin
(
  export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
  $T/mlplugin_graph_tests --gtest_filter='GraphCompile.*:*Espcn*:*Fsrcnn*' 2>&1 | tail -4
  $T/mlplugin_convolution_tests --gtest_filter='Convolution.ImplicitGemm*:Convolution.CooperativeMatrix*:*Winograd*:ConvolutionPlan.*' 2>&1 | tail -4
  $T/effects_upscaler_tests 2>&1 | tail -3
  $T/effects_denoiser_tests 2>&1 | tail -3
) > $OUT/conformance.txt 2>&1
grep -E "PASSED|FAILED|validation\]" $OUT/conformance.txt | head -20
F='upscaler_temporal 1920x1080 fp16-arith$|upscaler_temporal 960x540 fp16-arith$|denoiser 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|espcn_x2 1920x1080 fp16-arith$'
for r in 1 2; do for v in old new; do
  $T/ml_bench_$v --group network --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/$v r$r /"
  $T/frame_bench_$v --filter "1920x1080 + ml" --frames 100 --warmup 20 --assets assets 2>&1 | grep -E "upscale_|ml_upscale\.network|ml_denoise\.network" | sed "s/^/$v r$r fb /"
done; done > $OUT/ab.txt 2>&1
$T/ml_bench_new --group network --filter 'upscaler_temporal 1920x1080 fp16-arith$' --runs 50 --warmup 10 --assets assets --profile > $OUT/profile_new.txt 2>&1
sort -k3,6 $OUT/ab.txt | cut -c1-100
grep profile $OUT/profile_new.txt
