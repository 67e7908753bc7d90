# Twenty-eighth session, second A/B: ebc9987 (old) against 5af26b2 (new2: the reprojection folded
# into the display passes and shift-and-mask tensor indexing, the shared-memory store order of
# 03d11a6 reverted) and f52c448 (new: with it), with r26b's p3 as the network, three alternating
# rounds. Carry [".devcarry"] with frame_bench_{old,new,new2} in .devcarry/big.txz.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source .devcarry/env.sh
rm -rf /tmp/ap; cp -r assets /tmp/ap && cp tools/train/logs/r26b/out/upscaler_temporal_p3.onnx /tmp/ap/upscaler_temporal.onnx
for round in 1 2 3; do for v in old new2 new; do for f in ml-temporal taau; do
  timeout 60 .devcarry/bin/frame_bench_$v --frames 200 --warmup 20 --assets /tmp/ap --filter $f | grep -E "upscale_" | sed "s/^/$v r$round $f /"
done; done; done
