# r27, first device command (carry [".devcarry"], with the held-out directory and the binaries of
# this checkout: r26_launch.sh gives the commands): starts r27_pipeline.sh as a background job and
# follows it for $1 seconds (../start_job.sh); then r27_wait.sh, issued AT ONCE and again as
# needed (the machine is taken back 30 s after a command ends: r26 lost its job so). Needs
# logs/r26b/out/upscaler_temporal_p3.npz (committed).
# The twenty-ninth session ran the effects' per-step timing first in the same command (the GPU is
# idle before the job starts): bench/results/2026-11-29_effect_passes/effect_steps_next.sh.
timeout 130 bash bench/results/2026-11-29_effect_passes/effect_steps_next.sh > $OUT/effect_steps.txt 2>&1
echo "effect steps: rc $?"; cat $OUT/effect_steps.txt
bash tools/train/logs/start_job.sh r27 "${1:-570}"
