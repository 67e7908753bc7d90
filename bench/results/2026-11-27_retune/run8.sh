# The session's final build with the peers in one command: the temporal network, the shipped
# single-frame x2 upscaler and ESPCN x2 at 1920x1080 (ml_bench) and the 4K passes (frame_bench),
# then cuDNN (fp16 channels-last + CUDA graph) and torch.compile max-autotune on the same
# networks, then ours again.
cd .devcarry && tar xzf payload.tgz && cd ..
source .devcarry/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee $OUT/gpu.txt
T=.devcarry/bin
F='upscaler_temporal 1920x1080 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|espcn_x2 1920x1080 fp16-arith$'
$T/ml_bench --group network --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | tee $OUT/ours.txt
$T/frame_bench --filter "1920x1080 + ml" --frames 100 --warmup 20 --assets assets 2>&1 | grep -E "upscale_|ml_upscale\." | tee $OUT/frame_bench.txt
timeout 120 python3 bench/peer_torch.py --no-compile --configs fp16-cl+cudagraph --runs 100 --warmup 10 --filter 'upscaler_temporal 1920x1080|upscaler_x2 1920x1080|espcn_x2 1920x1080' > $OUT/peer.txt 2>&1
tail -6 $OUT/peer.txt
for net in 'upscaler_temporal 1920x1080' 'upscaler_x2 1920x1080' 'espcn_x2 1920x1080'; do
  timeout 150 python3 bench/peer_torch.py --configs fp16-cl+max-autotune --filter "$net" --runs 100 --warmup 10 >> $OUT/autotune.txt 2>&1
done
grep -iE "ms|error" $OUT/autotune.txt | tail -8
$T/ml_bench --group network --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | tee $OUT/ours_after.txt
