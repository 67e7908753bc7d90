# Prepared by the twenty-eighth session, not run yet: the temporal effects' steps timed one by one
# on the GPU machine (frame_bench --effect-steps, rows "<pass>/<step>"), with r26b's p3 as the
# network and the shipped r beside it, two rounds each; TAAU too. Carry [".devcarry"] with this
# checkout's frame_bench in .devcarry/bin.
source .devcarry/env.sh
rm -rf /tmp/ap /tmp/ar; cp -r assets /tmp/ap && cp -r assets /tmp/ar
cp tools/train/logs/r26b/out/upscaler_temporal_p3.onnx /tmp/ap/upscaler_temporal.onnx
for round in 1 2; do for dir in /tmp/ap /tmp/ar; do
  echo "== round $round, $dir"
  frame_bench --frames 200 --warmup 20 --assets $dir --filter ml-temporal --effect-steps | grep -E "upscale_"
done; frame_bench --frames 200 --warmup 20 --assets /tmp/ar --filter taau --effect-steps | grep -E "upscale_"; done
