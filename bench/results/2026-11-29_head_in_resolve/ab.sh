# The resolve pass applying the model's 1x1 output layer (the network stops at its last hidden
# value): the temporal ML rows of frame_bench, with per-step timestamps, with the binaries of
# 7aac3e1 (.devcarry/bin_old: the network writes the 8 r^2 parameters) and of this checkout
# (.devcarry/bin), alternating, two rounds; and this checkout with r28's starting point q0 (the
# performance model grown by an identity 3x3 layer, depth 4) in the performance model's place.
# Run first in r28_launch.sh (the GPU is idle before the job starts). Carry [".devcarry"].
source .devcarry/env.sh
rm -rf /tmp/grow_assets && cp -r assets /tmp/grow_assets
cp tools/train/logs/r28/upscaler_temporal_q0.onnx /tmp/grow_assets/upscaler_temporal_fast.onnx
for round in 1 2; do
  for b in bin_old bin; do
    echo "== round $round, $b"
    .devcarry/$b/frame_bench --frames 200 --warmup 20 --filter ml-temporal --effect-steps | grep -E "upscale_|^device"
  done
  echo "== round $round, bin, q0 as the performance model"
  .devcarry/bin/frame_bench --frames 200 --warmup 20 --assets /tmp/grow_assets --filter ml-temporal-fast --effect-steps | grep -E "upscale_"
done
