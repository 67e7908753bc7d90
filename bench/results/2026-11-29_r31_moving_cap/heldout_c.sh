# Thirty-third session, a later command (a fresh machine): r31's c (moving cap 1.0) on the plans of
# heldout_a_r.sh (1.5x, 3x, still/slow, 1x, 1.25x), TAAU beside each -> quality/{x1.5,x3,static,x1,x1.25}_c.md.
# Carry [".devcarry"].
MODELS="c:tools/train/logs/r31/out/upscaler_temporal_c.onnx" LIMIT=150 bash "$(dirname "$0")/heldout_a_r.sh"
