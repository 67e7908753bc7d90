# The temporal ML pass at 1920x1080 -> 3840x2160 and 960x540 -> 1920x1080 (frame_bench) for the
# shapes of make_shapes.py, random weights, the accumulating resolve, two rounds alternating.
# Carry [".devcarry"] packed with: ../shared/device/pack.sh build/bench/frame_bench -- /tmp/shapes
source .devcarry/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
for round in 1 2; do
  for s in $(ls .devcarry/extra/shapes); do
    .devcarry/bin/frame_bench --assets .devcarry/extra/shapes/$s --filter "ml-temporal" --frames 100 --warmup 20 \
      --json $OUT/fb_${s}_$round.json > /tmp/fb_${s}_$round.txt 2>&1
    echo "$round $s $(grep 'upscale_ml-temporal' /tmp/fb_${s}_$round.txt | tr -s ' ' | tr '\n' ' ')"
  done
done | tee $OUT/summary.txt
cat /tmp/fb_*.txt > $OUT/fb_all.txt
