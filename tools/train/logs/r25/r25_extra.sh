# r25's last two device commands (twenty-seventh session), run as given here on the machine that ran
# r25_finish.sh. Carry [".devcarry"].
# 1. p on the held-out still/slow plan:
source tools/train/logs/r25/r25_common.sh; export JOB=r25 VKML_MODEL_DIR=$PWD/assets; mkdir -p $OUT/quality
cp tools/train/logs/r25/out/upscaler_temporal_p.onnx $OUT/; source tools/train/logs/heldout_job.sh
heldout p heldout_static.json temporal_static_p.md 150; rm $OUT/upscaler_temporal_p.onnx
# 2. p's 4K pass against r's, two alternating rounds (a second command):
source .devcarry/env.sh; cp -r assets /tmp/ap && cp tools/train/logs/r25/out/upscaler_temporal_p.onnx /tmp/ap/upscaler_temporal.onnx
for round in 1 2; do for d in assets /tmp/ap; do echo "== $d round $round"
  frame_bench --frames 200 --warmup 20 --assets $d --filter ml-temporal 2>&1 | grep -i -E "temporal|ms" | head -8; done; done
