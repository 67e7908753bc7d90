# The device-support query on the H100, validation on: the framework's DeviceSupport tests (a
# device created only from the query and the chain, a plugin device over it), then effect_sample
# (its own device from the same query) upscaling a 960x540 -> 1920x1080 sequence with the temporal
# ML network: it must report tensor cores and produce no validation message.
# Carry [".devcarry"]: pack.sh effect_sample upscale_demo mlplugin_framework_tests -- the layer's json, plus its .so.
source .devcarry/env.sh
export VK_LAYER_PATH=$PWD/.devcarry/extra LD_LIBRARY_PATH=$PWD/.devcarry/extra:$LD_LIBRARY_PATH
.devcarry/bin/mlplugin_framework_tests --gtest_filter='DeviceSupport*:DeviceTest.*' 2>&1 | tail -n 4 | tee $OUT/framework.txt
.devcarry/bin/upscale_demo --headless --width 1920 --height 1080 --render-scale 0.5 --frames 6 --mode taau --channels color,depth,motion \
  --out /tmp/seq > /tmp/seq.txt 2>&1 || { tail /tmp/seq.txt; ls /tmp/seq | head; }
.devcarry/bin/effect_sample --input /tmp/seq --out /tmp/up --mode ml-temporal --model assets/upscaler_temporal.onnx --validation 2>&1 | tee $OUT/sample.txt | tail -n 5
echo "validation messages: $(grep -c 'Validation' $OUT/sample.txt)"
