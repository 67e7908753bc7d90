#!/usr/bin/env bash
# kernels helper, device run 3: ml_bench with the heuristic defaults (no tuning table), frame_bench at 4K.
C=.devcarry-kernels
source $C/env.sh
D=$(date +%F)
F='conv3x3 64->64 nhwc 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|unet 1920x1088 fp16-arith$|espcn_x2 1920x1080 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$|upscaler_x2 960x540 fp16-arith$|srvgg_x2 960x540 fp16$|conv3x3 64->64 nhwc 1920x1080 fp16$'
timeout 70 $C/bin/ml_bench --runs 50 --warmup 5 --assets assets --filter "$F" --json $OUT/${D}_ml_bench_final.json > $OUT/ml_bench_final.txt 2>&1; echo "ml_bench rc=$?"
timeout 60 $C/bin/frame_bench --frames 30 --warmup 5 --assets assets --filter 3840x2160 --json $OUT/${D}_frame_bench.json > $OUT/frame_bench.txt 2>&1; echo "frame_bench rc=$?"
grep -E "^  [a-z]" $OUT/ml_bench_final.txt
tail -25 $OUT/frame_bench.txt
# fp16 vs fp32 of the shipped networks inside the engine on the H100 (tensor cores), held-out paths.
(cd tools/train && TRAIN_ASSETS=$PWD/../../assets timeout 120 python3 ../../$C/extra/precision.py --demo ../../$C/bin/upscale_demo --out /tmp/prec > $OUT/precision.md 2> $OUT/precision.err); echo "precision rc=$?"
cat $OUT/precision.md; tail -5 $OUT/precision.err
