# Thirty-third session, on lavapipe here (no GPU): temporal ML alone with r31's c and a and the
# shipped quality model r on the eight third-party scenes (tools/train/fetch_heldout.md; not
# committed), with mlv.sh: each sequence's supersampled reference is shared from an earlier
# evaluate_temporal.py run of the same plan (/tmp/ho/third, the thirty-second session's TAAU
# re-render, whose TAAU and bicubic rows are docs/quality/temporal_thirdparty.md's).
for m in c:/work/main/tools/train/logs/r31/out/upscaler_temporal_c.onnx a:/work/main/tools/train/logs/r31/out/upscaler_temporal_a.onnx r:/work/main/assets/upscaler_temporal.onnx; do
  bash /tmp/mlv.sh tp_${m%%:*} /work/main/build/demos/upscale_demo/upscale_demo /work/heldout/heldout_thirdparty.json /tmp/ho/third ${m#*:}
done
