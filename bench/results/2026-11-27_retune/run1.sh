# Do the fixed tile heuristics still pick what measurement picks, now that fragment stores and
# 1x1 projections changed what the epilogue costs? Every network and the 3x3 64->64 convolution,
# defaults, then tuned (--tune: every candidate kernel timed per convolution shape), then defaults
# again, in one command on one machine.
cd .devcarry && tar xzf payload.tgz && cd ..
source .devcarry/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee $OUT/gpu.txt
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
T=.devcarry/bin
F='espcn_x2 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$|conv3x3 64->64 nhwc 1920x1080 fp16$|srvgg_x2_c48n12 960x540 fp16-arith$|srvgg_x4_c32n16 960x540 fp16-arith$|unet_small 1920x1088 fp16-arith$|espcn_x3 1920x1080 fp16-arith$'
timeout 90 $T/ml_bench --group network,conv --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/default1 /" > $OUT/results.txt
timeout 380 $T/ml_bench --group network,conv --filter "$F" --runs 100 --warmup 10 --assets assets --tune $OUT/tuning.json > $OUT/tune_log.txt 2>&1
grep " ms " $OUT/tune_log.txt | sed "s/^/tuned /" >> $OUT/results.txt
timeout 90 $T/ml_bench --group network,conv --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/default2 /" >> $OUT/results.txt
sort -k2,4 -s $OUT/results.txt | cut -c1-100
