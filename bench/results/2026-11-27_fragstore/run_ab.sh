# Fragment stores (FRAG_STORE in conv2d_igemm.comp / conv2d_coopmat.comp) on the GPU machine:
# conformance with the validation layer, then the A/B against the build without them
# (ml_bench_old / frame_bench_old, built from 62e403d), alternating, two rounds.
# Carry [".devcarry"] packed with: pack.sh build/bench/{ml_bench,frame_bench} (new and _old copies),
# the four test binaries, -- the validation layer json (+ its .so copied into .devcarry/extra).
source .devcarry/env.sh
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee $OUT/gpu.txt
T=.devcarry/bin
export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
{
  $T/mlplugin_convolution_tests --gtest_filter='Convolution.ImplicitGemm*:Convolution.CooperativeMatrix*:ConvolutionPlan.*' 2>&1 | tail -4
  $T/mlplugin_graph_tests --gtest_filter='GraphCompile.*:*Espcn*:*Fsrcnn*' 2>&1 | tail -4
  $T/effects_upscaler_tests 2>&1 | tail -3
  $T/effects_denoiser_tests 2>&1 | tail -3
} > $OUT/conformance.txt 2>&1
grep -E "PASSED|FAILED|validation\]" $OUT/conformance.txt | head -20
F='espcn_x2 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$|conv3x3 64->64 nhwc 1920x1080 fp16'
for r in 1 2; do for v in old new; do
  $T/ml_bench_$v --group network,conv --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/$v r$r /"
  [ -x $T/frame_bench_$v ] && $T/frame_bench_$v --filter "1920x1080 + ml" --frames 100 --warmup 20 --assets assets 2>&1 | grep -E "upscale_ml|ml_upscale\.network" | sed "s/^/$v r$r /"
done; done > $OUT/ab.txt 2>&1
$T/ml_bench_new --group network --filter 'espcn_x2 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$' --profile --runs 50 --assets assets > $OUT/profile_new.txt 2>&1
$T/ml_bench_old --group network --filter 'espcn_x2 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$' --profile --runs 50 --assets assets > $OUT/profile_old.txt 2>&1
sort -k3 $OUT/ab.txt | awk '{print}' | cut -c1-150
