# The 1x1 projection's W2^T fragments read once before the epilogue's first store ("new")
# against the build before ("old"): conformance of the projected kernels with the validation
# layer, then the temporal network and its 4K and 1080p passes, alternating, three rounds.
cd .devcarry && tar xzf payload.tgz && cd ..
source .devcarry/env.sh
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
T=.devcarry/bin
(
  export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
  timeout 200 $T/mlplugin_graph_tests --gtest_filter='GraphCompile.*' 2>&1 | tail -4
  timeout 100 $T/effects_upscaler_tests 2>&1 | tail -3
) > $OUT/conformance.txt 2>&1
grep -E "PASSED|FAILED|validation\]" $OUT/conformance.txt | head -20
F='upscaler_temporal 1920x1080 fp16-arith$|upscaler_temporal 960x540 fp16-arith$'
for r in 1 2 3; do for v in old new; do
  timeout 60 $T/ml_bench_$v --group network --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/$v r$r /"
  timeout 60 $T/frame_bench_$v --filter "ml-temporal" --frames 100 --warmup 20 --assets assets 2>&1 | grep -E "upscale_" | sed "s/^/$v r$r fb /"
done; done > $OUT/ab.txt 2>&1
sort -k3,5 -s $OUT/ab.txt | cut -c1-100
