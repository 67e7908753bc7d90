# The shipped version against the build before it (62e403d, "old"), alternating, two rounds, with
# the cuDNN peer in the same command: ml_bench (networks), frame_bench (the 4K passes).
source .devcarry/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee $OUT/gpu.txt
T=.devcarry/bin
F='espcn_x2 1920x1080 fp16-arith$|srvgg_x2 960x540 fp16-arith$|upscaler_x2 1920x1080 fp16-arith$|denoiser 1920x1080 fp16-arith$|upscaler_temporal 1920x1080 fp16-arith$|unet 1920x1088 fp16-arith$|conv3x3 64->64 nhwc 1920x1080 fp16$|espcn_x3 1920x1080 fp16-arith$|srvgg_x2_c48n12 960x540 fp16-arith$|srvgg_x4_c32n16 960x540 fp16-arith$|unet_small 1920x1088 fp16-arith$|denoiser 960x540 fp16-arith$|upscaler_temporal 960x540 fp16-arith$'
for r in 1 2; do for v in old new; do
  $T/ml_bench_$v --group network,conv --filter "$F" --runs 100 --warmup 10 --assets assets 2>&1 | grep " ms " | sed "s/^/$v r$r /"
  $T/frame_bench_$v --filter "1920x1080 + ml" --frames 100 --warmup 20 --assets assets 2>&1 | grep -E "upscale_|ml_upscale\.network|ml_denoise\.network" | sed "s/^/$v r$r fb /"
done; done > $OUT/ab3.txt 2>&1
python3 bench/peer_torch.py --no-compile --configs fp16-cl+cudagraph --runs 100 --warmup 10 \
  --filter 'espcn_x2 1920x1080|srvgg_x2 960x540|upscaler_x2 1920x1080|denoiser 1920x1080|upscaler_temporal 1920x1080|unet 1920x1088' > $OUT/peer.txt 2>&1
sort -k3,6 $OUT/ab3.txt | cut -c1-100
tail -12 $OUT/peer.txt
