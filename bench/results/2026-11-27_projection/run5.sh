# The shipped build (v2c) with the cuDNN peer and torch.compile max-autotune in the same command:
# the temporal network at 1920x1080 and 960x540 (ml_bench), the temporal ML passes (frame_bench).
source .devcarry/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee $OUT/gpu.txt
T=.devcarry/bin
F='upscaler_temporal 1920x1080 fp16-arith$|upscaler_temporal 960x540 fp16-arith$'
$T/ml_bench --group network --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | tee $OUT/ours.txt
$T/frame_bench --filter "ml-temporal" --frames 100 --warmup 20 --assets assets 2>&1 | grep -E "upscale_" | tee $OUT/frame_bench.txt
python3 bench/peer_torch.py --no-compile --configs fp16-cl+cudagraph --runs 100 --warmup 10 --filter 'upscaler_temporal' > $OUT/peer.txt 2>&1
tail -4 $OUT/peer.txt
timeout 240 python3 bench/peer_torch.py --configs fp16-cl+max-autotune --filter 'upscaler_temporal 1920x1080' --runs 100 --warmup 10 > $OUT/autotune.txt 2>&1
tail -3 $OUT/autotune.txt
$T/ml_bench --group network --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | tee $OUT/ours_after.txt
