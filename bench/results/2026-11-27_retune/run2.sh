# Where the shipped single-frame upscaler's time goes now (per-dispatch timestamps), and its 4K
# pass in frame_bench.
cd .devcarry && tar xzf payload.tgz && cd ..
source .devcarry/env.sh
[ -e /work/main ] || { mkdir -p /work && ln -s "$PWD" /work/main; }
T=.devcarry/bin
timeout 120 $T/ml_bench --group network --filter 'upscaler_x2 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$' --runs 50 --warmup 10 --assets assets --profile > $OUT/profile.txt 2>&1
timeout 120 $T/frame_bench --filter "1920x1080 + ml" --frames 100 --warmup 20 --assets assets > $OUT/frame_bench.txt 2>&1
grep -E "profile|fp16-arith " $OUT/profile.txt | cut -c1-110
grep -E "upscale|network|tensor|->" $OUT/frame_bench.txt | cut -c1-140 | head -40
