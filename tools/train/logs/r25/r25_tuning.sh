# r25's network p with a measured tuning table (twenty-seventh session): its 16-channel layers are
# the small-channel shapes where the tiling heuristics fell short of measurement before (the
# denoiser, bench/RESULTS.md "Clock drift"). mlrun tunes p at the 4K pass's shape (1920x1080
# tensors, fp16), then frame_bench times the pass with the heuristics and with the table,
# alternating. Carry [".devcarry"] with mlrun in .devcarry/bin (cp build/demos/mlrun/mlrun .devcarry/bin/).
source .devcarry/env.sh
python3 -c "import numpy as np; np.save('/tmp/f.npy', np.random.default_rng(1).random((1, 64, 1080, 1920), dtype=np.float32).astype(np.float16))"
rm -rf /tmp/ap; cp -r assets /tmp/ap && cp tools/train/logs/r25/out/upscaler_temporal_p.onnx /tmp/ap/upscaler_temporal.onnx
echo "== mlrun, heuristics"; mlrun /tmp/ap/upscaler_temporal.onnx --input features=/tmp/f.npy --output-dir /tmp/o1 --precision fp16 --iterations 200 2>&1 | tail -n 2
echo "== mlrun --tuning"; time mlrun /tmp/ap/upscaler_temporal.onnx --input features=/tmp/f.npy --output-dir /tmp/o2 --precision fp16 --tuning $OUT/p_tuning.tsv 2>&1 | tail -n 3
echo "== mlrun, tuned table, fresh process"; mlrun /tmp/ap/upscaler_temporal.onnx --input features=/tmp/f.npy --output-dir /tmp/o3 --precision fp16 --tuning $OUT/p_tuning.tsv --iterations 200 2>&1 | tail -n 2
python3 -c "import numpy as np; a, b = np.load('/tmp/o1/params.npy'), np.load('/tmp/o3/params.npy'); print('heuristics vs tuned: max abs difference', float(np.abs(a - b).max()))"
for round in 1 2; do for t in "" "--tuning $OUT/p_tuning.tsv"; do
  echo "== frame_bench round $round ${t:-heuristics}"
  frame_bench --frames 200 --warmup 20 --assets /tmp/ap --filter ml-temporal $t 2>&1 | grep -E "upscale_ml-temporal|ml-temporal x2"
done; done
cat $OUT/p_tuning.tsv
