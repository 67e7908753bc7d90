# Twenty-eighth session: A/B of the effect's own passes (the reprojection folded into the display
# passes, whole-sector feature stores, shift-and-mask tensor indexing) at 1080p -> 4K and
# 540p -> 1080p, with r26b's p3 (r2 w16 d3 f3) as the network; three alternating rounds of
# frame_bench builds of ebc9987 (old), 03d11a6 (stores: without the fold) and f52c448 (new).
# Then the held-out 2x plan with the new upscale_demo (TAAU and p3), to compare with r26b's
# scores from the old one (the fold changes fp32 rounding, not the method).
# Carry [".devcarry"] with frame_bench_{old,stores,new} and upscale_demo_new in .devcarry/bin.
[ -e .devcarry/big.txz ] && python3 -c "import tarfile; tarfile.open('.devcarry/big.txz').extractall('.devcarry')"
source .devcarry/env.sh
rm -rf /tmp/ap; cp -r assets /tmp/ap && cp tools/train/logs/r26b/out/upscaler_temporal_p3.onnx /tmp/ap/upscaler_temporal.onnx
for round in 1 2 3; do for v in old stores new; do for f in ml-temporal taau; do
  timeout 60 .devcarry/bin/frame_bench_$v --frames 200 --warmup 20 --assets /tmp/ap --filter $f | grep -E "$f" | sed "s/^/$v r$round /"
done; done; done
export JOB=ab OUT=$OUT DEMO=$PWD/.devcarry/bin/upscale_demo_new VKML_MODEL_DIR=$PWD/assets
mkdir -p $OUT/quality && cp tools/train/logs/r26b/out/upscaler_temporal_p3.onnx $OUT/
source tools/train/logs/heldout_job.sh
heldout p3 heldout_temporal.json temporal_p3_new.md 120
