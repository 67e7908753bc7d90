# r17 after the choice: the held-out static plan and 8 of the held-out plan's 10 sequences (the two
# public models are not on this machine), w2 and a2, rendered and scored on lavapipe here.
# Run in a directory holding gen*/ (make_scenes.py, as in tools/train/README.md), heldout_paths/,
# heldout_static.json and heldout_temporal.json; a2's ONNX from export_temporal.py --weights
# tools/train/logs/r17/upscaler_temporal_a2.npz --out /tmp/r17/upscaler_temporal_a2.onnx (its check passed:
# 0.25-0.28 of an 8-bit level at every ratio).
M=/work/main; D=$M/build/demos/upscale_demo/upscale_demo
/usr/bin/python3 -u $M/tools/train/evaluate_temporal.py heldout_static.json --work work --methods bicubic,taau,ml-temporal --crops 0 --report /tmp/r17/evs/static_w2.md --demo $D --jobs 2 --score-on cpu
/usr/bin/python3 -u $M/tools/train/evaluate_temporal.py heldout_static.json --work work --methods bicubic,taau,ml-temporal --crops 0 --report /tmp/r17/evs/static_a2.md --demo $D --jobs 2 --score-on cpu --temporal-model /tmp/r17/upscaler_temporal_a2.onnx
seqs=room_s7_inside,room_s7_closeup_cut,street_s8_facades_cut,street_s8_fastpan,poles_s8_walk,objects_s9_circle,procedural_text_dolly,procedural_spheres_pan
/usr/bin/python3 -u $M/tools/train/evaluate_temporal.py heldout_temporal.json --work work_moving --methods bicubic,taau,ml-temporal --crops 0 --sequences $seqs --report /tmp/r17/evs/moving_w2.md --demo $D --jobs 2 --score-on cpu
/usr/bin/python3 -u $M/tools/train/evaluate_temporal.py heldout_temporal.json --work work_moving --methods bicubic,taau,ml-temporal --crops 0 --sequences $seqs --report /tmp/r17/evs/moving_a2.md --demo $D --jobs 2 --score-on cpu --temporal-model /tmp/r17/upscaler_temporal_a2.onnx
