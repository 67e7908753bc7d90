# Intermediates padded to whole 16-channel fragments (graph_pad.cpp), on the GPU machine: the
# tests that exercise it on the tensor cores under validation first, then every ml_bench network
# padded (the default) against +unpadded (GraphCompileFlagDisableChannelPadding), two rounds, and
# the temporal network of width 24 (../2026-11-28_temporal_shapes) both ways and as a whole pass.
# Pack: tools/conformance_pack.sh build/bench/ml_bench build/bench/frame_bench, then
# cp -r /tmp/shapes .devcarry/shapes, and the binaries and the validation layer xz-compressed into
# .devcarry/big.txz (as tools/train/logs/r22/r22_launch.sh); carry [".devcarry"].
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VK_LAYER_PATH=$PWD/.devcarry/extra VKML_MODEL_DIR=$PWD/assets
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
python3 -c "import tarfile; tarfile.open('.devcarry/tb.txz').extractall('/tmp')"
( cd /tmp/tb && timeout 300 ./mlplugin_graph_tests --gtest_filter='GraphCompile.*' > $OUT/graph_tests.log 2>&1; echo "graph rc=$?";
  timeout 200 ./effects_upscaler_tests > $OUT/upscaler_tests.log 2>&1; echo "upscaler rc=$?";
  timeout 300 ./mlplugin_onnx_gpu_tests > $OUT/onnx_gpu_tests.log 2>&1; echo "onnx_gpu rc=$?" )
grep -h -E "^\[  (PASSED|FAILED|SKIPPED) " $OUT/*_tests.log | sort | uniq -c
grep -h "ChannelPadding" $OUT/graph_tests.log | tail -2
b=.devcarry/bin/ml_bench
timeout 280 $b --group network --filter 'fp16-arith$|fp16-arith+unpadded$' --verify --runs 50 --warmup 10 --rounds 2 --assets assets \
  --json $OUT/ml_bench_networks.json > $OUT/ml_bench_networks.txt 2>&1; echo "ml_bench rc=$?"
for s in r2w24d3f3 r2w24d3f1 r2w32d3f3; do
  timeout 60 $b --group network --filter 'upscaler_temporal 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith+unpadded$' --runs 100 \
    --rounds 2 --assets .devcarry/shapes/$s --json $OUT/ml_bench_$s.json > /tmp/mb_$s.txt 2>&1
  echo "== $s"; grep -E "upscaler_temporal" /tmp/mb_$s.txt | tail -4
  timeout 60 .devcarry/bin/frame_bench --assets .devcarry/shapes/$s --filter "1920x1080 + ml-temporal" --frames 100 --warmup 20 \
    --json $OUT/fb_$s.json 2>&1 | grep "upscale_ml-temporal"
done
grep -E "ms|padded" $OUT/ml_bench_networks.txt | tail -60
