# The temporal ML pass at 1920x1080 -> 3840x2160 (frame_bench) and its network alone (ml_bench
# --profile) for the candidate shapes of make_shapes.py, random weights, on the GPU machine.
# Carry [".devcarry"] packed with: pack.sh build/bench/frame_bench build/bench/ml_bench -- /tmp/shapes
source .devcarry/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
for s in $(ls .devcarry/extra/shapes); do
  .devcarry/bin/frame_bench --assets .devcarry/extra/shapes/$s --filter "1920x1080 + ml-temporal" --frames 100 --warmup 20 \
    --json $OUT/fb_$s.json > /tmp/fb_$s.txt 2>&1
  echo "$s $(grep -m1 'upscale_ml-temporal' /tmp/fb_$s.txt)"
done | tee $OUT/summary.txt
for s in r2w32d3f3 r2w32d2f1 r4w48d3f1 r4w64d3f1; do
  echo "== $s"; .devcarry/bin/ml_bench --assets .devcarry/extra/shapes/$s --group network --filter "upscaler_temporal 1920x1080" --profile --runs 50 2>&1 | grep -v "^\s*$" | tail -14
done > $OUT/profiles.txt 2>&1
cat /tmp/fb_*.txt > $OUT/fb_all.txt
tail -c 6000 $OUT/profiles.txt
