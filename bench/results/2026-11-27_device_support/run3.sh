# Run 3: the final build of the session on the H100, validation on: the framework's device tests,
# the upscaler effect suite (usesTensorCores() among its checks; the denoiser suite did not fit the
# 64 MiB carry) and effect_sample in the temporal ML
# mode. Carry [".devcarry"]: pack.sh of those binaries -- the layer's json, plus its .so.
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }  # the tests name their data by this path
source .devcarry/env.sh
export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
(.devcarry/bin/mlplugin_framework_tests --gtest_filter='DeviceSupport*:DeviceTest.*' 2>&1 | tail -n 3
 .devcarry/bin/effects_upscaler_tests 2>&1 | grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? ran|Validation") | tee $OUT/tests.txt
.devcarry/bin/upscale_demo --headless --width 1920 --height 1080 --render-scale 0.5 --frames 6 --mode taau --channels color,depth,motion \
  --out /tmp/seq > /tmp/seq.txt 2>&1 || tail /tmp/seq.txt
.devcarry/bin/effect_sample --input /tmp/seq --out /tmp/up --mode ml-temporal --model assets/upscaler_temporal.onnx --validation 2>&1 | tee $OUT/sample.txt | tail -n 3
echo "validation messages: $(grep -c 'Validation' $OUT/sample.txt)"
