# (1) The residual fragments of conv2d_igemm's fragment-store epilogue read before its first
# store ("new") against the build before ("old"), on an EDSR-baseline-shaped x2 network (8
# residual blocks of 3x3 64->64 convolutions, each block's add in the second convolution's
# epilogue; random weights, edsr/make_edsr.py, 960x540 input), mlrun --iterations, alternating,
# three rounds. (2) Conformance with the validation layer, bicubic Resize on the GPU included.
cd .devcarry && tar xzf payload.tgz && cd ..
source .devcarry/env.sh
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
T=.devcarry/bin
E=.devcarry/extra
(
  export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
  timeout 200 $T/mlplugin_graph_tests --gtest_filter='GraphCompile.*:*Espcn*:*Srvgg*' 2>&1 | tail -4
  timeout 150 $T/mlplugin_convolution_tests --gtest_filter='Convolution.ImplicitGemm*:ConvolutionPlan.*' 2>&1 | tail -4
  timeout 100 $T/mlplugin_resample_tests 2>&1 | tail -3
  timeout 100 $T/mlplugin_onnx_resize_cubic_tests 2>&1 | tail -3
  timeout 100 $T/effects_upscaler_tests 2>&1 | tail -3
) > $OUT/conformance.txt 2>&1
grep -E "PASSED|FAILED|validation\]" $OUT/conformance.txt | head -20
mkdir -p $OUT/o
for r in 1 2 3; do for v in old new; do
  timeout 120 $T/mlrun_$v $E/edsr_x2.onnx --input x=$E/x.npy --output-dir $OUT/o/$v --precision fp16 --iterations 100 2>&1 | grep -iE "median|ms" | sed "s/^/$v r$r /"
done; done > $OUT/edsr.txt 2>&1
cat $OUT/edsr.txt
python3 -c "
import numpy as np; a=np.load('$OUT/o/old/y.npy'); b=np.load('$OUT/o/new/y.npy'); print('old vs new max abs diff', float(np.abs(a-b).max()), 'shape', a.shape)" 2>&1 | tee $OUT/edsr_diff.txt
rm -rf $OUT/o
F='upscaler_temporal 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|denoiser 1920x1080 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$'
for v in old new; do timeout 60 $T/ml_bench_$v --group network --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/$v /"; done > $OUT/ab.txt
sort -k2,4 -s $OUT/ab.txt | cut -c1-100
