#!/usr/bin/env bash
# Fresh processes: the heuristics and run 3's tuned table (tuned3.tsv), alternating twice, then
# max-autotune on the denoiser and the U-Net on the same warm machine.
# Packed: pack.sh build/bench/ml_bench -- bench/results/2026-11-27_drift/run3/tuned3.tsv bench/peer_torch.py
C=.devcarry
source $C/env.sh
T=$C/extra/tuned3.tsv
F='denoiser 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|conv3x3 64->64 nhwc 1920x1080 fp16-arith$|espcn_x2 1920x1080 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$'
for r in 1 2; do
  timeout 70 $C/bin/ml_bench --assets assets --filter "$F" --json $OUT/heuristics4_$r.json > $OUT/heuristics4_$r.txt 2>&1
  timeout 70 $C/bin/ml_bench --assets assets --filter "$F" --tune $T --json $OUT/tuned4_$r.json > $OUT/tuned4_$r.txt 2>&1
done
for f in heuristics4_1 tuned4_1 heuristics4_2 tuned4_2; do echo "== $f"; grep -E "^  [a-z]" $OUT/$f.txt | cut -c1-100; done
timeout 150 python3 bench/peer_torch.py --configs fp16-cl+max-autotune --filter "denoiser 1920x1080" --runs 100 --warmup 10 --json $OUT/ma_denoiser.json > $OUT/ma_denoiser.txt 2>&1
tail -3 $OUT/ma_denoiser.txt
timeout 200 python3 bench/peer_torch.py --configs fp16-cl+max-autotune --filter "unet 1920x1088" --runs 100 --warmup 10 --json $OUT/ma_unet.json > $OUT/ma_unet.txt 2>&1
tail -3 $OUT/ma_unet.txt
