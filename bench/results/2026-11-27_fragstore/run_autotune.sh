# ESPCN x2 and the shipped denoiser at 1920x1080 next to torch.compile max-autotune, one network per
# peer process, ours before and after.
source .devcarry/env.sh
F='espcn_x2 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$'
.devcarry/bin/ml_bench --group network --filter "$F" --runs 200 --warmup 20 --assets assets 2>&1 | grep " ms " | tee $OUT/ours_before.txt
for n in 'denoiser 1920x1080' 'espcn_x2 1920x1080'; do
  timeout 240 python3 bench/peer_torch.py --configs fp16-cl+max-autotune --filter "$n" --runs 100 --warmup 10 2>&1 | tail -3
done | tee $OUT/autotune.txt
.devcarry/bin/ml_bench --group network --filter "$F" --runs 200 --warmup 20 --assets assets 2>&1 | grep " ms " | tee $OUT/ours_after.txt
