# upscale_demo in every output mode and denoiser, and effect_sample, on the H100 with the Khronos
# validation layer and synchronization validation (--validation): the whole frame graph with the
# tensor-core kernels, which the GoogleTest suites exercise piecewise. Carry: .devcarry from
# tools/conformance_pack.sh build/demos/effect_sample/effect_sample (it packs upscale_demo and the
# validation layer too).
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
source .devcarry/env.sh
export VK_LAYER_PATH=$PWD/.devcarry/extra VKML_MODEL_DIR=$PWD/assets
demo=.devcarry/bin/upscale_demo
run() {  # name, arguments
  local name=$1; shift
  timeout 120 $demo --headless --validation --frames 6 --width 1920 --height 1080 --out /tmp/d_$name "$@" > $OUT/$name.log 2>&1
  echo "$name rc=$? validation messages: $(grep -cE '\[vulkan (error|warning)\]' $OUT/$name.log)"
}
run native --mode native --supersample 4
run bicubic --mode bicubic
run ml --mode ml
run taau --mode taau --sharpness 0.5
run ml_temporal --mode ml-temporal --denoise ml
run ml_temporal_fp32 --mode ml-temporal --ml-precision fp32 --denoise atrous
run seq --mode taau --channels color,depth,motion --frames 8 --width 960 --height 540
timeout 120 .devcarry/bin/effect_sample --input /tmp/d_seq --out /tmp/es --mode ml-temporal --validation > $OUT/effect_sample.log 2>&1
echo "effect_sample rc=$? validation messages: $(grep -cE '\[vulkan (error|warning)\]' $OUT/effect_sample.log)"
cd $OUT && tar czf demo_logs.tgz *.log && rm -f *.log
